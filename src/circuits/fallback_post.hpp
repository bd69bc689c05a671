// Filecoin's fallback proof of spacetime circuit, WinningPoSt and WindowPoSt (rust-fil-proofs
// storage-proofs-post src/fallback/circuit.rs `FallbackPoStCircuit`, `Sector::synthesize`), in upstream's
// emission order: per sector comm_r_last, comm_c, comm_r (aux), comm_r inputized, comm_r =
// Poseidon2(comm_c, comm_r_last), then per challenge the challenged leaf's inclusion in tree R (root
// comm_r_last, private; the path bits packed into one public input = the leaf's index).
//
// The two proof types differ only in their vanilla parameters (filecoin-proofs src/parameters.rs
// `winning_post_setup_params`, `window_post_setup_params`; src/constants.rs):
//   WinningPoSt: 66 challenges of one sector, laid out as 66 circuit "sectors" of 1 challenge each;
//   WindowPoSt: WINDOW_POST_SECTOR_COUNT sectors (2 below 32 GiB, 2349 at 32 GiB, 2300 at 64 GiB) of
//               10 challenges each, one partition per circuit.
// Upstream's prover synthesizes chunks of sectors into separate constraint systems and appends them
// (`synthesize_extendable`); that yields the same variables and rows in the same order as the
// sequential `synthesize_default`, which this follows.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "circuits/filecoin_hashers.hpp"
#include "circuits/por.hpp"
#include "groth16/compact_cs.hpp"

namespace cuzk {
class ThreadPool;
}

namespace cuzk::circuits {

/// The two PoSt kinds (filecoin-proofs src/types/post_config.rs `PoStType`).
enum class PostType { kWinning, kWindow };

/// The shape of one fallback-PoSt circuit (one partition): what the recorded constraint system
/// depends on (storage-proofs-post fallback `PublicParams` without api_version).
struct PostShape {
  std::string name;          ///< e.g. "winning-32GiB", "window-2KiB", "test-base-8"
  uint64_t sector_size = 0;  ///< bytes (PublicParams.sector_size)
  uint32_t sectors = 0;      ///< PublicParams.sector_count: circuit sectors per partition
  uint32_t challenges = 0;   ///< PublicParams.challenge_count: challenges per circuit sector
  TreeShape tree_r;          ///< tree R (Poseidon; arity 8, with the size's sub / top level)

