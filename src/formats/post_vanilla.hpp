// Filecoin's fallback-PoSt vanilla proofs (WinningPoSt, WindowPoSt) as they reach a prover, and the
// circuit witness of one partition made from them.
//
// Wire format: every vanilla proof is one sector's `FallbackPoStSectorProof` (rust-fil-proofs
// filecoin-proofs src/types/mod.rs) serialised with bincode 1 (default options: little-endian, u64
// lengths and usize, u32 enum variant index, [u8; 32] as 32 raw bytes): rust-filecoin-proofs-api
// src/post.rs `generate_single_vanilla_proof` writes it, `generate_winning_post_with_vanilla` and
// `generate_single_window_post_with_vanilla` read it; filecoin-ffi and Curio's cuzk client
// (extern/cuzk/cuzk-core/src/prover.rs, SubmitProofRequest.vanilla_proofs) pass the bytes unchanged. The
// same struct's serde JSON is read and written too (read_post_vanilla_proof_json).
//   FallbackPoStSectorProof = sector_id: u64, comm_r: [u8; 32],
//                             vanilla_proof: {sectors: Vec<SectorProof>}           (fallback vanilla.rs
//                             Proof)
//   SectorProof             = inclusion_proofs: Vec<MerkleProof>, comm_c: [u8; 32], comm_r_last: [u8; 32]
//   MerkleProof             = u32 variant: 0 Single {root, leaf, path}, 1 Sub {base_proof: path,
//                             sub_proof: path, root, leaf}, 2 Top {base_proof, sub_proof, top_proof,
//                             root, leaf}; path = Vec<{hashes: Vec<[u8; 32]>, index: u64}>, leaf → root
//                             (storage-proofs-core src/merkle/proof.rs).
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "circuits/fallback_post.hpp"
#include "formats/c1.hpp"
#include "util/thread_pool.hpp"

namespace cuzk {

/// One registered PoSt proof (rust-filecoin-proofs-api src/registry.rs `RegisteredPoStProof`; the ids
/// are filecoin-ffi's, as Curio's cuzk maps them in extern/cuzk/cuzk-core/src/prover.rs
/// `registered_post_proof_from_u64`: 0-4 Winning V1, 5-9 Window V1, 10-14 Window V1_1 = the API's V1_2).
struct RegisteredPostProof {
  uint32_t id = 0;
  std::string_view name;  ///< the API's variant name, e.g. "StackedDrgWindow32GiBV1_2"
  std::string_view size;  ///< "2KiB", "8MiB", "512MiB", "32GiB" or "64GiB"
  circuits::PostType type = circuits::PostType::kWinning;
  circuits::PostApiVersion api = circuits::PostApiVersion::kV1_0_0;  ///< V1 → 1.0.0, V1_2 → 1.2.0

