// Filecoin PoRep commit-phase-1 output (C1): the serde_json of rust-filecoin-proofs-api's
// `SealCommitPhase1Output` (src/seal.rs), read into typed vanilla proofs and written back byte for
// byte as serde_json::to_vec writes it; and the per-partition witness of the C2 circuit
// (circuits/porep_witness.hpp) taken from it. POREP_CIRCUIT.md §1 describes the format.
//
// Wire format (compact JSON, keys in Rust struct field order; every Domain / Commitment / Ticket is a
// JSON array of 32 integers 0..255, the 32-byte little-endian field representation):
//   {"registered_proof": "StackedDrg32GiBV1_1",                       (API src/registry.rs)
//    "vanilla_proofs": {"StackedDrg32GiBV1": [[Proof; challenges]; partitions]},
//    "comm_r", "comm_d", "replica_id", "seed", "ticket"}
//   Proof (rust-fil-proofs storage-proofs-porep src/stacked/vanilla/params.rs):
//     {"comm_d_proofs": MerkleProof, "comm_r_last_proof": MerkleProof,
//      "replica_column_proofs": {"c_x": ColumnProof, "drg_parents": [6], "exp_parents": [8]},
//      "labeling_proofs": [{"parents": [37], "layer_index", "node"}; layers],
//      "encoding_proof": {"parents": [37], "layer_index", "node"}}
//   ColumnProof (column_proof.rs, column.rs): {"column": {"index", "rows": [layers], "_h": null},
//                                              "inclusion_proof": MerkleProof}
//   MerkleProof (storage-proofs-core src/merkle/proof.rs): {"data": {"Single": {"root", "leaf",
//     "path": {"path": [{"hashes": [arity − 1], "index"}]}}}}, or "Sub": {"base_proof": {"path"},
//     "sub_proof": {"path"}, "root", "leaf"}, or "Top": {"base_proof", "sub_proof", "top_proof",
//     "root", "leaf"}; levels leaf → root.
// Curio's envelope (curio lib/proof/porep_vproof_test.go, extern/cuzk/cuzk-core/src/prover.rs
// C1OutputWrapper): {"SectorNum": n, "Phase1Out": base64(the JSON above), "SectorSize": bytes}.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "circuits/porep_witness.hpp"

namespace cuzk {

/// A 32-byte value as serde writes `[u8; 32]` (Commitment, Ticket, Sha256Domain, PoseidonDomain).
using Bytes32 = std::array<uint8_t, 32>;

/// The PoRep feature of a registered seal proof (rust-filecoin-proofs-api src/registry.rs).
enum class PoRepFeature { kInteractive, kSyntheticPoRep, kNonInteractivePoRep };

/// One row of the registered seal proof table (API src/registry.rs `RegisteredSealProof`,
/// `REGISTERED_PROOF_IDS`, `version()`, `partitions()`; rust-fil-proofs filecoin-proofs
/// src/constants.rs POREP_PARTITIONS / get_porep_non_interactive_partitions, parameters.rs
/// select_challenges: ⌈minimum challenges / partitions⌉).
struct RegisteredSealProof {
  uint32_t id = 0;            ///< the append-only registry id, 0..19
  std::string_view name;      ///< the serde variant name, e.g. "StackedDrg32GiBV1_1"
  std::string_view size;      ///< "2KiB", "8MiB", "512MiB", "32GiB" or "64GiB" (circuits::stacked_shape)
  uint64_t sector_size = 0;   ///< bytes
  uint32_t api_version[3]{};  ///< semver: V1 → 1.0.0, V1_1 → 1.1.0, Synthetic and NI → 1.2.0
  PoRepFeature feature = PoRepFeature::kInteractive;
  uint32_t partitions = 0;                ///< 1 or 10 (interactive, synthetic); 13 or 126 (non-interactive)
  uint32_t challenges_per_partition = 0;  ///< 2 (≤ 1 GiB sectors) or 18

