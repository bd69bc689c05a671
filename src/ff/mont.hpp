// One Montgomery prime-field template for host and device code.
//
// Storage is N little-endian 64-bit limbs holding a·R mod m (R = 2^(64·N)), the same bytes on host and
// device, so arrays of elements can be copied between them unchanged. The host multiplies with 64-bit
// limbs and unsigned __int128 (CIOS, Koç–Acar–Kaliski 1996, "no-carry" variant valid because the top
// limb of both BLS12-381 moduli is below 2^63 − 1); the device views the same limbs as 2N 32-bit words
// and multiplies with PTX carry chains (mad.lo/hi.cc), the shape that maps to Hopper's IMAD pipeline.
#pragma once

#include <cstddef>
#include <cstdint>

#include "ff/platform.hpp"

namespace cuzk {

/// A prime field element in Montgomery form.
///
/// `P` supplies: `N` (64-bit limbs), `mod(i)`, `r2(i)` (R² mod m), `one(i)` (R mod m), `inv`
/// (−m⁻¹ mod 2^64) and `bits`. Values are always fully reduced (< m). All operations are constant
/// shape except `inverse` / `pow` / `sqrt`, which are not constant time (a prover has no secrets in
/// them but r and s, which only enter scalar multiplications).
template <class P>
struct Mont {
  static constexpr int N = P::N;
  static constexpr int kBytes = 8 * N;
  using Params = P;

  uint64_t l[N];

  CUZK_HD static constexpr Mont zero() {
    Mont r{};
    return r;
  }
  CUZK_HD static constexpr Mont one() {
    Mont r{};
    for (int i = 0; i < N; i++) r.l[i] = P::one(i);
    return r;
  }
  /// The modulus m as limbs (not a field element: m ≡ 0).
  CUZK_HD static constexpr Mont modulus_limbs() {
    Mont r{};
    for (int i = 0; i < N; i++) r.l[i] = P::mod(i);
    return r;
  }

  CUZK_HD bool is_zero() const {
    uint64_t a = 0;
    for (int i = 0; i < N; i++) a |= l[i];
    return a == 0;
  }
  CUZK_HD bool is_one() const { return *this == one(); }
  CUZK_HD friend bool operator==(const Mont& a, const Mont& b) {
    uint64_t d = 0;
    for (int i = 0; i < N; i++) d |= a.l[i] ^ b.l[i];
    return d == 0;
  }
  CUZK_HD friend bool operator!=(const Mont& a, const Mont& b) { return !(a == b); }

  // ---- addition ---------------------------------------------------------------------------
  /// a + b mod m. Both moduli leave a spare top bit, so a + b never overflows N limbs.
  CUZK_HD friend Mont operator+(const Mont& a, const Mont& b) {
    Mont t;
    uint64_t c = 0;
    for (int i = 0; i < N; i++) {
      uint64_t s = a.l[i] + c;
      c = s < c;
      t.l[i] = s + b.l[i];
      c += t.l[i] < s;
    }
    return t.reduce_once();
  }
  /// a − b mod m.
  CUZK_HD friend Mont operator-(const Mont& a, const Mont& b) {
    Mont t;
    uint64_t borrow = 0;
    for (int i = 0; i < N; i++) {
      uint64_t d = a.l[i] - b.l[i];
      uint64_t b1 = a.l[i] < b.l[i];
      t.l[i] = d - borrow;
      borrow = b1 | (d < borrow);
    }
    // add m back when the subtraction borrowed (mask, no branch)
    uint64_t mask = 0 - borrow, c = 0;
    for (int i = 0; i < N; i++) {
      uint64_t s = t.l[i] + c;
      c = s < c;
      uint64_t add = P::mod(i) & mask;
      t.l[i] = s + add;
      c += t.l[i] < s;
    }
    return t;
  }
  CUZK_HD Mont operator-() const { return is_zero() ? *this : modulus_limbs() - *this; }
  CUZK_HD Mont dbl() const { return *this + *this; }
  CUZK_HD Mont& operator+=(const Mont& b) { return *this = *this + b; }
  CUZK_HD Mont& operator-=(const Mont& b) { return *this = *this - b; }
  CUZK_HD Mont& operator*=(const Mont& b) { return *this = *this * b; }

