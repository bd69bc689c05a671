// Poseidon parameters for BLS12-381's Fr exactly as neptune v11.0.0 derives them for Strength::Standard
// and HashType::MerkleTree (neptune src/poseidon.rs `PoseidonConstants::new_with_strength_and_type`):
// the round numbers (src/round_numbers.rs), the Grain-LFSR round constants (src/round_constants.rs),
// the Cauchy MDS matrix and its inverse (src/mds.rs), the compressed round constants
// (src/preprocessing.rs) and the sparse factorisation of the partial rounds' matrices (src/mds.rs).
// Everything is computed here from those definitions; nothing is pasted. The tests compare the result
// with SupraSeal's precomputed constants files and neptune's known answers.
#pragma once

#include <span>
#include <utility>
#include <vector>

#include "ff/bls12_381.hpp"

namespace cuzk {

/// A square matrix over Fr, row-major: (i, j) is row i, column j. neptune's `Matrix<F>` is
/// `Vec<Vec<F>>` of rows, so (i, j) here is neptune's `m[i][j]`.
struct PoseidonMatrix {
  int n = 0;
  std::vector<Fr> a;  ///< n·n entries, row-major

  PoseidonMatrix() = default;
  /// The n×n zero matrix.
  explicit PoseidonMatrix(int size) : n(size), a(size_t(size) * size, Fr::zero()) {}
  /// The n×n identity.
  static PoseidonMatrix identity(int size);
  /// Entry (i, j): row i, column j.
  Fr& operator()(int i, int j) { return a[size_t(i) * n + j]; }
  const Fr& operator()(int i, int j) const { return a[size_t(i) * n + j]; }
  friend bool operator==(const PoseidonMatrix&, const PoseidonMatrix&) = default;
};

/// One partial round's sparse matrix M″ in neptune's compact form (src/mds.rs `SparseMatrix`): M″'s
/// first column is `w_hat` (t entries), its first row is w_hat[0] followed by `v_rest` (t − 1
/// entries), and the rest is the identity.
struct PoseidonSparseMatrix {
  std::vector<Fr> w_hat;   ///< column 0 of M″, t entries
  std::vector<Fr> v_rest;  ///< row 0 of M″ without its first entry, t − 1 entries
};

/// The constants of one Poseidon instance (neptune src/poseidon.rs `PoseidonConstants<Fr, A>`) for
/// arity A, width t = A + 1, Strength::Standard and HashType::MerkleTree.
struct PoseidonConstants {
  int arity = 0;             ///< A
  int width = 0;             ///< t = A + 1
  int full_rounds = 0;       ///< RF (8)
  int half_full_rounds = 0;  ///< RF / 2
  int partial_rounds = 0;    ///< RP
  Fr domain_tag;             ///< 2^A − 1 (hash_type.rs `HashType::MerkleTree`, poseidon.rs `Arity::tag`)
  /// The Grain-LFSR constants, (RF + RP)·t of them, round r's key for element i at r·t + i.
  std::vector<Fr> round_constants;
  /// The optimised schedule's constants (preprocessing.rs `compress_round_constants`), 8t + RP.
  std::vector<Fr> compressed_round_constants;
  PoseidonMatrix mds;         ///< M, the Cauchy matrix 1/(i + t + j) (symmetric)
  PoseidonMatrix mds_inv;     ///< M⁻¹
  PoseidonMatrix pre_sparse;  ///< the matrix of the last initial full round (not symmetric)
  /// RP sparse matrices, the one for partial round k at index k.
  std::vector<PoseidonSparseMatrix> sparse;

  /// Computes every constant for `arity` from neptune's definitions (no cache; tens of ms for the
  /// large arities). Throws Error(kInvalidArgument) unless 1 ≤ arity ≤ 36 (neptune's `impl_arity!`).
  static PoseidonConstants generate(int arity);
};

/// The cached constants for arity 2, 4, 8, 11, 16, 24 or 36 (the arities neptune's known answers and
/// SupraSeal's files cover), built on first use, thread-safe. Throws Error(kInvalidArgument) for
/// any other arity.
const PoseidonConstants& poseidon_constants(int arity);

/// (RF, RP) for width t with neptune's security margin: neptune src/round_numbers.rs
/// `calc_round_numbers(t, true)`, evaluated in single precision as neptune does.
std::pair<int, int> poseidon_round_numbers(int width);

/// The (rf + rp)·t round constants of the Grain LFSR in self-shrinking mode for a 255-bit prime field
/// and the x⁵ S-box (neptune src/round_constants.rs `generate_constants(1, 1, 255, t, rf, rp)`): each
/// candidate is 255 generated bits read most significant first; candidates ≥ r are skipped.
std::vector<Fr> poseidon_grain_round_constants(int width, int rf, int rp);

/// The Cauchy matrix M(i, j) = 1 / (i + (t + j)), i, j ∈ [0, t) (neptune src/mds.rs `generate_mds`).
PoseidonMatrix poseidon_cauchy_mds(int width);

/// A⁻¹ by Gauss–Jordan elimination (the inverse is unique, so this equals neptune's matrix.rs
/// `invert`). Throws Error(kInvalidArgument) if A is singular.
PoseidonMatrix poseidon_invert(const PoseidonMatrix& a);

/// A · B (neptune src/matrix.rs `mat_mul`).
PoseidonMatrix poseidon_mat_mul(const PoseidonMatrix& a, const PoseidonMatrix& b);

/// The row-vector product v · M, out_j = Σ_i M(i, j)·v_i (neptune src/matrix.rs `apply_matrix`,
/// which despite its name is this product, not M · v).
std::vector<Fr> poseidon_apply_matrix(const PoseidonMatrix& m, std::span<const Fr> v);

}  // namespace cuzk
