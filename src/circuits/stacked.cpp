#include "circuits/stacked.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <exception>

#include "util/thread_pool.hpp"

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

// What one challenge's phases pass on to the next (params.rs `Proof::synthesize` split in three:
// A = data leaf, parent columns, challenge; L = the labels, one per layer; C = encoding and c_x).
struct ChallengeState {
  AllocatedNum data_leaf;
  std::vector<std::vector<AllocatedNum>> drg, exp;  // the parents' column rows
  UInt64 challenge;
  std::vector<AllocatedNum> labels;  // one per layer, filled by the label phase
};

// The circuit's top-level handles shared by every challenge.
struct TopState {
  AllocatedNum comm_d, comm_c, comm_r_last;
  std::vector<Boolean> replica_id_bits;
};

// Whether an inclusion's computed root is the root it must equal (value modes; true in the blank ones).
template <class CS>
bool leads_to(const AllocatedNum& computed, const AllocatedNum& root) {
  if constexpr (CS::kValues)
    return computed.value == root.value;
  else
    return true;
}

// The phases below that open a tree return leads_to of their inclusion.
// Phase A, block by block. a. The data leaf and its inclusion in tree D.
template <class CS>
bool phase_a_tree_d(CS& cs, const StackedShape& shape, const ChallengeWitness* w, const TopState& top,
                    ChallengeState& st) {
  st.data_leaf = AllocatedNum::alloc(cs, [&] { return w->data_leaf; });
  return leads_to<CS>(
      enforce_inclusion<Sha256Hasher>(cs, shape.tree_d, path_of<CS>(w ? &w->comm_d_path : nullptr),
                                      st.data_leaf, top.comm_d),
      top.comm_d);
}

// b, c. Parent k's column (the 6 DRG parents, then the 8 expander parents): rows, column hash,
// inclusion in tree C. st.drg and st.exp must hold 6 and 8 entries.
template <class CS>
bool phase_a_column(CS& cs, const StackedShape& shape, const ChallengeWitness* w, const TopState& top,
                    ChallengeState& st, size_t k) {
  const bool is_drg = k < kDrgParents;
  const ColumnOpening* col = w ? &(is_drg ? w->drg_parents[k] : w->exp_parents[k - kDrgParents]) : nullptr;
  std::vector<AllocatedNum> rows = alloc_column(cs, col, shape.layers);
  AllocatedNum h = column_hash(cs, rows);
  const AllocatedNum root = enforce_inclusion<PoseidonHasher>(
      cs, shape.tree_rc, path_of<CS>(col ? &col->path : nullptr), h, top.comm_c);
  (is_drg ? st.drg[k] : st.exp[k - kDrgParents]) = std::move(rows);
  return leads_to<CS>(root, top.comm_c);
}

// d. The challenge as 64 bits and a public input.
template <class CS>
void phase_a_challenge(CS& cs, const ChallengeWitness* w, ChallengeState& st) {
  st.challenge = UInt64::alloc(cs, w ? w->challenge : 0);
  st.challenge.pack_into_input(cs);
}

// Phase A: a, then b and c for the 14 parents, then d.
template <class CS>
void challenge_phase_a(CS& cs, const StackedShape& shape, const ChallengeWitness* w, const TopState& top,
                       ChallengeState& st) {
  phase_a_tree_d(cs, shape, w, top, st);
  st.drg.assign(kDrgParents, {});
  st.exp.assign(kExpParents, {});
  for (size_t k = 0; k < kDrgParents + kExpParents; k++) phase_a_column(cs, shape, w, top, st, k);
  phase_a_challenge(cs, w, st);
}

