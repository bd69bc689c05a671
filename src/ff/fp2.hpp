// Fp2 = Fp[u]/(u² + 1), the field of G2's coordinates. Karatsuba multiplication (3 Fp products) and
// the complex-squaring trick (2 products), as in Devegili–Scott–Dahab, "Multiplication and Squaring on
// Pairing-Friendly Fields" (2006).
#pragma once

#include "ff/bls12_381.hpp"

namespace cuzk {

/// Element c0 + c1·u of Fp2 (u² = −1); each coefficient in Montgomery form. 96 bytes.
struct Fp2 {
  Fp c0, c1;

  CUZK_HD static constexpr Fp2 zero() { return Fp2{Fp::zero(), Fp::zero()}; }
  CUZK_HD static constexpr Fp2 one() { return Fp2{Fp::one(), Fp::zero()}; }
  CUZK_HD bool is_zero() const { return c0.is_zero() && c1.is_zero(); }
  CUZK_HD bool is_one() const { return c0.is_one() && c1.is_zero(); }
  CUZK_HD friend bool operator==(const Fp2& a, const Fp2& b) { return a.c0 == b.c0 && a.c1 == b.c1; }
  CUZK_HD friend bool operator!=(const Fp2& a, const Fp2& b) { return !(a == b); }

  CUZK_HD friend Fp2 operator+(const Fp2& a, const Fp2& b) { return {a.c0 + b.c0, a.c1 + b.c1}; }
  CUZK_HD friend Fp2 operator-(const Fp2& a, const Fp2& b) { return {a.c0 - b.c0, a.c1 - b.c1}; }
  CUZK_HD Fp2 operator-() const { return {-c0, -c1}; }
  CUZK_HD Fp2 dbl() const { return {c0.dbl(), c1.dbl()}; }
  CUZK_HD Fp2& operator+=(const Fp2& b) { return *this = *this + b; }
  CUZK_HD Fp2& operator-=(const Fp2& b) { return *this = *this - b; }
  CUZK_HD Fp2& operator*=(const Fp2& b) { return *this = *this * b; }

  /// (a0 + a1u)(b0 + b1u) = (a0b0 − a1b1) + ((a0 + a1)(b0 + b1) − a0b0 − a1b1)u.
  CUZK_HD friend Fp2 operator*(const Fp2& a, const Fp2& b) {
    Fp t0 = a.c0 * b.c0, t1 = a.c1 * b.c1;
    Fp t2 = (a.c0 + a.c1) * (b.c0 + b.c1);
    return {t0 - t1, t2 - t0 - t1};
  }

  /// The Karatsuba product with lazy reduction (Fp's wide words, mont.hpp): the three products as
  /// integers; c1 = (a0 + a1)(b0 + b1) − a0b0 − a1b1 = a0b1 + a1b0 exactly, c0 = a0b0 − a1b1 plus p·R
  /// when negative; one REDC each. Inputs reduced; output reduced. `Ops` as for Mont::mul_evenodd (PTX
  /// carry chains on the device, an emulated carry flag in the tests). Not operator*'s device path:
  /// measured 2 % slower alone, and with it the G2 MSM was slower (PERFORMANCE.md §18).
  template <class Ops>
  CUZK_HD static Fp2 mul_lazy(const Fp2& a, const Fp2& b, Ops& op) {
    constexpr int W = Fp::kWideWords;
    uint32_t t0[W], t1[W], t2[W];
    Fp::mul_wide_words(a.c0, b.c0, t0, op);
    Fp::mul_wide_words(a.c1, b.c1, t1, op);
    Fp::mul_wide_words(Fp::add_raw(a.c0, a.c1, op), Fp::add_raw(b.c0, b.c1, op), t2, op);
    Fp::sub_wide(t2, t0, op);
    Fp::sub_wide(t2, t1, op);
    Fp::sub_wide_mod(t0, t1, op);
    return {Fp::redc_words(t0, op), Fp::redc_words(t2, op)};
  }
  /// (a0 + a1u)² = (a0 + a1)(a0 − a1) + 2a0a1·u.
  CUZK_HD Fp2 sqr() const {
    Fp t = c0 * c1;
    return {(c0 + c1) * (c0 - c1), t.dbl()};
  }
  CUZK_HD Fp2 mul_fp(const Fp& s) const { return {c0 * s, c1 * s}; }
  /// Multiplication by the sextic non-residue ξ = u + 1: (a0 − a1) + (a0 + a1)u.
  CUZK_HD Fp2 mul_by_xi() const { return {c0 - c1, c0 + c1}; }
  /// Conjugate a0 − a1u, which is also the Frobenius map a^p.
  CUZK_HD Fp2 conj() const { return {c0, -c1}; }
  /// Norm a0² + a1² ∈ Fp.
  CUZK_HD Fp norm() const { return c0.sqr() + c1.sqr(); }
  /// a⁻¹ = conj(a) / norm(a); 0 maps to 0.
  CUZK_HD Fp2 inverse() const {
    Fp n = norm().inverse();
    return {c0 * n, -(c1 * n)};
  }
  /// a^e, e as little-endian 64-bit limbs (variable time).
  CUZK_HD Fp2 pow(const uint64_t* e, int nlimbs) const {
    Fp2 r = one();
    for (int i = nlimbs - 1; i >= 0; i--)
      for (int b = 63; b >= 0; b--) {
        r = r.sqr();
        if ((e[i] >> b) & 1) r = r * *this;
      }
    return r;
  }
  /// Sign used by compressed G2 encodings: c1 decides, or c0 when c1 = 0 (zcash serialization).
  CUZK_HD bool is_lexicographically_largest() const {
    return c1.is_zero() ? c0.is_lexicographically_largest() : c1.is_lexicographically_largest();
  }
};

}  // namespace cuzk
