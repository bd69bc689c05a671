// Filecoin's SnapDeals proof (empty-sector update, "EmptySectorUpdateCircuit"): the circuit of one
// partition, constraint for constraint rust-fil-proofs storage-proofs-update src/circuit.rs
// `EmptySectorUpdateCircuit::synthesize` with the gadgets of src/gadgets.rs (update_gadgets.hpp), and
// what it depends on computed natively: the shapes of every allowed sector size (src/constants.rs), the
// Poseidon-derived phi, rho and challenges (src/vanilla.rs, src/challenges.rs) and one partition's
// public inputs (src/circuit.rs `PublicInputs::new`, src/compound.rs `generate_public_inputs`).
//
// This is the circuit Filecoin's production keys were made for (filecoin-proofs src/api/update.rs uses
// EmptySectorUpdateCompound, parameter files "v28-empty-sector-update-merkletree-poseidon_hasher-8-…");
// the single-partition Poseidon variant (src/poseidon/) is not used by filecoin-proofs.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "circuits/filecoin_hashers.hpp"
#include "circuits/por.hpp"
#include "circuits/update_gadgets.hpp"
#include "hash/poseidon_constants.hpp"

namespace cuzk {
class ThreadPool;
}

namespace cuzk::circuits {

/// The public parameters of one sector size (storage-proofs-update src/vanilla.rs `PublicParams`,
/// src/constants.rs): what the circuit's shape depends on.
struct UpdateShape {
  std::string name;                ///< "1KiB" … "64GiB"
  uint64_t sector_nodes = 0;       ///< 32-byte nodes, a power of two
  uint32_t challenge_count = 0;    ///< per partition: 10 (≤ 16 MiB) or 86
  uint32_t challenge_bit_len = 0;  ///< log2(sector_nodes): tree D's height
  uint32_t partition_count = 0;    ///< 1, 2, 4 or 16
  uint32_t partition_bit_len = 0;  ///< log2(partition_count)
  uint32_t apex_leaf_count = 0;    ///< 8 (≤ 8 KiB) or 128 apex leaves per partition
  uint32_t apex_leaf_bit_len = 0;  ///< log2(apex_leaf_count)
  std::array<uint32_t, 6> hs{};    ///< the allowed h values (constants.rs `hs`)
  TreeShape tree_d;                ///< binary SHA-256 tree over the new data
  TreeShape tree_r;                ///< trees R old and new (Poseidon, base arity 8; validate_tree_r_shape)