// e. The label of one layer; the parents' bits are decomposed again for every layer, as upstream does.
template <class CS>
AllocatedNum challenge_label(CS& cs, uint32_t layer, const TopState& top, const ChallengeState& st) {
  std::vector<std::vector<Boolean>> parents, expanded;
  for (const auto& col : st.drg) parents.push_back(reverse_bit_numbering(to_bits_le(cs, col[layer - 1])));
  if (layer > 1)
    for (const auto& col : st.exp) parents.push_back(reverse_bit_numbering(to_bits_le(cs, col[layer - 2])));
  if (layer > 1) {
    for (int rep = 0; rep < 2; rep++) expanded.insert(expanded.end(), parents.begin(), parents.end());
    expanded.insert(expanded.end(), parents.begin(), parents.begin() + 9);
  } else {
    for (int rep = 0; rep < 6; rep++) expanded.insert(expanded.end(), parents.begin(), parents.end());
    expanded.push_back(parents[0]);
  }
  return create_label(cs, std::span<const Boolean>(top.replica_id_bits), expanded, layer, st.challenge);
}

// Phase C, block by block. f. The encoding (last label + data leaf) in tree R.
template <class CS>
bool phase_c_encoding(CS& cs, const StackedShape& shape, const ChallengeWitness* w, const TopState& top,
                      const ChallengeState& st) {
  AllocatedNum encoded = add(cs, st.labels.back(), st.data_leaf);
  return leads_to<CS>(
      enforce_inclusion<PoseidonHasher>(cs, shape.tree_rc, path_of<CS>(w ? &w->comm_r_last_path : nullptr),
                                        encoded, top.comm_r_last),
      top.comm_r_last);
}

// g. The challenged column (the labels) in tree C.
template <class CS>
bool phase_c_column(CS& cs, const StackedShape& shape, const ChallengeWitness* w, const TopState& top,
                    const ChallengeState& st) {
  AllocatedNum c_x = column_hash(cs, st.labels);
  return leads_to<CS>(enforce_inclusion<PoseidonHasher>(
                          cs, shape.tree_rc, path_of<CS>(w ? &w->comm_c_path : nullptr), c_x, top.comm_c),
                      top.comm_c);
}

// Phase C: f, then g.
template <class CS>
void challenge_phase_c(CS& cs, const StackedShape& shape, const ChallengeWitness* w, const TopState& top,
                       const ChallengeState& st) {
  phase_c_encoding(cs, shape, w, top, st);
  phase_c_column(cs, shape, w, top, st);
}

// The top level before the challenges: replica_id, comm_d, comm_r (inputs), comm_r_last, comm_c and
// comm_r = Poseidon2(comm_c, comm_r_last) (proof.rs `StackedCircuit::synthesize`).
template <class CS>
TopState synthesize_top(CS& cs, const StackedWitness* w) {
  const Fr zero = Fr::zero();
  TopState top;
  AllocatedNum replica_id = AllocatedNum::alloc(cs, w ? w->replica_id : zero);
  inputize(cs, replica_id);
  top.replica_id_bits = reverse_bit_numbering(to_bits_le(cs, replica_id));
  top.comm_d = AllocatedNum::alloc(cs, w ? w->comm_d : zero);
  inputize(cs, top.comm_d);
  AllocatedNum comm_r = AllocatedNum::alloc(cs, w ? w->comm_r : zero);
  inputize(cs, comm_r);
  top.comm_r_last = AllocatedNum::alloc(cs, w ? w->comm_r_last : zero);
  top.comm_c = AllocatedNum::alloc(cs, w ? w->comm_c : zero);
  const AllocatedNum pre[2] = {top.comm_c, top.comm_r_last};
  AllocatedNum h = poseidon_hash(cs, std::span<const AllocatedNum>(pre), poseidon_constants(2));
  enforce_equal(cs, comm_r, h);
  return top;
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
  const TopState top = synthesize_top(cs, w);
  ChallengeState st;
  for (uint32_t i = 0; i < shape.challenges; i++) {
    const ChallengeWitness* cw = w ? &w->challenges[i] : nullptr;
    challenge_phase_a(cs, shape, cw, top, st);
    st.labels.clear();
    for (uint32_t layer = 1; layer <= shape.layers; layer++)
      st.labels.push_back(challenge_label(cs, layer, top, st));
    challenge_phase_c(cs, shape, cw, top, st);
  }
}

