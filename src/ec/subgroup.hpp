// Fast prime-order subgroup membership tests for G1 and G2 by endomorphisms (M. Scott, "A note on group
// membership tests for G1, G2 and GT on BLS pairing-friendly curves", ePrint 2021/1130, §4 and §6; the
// G1 proof completed by El Housni–Guillevic–Piellard, ePrint 2022/352):
//  * G1: P ∈ G1 ⟺ φ(P) = −x²·P, with φ(x, y) = (β·x, y) and β the cube root of unity in Fp for which φ
//    acts on G1 as multiplication by −x² (chosen at start-up by testing the generator);
//  * G2: P ∈ G2 ⟺ ψ(P) = x·P, with ψ the untwist-Frobenius-twist map
//    ψ(x, y) = (x̄·(1+u)^−(p−1)/3, ȳ·(1+u)^−(p−1)/2) (x̄ the Fp2 conjugate).
// x = −0xd201000000010000 has six set bits, so x·P is 63 doublings and 5 additions. Measured against
// the r·P multiplication of `is_in_subgroup` (curves.hpp), which stays as the reference the tests
// compare against: 3.3× faster for G1 (≈1500 Fp multiplications' time), 6× for G2 (≈2200).
#pragma once

#include "ec/curves.hpp"

namespace cuzk {

/// True when the G1 point lies in the order-r subgroup (∞ included). `p` must be on the curve.
bool in_subgroup_fast(const G1Affine& p);
/// True when the G2 point lies in the order-r subgroup (∞ included). `p` must be on the twist.
bool in_subgroup_fast(const G2Affine& p);

}  // namespace cuzk
