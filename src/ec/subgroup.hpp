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
//
// The tests themselves are CUZK_HD templates below, shared by the CPU and the GPU (src/cuda/point_decode.cu):
// their constants (β, the ψ coefficients) are computed once on the host and handed to device code.
#pragma once

#include <cstdint>

#include "ec/curves.hpp"

namespace cuzk {

/// True when the G1 point lies in the order-r subgroup (∞ included). `p` must be on the curve.
bool in_subgroup_fast(const G1Affine& p);
/// True when the G2 point lies in the order-r subgroup (∞ included). `p` must be on the twist.
bool in_subgroup_fast(const G2Affine& p);

/// The constants of the two tests, computed on first use (thread-safe): β of φ for G1, and the
/// coefficients of ψ(x, y) = (x̄·cx, ȳ·cy) for G2, cx = (1+u)^−(p−1)/3, cy = (1+u)^−(p−1)/2.
struct SubgroupConstants {
  Fp beta;
  Fp2 psi_cx, psi_cy;
};
const SubgroupConstants& subgroup_constants();

/// |x| for the BLS parameter x = −0xd201000000010000.
inline constexpr uint64_t kBlsAbsX = 0xd201000000010000ULL;

/// |x|·P by double-and-add over the six set bits of |x| (MSB first): 63 doublings, 5 additions.
template <class F>
CUZK_HD Jacobian<F> mul_abs_x(const Jacobian<F>& p) {
  Jacobian<F> acc = p;
  for (int b = 62; b >= 0; b--) {
    acc = acc.dbl();
    if ((kBlsAbsX >> b) & 1) acc += p;
  }
  return acc;
}

/// Whether the Jacobian point q equals the affine point (x, y), without inverting q.Z.
template <class F>
CUZK_HD bool equals_affine(const Jacobian<F>& q, const F& x, const F& y) {
  if (q.is_inf()) return false;
  const F z2 = q.Z.sqr();
  return q.X == x * z2 && q.Y == y * z2 * q.Z;
}

/// Scott's G1 test with β given (subgroup_constants().beta): φ(P) = −x²·P ⟺ x²·P = (β·x, −y). `p` on
/// the curve; ∞ passes.
CUZK_HD bool in_subgroup_g1(const G1Affine& p, const Fp& beta) {
  if (p.is_inf()) return true;
  const G1 x2p = mul_abs_x(mul_abs_x(G1::from_affine(p)));
  return equals_affine(x2p, beta * p.x, -p.y);
}

/// Scott's G2 test with ψ's coefficients given: ψ(P) = x·P = −|x|·P ⟺ |x|·P = −ψ(P). `p` on the
/// twist; ∞ passes.
CUZK_HD bool in_subgroup_g2(const G2Affine& p, const Fp2& psi_cx, const Fp2& psi_cy) {
  if (p.is_inf()) return true;
  const G2 ap = mul_abs_x(G2::from_affine(p));
  return equals_affine(ap, p.x.conj() * psi_cx, -(p.y.conj() * psi_cy));
}

}  // namespace cuzk
