// circom's .r1cs v1 (format spec: iden3/r1csfile doc/r1cs_bin_format.md; reader: r1csfile's
// src/r1csfile.js). Section 1 header `n8 u32 | prime[n8] | nWires u32 | nPubOut u32 | nPubIn u32 |
// nPrvIn u32 | nLabels u64 | nConstraints u32`; section 2 the constraints, each three linear
// combinations A, B, C written `nTerms u32 | {wire u32, coeff[n8]}` with coefficients plain
// (non-Montgomery) little-endian; section 3 (optional) wire → label u64. Wire 0 is the constant 1,
// then the public outputs, the public inputs, the private inputs and the internal wires. Sections 4/5
// (PLONK custom gates) are ignored.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <vector>

#include "ff/bls12_381.hpp"

namespace cuzk {

class BinFile;

/// A sparse matrix in compressed-sparse-row form: row i holds the terms
/// (cols[k], vals[k]) for k in [row_offsets[i], row_offsets[i + 1]). Values are Fr in Montgomery form.
struct SparseMatrix {
  std::vector<uint64_t> row_offsets{0};  ///< rows() + 1 entries, starting at 0
  std::vector<uint32_t> cols;            ///< wire index of each term
  std::vector<Fr> vals;                  ///< coefficient of each term (Montgomery form)

  size_t rows() const { return row_offsets.size() - 1; }
  size_t nnz() const { return cols.size(); }
  /// ⟨row i, w⟩ = Σ vals[k]·w[cols[k]]. `w` must cover every column index (not re-checked here).
  Fr dot_row(size_t i, std::span<const Fr> w) const {
    Fr acc = Fr::zero();
    for (uint64_t k = row_offsets[i]; k < row_offsets[i + 1]; k++) acc += vals[k] * w[cols[k]];
    return acc;
  }
};

/// A rank-1 constraint system: constraint j says ⟨A_j, w⟩ · ⟨B_j, w⟩ = ⟨C_j, w⟩ over Fr.
struct R1cs {
  uint32_t n_wires = 0;      ///< witness length, including wire 0 (= 1)
  uint32_t n_pub_out = 0;    ///< public outputs (wires 1..n_pub_out)
  uint32_t n_pub_in = 0;     ///< public inputs (the next n_pub_in wires)
  uint32_t n_prv_in = 0;     ///< private inputs
  uint64_t n_labels = 0;     ///< symbols in the circuit (.sym); ≥ n_wires
  uint32_t n_constraints = 0;
  SparseMatrix a, b, c;      ///< n_constraints rows each; column indices < n_wires
  std::vector<uint64_t> wire_to_label;  ///< section 3 (n_wires entries), empty when the file has none

  /// Public signals (snarkjs's nPublic): outputs + public inputs, not counting wire 0.
  uint32_t n_public() const { return n_pub_out + n_pub_in; }
};

/// Reads an .r1cs v1 file. Throws Error(kIo) if it cannot be read, Error(kInvalidFile) naming the path
/// and the problem: wrong magic/version, truncation, a prime other than BLS12-381's r (the message
/// names it, e.g. "the bn128 scalar field prime r"), a wire index ≥ nWires, a coefficient ≥ r,
/// inconsistent counts, or bytes left over in a section.
R1cs read_r1cs(const std::filesystem::path& path);
/// The same on an opened container (magic "r1cs", version 1).
R1cs read_r1cs(const BinFile& file);

/// The index of the first constraint j with ⟨A_j,w⟩·⟨B_j,w⟩ ≠ ⟨C_j,w⟩, or nullopt if `witness`
/// (n_wires values, Montgomery form, witness[0] should be 1) satisfies them all. Throws
/// Error(kInvalidArgument) if witness.size() ≠ n_wires.
std::optional<size_t> first_unsatisfied(const R1cs& r1cs, std::span<const Fr> witness);

}  // namespace cuzk
