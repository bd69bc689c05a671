// Groth16 verification as snarkjs 0.7.6 does it (src/groth16_verify.js):
//   reject public signals ≥ r and proof points off the curve (and, here, outside the subgroups), then
//   check e(−πA, πB)·e(vk_x, γ₂)·e(πC, δ₂)·e(α₁, β₂) = 1 with vk_x = IC₀ + Σ sᵢ·ICᵢ.
// The pairing is ec/pairing.hpp (one shared final exponentiation for the product).
#pragma once

#include <span>

#include "ff/fp6.hpp"
#include "groth16/key.hpp"

namespace cuzk {

/// True when `proof` is valid for `public_signals` under `vk`. Returns false (never throws) for a
/// wrong count of public signals, a proof point off the curve or outside its prime-order subgroup,
/// or a failing pairing equation. Public signals are Fr elements, so they are < r by construction:
/// the JSON reader rejects larger values.
bool verify(const VerifyingKey& vk, std::span<const Fr> public_signals, const Groth16Proof& proof);

/// e(α₁, β₂), the vk_alphabeta_12 entry of verification_key.json.
Fp12 alphabeta(const VerifyingKey& vk);

}  // namespace cuzk
