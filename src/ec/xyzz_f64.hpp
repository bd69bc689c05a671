// The XYZZ mixed addition on G1 with its Fp products split between the GPU's IMAD and FP64 pipes.
//
// Data-centre GPUs (GH100, GA100) issue FP64 fused multiply-adds at the IMAD rate through a pipe of their
// own (ff/mont_f64.hpp). A mixed addition has ten products, several of them independent of each other;
// the hope was that computing some on the FP64 pipe lets the two pipes work at once. Measured on an H100
// (`bench gpu-arith`, docs/PERFORMANCE.md §35) every split is slower than all ten on the IMAD pipe
// (0.80–0.84×, 0.60× with all ten on FP64), so the MSM does not use it; `bench gpu-arith` keeps measuring
// it on whatever card it runs. The formula is point.hpp's
// XYZZ::add_affine (madd-2008-s, https://hyperelliptic.org/EFD/g1p/auto-shortw-xyzz.html), result for
// result: both products return canonical Fp, so the sums are equal bit for bit.
#pragma once

#include "ec/point.hpp"
#include "ff/mont_f64.hpp"

namespace cuzk {

/// XYZZ<Fp> + Affine<Fp> (madd-2008-s) where product k, in the formula's order, is computed on the FP64 pipe
/// (f64::mul, through 48-bit limbs and back) when bit k of Mask is set and by Fp's operator* otherwise.
/// Products: 0 x2·ZZ, 1 y2·ZZZ, 2 P², 3 P·PP, 4 X·PP, 5 R², 6 R·(Q − X3), 7 Y·PPP, 8 ZZ·PP, 9 ZZZ·PPP.
/// Mask 0 is point.hpp's addition; any mask gives the same point (the tests compare them).
template <unsigned Mask>
struct MaddF64 {
  template <int k>
  CUZK_HD static Fp mul(const Fp& a, const Fp& b) {
    if constexpr ((Mask >> k) & 1)
      return f64::from_f64(f64::mul(f64::to_f64(a), f64::to_f64(b)));
    else
      return a * b;
  }
  CUZK_HD static XYZZ<Fp> add(const XYZZ<Fp>& p, const Affine<Fp>& q) {
    if (q.is_inf()) return p;
    if (p.is_inf()) return XYZZ<Fp>::from_affine(q);
    const Fp P = mul<0>(q.x, p.ZZ) - p.X, R = mul<1>(q.y, p.ZZZ) - p.Y;
    if (P.is_zero()) return R.is_zero() ? XYZZ<Fp>::dbl_affine(q) : XYZZ<Fp>::infinity();
    const Fp PP = mul<2>(P, P), PPP = mul<3>(P, PP), Q = mul<4>(p.X, PP);
    const Fp X3 = mul<5>(R, R) - PPP - Q.dbl();
    const Fp Y3 = mul<6>(R, Q - X3) - mul<7>(p.Y, PPP);
    return {X3, Y3, mul<8>(p.ZZ, PP), mul<9>(p.ZZZ, PPP)};
  }
};

}  // namespace cuzk
