// Eight Fp elements at once in AVX-512 IFMA lanes (vpmadd52luq / vpmadd52huq): the x86 vector form of
// the BLS12-381 base field that the CPU batch-affine MSM runs on.
//
// Representation: radix 2^52, 8 limbs (416 bits) per element, Montgomery form with R' = 2^416 (the
// scalar Fp of mont.hpp uses R = 2^384, so a scalar X = x·2^384 converts to x·2^416 = X·2^32).
// FpX8 holds limb i of all 8 lanes in register l[i] ("limb-major"); Fp52 is one element, row-major,
// 64 bytes, the layout in memory. The multiplier is operand-scanning Montgomery (CIOS) with carries
// deferred to the end, as in S. Gueron and V. Krasnov, "Accelerating big integer arithmetic using Intel
// IFMA extensions" (ARITH 2016): 2·8·8 product and 2·8·8 reduction multiply-adds per 8 products.
//
// Ranges: a product of inputs below 2^390 is below 2p (since p < 2^381 and R' = 2^416); callers keep
// values lazily reduced and call reduce() where a canonical value (< p) is needed. Every function here
// needs a CPU with AVX-512F and AVX-512 IFMA: check cpu_has_ifma() before calling any of them. They are
// compiled for that target by attribute, so the rest of the program stays plain x86-64. Shifts and
// unpacks use the zero-masked forms with a full mask: same instructions, but GCC 12's unmasked wrappers
// pass an undefined register and trip -Wmaybe-uninitialized (GCC PR 105593).
#pragma once

#include <immintrin.h>

#include <cstdint>

#include "ff/bls12_381.hpp"

#define CUZK_IFMA __attribute__((target("avx512f,avx512ifma")))
#define CUZK_IFMA_INLINE __attribute__((target("avx512f,avx512ifma"), always_inline)) inline