  /// The key of `vanilla_proofs` (API src/seal.rs VanillaSealProof): "StackedDrg<size>V1" for every
  /// variant of a size.
  std::string shape_key() const;
  /// The porep_id (API registry.rs `porep_id`): the id as u64 little-endian in bytes 0..8, the nonce
  /// (always 0) as u64 LE in bytes 8..16, zeros after.
  Bytes32 porep_id() const;
};

/// All 20 registered seal proofs, in id order.
std::span<const RegisteredSealProof> registered_seal_proofs();
/// The registered seal proof of a serde variant name; throws Error(kInvalidArgument) naming it if
/// unknown.
const RegisteredSealProof& registered_seal_proof(std::string_view name);
/// The registered seal proof of an id; throws Error(kInvalidArgument) if it is not 0..19.
const RegisteredSealProof& registered_seal_proof_by_id(uint64_t id);

/// The three MerkleProof variants (storage-proofs-core src/merkle/proof.rs `ProofData`).
enum class MerkleProofKind { kSingle, kSub, kTop };

/// The MerkleProof variant upstream writes for a tree of `shape`: Top with a top level, Sub with a
/// sub level, Single otherwise (storage-proofs-core src/merkle/proof.rs).
inline MerkleProofKind merkle_proof_kind(const circuits::TreeShape& shape) {
  return shape.top_arity   ? MerkleProofKind::kTop
         : shape.sub_arity ? MerkleProofKind::kSub
                           : MerkleProofKind::kSingle;
}

/// A MerkleProof: root, leaf and the path, leaf → root, base levels first. For kSub the last level is
/// the sub-tree level (`sub_proof`), for kTop the last two are the sub and top levels (`sub_proof`,
/// `top_proof`): Filecoin's compound trees have exactly one of each (the reader enforces it).
struct C1MerkleProof {
  MerkleProofKind kind = MerkleProofKind::kSingle;
  Fr root, leaf;
  std::vector<circuits::PathLevel> path;  ///< siblings = PathElement.hashes, index = PathElement.index

