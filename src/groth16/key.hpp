// The format-neutral Groth16 keys and proof. The prover, verifier and setup work on these types only;
// src/formats turns a snarkjs .zkey or a bellperson .params/.vk file into them and back.
//
// Variables are numbered as both bellperson and circom do: the n_inputs public inputs first, input 0
// being the constant ONE (circom's wire 0), then the n_aux auxiliary (private) variables. A full witness
// is inputs ‖ aux.
#pragma once

#include <cstdint>
#include <vector>

#include "ec/curves.hpp"
#include "util/huge_alloc.hpp"

namespace cuzk {

/// How the H polynomial is computed and which H points pair with it (REFERENCE.md §5).
enum class HConvention {
  /// bellperson / SupraSeal (.params): roots of unity from generator 7; H = (a·b − c)/Z evaluated on the
  /// coset 7·⟨ω⟩ and brought back to its n − 1 coefficients; h points τⁱ·Z(τ)/δ, i < n − 1.
  kBellperson,
  /// snarkjs (.zkey): roots from generator 5; hⱼ = a·b − c at the odd points of the 2n-domain, no
  /// division by Z; h points = odd-index Lagrange basis of the 2n-domain over δ, n of them.
  kSnarkjs,
};

/// "bellperson" or "snarkjs".
const char* to_string(HConvention c);

/// A Groth16 proof: three affine points, ∞ = (0, 0), Montgomery-form coordinates.
struct Groth16Proof {
  G1Affine a;
  G2Affine b;
  G1Affine c;
  friend bool operator==(const Groth16Proof&, const Groth16Proof&) = default;
};

/// What a verifier needs (snarkjs's verification_key.json minus e(α₁, β₂); bellperson's .vk minus β₁
/// and δ₁). ic has n_inputs points: vk_x = IC₀ + Σ publicᵢ·ICᵢ over the public inputs 1..n_inputs − 1.
struct VerifyingKey {
  G1Affine alpha1;
  G2Affine beta2, gamma2, delta2;
  std::vector<G1Affine> ic;
  /// Public inputs, the constant ONE not counted.
  uint32_t n_public() const { return (uint32_t)ic.size() - 1; }
  friend bool operator==(const VerifyingKey&, const VerifyingKey&) = default;
};

/// A Groth16 proving key in either H convention.
///
/// Point vectors (affine, ∞ = (0, 0)):
///  - a:    one point per input, then one per aux variable whose a_aux density bit is set;
///  - b_g1, b_g2: one per input whose b_inp bit is set, then one per aux whose b_aux bit is set;
///  - l:    one per aux variable ((β·uᵢ + α·vᵢ + wᵢ)/δ; snarkjs's section 8 "C");
///  - h:    n − 1 points (kBellperson) or n points (kSnarkjs), n = 2^log_n.
/// The densities themselves belong to the circuit (ConstraintSystem, Assignment): a .params file stores
/// only the compacted vectors, and the prover checks their lengths against the assignment's bitmaps.
struct ProvingKey {
  HConvention convention = HConvention::kBellperson;
  int log_n = 0;          ///< the domain has n = 2^log_n points
  uint32_t n_inputs = 0;  ///< public inputs including ONE (= vk.ic.size())
  uint32_t n_aux = 0;     ///< auxiliary variables (= l.size())
  G1Affine alpha1, beta1, delta1;
  G2Affine beta2, gamma2, delta2;
  std::vector<G1Affine> ic;
  BigVector<G1Affine> a, b_g1, l, h;
  BigVector<G2Affine> b_g2;

  size_t domain_size() const { return size_t{1} << log_n; }
  /// The number of h points this convention uses: n − 1 or n.
  size_t h_size() const { return convention == HConvention::kBellperson ? domain_size() - 1 : domain_size(); }
  /// The verifying key: α₁, β₂, γ₂, δ₂, IC.
  VerifyingKey verifying_key() const { return {alpha1, beta2, gamma2, delta2, ic}; }
  /// Bytes the point vectors occupy in host memory.
  size_t point_bytes() const;
  friend bool operator==(const ProvingKey&, const ProvingKey&) = default;
};

}  // namespace cuzk
