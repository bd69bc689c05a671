#include "circuits/stacked.hpp"

namespace cuzk::circuits {

namespace {

// Checks what the witness must hold for `shape`; names the first problem.
void check_witness(const StackedShape& shape, const StackedWitness& w) {
  auto fail = [](const std::string& what) {
    throw Error(ErrorCode::kInvalidArgument, "PoRep witness: " + what);
  };
  if (w.challenges.size() != shape.challenges)
    fail(std::to_string(w.challenges.size()) + " challenges; the " + shape.name + " circuit takes " +
         std::to_string(shape.challenges));
  for (size_t i = 0; i < w.challenges.size(); i++) {
    const ChallengeWitness& c = w.challenges[i];
    const std::string at = "challenge " + std::to_string(i) + ": ";
    if (c.challenge >= shape.nodes)
      fail(at + "node " + std::to_string(c.challenge) + " is outside the sector's " +
           std::to_string(shape.nodes));
    if (c.drg_parents.size() != kDrgParents || c.exp_parents.size() != kExpParents)
      fail(at + std::to_string(c.drg_parents.size()) + " DRG and " + std::to_string(c.exp_parents.size()) +
           " expander parents (6 and 8 expected)");
    for (const auto* cols : {&c.drg_parents, &c.exp_parents})
      for (const ColumnOpening& col : *cols)
        if (col.rows.size() != shape.layers)
          fail(at + "a parent column has " + std::to_string(col.rows.size()) + " rows; " +
               std::to_string(shape.layers) + " layers expected");
  }
}

template <class CS>
std::vector<AllocatedNum> alloc_column(CS& cs, const ColumnOpening* col, uint32_t layers) {
  std::vector<AllocatedNum> rows;
  rows.reserve(layers);
  for (uint32_t l = 0; l < layers; l++) rows.push_back(AllocatedNum::alloc(cs, [&] { return col->rows[l]; }));
  return rows;
}

template <class CS>
AllocatedNum column_hash(CS& cs, const std::vector<AllocatedNum>& rows) {
  return poseidon_hash(cs, std::span<const AllocatedNum>(rows), poseidon_constants((int)rows.size()));
}

template <class CS>
std::span<const PathLevel> path_of(const std::vector<PathLevel>* p) {
  if constexpr (CS::kValues)
    return *p;
  else
    return {};
}

// params.rs `Proof::synthesize` for one challenge.
template <class CS>
void synthesize_challenge(CS& cs, const StackedShape& shape, const ChallengeWitness* w,
                          const AllocatedNum& comm_d, const AllocatedNum& comm_c,
                          const AllocatedNum& comm_r_last, const std::vector<Boolean>& replica_id_bits) {
  const uint32_t layers = shape.layers;
  // a. The data leaf in tree D.
  AllocatedNum data_leaf = AllocatedNum::alloc(cs, [&] { return w->data_leaf; });
  enforce_inclusion<Sha256Hasher>(cs, shape.tree_d, path_of<CS>(w ? &w->comm_d_path : nullptr), data_leaf,
                                  comm_d);
  // b, c. Parent columns: rows, column hash, inclusion in tree C.
  std::vector<std::vector<AllocatedNum>> drg, exp;
  for (size_t k = 0; k < kDrgParents + kExpParents; k++) {
    const bool is_drg = k < kDrgParents;
    const ColumnOpening* col = w ? &(is_drg ? w->drg_parents[k] : w->exp_parents[k - kDrgParents]) : nullptr;
    std::vector<AllocatedNum> rows = alloc_column(cs, col, layers);
    AllocatedNum h = column_hash(cs, rows);
    enforce_inclusion<PoseidonHasher>(cs, shape.tree_rc, path_of<CS>(col ? &col->path : nullptr), h, comm_c);
    (is_drg ? drg : exp).push_back(std::move(rows));
  }
  // d. The challenge as 64 bits and a public input.
  UInt64 challenge = UInt64::alloc(cs, w ? w->challenge : 0);
  challenge.pack_into_input(cs);
  // e. The labels of every layer; parents' bits are decomposed again for every layer.
  std::vector<AllocatedNum> labels;
  std::vector<std::vector<Boolean>> parents, expanded;
  for (uint32_t layer = 1; layer <= layers; layer++) {
    parents.clear();
    for (const auto& col : drg) parents.push_back(reverse_bit_numbering(to_bits_le(cs, col[layer - 1])));
    if (layer > 1)
      for (const auto& col : exp) parents.push_back(reverse_bit_numbering(to_bits_le(cs, col[layer - 2])));
    expanded.clear();
    if (layer > 1) {
      for (int rep = 0; rep < 2; rep++) expanded.insert(expanded.end(), parents.begin(), parents.end());
      expanded.insert(expanded.end(), parents.begin(), parents.begin() + 9);
    } else {
      for (int rep = 0; rep < 6; rep++) expanded.insert(expanded.end(), parents.begin(), parents.end());
      expanded.push_back(parents[0]);
    }
    labels.push_back(create_label(cs, std::span<const Boolean>(replica_id_bits), expanded, layer, challenge));
  }
  // f. The encoding (last label + data leaf) in tree R.
  AllocatedNum encoded = add(cs, labels.back(), data_leaf);
  enforce_inclusion<PoseidonHasher>(cs, shape.tree_rc, path_of<CS>(w ? &w->comm_r_last_path : nullptr),
                                    encoded, comm_r_last);
  // g. The challenged column (its labels) in tree C.
  AllocatedNum c_x = column_hash(cs, labels);
  enforce_inclusion<PoseidonHasher>(cs, shape.tree_rc, path_of<CS>(w ? &w->comm_c_path : nullptr), c_x,
                                    comm_c);
}

}  // namespace

template <class CS>
void synthesize_stacked(CS& cs, const StackedShape& shape, const StackedWitness* w) {
  if constexpr (CS::kValues) {
    if (!w) throw Error(ErrorCode::kInvalidArgument, "PoRep witness: none given to a witness synthesis");
    check_witness(shape, *w);
  } else {
    w = nullptr;
  }
  const Fr zero = Fr::zero();
  AllocatedNum replica_id = AllocatedNum::alloc(cs, w ? w->replica_id : zero);
  inputize(cs, replica_id);
  const std::vector<Boolean> replica_id_bits = reverse_bit_numbering(to_bits_le(cs, replica_id));
  AllocatedNum comm_d = AllocatedNum::alloc(cs, w ? w->comm_d : zero);
  inputize(cs, comm_d);
  AllocatedNum comm_r = AllocatedNum::alloc(cs, w ? w->comm_r : zero);
  inputize(cs, comm_r);
  AllocatedNum comm_r_last = AllocatedNum::alloc(cs, w ? w->comm_r_last : zero);
  AllocatedNum comm_c = AllocatedNum::alloc(cs, w ? w->comm_c : zero);
  const AllocatedNum pre[2] = {comm_c, comm_r_last};
  AllocatedNum h = poseidon_hash(cs, std::span<const AllocatedNum>(pre), poseidon_constants(2));
  enforce_equal(cs, comm_r, h);
  for (uint32_t i = 0; i < shape.challenges; i++)
    synthesize_challenge(cs, shape, w ? &w->challenges[i] : nullptr, comm_d, comm_c, comm_r_last,
                         replica_id_bits);
}

template void synthesize_stacked(CountCs&, const StackedShape&, const StackedWitness*);
template void synthesize_stacked(RecordCs&, const StackedShape&, const StackedWitness*);
template void synthesize_stacked(WitnessCs&, const StackedShape&, const StackedWitness*);
template void synthesize_stacked(TestCs&, const StackedShape&, const StackedWitness*);

}  // namespace cuzk::circuits