  /// The circuit shape (circuits::post_shape of type and size).
  circuits::PostShape shape() const;
};

/// All 15 registered PoSt proofs, in id order.
std::span<const RegisteredPostProof> registered_post_proofs();
/// The registered PoSt proof of an id; throws Error(kInvalidArgument) if it is not 0..14.
const RegisteredPostProof& registered_post_proof_by_id(uint64_t id);
/// The registered PoSt proof of a variant name (the API's, or filecoin-ffi's "…V1_1" for the
/// API's "…V1_2"); throws Error(kInvalidArgument) naming it if unknown.
const RegisteredPostProof& registered_post_proof(std::string_view name);

/// One SectorProof (storage-proofs-post fallback vanilla.rs): the challenges' openings of tree R and
/// the sector's comm_c and comm_r_last.
struct PostSectorProof {
  std::vector<C1MerkleProof> inclusion_proofs;
  Fr comm_c, comm_r_last;
};

/// A FallbackPoStSectorProof (filecoin-proofs src/types/mod.rs): one sector's vanilla proof.
struct PostVanillaProof {
  uint64_t sector_id = 0;
  Fr comm_r;
  std::vector<PostSectorProof> sectors;  ///< vanilla_proof.sectors (one SectorProof in practice)
};

/// Reads one bincode FallbackPoStSectorProof whose Merkle proofs open a tree of `tree`'s shape.
/// `source` prefixes every error. Throws Error(kInvalidFile, "<source>: byte <offset>: <field>: <problem>")
/// for truncated input or trailing bytes, an unknown MerkleProof variant or one that does not fit the
/// tree (variant, level count, sibling count, index ≥ arity), a 32-byte value that is not a field
/// element (< r), and absurd lengths (more entries than bytes left).
PostVanillaProof read_post_vanilla_proof(std::span<const uint8_t> bytes, const circuits::TreeShape& tree,
                                         const std::string& source);

/// The bincode bytes of `p` as Rust's bincode::serialize writes them (read_post_vanilla_proof's
/// inverse). Throws Error(kInvalidArgument) for a kSub / kTop proof with too few levels.
std::vector<uint8_t> write_post_vanilla_proof(const PostVanillaProof& p);

/// Reads the serde JSON of one FallbackPoStSectorProof (serde_json of the same struct, e.g. what Rust
/// tooling dumps): {"sector_id": n, "comm_r": [32 integers], "vanilla_proof": {"sectors": [{
/// "inclusion_proofs": [{"data": {"Single" | "Sub" | "Top": …}}], "comm_c", "comm_r_last"}]}}, the
/// MerkleProof variants as in formats/c1.hpp. Unknown keys are ignored, as serde does. Throws
/// Error(kInvalidFile, "<source>: <JSON path>: <problem>") for malformed JSON, a missing or mistyped
/// field, a byte array that is not 32 integers 0..255 or not a field element, and a Merkle proof that
/// does not fit `tree` (as read_post_vanilla_proof).
PostVanillaProof read_post_vanilla_proof_json(std::span<const uint8_t> bytes, const circuits::TreeShape& tree,
                                              const std::string& source);

/// The compact JSON serde_json::to_vec writes for `p` (struct field order), read_post_vanilla_proof_json's
/// inverse. Throws Error(kInvalidArgument) for a kSub / kTop proof with too few levels.
std::string write_post_vanilla_proof_json(const PostVanillaProof& p);

/// One partition ready for the circuit: the witness, and the partition's public sectors and index, the
/// arguments of circuits::fallback_post_public_inputs.
struct PostPartition {
  circuits::PostWitness witness;
  std::vector<circuits::PostPublicSector> public_sectors;
  size_t partition = 0;  ///< k of fallback_post_public_inputs
};

/// The circuit witness of a PoSt partition from its sectors' vanilla proofs, as filecoin-proofs
/// src/api/post_util.rs `single_partition_vanilla_proofs` and the compound `circuit` lay them out:
/// WinningPoSt: one vanilla proof of one SectorProof with 66 inclusion proofs, unrolled into 66
/// circuit sectors of one challenge; WindowPoSt: the SectorProofs of the given sectors in order (10
/// inclusion proofs each), the last repeated up to the partition's sector count; partition_index is
/// the partition's position in the whole proof (it selects the challenges before api V1_2).
///
/// Before anything is returned the vanilla proofs are verified as upstream's `FallbackPoSt::verify`
/// does: comm_r = Poseidon2(comm_c, root of the first inclusion proof), every inclusion proof's root and
/// the comm_r_last field = that root, its path hashes up to it, and its leaf index is the challenge derived
/// from `randomness`. Throws Error(kInvalidArgument) naming the vanilla proof (its position and sector id),
/// the challenge and the problem: wrong counts (proofs, SectorProofs, inclusion proofs; a WindowPoSt
/// partition with more sectors than the circuit), duplicate sector ids, and every failed check.
PostPartition post_partition(const RegisteredPostProof& proof, std::span<const PostVanillaProof> vanilla,
                             const std::array<uint8_t, 32>& randomness, size_t partition_index,
                             ThreadPool* pool = nullptr);

/// Filecoin's prover_id of a miner actor id (filecoin-ffi / Curio `make_prover_id`): the id address's
/// payload, the id as unsigned LEB128, zero-padded to 32 bytes.
std::array<uint8_t, 32> post_prover_id(uint64_t miner_id);

/// Filecoin's parameter file name of a PoSt circuit without extension (rust-fil-proofs
/// parameters.json): "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-<8-0-0|8-8-0|8-8-2>-"
/// followed by the hex SHA-256 of shape.identifier() (storage-proofs-core parameter_cache.rs
/// `cache_identifier`). Add ".params" or ".vk".
std::string post_param_stem(const circuits::PostShape& shape);

}  // namespace cuzk
