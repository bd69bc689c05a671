// The compute backend of the Groth16 prover: the H polynomial's NTTs and the multi-scalar
// multiplications. The CPU backend (cpu_backend.hpp) and the CUDA backend implement the same
// interface, so the prover's phases (h.cpp, prover.cpp) are written once.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "ec/curves.hpp"
#include "ff/bls12_381.hpp"
#include "util/huge_alloc.hpp"

namespace cuzk {

/// Heavy kernels of one proof. All Fr inputs and outputs are in Montgomery form; points affine with
/// ∞ = (0, 0). Implementations throw cuzk::Error on failure (e.g. kCuda) and stay usable afterwards.
class ProverBackend {
 public:
  virtual ~ProverBackend() = default;
  /// A short name for logs ("cpu", "cuda:0").
  virtual std::string name() const = 0;

  /// snarkjs's H (REFERENCE.md §5): given A·w and B·w evaluated on the domain of size n = 2^log_n
  /// (natural order, snarkjs roots), returns hⱼ = A(xⱼ)·B(xⱼ) − C(xⱼ) at the odd-coset points
  /// xⱼ = ω_{2n}^(2j+1), where C = (A·w)∘(B·w) on the domain. `a` and `b` are consumed (overwritten).
  virtual BigVector<Fr> h_snarkjs(std::span<Fr> a, std::span<Fr> b, int log_n) = 0;

  /// Σ scalars[i]·bases[i] on G1; sizes must match.
  virtual G1 msm_g1(std::span<const G1Affine> bases, std::span<const Fr> scalars) = 0;
  /// Σ scalars[i]·bases[i] on G2; sizes must match.
  virtual G2 msm_g2(std::span<const G2Affine> bases, std::span<const Fr> scalars) = 0;
};

}  // namespace cuzk