  // ---- multiplication ---------------------------------------------------------------------
  /// a · b · R⁻¹ mod m (Montgomery product; with both in Montgomery form, the product's form).
  CUZK_HD friend Mont operator*(const Mont& a, const Mont& b) {
#ifdef __CUDA_ARCH__
    return mul_device(a, b);
#else
    return mul_host(a, b);
#endif
  }
  CUZK_HD Mont sqr() const { return *this * *this; }

  /// Montgomery reduction of a single-width value: a · R⁻¹ (turns Montgomery form into canonical).
  CUZK_HD Mont from_mont_limbs() const {
    Mont one_plain{};
    one_plain.l[0] = 1;
    return *this * one_plain;
  }

  /// a^e for an exponent given as little-endian 64-bit limbs (variable time in e).
  CUZK_HD Mont pow(const uint64_t* e, int nlimbs) const {
    Mont r = one();
    for (int i = nlimbs - 1; i >= 0; i--)
      for (int b = 63; b >= 0; b--) {
        r = r.sqr();
        if ((e[i] >> b) & 1) r = r * *this;
      }
    return r;
  }
  CUZK_HD Mont pow_u64(uint64_t e) const { return pow(&e, 1); }

  /// a⁻¹ by Fermat (a^(m−2)); the inverse of 0 is returned as 0 (callers check is_zero first).
  CUZK_HD Mont inverse() const {
    uint64_t e[N];
    for (int i = 0; i < N; i++) e[i] = P::mod(i);
    e[0] -= 2;  // m is odd and > 2: no borrow
    return pow(e, N);
  }

  /// Legendre symbol: 1 for a non-zero square, −1 for a non-square, 0 for 0.
  CUZK_HD int legendre() const {
    if (is_zero()) return 0;
    uint64_t e[N];
    shr1_mod(e);  // (m−1)/2
    Mont t = pow(e, N);
    return t.is_one() ? 1 : -1;
  }

  /// Sets out = (m − 1) / 2 as limbs.
  CUZK_HD static void shr1_mod(uint64_t* out) {
    for (int i = 0; i < N; i++) {
      uint64_t hi = i + 1 < N ? P::mod(i + 1) : 0;
      out[i] = (P::mod(i) >> 1) | (hi << 63);
    }
  }

  // ---- conversions (canonical integers are little-endian limbs) ------------------------------
  /// Builds an element from a canonical integer (limbs, little-endian); returns false if ≥ m.
  CUZK_HD static bool from_canonical(const uint64_t* in, Mont& out) {
    if (!less_than_mod(in)) return false;
    Mont t;
    for (int i = 0; i < N; i++) t.l[i] = in[i];
    Mont r2;
    for (int i = 0; i < N; i++) r2.l[i] = P::r2(i);
    out = t * r2;
    return true;
  }
  /// The canonical integer value (limbs, little-endian).
  CUZK_HD void to_canonical(uint64_t* out) const {
    Mont t = from_mont_limbs();
    for (int i = 0; i < N; i++) out[i] = t.l[i];
  }
  /// Small integers (already reduced).
  CUZK_HD static Mont from_u64(uint64_t v) {
    uint64_t t[N] = {};
    t[0] = v;
    Mont r;
    from_canonical(t, r);
    return r;
  }
  /// True if the limbs (little-endian) encode an integer < m.
  CUZK_HD static bool less_than_mod(const uint64_t* in) {
    for (int i = N - 1; i >= 0; i--) {
      if (in[i] < P::mod(i)) return true;
      if (in[i] > P::mod(i)) return false;
    }
    return false;
  }
  /// Lexicographic "largest" test used by compressed encodings: canonical value > (m − 1) / 2.
  CUZK_HD bool is_lexicographically_largest() const {
    uint64_t c[N], h[N];
    to_canonical(c);
    shr1_mod(h);
    for (int i = N - 1; i >= 0; i--) {
      if (c[i] > h[i]) return true;
      if (c[i] < h[i]) return false;
    }
    return false;
  }

