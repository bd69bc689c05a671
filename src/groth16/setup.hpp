// A single-party Groth16 setup producing a snarkjs-compatible .zkey (for development and benchmarks
// only: whoever runs it knows the toxic waste). Same key layout as snarkjs 0.7.6
// `groth16 setup` + contributions (src/zkey_new.js): with u_j, v_j, w_j the QAP polynomials of the
// R1CS (plus snarkjs's public-input rows A = w_s at rows nConstraints + s) evaluated at τ via the
// Lagrange basis of the domain n (snarkjs roots, generator 5):
//   A_j = u_j(τ)·G1, B1_j = v_j(τ)·G1, B2_j = v_j(τ)·G2,
//   IC_j = (β·u_j + α·v_j + w_j)/γ·G1 (j ≤ nPublic), C_j = (β·u_j + α·v_j + w_j)/δ·G1 (j > nPublic),
//   H_j = L'_{2j+1}(τ)/δ·G1 with L' the Lagrange basis of the domain 2n (its odd points are the
//   coset the prover evaluates H on, so Σ hⱼ·Hⱼ = (A·B − C)(τ)/δ).
// Fixed-base scalar multiplications use 8-bit windowed tables (32 mixed additions per point).
#pragma once

#include <cstdint>
#include <optional>

#include "formats/r1cs.hpp"
#include "formats/zkey.hpp"
#include "util/thread_pool.hpp"

namespace cuzk {

/// The secret scalars of a setup.
struct ToxicWaste {
  Fr tau, alpha, beta, gamma, delta;
  /// Deterministic from a seed (tests, reproducible benchmarks).
  static ToxicWaste from_seed(uint64_t seed);
  /// From the OS CSPRNG.
  static ToxicWaste random();
};

/// Builds the proving key of `r1cs`. Throws Error(kInvalidArgument) if the domain would exceed 2^28.
Zkey setup(const R1cs& r1cs, const ToxicWaste& tw, ThreadPool& pool);

}  // namespace cuzk