  /// The leaf's position in the tree: the mixed-radix number of the indices (proof.rs path_index).
  uint64_t path_index() const;
};

/// A ColumnProof (storage-proofs-porep src/stacked/vanilla/column_proof.rs): the column of a node
/// (its label in every layer) and that column's hash's inclusion proof in tree C.
struct C1ColumnProof {
  uint32_t index = 0;    ///< Column.index: the node
  std::vector<Fr> rows;  ///< Column.rows: one per layer (Column._h is always null)
  C1MerkleProof inclusion_proof;
};

/// A ReplicaColumnProof (params.rs): the challenged node's column and its 6 DRG and 8 expander
/// parents' columns.
struct C1ReplicaColumnProof {
  C1ColumnProof c_x;
  std::vector<C1ColumnProof> drg_parents;  ///< 6
  std::vector<C1ColumnProof> exp_parents;  ///< 8
};

/// A LabelingProof or EncodingProof (labeling_proof.rs, encoding_proof.rs: the same three fields):
/// the 37 (TOTAL_PARENTS) parent labels — the node's 6 (layer 1) or 14 parents repeated — of `node`
/// in layer `layer_index` (1-based).
struct C1LabelingProof {
  std::vector<Fr> parents;
  uint32_t layer_index = 0;
  uint64_t node = 0;
};

/// One challenge's vanilla proof (params.rs `Proof`).
struct C1VanillaProof {
  C1MerkleProof comm_d_proofs;      ///< tree D (SHA-256, binary, Single)
  C1MerkleProof comm_r_last_proof;  ///< tree R (Poseidon, arity 8, Single / Sub / Top per the shape)
  C1ReplicaColumnProof replica_column_proofs;
  std::vector<C1LabelingProof> labeling_proofs;  ///< one per layer, layer_index 1..layers
  C1LabelingProof encoding_proof;                ///< layer_index = layers
};

/// Curio's envelope fields when the C1 came wrapped ({"SectorNum", "Phase1Out", "SectorSize"}).
struct C1Envelope {
  uint64_t sector_num = 0;
  uint64_t sector_size = 0;
};

/// A SealCommitPhase1Output (API src/seal.rs), validated by read_c1.
struct C1Output {
  RegisteredSealProof registered_proof;  ///< name, id, size, partitions, …
  std::string shape_key;                 ///< the key of vanilla_proofs, "StackedDrg<size>V1"
  std::vector<std::vector<C1VanillaProof>> vanilla_proofs;  ///< [partition][challenge]
  Bytes32 comm_r{}, comm_d{}, replica_id{}, seed{}, ticket{};
  std::optional<C1Envelope> envelope;  ///< set when read from Curio's envelope; not written
};

/// Parses and validates a C1 output: the raw serde_json, or Curio's envelope around it (detected by
/// its "Phase1Out" key; SectorNum and SectorSize required, SectorSize checked against the registered
/// proof). `source` (e.g. the path) prefixes every error; errors inside Phase1Out read
/// "<source>: Phase1Out: <JSON path>: …". Streams (nlohmann SAX): only one vanilla proof at a time is
/// held as a JSON tree (one a thread where a raw C1 of 1 MB or more is read on up to 8 threads,
/// formats/c1/parallel.hpp, which falls back to this serial read for any error), and an envelope's
/// Phase1Out is base64-decoded while it is parsed (never held decoded, nor copied unless it contains
/// JSON escapes), so the peak is the input plus the typed result (≈ 13–15 MB for a 32 GiB C1). Unknown
/// fields are ignored, as serde does.
///
/// Throws Error(kInvalidFile, "<source>: <JSON path>: <problem>"), the JSON path written like
/// `vanilla_proofs.StackedDrg2KiBV1[0][1].comm_r_last_proof.data.Single.path.path[0].index`, for:
/// malformed or truncated JSON, missing / duplicate / mistyped fields, a byte array that is not 32
/// integers 0..255, a field element ≥ r (every vanilla-proof Domain, comm_r, comm_d, replica_id);
/// an unknown registered proof or one whose size disagrees with the shape key (or the envelope's
/// SectorSize); a partition or challenge count other than the registered proof's; a Merkle path whose
/// variant, level count, sibling count or index (< arity) does not fit the shape (tree D binary of
/// height log2(nodes), Single; trees R and C arity 8 with the shape's sub / top level); a path index,
/// column index, labeling or encoding node / layer_index that disagrees with the challenge
/// (labeling_proofs[0].node; path_index of each proof = its node, as upstream's vanilla verify
/// checks); column rows ≠ layers, labeling proofs ≠ layers, parents ≠ 37; comm_r, comm_d or seed zero;
/// comm_d proofs whose root is not comm_d, comm_r_last roots or tree-C roots (every column proof)
/// that differ between challenges or partitions.
C1Output read_c1(std::span<const uint8_t> bytes, const std::string& source);

/// The JSON serde_json::to_vec writes for `c1` (compact, struct field order), so that
/// write_c1_json(read_c1(x)) == x for a serde-written x. Does not validate; kSub / kTop proofs need at
/// least 1 / 2 levels (else Error(kInvalidArgument)).
std::string write_c1_json(const C1Output& c1);
/// Curio's envelope around write_c1_json(c1), as Go's json.Marshal writes it:
/// {"SectorNum":n,"Phase1Out":"<standard base64>","SectorSize":<registered proof's sector size>}.
std::string write_c1_envelope_json(const C1Output& c1, uint64_t sector_num);

/// The circuit shape of `c1`'s sector size (circuits::stacked_shape of registered_proof.size).
circuits::StackedShape shape_of(const C1Output& c1);

/// The witness of partition `partition` (POREP_CIRCUIT.md §1 "What the circuit reads"; rust-fil-proofs
/// storage-proofs-porep src/stacked/circuit/proof.rs StackedCompound::circuit, params.rs
/// Proof::from): replica_id, comm_d and comm_r from the top level; comm_r_last and comm_c from
/// vanilla_proofs[partition][0] (comm_r_last_proof.root, c_x.inclusion_proof.root); per challenge
/// the challenge = labeling_proofs[0].node, data leaf = comm_d_proofs.leaf, the comm_d, comm_r_last and
/// c_x paths and the 6 + 8 parent columns (rows and paths). Throws Error(kInvalidArgument) if the
/// partition is out of range or `shape` (layers, challenges, tree shapes) does not fit `c1`.
circuits::StackedWitness partition_witness(const C1Output& c1, size_t partition,
                                           const circuits::StackedShape& shape);

/// The challenges of a partition (labeling_proofs[0].node of each vanilla proof) and their 14 parent
/// node indices (the DRG then expander parents' Column.index), the arguments of
/// circuits::stacked_public_inputs. Throws Error(kInvalidArgument) for a partition out of range.
std::vector<uint64_t> partition_challenges(const C1Output& c1, size_t partition);
std::vector<std::array<uint64_t, 14>> partition_parents(const C1Output& c1, size_t partition);
/// The public inputs of a partition (without ONE) computed from the C1's commitments and node indices
/// alone, as circuits::stacked_public_inputs orders them. Throws Error(kInvalidArgument) for a partition
/// out of range.
std::vector<Fr> partition_public_inputs(const C1Output& c1, size_t partition);

/// Standard base64 with padding (RFC 4648 §4), as Go's encoding/base64.StdEncoding.
std::string base64_encode(std::span<const uint8_t> bytes);
/// Decodes standard padded base64; throws Error(kInvalidFile, "<what>: …") for a length that is not a
/// multiple of 4, a character outside the alphabet or misplaced padding.
std::vector<uint8_t> base64_decode(std::string_view text, const std::string& what);

}  // namespace cuzk