namespace cuzk::ifma {

/// True when this CPU executes AVX-512F and AVX-512 IFMA (checked once, by cpuid).
inline bool cpu_has_ifma() {
  static const bool ok = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512ifma");
  return ok;
}

/// One Fp element: 8 little-endian limbs of 52 bits, Montgomery form with R' = 2^416; 64-byte aligned.
struct alignas(64) Fp52 {
  uint64_t l[8];
};

constexpr uint64_t kMask52 = (uint64_t{1} << 52) - 1;

/// The 52-bit limbs of a 384-bit integer (6 little-endian 64-bit limbs).
constexpr Fp52 repack52(const uint64_t* a) {
  Fp52 r{};
  for (int k = 0; k < 8; k++) {
    const int bit = 52 * k, li = bit / 64, off = bit % 64;
    uint64_t v = li < 6 ? a[li] >> off : 0;
    if (off > 12 && li + 1 < 6) v |= a[li + 1] << (64 - off);
    r.l[k] = v & kMask52;
  }
  return r;
}

/// The 6 little-endian 64-bit limbs of a 52-bit-limb value below 2^384.
constexpr void repack64(const Fp52& a, uint64_t* out) {
  for (int i = 0; i < 6; i++) {
    const int bit = 64 * i, k = bit / 52, off = bit % 52;
    uint64_t v = a.l[k] >> off;
    v |= a.l[k + 1] << (52 - off);
    if (104 - off < 64 && k + 2 < 8) v |= a.l[k + 2] << (104 - off);
    out[i] = v;
  }
}

/// k·p in 52-bit limbs, for k·p < 2^416.
constexpr Fp52 p_times(uint64_t k) {
  uint64_t m[6], carry = 0;
  for (int i = 0; i < 6; i++) {
    const unsigned __int128 t = (unsigned __int128)FpParams::mod(i) * k + carry;
    m[i] = (uint64_t)t;
    carry = (uint64_t)(t >> 64);
  }
  return repack52(m);
}

inline constexpr Fp52 kP = p_times(1), k2P = p_times(2), k4P = p_times(4);
/// −p⁻¹ mod 2^52 (the low 52 bits of −p⁻¹ mod 2^64).
inline constexpr uint64_t kInv52 = FpParams::inv & kMask52;

/// A scalar Fp (Montgomery, R = 2^384) as an Fp52 (R' = 2^416), canonical.
Fp52 to_fp52(const Fp& a);
/// An Fp52 below 2p back to a scalar Fp.
Fp from_fp52(const Fp52& a);

/// Eight field elements of L 52-bit limbs, limb-major: l[i] holds limb i of lanes 0..7.
template <int L>
struct Vec {
  __m512i l[L];
};
/// Eight Fp elements.
using FpX8 = Vec<8>;

/// All lanes equal to c.
CUZK_IFMA_INLINE FpX8 broadcast(const Fp52& c) {
  FpX8 r;
  for (int i = 0; i < 8; i++) r.l[i] = _mm512_set1_epi64((long long)c.l[i]);
  return r;
}

/// In-place transpose of an 8×8 matrix of 64-bit words held as 8 rows: turns 8 row-major elements
/// into limb-major lanes and back (24 shuffles).
CUZK_IFMA_INLINE void transpose8(__m512i r[8]) {
  __m512i t[8];
  for (int i = 0; i < 4; i++) {
    t[2 * i] = _mm512_maskz_unpacklo_epi64(0xff, r[2 * i], r[2 * i + 1]);      // a0 b0 a2 b2 a4 b4 a6 b6
    t[2 * i + 1] = _mm512_maskz_unpackhi_epi64(0xff, r[2 * i], r[2 * i + 1]);  // a1 b1 a3 b3 a5 b5 a7 b7
  }
  const __m512i lo2 = _mm512_set_epi64(13, 12, 5, 4, 9, 8, 1, 0);
  const __m512i hi2 = _mm512_set_epi64(15, 14, 7, 6, 11, 10, 3, 2);
  __m512i u[8];
  for (int h = 0; h < 2; h++) {  // rows 0-3, then rows 4-7
    __m512i* s = t + 4 * h;
    u[4 * h + 0] = _mm512_permutex2var_epi64(s[0], lo2, s[2]);  // a0 b0 c0 d0 a4 b4 c4 d4
    u[4 * h + 1] = _mm512_permutex2var_epi64(s[1], lo2, s[3]);  // a1 b1 c1 d1 a5 b5 c5 d5
    u[4 * h + 2] = _mm512_permutex2var_epi64(s[0], hi2, s[2]);  // a2 b2 c2 d2 a6 b6 c6 d6
    u[4 * h + 3] = _mm512_permutex2var_epi64(s[1], hi2, s[3]);  // a3 b3 c3 d3 a7 b7 c7 d7
  }
  const __m512i lo4 = _mm512_set_epi64(11, 10, 9, 8, 3, 2, 1, 0);
  const __m512i hi4 = _mm512_set_epi64(15, 14, 13, 12, 7, 6, 5, 4);
  for (int i = 0; i < 4; i++) {
    r[i] = _mm512_permutex2var_epi64(u[i], lo4, u[4 + i]);
    r[i + 4] = _mm512_permutex2var_epi64(u[i], hi4, u[4 + i]);
  }
}

/// Lanes i = 0..7 loaded from *src[i].
CUZK_IFMA_INLINE FpX8 gather(const Fp52* const src[8]) {
  FpX8 r;
  for (int i = 0; i < 8; i++) r.l[i] = _mm512_load_si512(src[i]->l);
  transpose8(r.l);
  return r;
}

/// Lane i stored to *dst[i] for the lanes set in `lanes` (bit i).
CUZK_IFMA_INLINE void scatter(FpX8 v, Fp52* const dst[8], unsigned lanes) {
  transpose8(v.l);
  for (int i = 0; i < 8; i++)
    if (lanes >> i & 1) _mm512_store_si512(dst[i]->l, v.l[i]);
}

/// Carry propagation of signed 64-bit limbs into 52-bit limbs 0..L−2 and a signed top limb, which is
/// negative exactly when the value is (and below 2^52 for values below 2^(52L)).
template <int L>
CUZK_IFMA_INLINE Vec<L> normalize(Vec<L> v) {
  const __m512i mask = _mm512_set1_epi64((long long)kMask52);
  __m512i c = _mm512_setzero_si512();
  for (int i = 0; i < L - 1; i++) {
    const __m512i t = _mm512_add_epi64(v.l[i], c);
    c = _mm512_maskz_srai_epi64(0xff, t, 52);
    v.l[i] = _mm512_and_si512(t, mask);
  }
  v.l[L - 1] = _mm512_add_epi64(v.l[L - 1], c);
  return v;
}

/// a + k − b, normalized; the caller picks the multiple of the modulus `k` above b so the result is
/// positive.
template <int L>
CUZK_IFMA_INLINE Vec<L> sub(const Vec<L>& a, const Vec<L>& b, const uint64_t (&k)[L]) {
  Vec<L> r;
  for (int i = 0; i < L; i++)
    r.l[i] = _mm512_sub_epi64(_mm512_add_epi64(a.l[i], _mm512_set1_epi64((long long)k[i])), b.l[i]);
  return normalize(r);
}

/// a + b, normalized.
template <int L>
CUZK_IFMA_INLINE Vec<L> add(const Vec<L>& a, const Vec<L>& b) {
  Vec<L> r;
  for (int i = 0; i < L; i++) r.l[i] = _mm512_add_epi64(a.l[i], b.l[i]);
  return normalize(r);
}

/// v − c in the lanes where v ≥ c (v and c normalized).
template <int L>
CUZK_IFMA_INLINE Vec<L> sub_if_ge(const Vec<L>& v, const uint64_t (&c)[L]) {
  Vec<L> t;
  for (int i = 0; i < L; i++) t.l[i] = _mm512_sub_epi64(v.l[i], _mm512_set1_epi64((long long)c[i]));
  t = normalize(t);  // negative top limb: v < c
  const __mmask8 lt = _mm512_cmplt_epi64_mask(t.l[L - 1], _mm512_setzero_si512());
  for (int i = 0; i < L; i++) t.l[i] = _mm512_mask_blend_epi64(lt, t.l[i], v.l[i]);
  return t;
}

/// Lanes where a and b have equal limbs.
template <int L>
CUZK_IFMA_INLINE __mmask8 equal(const Vec<L>& a, const Vec<L>& b) {
  __mmask8 m = 0xff;
  for (int i = 0; i < L; i++) m &= _mm512_cmpeq_epi64_mask(a.l[i], b.l[i]);
  return m;
}

/// Montgomery product a·b·2^(−52L) mod m for the L-limb modulus `mod` with inv52 = −m⁻¹ mod 2^52, inputs
/// normalized with a·b < m·2^(52L); the result is normalized and below 2m.
template <int L>
CUZK_IFMA_INLINE Vec<L> mont_mul(const Vec<L>& a, const Vec<L>& b, const uint64_t (&mod)[L], uint64_t inv52) {
  const __m512i k0 = _mm512_set1_epi64((long long)inv52);
  __m512i t[L + 1];
  for (int j = 0; j <= L; j++) t[j] = _mm512_setzero_si512();
  for (int i = 0; i < L; i++) {
    const __m512i bi = b.l[i];
    for (int j = 0; j < L; j++) t[j] = _mm512_madd52lo_epu64(t[j], a.l[j], bi);
    for (int j = 0; j < L; j++) t[j + 1] = _mm512_madd52hi_epu64(t[j + 1], a.l[j], bi);
    const __m512i m = _mm512_madd52lo_epu64(_mm512_setzero_si512(), t[0], k0);
    for (int j = 0; j < L; j++) t[j] = _mm512_madd52lo_epu64(t[j], m, _mm512_set1_epi64((long long)mod[j]));
    for (int j = 0; j < L; j++)
      t[j + 1] = _mm512_madd52hi_epu64(t[j + 1], m, _mm512_set1_epi64((long long)mod[j]));
    // t[0] ≡ 0 mod 2^52 now: drop it, keeping its carry
    const __m512i c = _mm512_maskz_srli_epi64(0xff, t[0], 52);
    for (int j = 0; j < L; j++) t[j] = t[j + 1];
    t[0] = _mm512_add_epi64(t[0], c);
    t[L] = _mm512_setzero_si512();
  }
  Vec<L> r;
  for (int j = 0; j < L; j++) r.l[j] = t[j];
  return normalize(r);
}

// ---- Fp (8 limbs, R' = 2^416) ---------------------------------------------------------------------

CUZK_IFMA_INLINE FpX8 sub(const FpX8& a, const FpX8& b, const Fp52& k) { return sub<8>(a, b, k.l); }
CUZK_IFMA_INLINE FpX8 sub_if_ge(const FpX8& v, const Fp52& c) { return sub_if_ge<8>(v, c.l); }
/// The canonical value (< p) of a normalized v < 4p.
CUZK_IFMA_INLINE FpX8 reduce4(const FpX8& v) { return sub_if_ge(sub_if_ge(v, k2P), kP); }
/// a·b·2^−416 mod p for normalized inputs below 2^390; the result is normalized and below 2p.
CUZK_IFMA_INLINE FpX8 mul(const FpX8& a, const FpX8& b) { return mont_mul<8>(a, b, kP.l, kInv52); }

}  // namespace cuzk::ifma
