// PoRep configuration and public inputs of Filecoin's commit phase 2, computed from the chain's data
// alone, as rust-fil-proofs' verify_seal does:
// - registered seal proofs → PoRep id, API version, features (rust-filecoin-proofs-api src/registry.rs);
// - sizes, layers, partitions and challenge counts (filecoin-proofs/src/constants.rs, parameters.rs);
// - replica_id (storage-proofs-porep/src/stacked/vanilla/params.rs `generate_replica_id`);
// - interactive, synthetic and non-interactive challenges (…/stacked/vanilla/challenges.rs);
// - one partition's public-input vector (…/stacked/circuit/proof.rs `generate_public_inputs`).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "circuits/sdr/graph.hpp"
#include "ff/bls12_381.hpp"

namespace cuzk::sdr {

/// A 32-byte value as upstream stores a Domain / commitment / ticket: little-endian field bytes.
using Domain = std::array<uint8_t, 32>;

/// The registered seal proofs, numbered as REGISTERED_PROOF_IDS (registry.rs): this number is the first
/// byte of the PoRep id. Append-only upstream.
enum class RegisteredSealProof : uint8_t {
  kStackedDrg2KiBV1 = 0,
  kStackedDrg8MiBV1 = 1,
  kStackedDrg512MiBV1 = 2,
  kStackedDrg32GiBV1 = 3,
  kStackedDrg64GiBV1 = 4,
  kStackedDrg2KiBV1_1 = 5,
  kStackedDrg8MiBV1_1 = 6,
  kStackedDrg512MiBV1_1 = 7,
  kStackedDrg32GiBV1_1 = 8,
  kStackedDrg64GiBV1_1 = 9,
  kStackedDrg2KiBV1_1_Feat_SyntheticPoRep = 10,
  kStackedDrg8MiBV1_1_Feat_SyntheticPoRep = 11,
  kStackedDrg512MiBV1_1_Feat_SyntheticPoRep = 12,
  kStackedDrg32GiBV1_1_Feat_SyntheticPoRep = 13,
  kStackedDrg64GiBV1_1_Feat_SyntheticPoRep = 14,
  kStackedDrg2KiBV1_2_Feat_NonInteractivePoRep = 15,
  kStackedDrg8MiBV1_2_Feat_NonInteractivePoRep = 16,
  kStackedDrg512MiBV1_2_Feat_NonInteractivePoRep = 17,
  kStackedDrg32GiBV1_2_Feat_NonInteractivePoRep = 18,
  kStackedDrg64GiBV1_2_Feat_NonInteractivePoRep = 19,
};

/// The upstream variant name, e.g. "StackedDrg32GiBV1_1" (the C1 JSON's `registered_proof`).
std::string_view registered_seal_proof_name(RegisteredSealProof p);
/// The inverse of registered_seal_proof_name; nullopt for an unknown name.
std::optional<RegisteredSealProof> registered_seal_proof_from_name(std::string_view name);

/// How a PoRep derives its challenges (parameters.rs `select_challenges`, from the API features).
enum class ChallengeKind { kInteractive, kSynthetic, kNonInteractive };

/// The PoRep id of a registered proof: LE64(registered id) ‖ LE64(nonce = 0) ‖ 16 zero bytes
/// (registry.rs `porep_id`).
PoRepId porep_id(RegisteredSealProof p);

/// filecoin-proofs' PoRepConfig (types/porep_config.rs), the part the public inputs depend on. The
/// regression records store exactly these fields (api_features ↦ challenges).
struct PoRepConfig {
  uint64_t sector_size = 0;  ///< bytes; one of the sizes of constants.rs (2 KiB … 64 GiB)
  uint32_t partitions = 0;   ///< circuits (Groth16 proofs) per sector
  PoRepId porep_id{};
  ApiVersion api_version = ApiVersion::kV1_1_0;
  ChallengeKind challenges = ChallengeKind::kInteractive;

