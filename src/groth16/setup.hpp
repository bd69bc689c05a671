// Single-party Groth16 setups (for development and benchmarks only: whoever runs them knows the toxic
// waste). Groth 2016 §3.2: with u_j, v_j, w_j the QAP polynomials of variable j (its columns of A, B,
// C) evaluated at τ through the Lagrange basis of the domain of n points,
//   A_j = u_j(τ)·G1, B1_j = v_j(τ)·G1, B2_j = v_j(τ)·G2,
//   IC_j = (β·u_j + α·v_j + w_j)/γ·G1 (inputs), L_j = (β·u_j + α·v_j + w_j)/δ·G1 (aux),
// and the H points of the convention (REFERENCE.md §5):
//   bellperson (bellperson src/groth16/generator.rs; roots from 7): h_i = τ^i·Z(τ)/δ·G1, i < n − 1,
//   Z(τ) = τ^n − 1;
//   snarkjs 0.7.6 (src/zkey_new.js; roots from 5): H_j = L'_{2j+1}(τ)/δ·G1, j < n, with L' the
//   Lagrange basis of the domain 2n (its odd points are the coset the prover evaluates H on, so
//   Σ hⱼ·Hⱼ = (A·B − C)(τ)/δ).
// Fixed-base scalar multiplications use signed-window tables (setup_detail.hpp) on every pool thread.
#pragma once

#include <cstdint>
#include <functional>
#include <span>

#include "ec/curves.hpp"
#include "ff/bls12_381.hpp"
#include "groth16/key.hpp"
#include "groth16/r1cs.hpp"
#include "util/thread_pool.hpp"

namespace cuzk {

/// Batched fixed-base multiplications done elsewhere (a GPU): out[i] = k[i]·g for i < k.size(), affine.
/// Either function may be empty (the CPU then does that group).
struct SetupAccel {
  std::function<void(const G1Affine& g, std::span<const Fr> k, G1Affine* out)> g1;
  std::function<void(const G2Affine& g, std::span<const Fr> k, G2Affine* out)> g2;
};

/// The secret scalars of a setup.
struct ToxicWaste {
  Fr tau, alpha, beta, gamma, delta;
  /// Deterministic from a seed (tests, reproducible benchmarks); every scalar is non-zero.
  static ToxicWaste from_seed(uint64_t seed);
  /// From the OS CSPRNG; every scalar is non-zero. Throws Error(kIo) if the OS refuses.
  static ToxicWaste random();
};

/// The proving key of `cs` in cs.convention (roots of unity from 7 for kBellperson, from 5 for
/// kSnarkjs), on the domain of cs.domain_size() points. Vectors as ProvingKey documents: a holds every
/// input then the aux variables with a cs.a_aux bit; b_g1/b_g2 the inputs with a b_inp bit then the
/// aux with a b_aux bit; l every aux; h n − 1 (bellperson) or n (snarkjs) points. Each matrix may have
/// fewer rows than the domain (in the snarkjs convention B and C lack the public-input rows of A).
///
/// Throws Error(kInvalidArgument) when log_n is outside 1..28, a matrix has more rows than the domain,
/// a column index is ≥ n_vars, a density bitmap has the wrong length, n_inputs is 0, γ or δ is 0,
/// τ lies on the domain (kSnarkjs: on the 2n-domain), or — kBellperson only, as bellperson refuses
/// it — an aux variable is unconstrained (its L point would be the identity); the message names the
/// variable.
///
/// `accel`, when given, does the fixed-base multiplications k_i·G of the point vectors instead of the
/// CPU tables (the CLI passes the GPU's, cuda::fixed_base_mul); the result is the same key.
ProvingKey setup(const ConstraintSystem& cs, const ToxicWaste& tw, ThreadPool& pool,
                 const SetupAccel* accel = nullptr);

}  // namespace cuzk