 private:
  CUZK_HD Mont reduce_once() const {
    Mont t;
    uint64_t borrow = 0;
    for (int i = 0; i < N; i++) {
      uint64_t d = l[i] - P::mod(i);
      uint64_t b1 = l[i] < P::mod(i);
      t.l[i] = d - borrow;
      borrow = b1 | (d < borrow);
    }
    return borrow ? *this : t;
  }

#ifndef __CUDA_ARCH__
  static Mont mul_host(const Mont& a, const Mont& b) {
    using u128 = unsigned __int128;
    uint64_t t[N + 1] = {};
    for (int i = 0; i < N; i++) {
      uint64_t c = 0;
      for (int j = 0; j < N; j++) {
        u128 s = (u128)a.l[j] * b.l[i] + t[j] + c;
        t[j] = (uint64_t)s;
        c = (uint64_t)(s >> 64);
      }
      uint64_t tn = c;
      uint64_t m = t[0] * P::inv;
      u128 s = (u128)m * P::mod(0) + t[0];
      c = (uint64_t)(s >> 64);
      for (int j = 1; j < N; j++) {
        s = (u128)m * P::mod(j) + t[j] + c;
        t[j - 1] = (uint64_t)s;
        c = (uint64_t)(s >> 64);
      }
      t[N - 1] = tn + c;
    }
    Mont r;
    for (int i = 0; i < N; i++) r.l[i] = t[i];
    return r.reduce_once();
  }
#else
  // 32-bit CIOS: per word b_i four carry chains (a·b_i low halves, high halves, then m·p low and
  // high halves), each one unbroken mad/madc sequence. t has 2N+2 words; the shift by one word at
  // the end of each round is register renaming once the loops are unrolled.
  __device__ static Mont mul_device(const Mont& a, const Mont& b) {
    constexpr int n = 2 * N;
    const uint32_t* A = reinterpret_cast<const uint32_t*>(a.l);
    const uint32_t* B = reinterpret_cast<const uint32_t*>(b.l);
    uint32_t M[n];
#pragma unroll
    for (int i = 0; i < N; i++) {
      M[2 * i] = (uint32_t)P::mod(i);
      M[2 * i + 1] = (uint32_t)(P::mod(i) >> 32);
    }
    const uint32_t inv = (uint32_t)P::inv;
    uint32_t t[n + 2];
#pragma unroll
    for (int i = 0; i < n + 2; i++) t[i] = 0;
#pragma unroll
    for (int i = 0; i < n; i++) {
      const uint32_t bi = B[i];
      asm volatile("mad.lo.cc.u32 %0, %1, %2, %0;" : "+r"(t[0]) : "r"(A[0]), "r"(bi));
#pragma unroll
      for (int j = 1; j < n; j++)
        asm volatile("madc.lo.cc.u32 %0, %1, %2, %0;" : "+r"(t[j]) : "r"(A[j]), "r"(bi));
      asm volatile("addc.cc.u32 %0, %0, 0;" : "+r"(t[n]));
      asm volatile("addc.u32 %0, %0, 0;" : "+r"(t[n + 1]));
      asm volatile("mad.hi.cc.u32 %0, %1, %2, %0;" : "+r"(t[1]) : "r"(A[0]), "r"(bi));
#pragma unroll
      for (int j = 1; j < n; j++)
        asm volatile("madc.hi.cc.u32 %0, %1, %2, %0;" : "+r"(t[j + 1]) : "r"(A[j]), "r"(bi));
      asm volatile("addc.u32 %0, %0, 0;" : "+r"(t[n + 1]));
      const uint32_t m = t[0] * inv;
      asm volatile("mad.lo.cc.u32 %0, %1, %2, %0;" : "+r"(t[0]) : "r"(M[0]), "r"(m));
#pragma unroll
      for (int j = 1; j < n; j++)
        asm volatile("madc.lo.cc.u32 %0, %1, %2, %0;" : "+r"(t[j]) : "r"(M[j]), "r"(m));
      asm volatile("addc.cc.u32 %0, %0, 0;" : "+r"(t[n]));
      asm volatile("addc.u32 %0, %0, 0;" : "+r"(t[n + 1]));
      asm volatile("mad.hi.cc.u32 %0, %1, %2, %0;" : "+r"(t[1]) : "r"(M[0]), "r"(m));
#pragma unroll
      for (int j = 1; j < n; j++)
        asm volatile("madc.hi.cc.u32 %0, %1, %2, %0;" : "+r"(t[j + 1]) : "r"(M[j]), "r"(m));
      asm volatile("addc.u32 %0, %0, 0;" : "+r"(t[n + 1]));
#pragma unroll
      for (int j = 0; j < n + 1; j++) t[j] = t[j + 1];
      t[n + 1] = 0;
    }
    Mont r;
#pragma unroll
    for (int i = 0; i < N; i++) r.l[i] = (uint64_t)t[2 * i] | ((uint64_t)t[2 * i + 1] << 32);
    return r.reduce_once();
  }
#endif
};

}  // namespace cuzk