StackedLayout stacked_layout(const StackedShape& shape) {
  // Every challenge has the same structure: count its blocks once, in upstream's order.
  CountCs cs;
  const TopState top = synthesize_top(cs, nullptr);
  StackedLayout l;
  l.top_aux = cs.num_aux();
  l.top_inputs = cs.num_inputs();
  // Runs one block in count mode and stores its numbers of aux and inputs.
  auto count = [&](uint32_t& aux, uint32_t& inputs, auto&& block) {
    const uint32_t aux0 = cs.num_aux(), in0 = cs.num_inputs();
    block();
    aux = cs.num_aux() - aux0;
    inputs = cs.num_inputs() - in0;
  };
  ChallengeState st;
  count(l.tree_d_aux, l.tree_d_inputs, [&] { phase_a_tree_d(cs, shape, nullptr, top, st); });
  st.drg.assign(kDrgParents, {});
  st.exp.assign(kExpParents, {});
  for (size_t k = 0; k < kDrgParents + kExpParents; k++) {
    uint32_t aux = 0, inputs = 0;
    count(aux, inputs, [&] { phase_a_column(cs, shape, nullptr, top, st, k); });
    if (k == 0) {
      l.column_aux = aux;
      l.column_inputs = inputs;
    } else if (aux != l.column_aux || inputs != l.column_inputs) {
      throw Error(ErrorCode::kInternal, shape.name + ": parent columns of different sizes");
    }
  }
  count(l.challenge_bits_aux, l.challenge_bits_inputs, [&] { phase_a_challenge(cs, nullptr, st); });
  l.phase_a_aux = l.tree_d_aux + (kDrgParents + kExpParents) * l.column_aux + l.challenge_bits_aux;
  l.phase_a_inputs =
      l.tree_d_inputs + (kDrgParents + kExpParents) * l.column_inputs + l.challenge_bits_inputs;
  for (uint32_t layer = 1; layer <= std::min<uint32_t>(shape.layers, 2); layer++) {
    uint32_t inputs = 0;
    count(layer == 1 ? l.label1_aux : l.label_aux, inputs,
          [&] { st.labels.push_back(challenge_label(cs, layer, top, st)); });
    if (inputs) throw Error(ErrorCode::kInternal, shape.name + ": a label allocates public inputs");
  }
  while (st.labels.size() < shape.layers) st.labels.push_back(st.labels.back());
  count(l.encoding_aux, l.encoding_inputs, [&] { phase_c_encoding(cs, shape, nullptr, top, st); });
  count(l.c_x_aux, l.c_x_inputs, [&] { phase_c_column(cs, shape, nullptr, top, st); });
  l.phase_c_aux = l.encoding_aux + l.c_x_aux;
  l.phase_c_inputs = l.encoding_inputs + l.c_x_inputs;
  l.challenge_aux = l.phase_a_aux + l.label1_aux + (shape.layers - 1) * l.label_aux + l.phase_c_aux;
  l.challenge_inputs = l.phase_a_inputs + l.phase_c_inputs;
  l.n_aux = l.top_aux + shape.challenges * l.challenge_aux;
  l.n_inputs = l.top_inputs + shape.challenges * l.challenge_inputs;
  return l;
}

namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// A std::vector<Fr> of n zeros. Value-initializing fresh memory on one thread pays every page fault
// there (the kernel zeroes each page, then the fill writes it again); the storage is reserved first
// and faulted in on the pool (MADV_POPULATE_WRITE, Linux 5.14; without it the fill faults as before),
// so that the fill runs at memory speed on resident pages.
std::vector<Fr> zeroed_vector(size_t n, ThreadPool& pool) {
  std::vector<Fr> v;
  v.reserve(n);
  v.resize(1);  // data() is now the storage's start, where the n elements will lie
#if defined(__linux__) && defined(MADV_POPULATE_WRITE)
  constexpr uintptr_t kPage = 4096, kChunk = uintptr_t{64} << 20;
  const uintptr_t start = reinterpret_cast<uintptr_t>(v.data());  // addresses only: no object is touched
  const uintptr_t begin = (start + kPage - 1) & ~(kPage - 1), end = (start + n * sizeof(Fr)) & ~(kPage - 1);
  if (end > begin + kChunk) {
    std::atomic<bool> unsupported{false};
    pool.parallel_for(
        (end - begin + kChunk - 1) / kChunk,
        [&](size_t b, size_t e) {
          for (size_t c = b; c < e && !unsupported.load(std::memory_order_relaxed); c++) {
            const uintptr_t p = begin + c * kChunk;
            if (madvise(reinterpret_cast<void*>(p), std::min(kChunk, end - p), MADV_POPULATE_WRITE) != 0)
              unsupported = true;  // an older kernel (EINVAL) or no memory: the fill faults instead
          }
        },
        1);
  }
#else
  (void)pool;
#endif
  v.resize(n);
  return v;
}

}  // namespace

void stacked_witness_into(const StackedShape& shape, const StackedWitness& w, const StackedLayout& l,
                          ThreadPool& pool, std::span<Fr> out, StackedWitnessTimes* times,
                          std::string* bad_opening) {
  if (out.size() != size_t{l.n_inputs} + l.n_aux)
    throw Error(ErrorCode::kInvalidArgument, "PoRep witness: " + std::to_string(out.size()) +
                                                 " values of storage for the circuit's " +
                                                 std::to_string(size_t{l.n_inputs} + l.n_aux));
  stacked_witness_into(shape, w, l, pool, out.first(l.n_inputs), out.subspan(l.n_inputs, l.n_aux), times,
                       bad_opening);
}

