// The prover's rows in compact form: what a GPU keeps resident beside a proving key to evaluate a, b, c
// on the device (issue 19 item 1), and what the CPU evaluates with the same row function
// (cuda/spmv_row.hpp). Per term a u32 column and a u32 index into one table of coefficients: 8 bytes a
// term plus 8 bytes a row per matrix, against 36 bytes a term with inline 32-byte coefficients.
#pragma once

#include <memory>
#include <span>
#include <vector>

#include "cuda/spmv_row.hpp"
#include "groth16/key.hpp"
#include "groth16/r1cs.hpp"
#include "groth16/synthesis.hpp"
#include "util/huge_alloc.hpp"
#include "util/thread_pool.hpp"

namespace cuzk {

/// One matrix in compact CSR form: row j's terms are (cols[k], table[coeffs[k]]) for k in
/// [row_offsets[j], row_offsets[j + 1]).
struct CompactMatrix {
  BigVector<uint64_t> row_offsets{0};  ///< rows() + 1 entries, starting at 0
  BigVector<uint32_t> cols;            ///< column (index into inputs ‖ aux) of each term
  BigVector<uint32_t> coeffs;          ///< index of each term's coefficient in CompactCs::table

  size_t rows() const { return row_offsets.size() - 1; }
  size_t nnz() const { return cols.size(); }
  size_t bytes() const { return row_offsets.size() * 8 + cols.size() * 4 + coeffs.size() * 4; }
  CsrView view() const { return {row_offsets.data(), cols.data(), coeffs.data(), rows()}; }
};

/// A ConstraintSystem's rows with interned coefficients, its shape and densities (same meaning as in
/// ConstraintSystem). table[kCoeffOne] = 1 and table[kCoeffMinusOne] = −1; other values may repeat
/// (compact() interns per block of terms, so equal coefficients of distant blocks get separate entries).
struct CompactCs {
  HConvention convention = HConvention::kBellperson;
  int log_n = 0;
  uint32_t n_inputs = 0;  ///< ONE included
  uint32_t n_aux = 0;
  std::vector<Fr> table{Fr::one(), -Fr::one()};  ///< coefficients, Montgomery form
  CompactMatrix a, b, c;                         ///< c has no rows in the snarkjs convention
  Density a_aux, b_inp, b_aux;

  uint32_t n_vars() const { return n_inputs + n_aux; }
  size_t domain_size() const { return size_t{1} << log_n; }
  size_t nnz() const { return a.nnz() + b.nnz() + c.nnz(); }
  /// Bytes of the matrices and the table.
  size_t bytes() const { return a.bytes() + b.bytes() + c.bytes() + table.size() * sizeof(Fr); }
};

/// The compact form of `cs` (same rows, columns and coefficients in the same order; zero coefficients
/// kept, as the CSR product would add them), interned in blocks of terms on `pool`. In the snarkjs
/// convention of a zkey (no C rows) c stays empty. Throws Error(kInvalidArgument) past 2^32 table entries.
CompactCs compact(const ConstraintSystem& cs, ThreadPool& pool);

/// The ConstraintSystem of `rows` (coefficients written out, 36 bytes a term): for setup and the CPU's
/// reference products. Inverse of compact() up to the table's layout.
ConstraintSystem expand(const CompactCs& rows, ThreadPool& pool);

/// Recomputes a_aux, b_inp and b_aux of `rows` from the columns of A and B with non-zero coefficients
/// (as compute_densities does for a ConstraintSystem).
void compute_densities(CompactCs& rows);

/// Writes bellperson's appended input rows into m, whose storage is already sized for them: row
/// first + i is `input_i` (a term of column i, coefficient 1, at term at + i) when `with_terms` (matrix A),
/// empty otherwise (B and C), for i < n_inputs (bellperson src/groth16/prover.rs, the
/// `input_i · 0 = 0` constraints).
void write_input_rows(CompactMatrix& m, size_t first, uint64_t at, uint32_t n_inputs, bool with_terms);

/// a = A·w, b = B·w, c = C·w on the domain (2^log_n values each, rows past the matrices' zero) by
/// csr_row_dot on `pool`: byte-identical to synthesize() of the ConstraintSystem `rows` came from. c is
/// left empty in the snarkjs convention. `w` = inputs ‖ aux (n_vars values; not re-checked).
void evaluate_abc(const CompactCs& rows, std::span<const Fr> w, BigVector<Fr>& a, BigVector<Fr>& b,
                  BigVector<Fr>& c, ThreadPool& pool);

/// The assignment of one partition whose a, b, c are left to the backend: inputs, aux and densities
/// filled, a, b, c empty, `rows` set (the GPU backend evaluates them on the device from its resident
/// copy of the rows, the CPU backend by evaluate_abc). Throws Error(kInvalidArgument) when the witness
/// length differs from rows->n_vars() or witness[0] ≠ 1.
Assignment deferred_assignment(std::shared_ptr<const CompactCs> rows, std::span<const Fr> witness,
                               ThreadPool& pool);

/// inputs ‖ aux of `asg`, one vector (a copy).
BigVector<Fr> witness_of(const Assignment& asg);

/// Checks that `key` was made for `rows` (as check_key_fits for a ConstraintSystem). Throws
/// Error(kInvalidArgument) "<what> belong to different circuits: …".
void check_key_fits(const ProvingKey& key, const CompactCs& rows, const std::string& what);

}  // namespace cuzk
