// The optimal ate pairing on BLS12-381 (CPU): Miller loop over |x| = 0xd201000000010000 with the
// line functions of the M-type twist evaluated in Jacobian coordinates, then the final exponentiation
// f^(3·(p¹²−1)/r) by the x-chain of Hayashida–Hayasaka–Teruya (ePrint 2020/875), the same value
// @noble/curves, arkworks and gnark compute (the cube of the textbook pairing: still bilinear and
// non-degenerate since gcd(3, r) = 1). Used by the Groth16 verifier, never on a hot path.
#pragma once

#include <utility>
#include <vector>

#include "ec/curves.hpp"
#include "ff/fp6.hpp"

namespace cuzk {

/// Miller loop f_{x,Q}(P) (up to factors in proper subfields, which the final exponentiation removes).
/// ∞ in either argument contributes 1.
Fp12 miller_loop(const G1Affine& p, const G2Affine& q);
/// Product of Miller loops ∏ f_{x,Qᵢ}(Pᵢ), sharing the squarings.
Fp12 multi_miller_loop(const std::vector<std::pair<G1Affine, G2Affine>>& pairs);
/// f^(3·(p¹²−1)/r).
Fp12 final_exponentiation(const Fp12& f);
/// e(P, Q) = final_exponentiation(miller_loop(P, Q)).
Fp12 pairing(const G1Affine& p, const G2Affine& q);
/// True when ∏ e(Pᵢ, Qᵢ) = 1 (one shared final exponentiation).
bool pairing_product_is_one(const std::vector<std::pair<G1Affine, G2Affine>>& pairs);

}  // namespace cuzk