void stacked_witness_into(const StackedShape& shape, const StackedWitness& w, const StackedLayout& l,
                          ThreadPool& pool, std::span<Fr> inputs, std::span<Fr> aux,
                          StackedWitnessTimes* times, std::string* bad_opening) {
  check_witness(shape, w);
  if (inputs.size() != l.n_inputs || aux.size() != l.n_aux)
    throw Error(ErrorCode::kInvalidArgument,
                "PoRep witness: storage for " + std::to_string(inputs.size()) + " inputs and " +
                    std::to_string(aux.size()) + " aux values; the circuit has " +
                    std::to_string(l.n_inputs) + " and " + std::to_string(l.n_aux));
  // Runs one block into its slice, aux [a0, a0 + na) and inputs [i0, i0 + ni), and checks that it
  // filled both exactly: the blocks tile the whole witness, so every value is written once.
  auto run_block = [&](uint32_t a0, uint32_t na, uint32_t i0, uint32_t ni, auto&& block) {
    WitnessCs cs = WitnessCs::slice(aux.subspan(a0, na), a0, inputs.subspan(i0, ni), i0);
    block(cs);
    if (cs.num_aux() != a0 + na || cs.num_inputs() != i0 + ni)
      throw Error(ErrorCode::kInternal, "PoRep witness: a block filled " + std::to_string(cs.num_aux() - a0) +
                                            " of its " + std::to_string(na) + " aux values and " +
                                            std::to_string(cs.num_inputs() - i0) + " of its " +
                                            std::to_string(ni) + " inputs");
  };
  if (times) {
    const double alloc = times->alloc;
    *times = StackedWitnessTimes();
    times->alloc = alloc;
  }
  auto t0 = std::chrono::steady_clock::now();
  inputs[0] = Fr::one();
  // The top level, sequentially.
  TopState top;
  run_block(0, l.top_aux, 1, l.top_inputs - 1, [&](WitnessCs& cs) { top = synthesize_top(cs, &w); });
  if (times) times->top = seconds_since(t0);
  // Where challenge i's blocks start.
  auto aux_at = [&](uint32_t i) { return l.top_aux + i * l.challenge_aux; };
  auto in_at = [&](uint32_t i) { return l.top_inputs + i * l.challenge_inputs; };
  auto label_at = [&](uint32_t i, uint32_t layer) {
    return aux_at(i) + l.phase_a_aux + (layer == 1 ? 0 : l.label1_aux + (layer - 2) * l.label_aux);
  };
  constexpr uint32_t kParents = kDrgParents + kExpParents;
  // Whether each opening of each challenge leads to its root: tree D's, the 14 parent columns', tree R's
  // and the challenged column's (each block writes its own entry).
  constexpr uint32_t kTreeD = 0, kColumn0 = 1, kEncoding = kColumn0 + kParents, kCx = kEncoding + 1;
  std::vector<std::array<uint8_t, kCx + 1>> leads(shape.challenges);
  for (auto& c : leads) c.fill(1);
  std::vector<ChallengeState> st(shape.challenges);
  for (ChallengeState& s : st) {
    s.drg.resize(kDrgParents);
    s.exp.resize(kExpParents);
    s.labels.resize(shape.layers);
  }
  // Runs n independent blocks on the pool, block t as run(t) of kind kind(t); errors are kept per block
  // and the first in block order is rethrown once all have run (the same error whatever the schedule).
  auto round = [&](size_t n, double* wall, auto&& kind, auto&& run) {
    const auto r0 = std::chrono::steady_clock::now();
    std::vector<std::exception_ptr> errors(n);
    std::vector<double> took(times ? n : 0);
    pool.parallel_for(
        n,
        [&](size_t b, size_t e) {
          for (size_t t = b; t < e; t++) {
            const auto b0 = std::chrono::steady_clock::now();
            try {
              run(t);
            } catch (...) {
              errors[t] = std::current_exception();
            }
            if (times) took[t] = seconds_since(b0);
          }
        },
        1);
    for (auto& e : errors)
      if (e) std::rethrow_exception(e);
    if (!times) return;
    *wall = seconds_since(r0);
    for (size_t t = 0; t < n; t++) {
      StackedWitnessTimes::Blocks& k = kind(t);
      k.total += took[t];
      k.max = std::max(k.max, took[t]);
      k.count++;
    }
  };
  StackedWitnessTimes none;
  StackedWitnessTimes& tm = times ? *times : none;
  // Round 1: the parent columns and the challenge bits of every challenge (what the labels read).
  round(
      size_t{shape.challenges} * (kParents + 1), &tm.columns,
      [&](size_t t) -> StackedWitnessTimes::Blocks& {
        return t % (kParents + 1) < kParents ? tm.column : tm.challenge_bits;
      },
      [&](size_t t) {
        const uint32_t i = (uint32_t)(t / (kParents + 1)), k = (uint32_t)(t % (kParents + 1));
        const ChallengeWitness* cw = &w.challenges[i];
        const uint32_t a0 = aux_at(i) + l.tree_d_aux + k * l.column_aux;
        const uint32_t i0 = in_at(i) + l.tree_d_inputs + k * l.column_inputs;
        if (k < kParents)
          run_block(a0, l.column_aux, i0, l.column_inputs, [&](WitnessCs& cs) {
            leads[i][kColumn0 + k] = phase_a_column(cs, shape, cw, top, st[i], k);
          });
        else
          run_block(a0, l.challenge_bits_aux, i0, l.challenge_bits_inputs,
                    [&](WitnessCs& cs) { phase_a_challenge(cs, cw, st[i]); });
      });
  // Round 2: the tree-D inclusions (the longest blocks, so first) and every challenge × layer label,
  // the bulk of the work.
  const size_t n_labels = size_t{shape.challenges} * shape.layers;
  round(
      shape.challenges + n_labels, &tm.labels,
      [&](size_t t) -> StackedWitnessTimes::Blocks& {
        return t < shape.challenges                         ? tm.tree_d
               : (t - shape.challenges) % shape.layers == 0 ? tm.label1
                                                            : tm.label;
      },
      [&](size_t t) {
        if (t < shape.challenges) {
          const uint32_t i = (uint32_t)t;
          run_block(aux_at(i), l.tree_d_aux, in_at(i), l.tree_d_inputs, [&](WitnessCs& cs) {
            leads[i][kTreeD] = phase_a_tree_d(cs, shape, &w.challenges[i], top, st[i]);
          });
          return;
        }
        t -= shape.challenges;
        const uint32_t i = (uint32_t)(t / shape.layers), layer = (uint32_t)(t % shape.layers) + 1;
        run_block(label_at(i, layer), layer == 1 ? l.label1_aux : l.label_aux, in_at(i) + l.phase_a_inputs, 0,
                  [&](WitnessCs& cs) { st[i].labels[layer - 1] = challenge_label(cs, layer, top, st[i]); });
      });
  // Round 3: the encoding in tree R and the challenged column in tree C of every challenge.
  round(
      size_t{shape.challenges} * 2, &tm.phase_c,
      [&](size_t t) -> StackedWitnessTimes::Blocks& { return t % 2 == 0 ? tm.encoding : tm.c_x; },
      [&](size_t t) {
        const uint32_t i = (uint32_t)(t / 2);
        const ChallengeWitness* cw = &w.challenges[i];
        const uint32_t a0 = aux_at(i + 1) - l.phase_c_aux, i0 = in_at(i) + l.phase_a_inputs;
        if (t % 2 == 0)
          run_block(a0, l.encoding_aux, i0, l.encoding_inputs, [&](WitnessCs& cs) {
            leads[i][kEncoding] = phase_c_encoding(cs, shape, cw, top, st[i]);
          });
        else
          run_block(a0 + l.encoding_aux, l.c_x_aux, i0 + l.encoding_inputs, l.c_x_inputs,
                    [&](WitnessCs& cs) { leads[i][kCx] = phase_c_column(cs, shape, cw, top, st[i]); });
      });
  if (!bad_opening) return;
  bad_opening->clear();
  for (uint32_t i = 0; i < shape.challenges; i++)
    for (uint32_t j = 0; j <= kCx; j++) {
      if (leads[i][j]) continue;
      const std::string what =
          j == kTreeD      ? "the data leaf's path in tree D does not lead to comm_d"
          : j == kEncoding ? "the replica leaf's path in tree R does not lead to comm_r_last"
          : j == kCx       ? "the challenged column (its labels) does not lead to comm_c"
          : j - kColumn0 < kDrgParents
              ? "the column of DRG parent " + std::to_string(j - kColumn0) + " does not lead to comm_c"
              : "the column of expander parent " + std::to_string(j - kColumn0 - kDrgParents) +
                    " does not lead to comm_c";
      *bad_opening = "challenge " + std::to_string(i) + " (node " +
                     std::to_string(w.challenges[i].challenge) + "): " + what;
      return;
    }
}