  /// constants.rs `h_default`: hs[3] (10 for production sizes, 1 for the test sizes).
  uint32_t h_default() const { return hs[3]; }
  /// Random bits per challenge: challenge_bit_len − partition_bit_len.
  uint32_t random_bits_per_challenge() const { return challenge_bit_len - partition_bit_len; }
  /// Challenges one digest yields: ⌊254 / random_bits_per_challenge⌋ (challenges.rs).
  uint32_t challenges_per_digest() const { return 254 / random_bits_per_challenge(); }
  /// Digests per partition: ⌈challenge_count / challenges_per_digest⌉.
  uint32_t digests_per_partition() const {
    return (challenge_count + challenges_per_digest() - 1) / challenges_per_digest();
  }
};

/// The shape of a sector size given in nodes, one of upstream's ALLOWED_SECTOR_SIZES (2^5, 2^6, 2^7,
/// 2^8, 2^9, 2^10, 2^18, 2^19, 2^24, 2^30, 2^31). Throws Error(kInvalidArgument) for any other.
UpdateShape update_shape_of_nodes(uint64_t sector_nodes);
/// The shape of "1KiB", "2KiB", "4KiB", "8KiB", "16KiB", "32KiB", "8MiB", "16MiB", "512MiB", "32GiB"
/// or "64GiB". Throws Error(kInvalidArgument) naming any other.
UpdateShape update_shape(const std::string& sector_size);
/// The names update_shape accepts, smallest first.
std::span<const char* const> update_sector_sizes();

/// phi = Poseidon_gen(comm_d_new, comm_r_old) (vanilla.rs `phi`).
Fr update_phi(const Fr& comm_d_new, const Fr& comm_r_old);
/// rho = Poseidon_gen(phi, high) (vanilla.rs `rho`).
Fr update_rho(const Fr& phi, uint64_t high);

/// The challenge_count challenges of partition k (challenges.rs `Challenges::new`): digest j =
/// Poseidon_gen(comm_r_new, k·digests_per_partition + j); challenge i of a digest is bits
/// [i·b, (i + 1)·b) of the digest's little-endian bits (b = random bits per challenge), with k in the
/// bits above. Throws Error(kInvalidArgument) when k ≥ partition_count.
std::vector<uint64_t> update_challenges(const UpdateShape& shape, const Fr& comm_r_new, uint32_t k);

/// k | h_select << partition_bit_len with h_select = 2^i for h = hs[i] (circuit.rs `PublicInputs::new`,
/// constants.rs `h_select`: the first index of h). Throws Error(kInvalidArgument) when k ≥
/// partition_count or h is not one of hs.
Fr update_k_and_h_select(const UpdateShape& shape, uint32_t k, uint32_t h);

/// One partition's public inputs as the verifier takes them (compound.rs `generate_public_inputs`,
/// circuit.rs `PublicInputs::to_vec`): k_and_h_select, comm_r_old, comm_d_new, comm_r_new (ONE not
/// included). Same errors as update_k_and_h_select.
std::vector<Fr> update_public_inputs(const UpdateShape& shape, uint32_t k, uint32_t h, const Fr& comm_r_old,
                                     const Fr& comm_d_new, const Fr& comm_r_new);

/// One challenge's openings (circuit.rs `ChallengeProof`): the leaves and sibling paths of trees R
/// old, D new and R new (PathLevel::index is not read by the circuit, which takes the positions from
/// the challenge bits).
struct UpdateChallengeWitness {
  Fr leaf_r_old, leaf_d_new, leaf_r_new;
  std::vector<PathLevel> path_r_old, path_d_new, path_r_new;
};

/// What one partition's circuit reads (circuit.rs `PublicInputs` and `PrivateInputs`).
struct UpdateWitness {
  uint32_t k = 0;  ///< the partition
  uint32_t h = 0;  ///< one of shape.hs
  Fr comm_r_old, comm_d_new, comm_r_new;
  Fr comm_c, root_r_old, root_r_new;
  std::vector<Fr> apex_leafs;                      ///< apex_leaf_count
  std::vector<UpdateChallengeWitness> challenges;  ///< challenge_count
};

/// Checks that `w` fits `shape`: k, h, the numbers of apex leaves and challenges, every path's levels
/// and sibling counts, and that every challenge's tree-D path ends with the same partition path (the
/// circuit's asserts). Throws Error(kInvalidArgument) naming the challenge and the part.
void check_update_witness(const UpdateShape& shape, const UpdateWitness& w);

namespace update_detail {

// Allocates the siblings of `path` (levels of `shape`, rows first, siblings in order) as the circuit
// does before each por_no_challenge_input; the blank modes allocate zeros.
template <class CS>
std::vector<std::vector<AllocatedNum>> alloc_path(CS& cs, const TreeShape& shape, size_t levels,
                                                  const std::vector<PathLevel>* path) {
  std::vector<std::vector<AllocatedNum>> out(levels);
  for (size_t i = 0; i < levels; i++)
    for (uint32_t s = 0; s + 1 < shape.arity(i); s++)
      out[i].push_back(AllocatedNum::alloc(cs, [&] { return (*path)[i].siblings[s]; }));
  return out;
}

inline std::vector<Boolean> as_booleans(std::span<const AllocatedBit> bits) {
  std::vector<Boolean> r;
  r.reserve(bits.size());
  for (const AllocatedBit& b : bits) r.push_back(Boolean::is(b));
  return r;
}

}  // namespace update_detail

/// What the challenges of a partition use of its top level (the variables and their values).
struct UpdateTop {
  std::vector<AllocatedBit> partition_bits, h_select_bits;
  AllocatedNum phi, root_r_old, root_r_new;
  std::vector<AllocatedNum> apex_leafs;
  std::vector<std::vector<AllocatedBit>> generated;  ///< each challenge's random bits
};

/// The top level of one partition (circuit.rs `EmptySectorUpdateCircuit::synthesize` up to the
/// challenge loop): k_and_h_select (input) and its bits, the packed partition, comm_r_old, comm_d_new,
/// comm_r_new (inputs), phi, comm_c, root_r_old, root_r_new, the apex leaves and the partition path,
/// comm_r_old/new = Poseidon2(comm_c, root_r_old/new), the apex tree's inclusion in comm_d_new and the
/// challenges' bits. Every public input is allocated here. `w` is required in the value modes and
/// ignored otherwise; it is checked with check_update_witness (Error(kInvalidArgument)).
template <class CS>
UpdateTop synthesize_update_top(CS& cs, const UpdateShape& shape, const UpdateWitness* w) {
  using update_detail::as_booleans;
  if constexpr (CS::kValues) {
    if (!w)
      throw Error(ErrorCode::kInvalidArgument, "empty-sector-update circuit: no witness in a value mode");
    check_update_witness(shape, *w);
  }
  const Fr zero = Fr::zero();
  const uint32_t pbl = shape.partition_bit_len, cbl = shape.challenge_bit_len;

  // k_and_h_select: one public input, and its partition_bit_len + 6 low bits.
  const Fr khs = CS::kValues ? update_k_and_h_select(shape, w->k, w->h) : zero;
  AllocatedNum k_and_h_select = AllocatedNum::alloc(cs, khs);
  inputize(cs, k_and_h_select);
  uint64_t khs_limbs[4] = {};
  if constexpr (CS::kValues) khs.to_canonical(khs_limbs);
  std::vector<AllocatedBit> khs_bits;
  for (uint32_t i = 0; i < pbl + shape.hs.size(); i++)
    khs_bits.push_back(AllocatedBit::alloc(cs, ((khs_limbs[0] >> i) & 1) != 0));
  cs.enforce([&](Lc& a, Lc& b, Lc& c) {
    Fr pow2 = Fr::one();
    for (const AllocatedBit& bit : khs_bits) {
      a.add(bit.var, pow2);
      pow2 += pow2;
    }
    b.add(kOne);
    c.add(k_and_h_select.var);
  });
  std::vector<AllocatedBit> partition_bits(khs_bits.begin(), khs_bits.begin() + pbl);
  std::vector<AllocatedBit> h_select_bits(khs_bits.begin() + pbl, khs_bits.end());
  const std::vector<Boolean> partition_booleans = as_booleans(partition_bits);
  AllocatedNum partition = pack_bits(cs, std::span<const Boolean>(partition_booleans));

  AllocatedNum comm_r_old = AllocatedNum::alloc(cs, [&] { return w->comm_r_old; });
  inputize(cs, comm_r_old);
  AllocatedNum comm_d_new = AllocatedNum::alloc(cs, [&] { return w->comm_d_new; });
  inputize(cs, comm_d_new);
  AllocatedNum comm_r_new = AllocatedNum::alloc(cs, [&] { return w->comm_r_new; });
  inputize(cs, comm_r_new);

  const PoseidonConstants& gen = poseidon_constants_gen_randomness();
  const AllocatedNum phi_pre[2] = {comm_d_new, comm_r_old};
  AllocatedNum phi = poseidon_hash(cs, std::span<const AllocatedNum>(phi_pre), gen);

  AllocatedNum comm_c = AllocatedNum::alloc(cs, [&] { return w->comm_c; });
  AllocatedNum root_r_old = AllocatedNum::alloc(cs, [&] { return w->root_r_old; });
  AllocatedNum root_r_new = AllocatedNum::alloc(cs, [&] { return w->root_r_new; });
  std::vector<AllocatedNum> apex_leafs;
  for (uint32_t i = 0; i < shape.apex_leaf_count; i++)
    apex_leafs.push_back(AllocatedNum::alloc(cs, [&] { return w->apex_leafs[i]; }));
  // The top partition_bit_len levels of challenge 0's tree-D path (the same for every challenge).
  std::vector<std::vector<AllocatedNum>> partition_path(pbl);
  for (uint32_t i = 0; i < pbl; i++)
    partition_path[i].push_back(
        AllocatedNum::alloc(cs, [&] { return w->challenges[0].path_d_new[cbl - pbl + i].siblings[0]; }));

  // comm_r = Poseidon2(comm_c, root_r) for the old and the new replica.
  const AllocatedNum old_pre[2] = {comm_c, root_r_old};
  AllocatedNum comm_r_old_calc = PoseidonHasher::hash(cs, std::span<const AllocatedNum>(old_pre), 0);
  enforce_equal(cs, comm_r_old_calc, comm_r_old);
  const AllocatedNum new_pre[2] = {comm_c, root_r_new};
  AllocatedNum comm_r_new_calc = PoseidonHasher::hash(cs, std::span<const AllocatedNum>(new_pre), 0);
  enforce_equal(cs, comm_r_new_calc, comm_r_new);

  apex_por(cs, apex_leafs, partition_booleans, partition_path, comm_d_new);

  std::vector<std::vector<AllocatedBit>> generated =
      gen_challenge_bits(cs, comm_r_new, partition, shape.challenge_count, shape.random_bits_per_challenge());
  return {partition_bits,        h_select_bits,       phi, root_r_old, root_r_new,
          std::move(apex_leafs), std::move(generated)};
}

/// Challenge `ci` of a partition (the body of circuit.rs's challenge loop): rho = Poseidon_gen(phi,
/// the challenge's h high bits), the leaves, label_r_new, trees R old and new, the apex-leaf selection
/// and tree D up to it. Allocates aux variables only, the same number for every challenge, and refers
/// only to its own and the top level's variables, so challenges can be made apart (update_witness).
/// `cw` is required in the value modes (Error(kInvalidArgument) when its new label is wrong).
template <class CS>
void synthesize_update_challenge(CS& cs, const UpdateShape& shape, const UpdateTop& top, uint32_t ci,
                                 const UpdateChallengeWitness* cw) {
  using update_detail::alloc_path;
  using update_detail::as_booleans;
  const uint32_t to_apex = shape.challenge_bit_len - shape.partition_bit_len - shape.apex_leaf_bit_len;
  const uint32_t abl = shape.apex_leaf_bit_len;
  const TreeShape& tr = shape.tree_r;
  std::vector<AllocatedBit> c_bits = top.generated[ci];
  c_bits.insert(c_bits.end(), top.partition_bits.begin(), top.partition_bits.end());
  const std::vector<Boolean> c_booleans = as_booleans(c_bits);

  AllocatedNum c_high = get_challenge_high_bits(cs, c_booleans, top.h_select_bits, shape.hs);
  const AllocatedNum rho_pre[2] = {top.phi, c_high};
  AllocatedNum rho =
      poseidon_hash(cs, std::span<const AllocatedNum>(rho_pre), poseidon_constants_gen_randomness());

  AllocatedNum leaf_r_old = AllocatedNum::alloc(cs, [&] { return cw->leaf_r_old; });
  AllocatedNum leaf_d_new = AllocatedNum::alloc(cs, [&] { return cw->leaf_d_new; });
  AllocatedNum leaf_r_new = label_r_new(cs, leaf_r_old, leaf_d_new, rho);
  if constexpr (CS::kValues) {
    if (leaf_r_new.value != cw->leaf_r_new)
      throw Error(ErrorCode::kInvalidArgument, "empty-sector-update witness: challenge " +
                                                   std::to_string(ci) +
                                                   ": leaf_r_new is not leaf_r_old + leaf_d_new·rho");
  }

  auto path_r_old = alloc_path(cs, tr, tr.levels(), cw ? &cw->path_r_old : nullptr);
  por_no_challenge_input<PoseidonHasher>(cs, tr, std::span<const Boolean>(c_booleans), leaf_r_old, path_r_old,
                                         top.root_r_old);
  auto path_r_new = alloc_path(cs, tr, tr.levels(), cw ? &cw->path_r_new : nullptr);
  por_no_challenge_input<PoseidonHasher>(cs, tr, std::span<const Boolean>(c_booleans), leaf_r_new, path_r_new,
                                         top.root_r_new);

  AllocatedNum apex_leaf = select(cs, std::span<const AllocatedNum>(top.apex_leafs),
                                  std::span<const Boolean>(c_booleans).subspan(to_apex, abl));
  auto path_to_apex = alloc_path(cs, shape.tree_d, to_apex, cw ? &cw->path_d_new : nullptr);
  const TreeShape below_apex{2, to_apex, 0, 0};
  por_no_challenge_input<Sha256Hasher>(cs, below_apex, std::span<const Boolean>(c_booleans).first(to_apex),
                                       leaf_d_new, path_to_apex, apex_leaf);
}

/// Synthesizes one partition of `shape` (circuit.rs `EmptySectorUpdateCircuit::synthesize`) in
/// upstream's order: synthesize_update_top, then every challenge (synthesize_update_challenge). `w` is
/// required in the value modes and ignored otherwise; it is checked (Error(kInvalidArgument)).
template <class CS>
void synthesize_empty_sector_update(CS& cs, const UpdateShape& shape, const UpdateWitness* w) {
  const UpdateTop top = synthesize_update_top(cs, shape, w);
  for (uint32_t ci = 0; ci < shape.challenge_count; ci++)
    synthesize_update_challenge(cs, shape, top, ci, CS::kValues ? &w->challenges[ci] : nullptr);
}

/// The witness of one partition, inputs ‖ aux (Montgomery form, [0] = ONE), equal to what
/// synthesize_empty_sector_update computes in witness mode, made on `pool`: the top level on the
/// calling thread, then the challenges in parallel, each writing its own slice of the aux values
/// (every challenge allocates the same number, counted once per call). Throws Error(kInvalidArgument)
/// when `w` does not fit the shape.
std::vector<Fr> update_witness(const UpdateShape& shape, const UpdateWitness& w, ThreadPool& pool);

/// update_witness written straight into the caller's storage: `inputs` (ONE first) and `aux`, which must
/// hold exactly the partition's counts (no allocation or copy of the ~81 M aux values of a 32 GiB
/// partition). Throws Error(kInvalidArgument) when `w` does not fit the shape or the spans have other
/// sizes.
void update_witness_into(const UpdateShape& shape, const UpdateWitness& w, ThreadPool& pool,
                         std::span<Fr> inputs, std::span<Fr> aux);

}  // namespace cuzk::circuits