  /// Sector nodes (32 bytes each), the range of the leaf challenges.
  uint64_t nodes() const { return sector_size / 32; }
  /// Public inputs including ONE: per sector comm_r and one per challenge.
  uint32_t num_inputs() const { return 1 + sectors * (1 + challenges); }
  /// upstream's parameter-set identifier (fallback vanilla.rs `ParameterSetMetadata::identifier`),
  /// "FallbackPoSt::PublicParams{sector_size: …, challenge_count: …, sector_count: …}": the SHA-256 of
  /// it names the parameter file.
  std::string identifier() const;
};

/// Filecoin's production shape of `type` and `sector_size` ("2KiB", "8MiB", "512MiB", "32GiB",
/// "64GiB"; tree R as the PoRep's, circuits::stacked_shape): Winning 66 × 1, Window 2 × 10 below 32 GiB,
/// 2349 × 10 at 32 GiB, 2300 × 10 at 64 GiB. Throws Error(kInvalidArgument) for another size.
PostShape post_shape(PostType type, const std::string& sector_size);

/// The shape of upstream's circuit tests (storage-proofs-post tests/fallback_circuit.rs): tree R of
/// `tree` with 64 leaves per base tree, `sectors` sectors of `challenges` challenges.
PostShape post_test_shape(const TreeShape& tree, uint32_t sectors, uint32_t challenges);

/// The witness of one circuit sector (fallback circuit.rs `Sector`): the commitments and, per
/// challenge, the challenged leaf of tree R and its opening.
struct PostSectorWitness {
  Fr comm_r, comm_c, comm_r_last;
  std::vector<Fr> leafs;                      ///< shape.challenges of them
  std::vector<std::vector<PathLevel>> paths;  ///< shape.challenges openings, leaf → root
};

/// The witness of one partition: shape.sectors circuit sectors.
struct PostWitness {
  std::vector<PostSectorWitness> sectors;
};

/// Synthesizes one partition of `shape` into cs. `w` is required in the value modes (CS::kValues) and
/// ignored otherwise. Throws Error(kInvalidArgument) when the witness does not fit the shape (sector
/// or challenge count, path shape), naming the sector and the challenge.
template <class CS>
void synthesize_fallback_post(CS& cs, const PostShape& shape, const PostWitness* w);

/// The witness of one partition (the values synthesize_fallback_post computes in witness mode) into
/// caller-owned storage, sector by sector on `pool`, each sector writing its own slice: `inputs` holds
/// num_inputs() values (ONE first), `aux` the aux values; every value is written once, so the storage
/// may be uninitialized. Throws Error(kInvalidArgument) when the witness does not fit the shape or the
/// storage sizes differ from the circuit's.
void fallback_post_witness_into(const PostShape& shape, const PostWitness& w, ThreadPool& pool,
                                std::span<Fr> inputs, std::span<Fr> aux);

/// The prover's rows of `shape` in compact form (bellperson convention, the input rows appended,
/// densities computed), what RecordCs + Recording::to_constraint_system + compact() give, built by
/// recording one sector and replicating its rows for the others with their variables shifted (every
/// sector has the same structure and refers only to its own variables and ONE), on `pool`: the 32 GiB
/// WindowPoSt circuit's 125 M rows without a whole recording. Throws Error(kInvalidArgument) past 2^28
/// rows.
CompactCs fallback_post_compact_cs(const PostShape& shape, ThreadPool& pool);

/// The api versions that change PoSt challenges (storage-proofs-core src/api_version.rs; PoSt reads
/// only whether it is before 1.2.0).
enum class PostApiVersion { kV1_0_0, kV1_2_0 };

/// The index of challenge n of the sector at `sector_index` (its position in the whole proof's sector
/// list) that feeds the leaf challenge (fallback utils.rs `get_challenge_index`): V1_0/V1_1
/// sector_index · challenge_count + n, V1_2 n.
uint64_t post_challenge_index(PostApiVersion v, uint64_t sector_index, uint64_t challenge_count, uint64_t n);

/// The challenged leaf (vanilla.rs `generate_leaf_challenge_inner`): the first 8 bytes of
/// SHA-256(randomness ‖ LE64(sector_id) ‖ LE64(challenge_index)) as a little-endian u64, mod `nodes`.
uint64_t post_leaf_challenge(const std::array<uint8_t, 32>& randomness, uint64_t sector_id,
                             uint64_t challenge_index, uint64_t nodes);

/// The challenged sector of a proof over `sector_set_len` sectors (vanilla.rs
/// `generate_sector_challenge`, WinningPoSt's choice): the first 8 bytes of SHA-256(prover_id ‖
/// randomness ‖ LE64(n)) as a little-endian u64, mod sector_set_len (> 0).
uint64_t post_sector_challenge(const std::array<uint8_t, 32>& randomness, uint64_t n, uint64_t sector_set_len,
                               const std::array<uint8_t, 32>& prover_id);

/// One public sector (fallback vanilla.rs `PublicSector`): its id and comm_r.
struct PostPublicSector {
  uint64_t id = 0;
  Fr comm_r;
};

/// The public inputs of partition `k` without ONE, computed from the public data alone
/// (storage-proofs-post src/fallback/compound.rs `generate_public_inputs`). `sectors` is the partition's
/// chunk of the proof's sector list (upstream's `sectors.chunks(sector_count).nth(k)`, 1 to
/// shape.sectors of them); per sector comm_r and the leaf index of each of its challenges (its
/// sector_index is k · shape.sectors + i), then the last sector's inputs repeated up to shape.sectors.
/// For WinningPoSt the verifier's sector list is the one challenged sector repeated 66 times
/// (filecoin-proofs src/api/winning_post.rs), winning_post_public_sectors makes it. Throws
/// Error(kInvalidArgument) for no sectors or more than shape.sectors.
std::vector<Fr> fallback_post_public_inputs(const PostShape& shape, PostApiVersion v,
                                            const std::array<uint8_t, 32>& randomness,
                                            std::span<const PostPublicSector> sectors, size_t k);

/// WinningPoSt's public sector list: `sector` repeated shape.sectors (66) times.
std::vector<PostPublicSector> winning_post_public_sectors(const PostShape& shape,
                                                          const PostPublicSector& sector);

}  // namespace cuzk::circuits
