// Fp6 = Fp2[v]/(v³ − ξ), ξ = u + 1, and Fp12 = Fp6[w]/(w² − v): the tower of the BLS12-381 pairing
// (same as blst, zkcrypto and @noble/curves). Karatsuba/Toom formulas from Devegili–Scott–Dahab (2006),
// inversion from Hankerson–Menezes–Scott, "Software implementation of pairings" (2009), Frobenius
// coefficients γ_k = ξ^((p^k − 1)/6) computed once at start-up.
#pragma once

#include "ff/fp2.hpp"

namespace cuzk {

/// Element c0 + c1·v + c2·v² of Fp6 (v³ = ξ = u + 1). 288 bytes.
struct Fp6 {
  Fp2 c0, c1, c2;

  static Fp6 zero() { return {Fp2::zero(), Fp2::zero(), Fp2::zero()}; }
  static Fp6 one() { return {Fp2::one(), Fp2::zero(), Fp2::zero()}; }
  bool is_zero() const { return c0.is_zero() && c1.is_zero() && c2.is_zero(); }
  friend bool operator==(const Fp6& a, const Fp6& b) { return a.c0 == b.c0 && a.c1 == b.c1 && a.c2 == b.c2; }
  friend bool operator!=(const Fp6& a, const Fp6& b) { return !(a == b); }
  friend Fp6 operator+(const Fp6& a, const Fp6& b) { return {a.c0 + b.c0, a.c1 + b.c1, a.c2 + b.c2}; }
  friend Fp6 operator-(const Fp6& a, const Fp6& b) { return {a.c0 - b.c0, a.c1 - b.c1, a.c2 - b.c2}; }
  Fp6 operator-() const { return {-c0, -c1, -c2}; }

  /// Karatsuba over Fp2: 6 Fp2 products.
  friend Fp6 operator*(const Fp6& a, const Fp6& b) {
    Fp2 t0 = a.c0 * b.c0, t1 = a.c1 * b.c1, t2 = a.c2 * b.c2;
    Fp2 r0 = ((a.c1 + a.c2) * (b.c1 + b.c2) - t1 - t2).mul_by_xi() + t0;
    Fp2 r1 = (a.c0 + a.c1) * (b.c0 + b.c1) - t0 - t1 + t2.mul_by_xi();
    Fp2 r2 = (a.c0 + a.c2) * (b.c0 + b.c2) - t0 - t2 + t1;
    return {r0, r1, r2};
  }
  Fp6 sqr() const { return *this * *this; }
  /// Multiplication by v: (c0, c1, c2) → (ξ·c2, c0, c1).
  Fp6 mul_by_v() const { return {c2.mul_by_xi(), c0, c1}; }
  Fp6 mul_fp2(const Fp2& s) const { return {c0 * s, c1 * s, c2 * s}; }
  /// Inverse via the norm to Fp2; 0 maps to 0.
  Fp6 inverse() const {
    Fp2 t0 = c0.sqr() - (c1 * c2).mul_by_xi();
    Fp2 t1 = c2.sqr().mul_by_xi() - c0 * c1;
    Fp2 t2 = c1.sqr() - c0 * c2;
    Fp2 d = c0 * t0 + ((c2 * t1) + (c1 * t2)).mul_by_xi();
    Fp2 di = d.inverse();
    return {t0 * di, t1 * di, t2 * di};
  }
  /// a^(p^k) for k = 1, 2, 3, …
  Fp6 frobenius(int k) const;
};

/// Element c0 + c1·w of Fp12 (w² = v). 576 bytes. The pairing's target group lives here.
struct Fp12 {
  Fp6 c0, c1;

  static Fp12 zero() { return {Fp6::zero(), Fp6::zero()}; }
  static Fp12 one() { return {Fp6::one(), Fp6::zero()}; }
  bool is_one() const { return c0 == Fp6::one() && c1.is_zero(); }
  bool is_zero() const { return c0.is_zero() && c1.is_zero(); }
  friend bool operator==(const Fp12& a, const Fp12& b) { return a.c0 == b.c0 && a.c1 == b.c1; }
  friend bool operator!=(const Fp12& a, const Fp12& b) { return !(a == b); }
  friend Fp12 operator+(const Fp12& a, const Fp12& b) { return {a.c0 + b.c0, a.c1 + b.c1}; }
  friend Fp12 operator-(const Fp12& a, const Fp12& b) { return {a.c0 - b.c0, a.c1 - b.c1}; }
  Fp12 operator-() const { return {-c0, -c1}; }

  /// Karatsuba over Fp6: 3 Fp6 products.
  friend Fp12 operator*(const Fp12& a, const Fp12& b) {
    Fp6 t0 = a.c0 * b.c0, t1 = a.c1 * b.c1;
    Fp6 r1 = (a.c0 + a.c1) * (b.c0 + b.c1) - t0 - t1;
    return {t0 + t1.mul_by_v(), r1};
  }
  Fp12& operator*=(const Fp12& b) { return *this = *this * b; }
  /// Complex squaring: 2 Fp6 products.
  Fp12 sqr() const {
    Fp6 t = c0 * c1;
    Fp6 r0 = (c0 + c1) * (c0 + c1.mul_by_v()) - t - t.mul_by_v();
    return {r0, t + t};
  }
  /// a² for a in the cyclotomic subgroup (a^(p⁶+1)(p²−1)... i.e. a^(Φ₁₂(p)) = 1 — any output of the
  /// final exponentiation's easy part): Granger–Scott, "Faster squaring in the cyclotomic subgroup of
  /// sixth degree extensions" (PKC 2010), 9 Fp2 squarings instead of 12 Fp2 products. Wrong outside
  /// that subgroup.
  Fp12 cyclotomic_sqr() const;
  /// a^(p^6), the conjugate c0 − c1·w; equals a⁻¹ on the cyclotomic subgroup.
  Fp12 conj() const { return {c0, -c1}; }
  Fp12 inverse() const {
    Fp6 d = (c0.sqr() - c1.sqr().mul_by_v()).inverse();
    return {c0 * d, -(c1 * d)};
  }
  /// a^(p^k).
  Fp12 frobenius(int k) const;
  /// a^e, e as little-endian 64-bit limbs (variable time).
  Fp12 pow(const uint64_t* e, int nlimbs) const;
};

}  // namespace cuzk
