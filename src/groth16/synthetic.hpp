// Synthetic circuits with the shape of a 32 GiB PoRep partition (REFERENCE.md §2), for benchmarks and
// tests that need a realistic prover workload without Filecoin's circuit: N constraints on a domain of
// 2^K, N aux variables, 328 inputs, a_aux density 99.7 %, b_aux density 25 %, nnz per constraint
// A 2.4 / B 1.0 / C 2.2, aux values 45 % zero, 45 % one, 10 % uniform, and a witness that satisfies
// every row.
#pragma once

#include <cstdint>
#include <vector>

#include "groth16/r1cs.hpp"
#include "util/thread_pool.hpp"

namespace cuzk {

/// A bellperson-convention constraint system and a witness (inputs ‖ aux, Montgomery form, witness[0]
/// = 1) that satisfies it, ready for synthesize().
struct SyntheticCircuit {
  ConstraintSystem cs;
  std::vector<Fr> witness;
};

/// Public inputs of a synthetic circuit, ONE included (a 32 GiB PoRep partition's count).
inline constexpr uint32_t kSyntheticInputs = 328;

/// The number of constraints (= aux variables) of synthetic_porep(log2_k): ⌊0.97·2^K⌋ when that plus
/// the 328 input rows fits the domain 2^K (K ≥ 14), else 2^K − 328 − 2^(K−6) (K = 10..13: 680, 1688,
/// 3704, 7736). Throws Error(kInvalidArgument) for K outside 10..28.
uint32_t synthetic_constraints(int log2_k);

/// A satisfiable circuit of REFERENCE.md §2's synthetic shape on the domain 2^log2_k, deterministic in
/// `seed` and independent of the pool's size (rows are made in fixed chunks of 16384, each with its own
/// random stream derived from (seed, chunk)).
///
/// Construction (N = synthetic_constraints(K), aux variable i "owned" by constraint i):
///  - witness: inputs[0] = 1, inputs 1..327 uniform; aux values 45 % zero, 45 % one, 10 % uniform, in
///    exact proportions per chunk of 16384 variables, shuffled;
///  - A of constraint j: 3 terms when j mod 5 < 2, else 2; the first is aux j, unless j mod 1000 < 3
///    (those 0.3 % of the aux variables never occur in A); the others are random aux variables of A's
///    set, input s replaces the second term in constraint ⌊s·N/328⌋ (s = 1..327); coefficients 1
///    (1/2), −1 (1/4) or uniform (1/4);
///  - B: one term, coefficient 1: aux j when j mod 4 = 1 (the 25 % that occur in B), ONE when j mod 64 =
///    3, else a random aux variable of B's set;
///  - C: 3 terms when j mod 5 = 0, else 2: aux j first when it occurs in neither A nor B, the others
///    random aux variables with coefficients as in A, and a last term on a random aux variable with a
///    non-zero value whose coefficient is solved so that ⟨A,w⟩·⟨B,w⟩ = ⟨C,w⟩;
///  - then bellperson's input rows: A = input k, B and C empty, k = 0..327.
/// Every aux variable occurs in some row, so the bellperson setup accepts the circuit.
/// Throws Error(kInvalidArgument) for log2_k outside 10..28.
SyntheticCircuit synthetic_porep(int log2_k, uint64_t seed, ThreadPool& pool);

}  // namespace cuzk
