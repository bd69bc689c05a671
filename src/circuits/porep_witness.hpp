// The shapes of Filecoin's PoRep circuit and the witness of one partition: what the circuit reads of
// a C1 output's vanilla proofs (POREP_CIRCUIT.md §1, rust-fil-proofs storage-proofs-porep
// src/stacked/circuit/params.rs `Proof`), independent of the gadgets that consume it (stacked.hpp).
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "circuits/por.hpp"

namespace cuzk::circuits {

/// DRG parents and expander parents of a node (rust-fil-proofs BASE_DEGREE, EXP_DEGREE).
inline constexpr size_t kDrgParents = 6, kExpParents = 8;

/// The shape of one partition's circuit: what the recorded constraint system depends on.
struct StackedShape {
  std::string name;         ///< e.g. "32GiB" or "test-base-8"
  uint64_t nodes = 0;       ///< sector nodes (32 bytes each)
  uint32_t layers = 0;      ///< SDR layers: the column height and the column hash's arity (2 or 11)
  uint32_t challenges = 0;  ///< challenges per partition
  TreeShape tree_d;         ///< binary SHA-256 tree over the data
  TreeShape tree_rc;        ///< trees R and C (Poseidon)

  /// Public inputs including ONE: 4 + 18 per challenge.
  uint32_t num_inputs() const { return 4 + 18 * challenges; }
};

/// Filecoin's production shapes (rust-fil-proofs filecoin-proofs src/constants.rs; POREP_CIRCUIT.md
/// §1): "2KiB", "8MiB", "512MiB", "32GiB", "64GiB". Throws Error(kInvalidArgument) for other names.
StackedShape stacked_shape(const std::string& sector_size);
/// The four shapes of upstream's stacked-circuit tests (storage-proofs-porep tests/stacked_circuit.rs:
/// 2 layers, 1 challenge): "base-2", "base-8", "sub-8-4", "top-8-4-2". Throws for other names.
StackedShape stacked_test_shape(const std::string& name);

/// A column opening: the column's rows (one per layer) and its path in tree C.
struct ColumnOpening {
  std::vector<Fr> rows;
  std::vector<PathLevel> path;
};

/// The witness of one challenge (what the circuit reads of a vanilla proof, POREP_CIRCUIT.md §1).
struct ChallengeWitness {
  uint64_t challenge = 0;  ///< the challenged node
  Fr data_leaf;            ///< comm_d_proofs.leaf
  std::vector<PathLevel> comm_d_path;
  std::vector<ColumnOpening> drg_parents;  ///< 6
  std::vector<ColumnOpening> exp_parents;  ///< 8
  std::vector<PathLevel> comm_r_last_path;
  std::vector<PathLevel> comm_c_path;  ///< the challenged column's path (c_x)
};

/// The witness of one partition.
struct StackedWitness {
  Fr replica_id, comm_d, comm_r, comm_r_last, comm_c;
  std::vector<ChallengeWitness> challenges;  ///< shape.challenges of them
};

/// Upstream's public-input order of a partition: replica_id, comm_d, comm_r, then per challenge
/// (tree-D index = challenge, the 6 DRG and 8 expander parents' indices, challenge, challenge,
/// challenge); ONE not included. `parents[i]` holds challenge i's 14 parent node indices (DRG first).
std::vector<Fr> stacked_public_inputs(const Fr& replica_id, const Fr& comm_d, const Fr& comm_r,
                                      std::span<const uint64_t> challenges,
                                      std::span<const std::array<uint64_t, 14>> parents);

}  // namespace cuzk::circuits
