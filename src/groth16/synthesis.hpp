// Synthesis of one partition: the witness → the a, b, c vectors on the domain and the density bitmaps
// SupraSeal C2 takes (REFERENCE.md §1 item 1, §6), as three multithreaded sparse matrix-vector products
// over a ConstraintSystem recorded once (cuzk's "PCE").
#pragma once

#include <memory>
#include <span>
#include <vector>

#include "groth16/r1cs.hpp"
#include "groth16/scalars.hpp"
#include "util/thread_pool.hpp"

namespace cuzk {

struct CompactCs;

/// Everything the prover needs of one partition besides the key. Fr values in Montgomery form. aux, a,
/// b and c may borrow a caller's buffers (Scalars::borrow; the SupraSeal drop-in does): they are then
/// read only until prove_start returns.
struct Assignment {
  std::vector<Fr> inputs;  ///< n_inputs values, inputs[0] = 1
  Scalars aux;             ///< n_aux values
  /// A·w, B·w, C·w on the domain: up to n = 2^log_n values each, the same number in each (c: when it
  /// is not empty); the domain's rows past them are zero (as SupraSeal's abc_size). c is empty in the
  /// snarkjs convention (the prover takes a∘b).
  Scalars a, b, c;
  int log_n = 0;
  Density a_aux, b_inp, b_aux;  ///< as in ConstraintSystem
  /// When set, a, b and c are empty and deferred to the backend, which evaluates them from these rows
  /// (compact_cs.hpp deferred_assignment; the GPU backend on the device, from its resident copy).
  std::shared_ptr<const CompactCs> rows;

  /// Whether any of aux, a, b, c borrows a caller's buffer.
  bool borrows() const { return aux.borrowed() || a.borrowed() || b.borrowed() || c.borrowed(); }
  /// The public inputs without ONE (inputs[1..]): what a verifier is given.
  std::span<const Fr> public_inputs() const { return std::span<const Fr>(inputs).subspan(1); }
};

/// Evaluates cs on `witness` (inputs ‖ aux, n_vars values, witness[0] = 1): a = A·w, b = B·w, c = C·w,
/// rows split across the pool, with cs's densities copied in. Throws Error(kInvalidArgument) naming the
/// problem when the witness length differs from n_vars or witness[0] ≠ 1.
Assignment synthesize(const ConstraintSystem& cs, std::span<const Fr> witness, ThreadPool& pool);

/// The first row j of a bellperson-convention assignment with a[j]·b[j] ≠ c[j], or −1 when every row
/// holds (cheap: no matrix access). For the snarkjs convention (c empty) returns −1.
long first_unsatisfied_row(const Assignment& asg);

}  // namespace cuzk
