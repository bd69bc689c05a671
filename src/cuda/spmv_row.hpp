// One row of a compact sparse matrix times the witness: the body of the device's a, b, c kernel
// (src/cuda/spmv.cu) and of the CPU's evaluation of the same rows (groth16/compact_cs.cpp), one function
// for both so that the GPU's a, b, c are byte-identical to the CPU's. Plain C++ (no CUDA header): compiled
// for the device by nvcc, for the host by any compiler.
#pragma once

#include <cstdint>

#include "ff/bls12_381.hpp"
#include "ff/platform.hpp"

namespace cuzk {

/// Coefficient-table indices with a fixed meaning: table[0] = 1 and table[1] = −1, added or subtracted
/// without a multiplication (most terms of real circuits are ±1).
inline constexpr uint32_t kCoeffOne = 0, kCoeffMinusOne = 1;

/// A compact CSR matrix seen through raw pointers (host or device memory): row j's terms are
/// (cols[k], coeffs[k]) for k in [offsets[j], offsets[j + 1]), coeffs indexing a coefficient table.
struct CsrView {
  const uint64_t* offsets = nullptr;  ///< rows + 1 entries
  const uint32_t* cols = nullptr;     ///< column (witness index) of each term
  const uint32_t* coeffs = nullptr;   ///< coefficient-table index of each term
  uint64_t rows = 0;
};

/// ⟨row j, w⟩ = Σ table[coeffs[k]]·w[cols[k]] over the row's terms, in term order: ±1 by an addition or
/// a subtraction, anything else by a Montgomery product (the same operations in the same order as
/// groth16/synthesis.cpp's CSR product over the same coefficients, hence the same bytes).
CUZK_HD Fr csr_row_dot(const CsrView& m, const Fr* table, const Fr* w, uint64_t j) {
  Fr acc = Fr::zero();
  for (uint64_t k = m.offsets[j]; k < m.offsets[j + 1]; k++) {
    const uint32_t ci = m.coeffs[k];
    const Fr& x = w[m.cols[k]];
    if (ci == kCoeffOne)
      acc += x;
    else if (ci == kCoeffMinusOne)
      acc -= x;
    else
      acc += table[ci] * x;
  }
  return acc;
}

/// One lane's share of row j when `lanes` lanes sum it together (the device's warp-per-row kernel for long
/// rows): Σ over the row's terms k with (k − first) mod lanes = lane, in order, the same operations as
/// csr_row_dot. The lanes' shares are then added by a shuffle tree (spmv.cu); field additions are exact
/// and fully reduced, so the total equals csr_row_dot's byte for byte.
CUZK_HD Fr csr_row_partial(const CsrView& m, const Fr* table, const Fr* w, uint64_t j, unsigned lane,
                           unsigned lanes) {
  Fr acc = Fr::zero();
  for (uint64_t k = m.offsets[j] + lane; k < m.offsets[j + 1]; k += lanes) {
    const uint32_t ci = m.coeffs[k];
    const Fr& x = w[m.cols[k]];
    if (ci == kCoeffOne)
      acc += x;
    else if (ci == kCoeffMinusOne)
      acc -= x;
    else
      acc += table[ci] * x;
  }
  return acc;
}

}  // namespace cuzk
