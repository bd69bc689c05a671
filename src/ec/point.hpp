// Short-Weierstrass points y² = x³ + b (a = 0) in three coordinate systems, one template each, used
// for G1 (F = Fp) and G2 (F = Fp2) by instantiation. Formulas from the Explicit-Formulas Database
// (hyperelliptic.org/EFD/g1p/auto-shortw-jacobian-0.html and auto-shortw-xyzz.html):
//   Jacobian: dbl-2009-l, add-2007-bl, madd-2007-bl;  XYZZ: dbl-2008-s-1, add-2008-s, madd-2008-s,
//   mdbl-2008-s-1.
// Every formula handles the exceptional cases (P = ∞, Q = ∞, P = Q, P = −Q) explicitly.
#pragma once

#include "ff/platform.hpp"

namespace cuzk {

/// Affine point (x, y). The point at infinity is encoded as x = y = 0, which is not on the curve
/// since b ≠ 0: the same convention as snarkjs's binary files, so arrays need no flag byte.
template <class F>
struct Affine {
  F x, y;
  CUZK_HD static Affine infinity() { return {F::zero(), F::zero()}; }
  CUZK_HD bool is_inf() const { return x.is_zero() && y.is_zero(); }
  CUZK_HD Affine operator-() const { return is_inf() ? *this : Affine{x, -y}; }
  CUZK_HD friend bool operator==(const Affine& a, const Affine& b) { return a.x == b.x && a.y == b.y; }
  CUZK_HD friend bool operator!=(const Affine& a, const Affine& b) { return !(a == b); }
};

/// Jacobian point (X, Y, Z) ↦ (X/Z², Y/Z³); Z = 0 is infinity.
template <class F>
struct Jacobian {
  F X, Y, Z;

  CUZK_HD static Jacobian infinity() { return {F::one(), F::one(), F::zero()}; }
  CUZK_HD static Jacobian from_affine(const Affine<F>& p) {
    return p.is_inf() ? infinity() : Jacobian{p.x, p.y, F::one()};
  }
  CUZK_HD bool is_inf() const { return Z.is_zero(); }
  CUZK_HD Jacobian operator-() const { return {X, -Y, Z}; }

  /// 2P, dbl-2009-l (a = 0).
  CUZK_HD Jacobian dbl() const {
    if (is_inf() || Y.is_zero()) return infinity();
    F A = X.sqr(), B = Y.sqr(), C = B.sqr();
    F D = ((X + B).sqr() - A - C).dbl();
    F E = A.dbl() + A, Fv = E.sqr();
    F X3 = Fv - D.dbl();
    F C8 = C.dbl().dbl().dbl();
    F Y3 = E * (D - X3) - C8;
    F Z3 = (Y * Z).dbl();
    return {X3, Y3, Z3};
  }
  /// P + Q, add-2007-bl.
  CUZK_HD friend Jacobian operator+(const Jacobian& p, const Jacobian& q) {
    if (p.is_inf()) return q;
    if (q.is_inf()) return p;
    F Z1Z1 = p.Z.sqr(), Z2Z2 = q.Z.sqr();
    F U1 = p.X * Z2Z2, U2 = q.X * Z1Z1;
    F S1 = p.Y * q.Z * Z2Z2, S2 = q.Y * p.Z * Z1Z1;
    F H = U2 - U1, R = S2 - S1;
    if (H.is_zero()) return R.is_zero() ? p.dbl() : infinity();
    F I = H.dbl().sqr(), J = H * I;
    R = R.dbl();
    F V = U1 * I;
    F X3 = R.sqr() - J - V.dbl();
    F Y3 = R * (V - X3) - (S1 * J).dbl();
    F Z3 = ((p.Z + q.Z).sqr() - Z1Z1 - Z2Z2) * H;
    return {X3, Y3, Z3};
  }
  /// P + Q with Q affine, madd-2007-bl.
  CUZK_HD Jacobian add_affine(const Affine<F>& q) const {
    if (q.is_inf()) return *this;
    if (is_inf()) return from_affine(q);
    F Z1Z1 = Z.sqr();
    F U2 = q.x * Z1Z1, S2 = q.y * Z * Z1Z1;
    F H = U2 - X, R = S2 - Y;
    if (H.is_zero()) return R.is_zero() ? dbl() : infinity();
    F HH = H.sqr(), I = HH.dbl().dbl(), J = H * I;
    R = R.dbl();
    F V = X * I;
    F X3 = R.sqr() - J - V.dbl();
    F Y3 = R * (V - X3) - (Y * J).dbl();
    F Z3 = (Z + H).sqr() - Z1Z1 - HH;
    return {X3, Y3, Z3};
  }
  CUZK_HD Jacobian& operator+=(const Jacobian& q) { return *this = *this + q; }
  CUZK_HD friend Jacobian operator-(const Jacobian& p, const Jacobian& q) { return p + (-q); }