std::vector<Fr> stacked_witness(const StackedShape& shape, const StackedWitness& w, const StackedLayout& l,
                                ThreadPool& pool, StackedWitnessTimes* times, std::string* bad_opening) {
  check_witness(shape, w);  // before the allocation
  const auto t0 = std::chrono::steady_clock::now();
  std::vector<Fr> full = zeroed_vector(size_t{l.n_inputs} + l.n_aux, pool);
  if (times) times->alloc = seconds_since(t0);
  stacked_witness_into(shape, w, l, pool, full, times, bad_opening);
  return full;
}

CompactCs stacked_compact_cs(const StackedShape& shape, ThreadPool& pool) {
  const StackedLayout l = stacked_layout(shape);
  // Record the top level and the first challenge.
  RecordCs cs;
  const TopState top = synthesize_top(cs, nullptr);
  const size_t top_rows = cs.num_constraints();
  {
    ChallengeState st;
    challenge_phase_a(cs, shape, nullptr, top, st);
    st.labels.clear();
    for (uint32_t layer = 1; layer <= shape.layers; layer++)
      st.labels.push_back(challenge_label(cs, layer, top, st));
    challenge_phase_c(cs, shape, nullptr, top, st);
  }
  const Recording rec = cs.take_recording();
  const size_t ch_rows = rec.n_constraints() - top_rows;
  const size_t rows = top_rows + ch_rows * shape.challenges + l.n_inputs;
  if (rows > (size_t{1} << 28))
    throw Error(ErrorCode::kInvalidArgument,
                shape.name + ": " + std::to_string(rows) + " rows; the domain ends at 2^28");

  CompactCs out;
  out.convention = HConvention::kBellperson;
  out.n_inputs = l.n_inputs;
  out.n_aux = l.n_aux;
  out.log_n = 1;
  while ((size_t{1} << out.log_n) < rows) out.log_n++;
  // Variable v of challenge c's rows (recorded for c = 0) in the whole circuit's columns.
  auto column = [&](uint32_t raw, uint32_t c) -> uint32_t {
    const Var v = Var::from_raw(raw);
    if (v.is_input()) return v.index() < l.top_inputs ? v.index() : v.index() + c * l.challenge_inputs;
    const uint32_t j = v.index() < l.top_aux ? v.index() : v.index() + c * l.challenge_aux;
    return l.n_inputs + j;
  };
  // The recording's coefficient table has 1 and −1 first, as the compact form wants.
  if (rec.coeffs.size() < 2 || rec.coeffs[kCoeffOne] != Fr::one() || rec.coeffs[kCoeffMinusOne] != -Fr::one())
    throw Error(ErrorCode::kInternal, "the recording's coefficient table does not start with 1, -1");
  out.table.assign(rec.coeffs.values().begin(), rec.coeffs.values().end());
  auto build = [&](const RecordedMatrix& m, CompactMatrix& sm, bool input_rows) {
    const uint64_t top_nnz = m.row_offsets[top_rows], ch_nnz = m.row_offsets[top_rows + ch_rows] - top_nnz;
    const uint64_t nnz = top_nnz + ch_nnz * shape.challenges + (input_rows ? l.n_inputs : 0);
    sm.row_offsets.resize(rows + 1);
    sm.cols.resize(nnz);
    sm.coeffs.resize(nnz);
    for (size_t r = 0; r <= top_rows; r++) sm.row_offsets[r] = m.row_offsets[r];
    for (uint64_t k = 0; k < top_nnz; k++) {
      sm.cols[k] = column(m.vars[k], 0);
      sm.coeffs[k] = m.coeffs[k];
    }
    pool.parallel_for(
        shape.challenges,
        [&](size_t b, size_t e) {
          for (size_t c = b; c < e; c++) {
            const uint64_t base = top_nnz + c * ch_nnz;
            for (size_t r = 1; r <= ch_rows; r++)
              sm.row_offsets[top_rows + c * ch_rows + r] = base + (m.row_offsets[top_rows + r] - top_nnz);
            for (uint64_t k = 0; k < ch_nnz; k++) {
              sm.cols[base + k] = column(m.vars[top_nnz + k], (uint32_t)c);
              sm.coeffs[base + k] = m.coeffs[top_nnz + k];
            }
          }
        },
        1);
    // bellperson's appended rows: A = input_i, B and C empty.
    write_input_rows(sm, top_rows + ch_rows * shape.challenges, top_nnz + ch_nnz * shape.challenges,
                     l.n_inputs, input_rows);
  };
  build(rec.a, out.a, true);
  build(rec.b, out.b, false);
  build(rec.c, out.c, false);
  compute_densities(out);
  return out;
}

ConstraintSystem stacked_constraint_system(const StackedShape& shape, ThreadPool& pool) {
  return expand(stacked_compact_cs(shape, pool), pool);
}

template void synthesize_stacked(CountCs&, const StackedShape&, const StackedWitness*);
template void synthesize_stacked(RecordCs&, const StackedShape&, const StackedWitness*);
template void synthesize_stacked(WitnessCs&, const StackedShape&, const StackedWitness*);
template void synthesize_stacked(TestCs&, const StackedShape&, const StackedWitness*);

}  // namespace cuzk::circuits
