// SnapDeals shapes, randomness and public inputs (storage-proofs-update src/constants.rs,
// src/vanilla.rs, src/challenges.rs, src/circuit.rs); see empty_sector_update.hpp.
#include "circuits/empty_sector_update.hpp"

#include <bit>
#include <memory>
#include <mutex>

#include "hash/poseidon.hpp"
#include "util/thread_pool.hpp"

namespace cuzk::circuits {
namespace {

struct SizeRow {
  const char* name;
  uint64_t nodes;
  uint32_t sub_arity, top_arity;  // validate_tree_r_shape (base arity is always 8)
};
// storage-proofs-update src/constants.rs ALLOWED_SECTOR_SIZES and validate_tree_r_shape.
constexpr SizeRow kSizes[] = {
    {"1KiB", 1ull << 5, 4, 0},   {"2KiB", 1ull << 6, 0, 0},   {"4KiB", 1ull << 7, 2, 0},
    {"8KiB", 1ull << 8, 4, 0},   {"16KiB", 1ull << 9, 8, 0},  {"32KiB", 1ull << 10, 8, 2},
    {"8MiB", 1ull << 18, 0, 0},  {"16MiB", 1ull << 19, 2, 0}, {"512MiB", 1ull << 24, 0, 0},
    {"32GiB", 1ull << 30, 8, 0}, {"64GiB", 1ull << 31, 8, 2},
};
constexpr const char* kSizeNames[] = {"1KiB", "2KiB",  "4KiB",   "8KiB",  "16KiB", "32KiB",
                                      "8MiB", "16MiB", "512MiB", "32GiB", "64GiB"};

UpdateShape shape_of(const SizeRow& row) {
  UpdateShape s;
  s.name = row.name;
  s.sector_nodes = row.nodes;
  const uint64_t n = row.nodes;
  s.challenge_count = n <= (1ull << 19) ? 10 : 86;  // challenge_count
  s.partition_count = n <= (1ull << 8)    ? 1
                      : n <= (1ull << 10) ? 2
                      : n <= (1ull << 19) ? 4
                                          : 16;    // partition_count
  s.apex_leaf_count = n <= (1ull << 8) ? 8 : 128;  // apex_leaf_count
  s.hs = n <= (1ull << 10) ? std::array<uint32_t, 6>{1, 1, 1, 1, 1, 1}
                           : std::array<uint32_t, 6>{7, 8, 9, 10, 11, 12};  // hs
  s.challenge_bit_len = (uint32_t)std::countr_zero(n);
  s.partition_bit_len = (uint32_t)std::countr_zero(s.partition_count);
  s.apex_leaf_bit_len = (uint32_t)std::countr_zero(s.apex_leaf_count);
  s.tree_d = TreeShape{2, s.challenge_bit_len, 0, 0};
  uint32_t base_bits = s.challenge_bit_len;
  if (row.sub_arity) base_bits -= (uint32_t)std::countr_zero(row.sub_arity);
  if (row.top_arity) base_bits -= (uint32_t)std::countr_zero(row.top_arity);
  s.tree_r = TreeShape{8, base_bits / 3, row.sub_arity, row.top_arity};
  return s;
}

}  // namespace

UpdateShape update_shape_of_nodes(uint64_t sector_nodes) {
  for (const SizeRow& row : kSizes)
    if (row.nodes == sector_nodes) return shape_of(row);
  throw Error(ErrorCode::kInvalidArgument, "empty-sector-update: " + std::to_string(sector_nodes) +
                                               " nodes is not an allowed sector size");
}

UpdateShape update_shape(const std::string& sector_size) {
  for (const SizeRow& row : kSizes)
    if (sector_size == row.name) return shape_of(row);
  std::string names;
  for (const char* n : kSizeNames) names += std::string(names.empty() ? "" : ", ") + n;
  throw Error(ErrorCode::kInvalidArgument, "empty-sector-update: unknown sector size '" + sector_size +
                                               "' (expected one of " + names + ")");
}

std::span<const char* const> update_sector_sizes() { return kSizeNames; }

const PoseidonConstants& poseidon_constants_gen_randomness() {
  static std::once_flag once;
  static std::unique_ptr<PoseidonConstants> c;
  std::call_once(once, [] {
    c = std::make_unique<PoseidonConstants>(poseidon_constants(2));
    c->domain_tag = Fr::from_u64(uint64_t{1} << 40);  // CType::Arbitrary(1): 1·2^40
  });
  return *c;
}

Fr update_phi(const Fr& comm_d_new, const Fr& comm_r_old) {
  const Fr pre[2] = {comm_d_new, comm_r_old};
  return poseidon_hash(pre, poseidon_constants_gen_randomness());
}

Fr update_rho(const Fr& phi, uint64_t high) {
  const Fr pre[2] = {phi, Fr::from_u64(high)};
  return poseidon_hash(pre, poseidon_constants_gen_randomness());
}

std::vector<uint64_t> update_challenges(const UpdateShape& shape, const Fr& comm_r_new, uint32_t k) {
  if (k >= shape.partition_count)
    throw Error(ErrorCode::kInvalidArgument, "empty-sector-update: partition " + std::to_string(k) +
                                                 " of a " + shape.name + " sector, which has " +
                                                 std::to_string(shape.partition_count));
  const uint32_t b = shape.random_bits_per_challenge(), per = shape.challenges_per_digest();
  const uint64_t dpp = shape.digests_per_partition();
  std::vector<uint64_t> out;
  out.reserve(shape.challenge_count);
  uint64_t digest_index = uint64_t{k} * dpp;
  while (out.size() < shape.challenge_count) {
    const Fr pre[2] = {comm_r_new, Fr::from_u64(digest_index++)};
    uint64_t l[4];
    poseidon_hash(pre, poseidon_constants_gen_randomness()).to_canonical(l);
    for (uint32_t i = 0; i < per && out.size() < shape.challenge_count; i++) {
      uint64_t c = 0;
      for (uint32_t j = 0; j < b; j++) {
        const uint32_t bit = i * b + j;
        c |= ((l[bit / 64] >> (bit % 64)) & 1) << j;
      }
      out.push_back(c | (uint64_t{k} << b));
    }
  }
  return out;
}

Fr update_k_and_h_select(const UpdateShape& shape, uint32_t k, uint32_t h) {
  if (k >= shape.partition_count)
    throw Error(ErrorCode::kInvalidArgument, "empty-sector-update: partition index k = " + std::to_string(k) +
                                                 " exceeds the partition count " +
                                                 std::to_string(shape.partition_count) + " of " + shape.name);
  for (size_t i = 0; i < shape.hs.size(); i++)
    if (shape.hs[i] == h) return Fr::from_u64(uint64_t{k} | (uint64_t{1} << i) << shape.partition_bit_len);
  throw Error(ErrorCode::kInvalidArgument,
              "empty-sector-update: h = " + std::to_string(h) + " is not an allowed h for " + shape.name);
}

std::vector<Fr> update_public_inputs(const UpdateShape& shape, uint32_t k, uint32_t h, const Fr& comm_r_old,
                                     const Fr& comm_d_new, const Fr& comm_r_new) {
  return {update_k_and_h_select(shape, k, h), comm_r_old, comm_d_new, comm_r_new};
}

void check_update_witness(const UpdateShape& shape, const UpdateWitness& w) {
  update_k_and_h_select(shape, w.k, w.h);  // k and h
  auto fail = [&](const std::string& what) {
    throw Error(ErrorCode::kInvalidArgument, "empty-sector-update witness (" + shape.name + "): " + what);
  };
  if (w.apex_leafs.size() != shape.apex_leaf_count)
    fail(std::to_string(w.apex_leafs.size()) + " apex leaves, expected " +
         std::to_string(shape.apex_leaf_count));
  if (w.challenges.size() != shape.challenge_count)
    fail(std::to_string(w.challenges.size()) + " challenge proofs, expected " +
         std::to_string(shape.challenge_count));
  auto check = [&](const TreeShape& t, const std::vector<PathLevel>& p, size_t ci, const char* tree) {
    bool ok = p.size() == t.levels();
    for (size_t i = 0; ok && i < p.size(); i++) ok = p[i].siblings.size() + 1 == t.arity(i);
    if (!ok) fail("challenge " + std::to_string(ci) + ": " + tree + " path does not fit the tree's shape");
  };
  const uint32_t top = shape.challenge_bit_len - shape.partition_bit_len;
  for (size_t ci = 0; ci < w.challenges.size(); ci++) {
    const UpdateChallengeWitness& c = w.challenges[ci];
    check(shape.tree_r, c.path_r_old, ci, "tree R old");
    check(shape.tree_d, c.path_d_new, ci, "tree D new");
    check(shape.tree_r, c.path_r_new, ci, "tree R new");
    for (uint32_t i = top; i < shape.challenge_bit_len; i++)
      if (c.path_d_new[i].siblings[0] != w.challenges[0].path_d_new[i].siblings[0])
        fail("challenge " + std::to_string(ci) +
             ": tree D path's partition levels differ from challenge 0's");
  }
}

namespace {

/// The partition's layout: inputs, the top level's aux values and each challenge's (counted once).
struct UpdateLayout {
  uint32_t n_inputs = 0, top_aux = 0, per_challenge = 0;
  size_t n_aux(const UpdateShape& shape) const {
    return top_aux + size_t(per_challenge) * shape.challenge_count;
  }
};

UpdateLayout update_layout(const UpdateShape& shape) {
  CountCs count;
  const UpdateTop blank = synthesize_update_top(count, shape, nullptr);
  UpdateLayout l;
  l.n_inputs = count.num_inputs();
  l.top_aux = count.num_aux();
  synthesize_update_challenge(count, shape, blank, 0, nullptr);
  l.per_challenge = count.num_aux() - l.top_aux;
  if (count.num_inputs() != l.n_inputs)
    throw Error(ErrorCode::kInternal, "update_witness: a challenge allocated public inputs");
  return l;
}

}  // namespace

void update_witness_into(const UpdateShape& shape, const UpdateWitness& w, ThreadPool& pool,
                         std::span<Fr> inputs, std::span<Fr> aux) {
  const UpdateLayout l = update_layout(shape);
  if (inputs.size() != l.n_inputs || aux.size() != l.n_aux(shape))
    throw Error(ErrorCode::kInvalidArgument,
                shape.name + " update partition: room for " + std::to_string(inputs.size()) + " inputs and " +
                    std::to_string(aux.size()) + " aux values; the circuit has " +
                    std::to_string(l.n_inputs) + " and " + std::to_string(l.n_aux(shape)));
  WitnessCs cs;
  const UpdateTop top = synthesize_update_top(cs, shape, &w);
  const Witness& t = cs.witness();
  if (t.inputs.size() != l.n_inputs || t.aux.size() != l.top_aux)
    throw Error(ErrorCode::kInternal, "update_witness: the top level's layout differs from its count");
  std::copy(t.inputs.begin(), t.inputs.end(), inputs.begin());
  std::copy(t.aux.begin(), t.aux.end(), aux.begin());
  const uint32_t per = l.per_challenge;
  pool.parallel_for(
      shape.challenge_count,
      [&](size_t begin, size_t end) {
        for (size_t ci = begin; ci < end; ci++) {
          const uint32_t first = l.top_aux + uint32_t(ci) * per;
          WitnessCs block = WitnessCs::slice(aux.subspan(first, per), first, std::span<Fr>(), l.n_inputs);
          synthesize_update_challenge(block, shape, top, uint32_t(ci), &w.challenges[ci]);
          if (block.num_aux() != first + per || block.num_inputs() != l.n_inputs)
            throw Error(ErrorCode::kInternal,
                        "update_witness: challenge " + std::to_string(ci) + " allocated another layout");
        }
      },
      1);
}

std::vector<Fr> update_witness(const UpdateShape& shape, const UpdateWitness& w, ThreadPool& pool) {
  const UpdateLayout l = update_layout(shape);
  std::vector<Fr> out(size_t(l.n_inputs) + l.n_aux(shape));
  const std::span<Fr> all(out);
  update_witness_into(shape, w, pool, all.first(l.n_inputs), all.subspan(l.n_inputs));
  return out;
}

}  // namespace cuzk::circuits
