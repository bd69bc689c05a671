// Rank-1 constraint systems in compressed-sparse-row form: circom's R1CS, the constraints of an .r1cs
// file, and the prover's ConstraintSystem, the rows a partition's a, b, c are evaluated on
// (cuzk's "pre-compiled constraint evaluator": the matrices are recorded once, each proof is then three
// sparse matrix-vector products, synthesis.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "ff/bls12_381.hpp"
#include "groth16/density.hpp"
#include "groth16/key.hpp"

namespace cuzk {

/// A sparse matrix in compressed-sparse-row form: row i holds the terms
/// (cols[k], vals[k]) for k in [row_offsets[i], row_offsets[i + 1]). Values are Fr in Montgomery form.
struct SparseMatrix {
  std::vector<uint64_t> row_offsets{0};  ///< rows() + 1 entries, starting at 0
  std::vector<uint32_t> cols;            ///< variable index of each term
  std::vector<Fr> vals;                  ///< coefficient of each term (Montgomery form)

  size_t rows() const { return row_offsets.size() - 1; }
  size_t nnz() const { return cols.size(); }
  /// ⟨row i, w⟩ = Σ vals[k]·w[cols[k]]. `w` must cover every column index (not re-checked here).
  Fr dot_row(size_t i, std::span<const Fr> w) const {
    Fr acc = Fr::zero();
    for (uint64_t k = row_offsets[i]; k < row_offsets[i + 1]; k++) acc += vals[k] * w[cols[k]];
    return acc;
  }
  /// Appends a row of terms.
  void push_row(std::span<const uint32_t> c, std::span<const Fr> v) {
    cols.insert(cols.end(), c.begin(), c.end());
    vals.insert(vals.end(), v.begin(), v.end());
    row_offsets.push_back(cols.size());
  }
  friend bool operator==(const SparseMatrix&, const SparseMatrix&) = default;
};

/// A rank-1 constraint system as circom writes it: constraint j says ⟨A_j, w⟩ · ⟨B_j, w⟩ = ⟨C_j, w⟩
/// over Fr. Wire 0 is the constant 1, then public outputs, public inputs, private inputs, internal wires.
struct R1cs {
  uint32_t n_wires = 0;    ///< witness length, including wire 0 (= 1)
  uint32_t n_pub_out = 0;  ///< public outputs (wires 1..n_pub_out)
  uint32_t n_pub_in = 0;   ///< public inputs (the next n_pub_in wires)
  uint32_t n_prv_in = 0;   ///< private inputs (circom counts unused ones, which have no wire)
  uint64_t n_labels = 0;   ///< symbols in the circuit (.sym); ≥ n_wires
  uint32_t n_constraints = 0;
  SparseMatrix a, b, c;                 ///< n_constraints rows each; column indices < n_wires
  std::vector<uint64_t> wire_to_label;  ///< section 3 (n_wires entries), empty when the file has none

  /// Public signals (snarkjs's nPublic): outputs + public inputs, not counting wire 0.
  uint32_t n_public() const { return n_pub_out + n_pub_in; }
};

/// The index of the first constraint j with ⟨A_j,w⟩·⟨B_j,w⟩ ≠ ⟨C_j,w⟩, or nullopt if `witness`
/// (n_wires values, Montgomery form, witness[0] should be 1) satisfies them all. Throws
/// Error(kInvalidArgument) if witness.size() ≠ n_wires.
std::optional<size_t> first_unsatisfied(const R1cs& r1cs, std::span<const Fr> witness);

/// The rows a prover evaluates, in one of the two conventions, with the circuit's densities.
///
/// kBellperson (bellperson's ProvingAssignment + its input constraints): rows = the circuit's
/// constraints, then one row `input_i · 0 = 0` per input, ONE included (A = input_i, B and C empty);
/// a, b, c are all used. kSnarkjs (snarkjs's zkey section 4): A = the constraints, then one row
/// A = w_s per public signal s = 0..nPublic; B = the constraints; C = the constraints' C rows when
/// known (from an .r1cs, for setup), empty when the system comes from a zkey (which stores no C): the
/// snarkjs prover never evaluates C, it takes C·w = (A·w)∘(B·w). In both conventions the domain is the
/// smallest power of two ≥ the number of A rows (at least 2).
struct ConstraintSystem {
  HConvention convention = HConvention::kBellperson;
  int log_n = 0;
  uint32_t n_inputs = 0;  ///< public inputs including ONE
  uint32_t n_aux = 0;
  SparseMatrix a, b, c;  ///< columns index inputs ‖ aux
  Density a_aux;         ///< n_aux bits: aux variable i occurs in A
  Density b_inp;         ///< n_inputs bits: input i occurs in B
  Density b_aux;         ///< n_aux bits: aux variable i occurs in B

  uint32_t n_vars() const { return n_inputs + n_aux; }
  size_t domain_size() const { return size_t{1} << log_n; }
  /// Total number of non-zero coefficients in A, B and C.
  size_t nnz() const { return a.nnz() + b.nnz() + c.nnz(); }
};

/// Builds the prover's rows for `r1cs` in `convention` (inputs = wire 0 and the public signals, aux =
/// the rest) and computes the densities from the columns that occur. Throws Error(kInvalidArgument) when
/// the domain would exceed 2^28.
ConstraintSystem constraint_system(const R1cs& r1cs, HConvention convention);

/// Recomputes a_aux, b_inp and b_aux of `cs` from the columns of its A and B matrices.
void compute_densities(ConstraintSystem& cs);

}  // namespace cuzk
