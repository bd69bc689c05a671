// SnapDeals vanilla partition proofs (rust-fil-proofs storage-proofs-update src/vanilla.rs
// `PartitionProof`, `ChallengeProof`): the typed proof, its bincode wire form, the vanilla verifier
// (vanilla.rs `EmptySectorUpdate::verify`) and the circuit witness taken from it (compound.rs
// `circuit`, circuit.rs `PrivateInputs::new`).
//
// Wire form. filecoin-ffi and rust-filecoin-proofs-api (src/update.rs `generate_partition_proofs`)
// hand a partition proof around as `PartitionProofBytes(bincode::serialize(&proof))`, and Curio's cuzk
// client sends exactly those bytes, one element of `vanilla_proofs` per partition (curio
// extern/cuzk/cuzk-core/src/prover.rs `prove_snap_deals`). bincode 1 with its default options:
// integers little-endian and fixed width, a Vec as u64 length then its elements, an enum as u32
// variant index then its fields, a Domain as its 32 raw bytes. PartitionProof = comm_c,
// apex_leafs: Vec<Domain>, challenge_proofs: Vec<{proof_r_old, proof_d_new, proof_r_new}>; a
// MerkleProof (storage-proofs-core src/merkle/proof.rs) = variant 0 Single {root, leaf, path}, 1 Sub
// {base_proof, sub_proof, root, leaf} or 2 Top {base_proof, sub_proof, top_proof, root, leaf}; a path
// = Vec<{hashes: Vec<Domain>, index: u64}>, leaf → root.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "circuits/empty_sector_update.hpp"
#include "formats/c1.hpp"

namespace cuzk {

/// One challenge's three openings (vanilla.rs `ChallengeProof`).
struct UpdateChallengeProof {
  C1MerkleProof proof_r_old;  ///< tree R old (Poseidon; Single / Sub / Top per the sector size)
  C1MerkleProof proof_d_new;  ///< tree D new (SHA-256, binary, Single)
  C1MerkleProof proof_r_new;  ///< tree R new
};

/// One partition's vanilla proof (vanilla.rs `PartitionProof`).
struct UpdatePartitionProof {
  Fr comm_c;                   ///< the sector's comm_c (tree C's root), shared by the old and the new comm_r
  std::vector<Fr> apex_leafs;  ///< apex_leaf_count
  std::vector<UpdateChallengeProof> challenge_proofs;  ///< challenge_count
};

/// The three public commitments of an update (filecoin-proofs src/api/update.rs).
struct UpdateCommitments {
  Fr comm_r_old, comm_d_new, comm_r_new;
};

/// The bincode bytes of `p` (see the file comment), as rust-filecoin-proofs-api writes them.
std::vector<uint8_t> write_update_partition_proof(const UpdatePartitionProof& p);

/// Parses one partition proof's bincode bytes and checks them against `shape`: numbers of apex
/// leaves and challenge proofs, each Merkle proof's variant, levels and sibling counts, every Domain
/// a canonical field element, no bytes left over. Throws Error(kInvalidArgument) whose message starts
/// with `source` and names the part (e.g. "<source>: challenge_proofs[3].proof_r_new: …").
UpdatePartitionProof read_update_partition_proof(std::span<const uint8_t> bytes,
                                                 const circuits::UpdateShape& shape,
                                                 const std::string& source);

/// The vanilla verifier (vanilla.rs `EmptySectorUpdate::verify`) of partition k with h: comm_r_old and
/// comm_r_new = Poseidon2(comm_c, root) of the proofs' roots, every challenge's three openings at the
/// challenge (update_challenges) and under the right roots, the new label = old + data·rho, and
/// every apex path sibling in the apex tree built from apex_leafs. Throws Error(kInvalidArgument)
/// naming the first check that fails (prefixed by `source`); returns normally when all hold.
void verify_update_partition(const circuits::UpdateShape& shape, uint32_t k, uint32_t h,
                             const UpdateCommitments& comms, const UpdatePartitionProof& p,
                             const std::string& source);

/// The circuit's witness of partition k (compound.rs `circuit`): the commitments, comm_c, the roots of
/// challenge 0's tree-R proofs, the apex leaves and every challenge's leaves and paths. Throws
/// Error(kInvalidArgument) when `p` has no challenge proofs (the shape is checked by the circuit).
circuits::UpdateWitness update_partition_witness(uint32_t k, uint32_t h, const UpdateCommitments& comms,
                                                 const UpdatePartitionProof& p);

/// The data of a fake update: random old labels and new data at every node (full trees, sizes up to
/// 16 MiB), or one random old label and one random data value for the whole sector (trees of any size
/// in little memory: the new labels differ only where rho does, by the nodes' h high bits).
enum class FakeUpdateData { kRandom, kUniform };

/// A fake update (tests and benchmarks): old labels, new data and comm_c drawn from `seed` as
/// `data` says; trees R old, D new and R new (label_r_new = label_r_old + data·rho(phi, node >> (bits −
/// h))); the commitments; and every partition's vanilla proof with h (0: the size's h_default). Throws
/// Error(kInvalidArgument) for an unknown size, an h the size does not allow, or random data above
/// 16 MiB.
struct FakeUpdate {
  circuits::UpdateShape shape;
  uint32_t h = 0;
  UpdateCommitments comms;
  std::vector<UpdatePartitionProof> partitions;
};
FakeUpdate make_fake_update(const std::string& sector_size, uint64_t seed, uint32_t h = 0,
                            FakeUpdateData data = FakeUpdateData::kRandom);

}  // namespace cuzk