  /// Affine form (one field inversion).
  CUZK_HD Affine<F> to_affine() const {
    if (is_inf()) return Affine<F>::infinity();
    F zi = Z.inverse(), zi2 = zi.sqr();
    return {X * zi2, Y * zi2 * zi};
  }
  /// Projective equality: X1·Z2² = X2·Z1² and Y1·Z2³ = Y2·Z1³.
  CUZK_HD friend bool operator==(const Jacobian& p, const Jacobian& q) {
    if (p.is_inf() || q.is_inf()) return p.is_inf() && q.is_inf();
    F z1 = p.Z.sqr(), z2 = q.Z.sqr();
    return p.X * z2 == q.X * z1 && p.Y * z2 * q.Z == q.Y * z1 * p.Z;
  }
  CUZK_HD friend bool operator!=(const Jacobian& p, const Jacobian& q) { return !(p == q); }
};

/// Extended Jacobian "XYZZ" point (X, Y, ZZ, ZZZ) ↦ (X/ZZ, Y/ZZZ) with ZZ³ = ZZZ²; ZZ = 0 is infinity.
/// The bucket representation of Pippenger: a mixed addition costs 8M + 2S and needs no doubling
/// check beyond the P = ±Q case.
template <class F>
struct XYZZ {
  F X, Y, ZZ, ZZZ;

  CUZK_HD static XYZZ infinity() { return {F::one(), F::one(), F::zero(), F::zero()}; }
  CUZK_HD static XYZZ from_affine(const Affine<F>& p) {
    return p.is_inf() ? infinity() : XYZZ{p.x, p.y, F::one(), F::one()};
  }
  CUZK_HD bool is_inf() const { return ZZ.is_zero(); }
  CUZK_HD XYZZ operator-() const { return {X, -Y, ZZ, ZZZ}; }

  /// 2P, dbl-2008-s-1 (a = 0).
  CUZK_HD XYZZ dbl() const {
    if (is_inf()) return *this;
    F U = Y.dbl(), V = U.sqr(), W = U * V, S = X * V;
    F X2 = X.sqr(), M = X2.dbl() + X2;
    F X3 = M.sqr() - S.dbl();
    F Y3 = M * (S - X3) - W * Y;
    return {X3, Y3, V * ZZ, W * ZZZ};
  }
  /// 2Q for affine Q, mdbl-2008-s-1.
  CUZK_HD static XYZZ dbl_affine(const Affine<F>& q) {
    if (q.is_inf()) return infinity();
    F U = q.y.dbl(), V = U.sqr(), W = U * V, S = q.x * V;
    F X2 = q.x.sqr(), M = X2.dbl() + X2;
    F X3 = M.sqr() - S.dbl();
    F Y3 = M * (S - X3) - W * q.y;
    return {X3, Y3, V, W};
  }
  /// P + Q with Q affine, madd-2008-s.
  CUZK_HD XYZZ add_affine(const Affine<F>& q) const {
    if (q.is_inf()) return *this;
    if (is_inf()) return from_affine(q);
    F P = q.x * ZZ - X, R = q.y * ZZZ - Y;
    if (P.is_zero()) return R.is_zero() ? dbl_affine(q) : infinity();
    F PP = P.sqr(), PPP = P * PP, Q = X * PP;
    F X3 = R.sqr() - PPP - Q.dbl();
    F Y3 = R * (Q - X3) - Y * PPP;
    return {X3, Y3, ZZ * PP, ZZZ * PPP};
  }
  /// P + Q, add-2008-s.
  CUZK_HD friend XYZZ operator+(const XYZZ& p, const XYZZ& q) {
    if (p.is_inf()) return q;
    if (q.is_inf()) return p;
    F U1 = p.X * q.ZZ, U2 = q.X * p.ZZ;
    F S1 = p.Y * q.ZZZ, S2 = q.Y * p.ZZZ;
    F P = U2 - U1, R = S2 - S1;
    if (P.is_zero()) return R.is_zero() ? p.dbl() : infinity();
    F PP = P.sqr(), PPP = P * PP, Q = U1 * PP;
    F X3 = R.sqr() - PPP - Q.dbl();
    F Y3 = R * (Q - X3) - S1 * PPP;
    return {X3, Y3, p.ZZ * q.ZZ * PP, p.ZZZ * q.ZZZ * PPP};
  }
  CUZK_HD XYZZ& operator+=(const XYZZ& q) { return *this = *this + q; }

  /// Affine form (one inversion).
  CUZK_HD Affine<F> to_affine() const {
    if (is_inf()) return Affine<F>::infinity();
    // 1/ZZZ and 1/ZZ from one inversion: t = (ZZ·ZZZ)⁻¹, 1/ZZ = t·ZZZ, 1/ZZZ = t·ZZ.
    F t = (ZZ * ZZZ).inverse();
    return {X * t * ZZZ, Y * t * ZZ};
  }
  /// Jacobian form without inversion: Z' = ZZ·ZZZ, X' = X·ZZ·ZZZ², Y' = Y·ZZ³·ZZZ², so that
  /// X'/Z'² = X/ZZ and Y'/Z'³ = Y/ZZZ.
  CUZK_HD Jacobian<F> to_jacobian() const {
    if (is_inf()) return Jacobian<F>::infinity();
    F z = ZZ * ZZZ, zzz2 = ZZZ.sqr();
    return {X * ZZ * zzz2, Y * ZZ.sqr() * ZZ * zzz2, z};
  }
};

}  // namespace cuzk