  /// sector_size / 32.
  uint64_t nodes() const { return sector_size / kNodeSize; }
  /// SDR layers (constants.rs LAYERS: 2 up to 1 GiB, 11 for 32 and 64 GiB). Throws kInvalidArgument for
  /// a size upstream does not know.
  unsigned layers() const;
  /// Minimum total challenges (constants.rs: interactive and synthetic 2 / 176, NI 26 / 2253).
  uint32_t minimum_challenges() const;
  /// ⌈minimum_challenges / partitions⌉, at most 18 (parameters.rs `select_challenges`).
  uint32_t challenges_per_partition() const;
  /// Throws kInvalidArgument for an unknown size, partitions = 0, more than 18 challenges per
  /// partition, or a feature without API ≥ 1.2 (upstream's registry never builds one).
  void validate() const;
};

/// The config registry.rs `as_v1_config` builds: the size's partitions (constants.rs POREP_PARTITIONS:
/// 1 up to 1 GiB, 10 for 32/64 GiB; NI: 13 / 126), porep_id(p) and the version (V1 → 1.0, V1_1 → 1.1,
/// synthetic and NI → 1.2).
PoRepConfig porep_config(RegisteredSealProof p);

/// SDR layers of a sector size (see PoRepConfig::layers).
unsigned sdr_layers(uint64_t sector_size);

/// replica_id = SHA-256(prover_id ‖ BE64(sector_id) ‖ ticket ‖ comm_d ‖ porep_id) with the top two bits
/// of byte 31 cleared (params.rs `generate_replica_id`, fr32 `bytes_into_fr_repr_safe`).
Domain replica_id(const Domain& prover_id, uint64_t sector_id, const Domain& ticket, const Domain& comm_d,
                  const PoRepId& porep_id);

/// (LE256(bytes) mod (nodes − 1)) + 1: a challenge in [1, nodes) (challenges.rs `bigint_to_challenge`).
uint64_t bytes_to_challenge(const uint8_t le_bytes[32], uint64_t nodes);

/// Interactive challenges of partition k: challenge i is bytes_to_challenge(SHA-256(replica_id ‖ seed ‖
/// LE32(count·k + i))) for i < count (challenges.rs `InteractiveChallenges::derive`).
std::vector<uint64_t> interactive_challenges(uint64_t nodes, const Domain& replica_id, const Domain& seed,
                                             uint32_t k, uint32_t count);

/// Non-interactive challenges of partition k: SHA-256("filecoin.io|PoRep|1|NonInteractive|1" ‖ replica_id
/// ‖ comm_r ‖ LE32(count·k + i)) (challenges.rs `NiChallenges::derive`).
std::vector<uint64_t> ni_challenges(uint64_t nodes, const Domain& replica_id, const Domain& comm_r,
                                    uint32_t k, uint32_t count);

/// Synthetic PoRep challenges (challenges.rs `synthetic::SynthChallengeGenerator`):
/// - synthetic challenge i = bytes_to_challenge of keystream bytes [32i, 32i + 32) of ChaCha20 with key
///   BLAKE2b-256(key = "filecoin.io|PoRep|1|Synthetic|1|Generation"; replica_id ‖ comm_r) and nonce
///   "synth-porep\0";
/// - the PoRep challenges of partition k with `count` per partition select synthetic challenge
///   LE32(keystream bytes [4j, 4j + 4)) mod num_synth for j = count·k + i, from ChaCha20 keyed by
///   BLAKE2b-256(key = "…|Synthetic|1|Selection"; replica_id ‖ seed).
class SynthChallenges {
 public:
  /// num_synth = min(nodes, 2^18) as upstream's `default` (tests may pass another count).
  /// Throws kInvalidArgument if num_synth is 0 or ≥ 2^32, or nodes < 2.
  SynthChallenges(uint64_t nodes, const Domain& replica_id, const Domain& comm_r,
                  std::optional<uint64_t> num_synth = std::nullopt);
  uint64_t num_synth() const { return num_synth_; }
  /// Synthetic challenge i < num_synth() (`gen_synth_challenge`); throws kInvalidArgument otherwise.
  uint64_t synth_challenge(uint64_t i) const;
  /// All synthetic challenges (the iterator).
  std::vector<uint64_t> all() const;
  /// The synthetic indices of partition k's PoRep challenges (`gen_partition_synth_indexes`).
  std::vector<uint64_t> partition_indexes(const Domain& seed, uint32_t k, uint32_t count) const;
  /// Partition k's PoRep challenges (`gen_porep_partition_challenges`).
  std::vector<uint64_t> partition_challenges(const Domain& seed, uint32_t k, uint32_t count) const;

 private:
  uint64_t nodes_, num_synth_;
  Domain replica_id_;
  std::array<uint8_t, 32> gen_key_;
};

/// Partition k's challenges under `cfg` (params.rs `PublicInputs::challenges` with a seed): interactive
/// from (replica_id, seed), synthetic from (replica_id, comm_r, seed), NI from (replica_id, comm_r).
/// Throws kInvalidArgument if k ≥ cfg.partitions or cfg is invalid.
std::vector<uint64_t> partition_challenges(const PoRepConfig& cfg, const Domain& replica_id,
                                           const Domain& comm_r, const Domain& seed, uint32_t k);

/// What verify_seal takes besides the proof (filecoin-proofs api/seal.rs).
struct SealPublicData {
  Domain comm_r{}, comm_d{}, prover_id{};
  uint64_t sector_id = 0;
  Domain ticket{}, seed{};
};

/// One challenge's graph data: the challenged node, its 6 DRG and 8 expander parents.
struct ChallengeParents {
  uint64_t challenge = 0;
  std::array<uint32_t, kBaseDegree> drg{};
  std::array<uint32_t, kExpDegree> exp{};
};
/// The challenges of partition k with their parents in `graph` (what a C1's proofs must open).
std::vector<ChallengeParents> partition_challenge_parents(const PoRepConfig& cfg, const SdrGraph& graph,
                                                          const Domain& replica_id, const Domain& comm_r,
                                                          const Domain& seed, uint32_t k);

/// Partition k's public inputs, without the leading ONE, as verify_seal / get_seal_inputs compute them
/// (circuit/proof.rs `generate_public_inputs`): replica_id, comm_d, comm_r, then per challenge c:
/// c (tree D path), 6 DRG parents, 8 expander parents, c (UInt64), c (tree R path), c (tree C path).
/// 3 + 18·challenges_per_partition values.
/// `graph` must be the config's graph (nodes, porep_id, api_version); throws kInvalidArgument otherwise,
/// for an invalid cfg or k ≥ partitions, for an all-zero comm_d or comm_r, and for comm_d / comm_r that
/// are not canonical field elements (`as_safe_commitment`).
std::vector<Fr> partition_public_inputs(const PoRepConfig& cfg, const SdrGraph& graph,
                                        const SealPublicData& seal, uint32_t k);

}  // namespace cuzk::sdr
