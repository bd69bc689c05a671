#include "ntt/butterfly_ifma.hpp"

#include "ff/fp52x8.hpp"

namespace cuzk::ntt_detail {

using ifma::kMask52;
using FrX8 = ifma::Vec<5>;

namespace {

/// r in 5 limbs of 52 bits.
constexpr uint64_t kR[5] = {
    FrParams::mod(0) & kMask52,
    (FrParams::mod(0) >> 52 | FrParams::mod(1) << 12) & kMask52,
    (FrParams::mod(1) >> 40 | FrParams::mod(2) << 24) & kMask52,
    (FrParams::mod(2) >> 28 | FrParams::mod(3) << 36) & kMask52,
    FrParams::mod(3) >> 16,
};
constexpr uint64_t kInvR = FrParams::inv & kMask52;

CUZK_IFMA_INLINE __m512i idx(long long a, long long b, long long c, long long d, long long e, long long f,
                             long long g, long long h) {
  return _mm512_set_epi64(h, g, f, e, d, c, b, a);
}
CUZK_IFMA_INLINE __m512i shl(__m512i v, unsigned n) { return _mm512_maskz_slli_epi64(0xff, v, n); }
CUZK_IFMA_INLINE __m512i shr(__m512i v, unsigned n) { return _mm512_maskz_srli_epi64(0xff, v, n); }

/// Four registers holding elements (0,1), (2,3), (4,5), (6,7), 4 limbs each, as 8 lanes of 5×52 bits.
CUZK_IFMA_INLINE FrX8 to_lanes(const __m512i z[4]) {
  const __m512i i1 = idx(0, 4, 8, 12, 1, 5, 9, 13), i2 = idx(2, 6, 10, 14, 3, 7, 11, 15);
  const __m512i t0 = _mm512_permutex2var_epi64(z[0], i1, z[1]),
                t1 = _mm512_permutex2var_epi64(z[0], i2, z[1]);
  const __m512i t2 = _mm512_permutex2var_epi64(z[2], i1, z[3]),
                t3 = _mm512_permutex2var_epi64(z[2], i2, z[3]);
  const __m512i j1 = idx(0, 1, 2, 3, 8, 9, 10, 11), j2 = idx(4, 5, 6, 7, 12, 13, 14, 15);
  const __m512i l0 = _mm512_permutex2var_epi64(t0, j1, t2), l1 = _mm512_permutex2var_epi64(t0, j2, t2);
  const __m512i l2 = _mm512_permutex2var_epi64(t1, j1, t3), l3 = _mm512_permutex2var_epi64(t1, j2, t3);
  const __m512i mask = _mm512_set1_epi64((long long)kMask52);
  FrX8 r;
  r.l[0] = _mm512_and_si512(l0, mask);
  r.l[1] = _mm512_and_si512(_mm512_or_si512(shr(l0, 52), shl(l1, 12)), mask);
  r.l[2] = _mm512_and_si512(_mm512_or_si512(shr(l1, 40), shl(l2, 24)), mask);
  r.l[3] = _mm512_and_si512(_mm512_or_si512(shr(l2, 28), shl(l3, 36)), mask);
  r.l[4] = shr(l3, 16);
  return r;
}

/// The inverse of to_lanes for normalized values below 2^256.
CUZK_IFMA_INLINE void from_lanes(const FrX8& v, __m512i z[4]) {
  const __m512i l0 = _mm512_or_si512(v.l[0], shl(v.l[1], 52));
  const __m512i l1 = _mm512_or_si512(shr(v.l[1], 12), shl(v.l[2], 40));
  const __m512i l2 = _mm512_or_si512(shr(v.l[2], 24), shl(v.l[3], 28));
  const __m512i l3 = _mm512_or_si512(shr(v.l[3], 36), shl(v.l[4], 16));
  const __m512i k1 = idx(0, 8, 1, 9, 2, 10, 3, 11), k2 = idx(4, 12, 5, 13, 6, 14, 7, 15);
  const __m512i a0 = _mm512_permutex2var_epi64(l0, k1, l1), a1 = _mm512_permutex2var_epi64(l0, k2, l1);
  const __m512i b0 = _mm512_permutex2var_epi64(l2, k1, l3), b1 = _mm512_permutex2var_epi64(l2, k2, l3);
  const __m512i m1 = idx(0, 1, 8, 9, 2, 3, 10, 11), m2 = idx(4, 5, 12, 13, 6, 7, 14, 15);
  z[0] = _mm512_permutex2var_epi64(a0, m1, b0);
  z[1] = _mm512_permutex2var_epi64(a0, m2, b0);
  z[2] = _mm512_permutex2var_epi64(a1, m1, b1);
  z[3] = _mm512_permutex2var_epi64(a1, m2, b1);
}

CUZK_IFMA_INLINE FrX8 load8(const Fr* p) {
  __m512i z[4];
  for (int i = 0; i < 4; i++) z[i] = _mm512_loadu_si512(p + 2 * i);
  return to_lanes(z);
}
CUZK_IFMA_INLINE FrX8 load8_strided(const Fr* p, size_t stride) {
  __m512i z[4];
  for (int i = 0; i < 4; i++) {
    // limbs of element 2i into qwords 0-3, those of element 2i + 1 into qwords 4-7 (masked loads)
    const uint64_t* lo = p[2 * i * stride].l;
    const uint64_t* hi = p[(2 * i + 1) * stride].l;
    z[i] = _mm512_mask_loadu_epi64(_mm512_maskz_loadu_epi64(0x0f, lo), 0xf0, hi - 4);
  }
  return to_lanes(z);
}
CUZK_IFMA_INLINE void store8_strided(Fr* p, size_t stride, const FrX8& v) {
  __m512i z[4];
  from_lanes(v, z);
  for (int i = 0; i < 4; i++) {
    _mm512_mask_storeu_epi64(p[2 * i * stride].l, 0x0f, z[i]);
    _mm512_mask_storeu_epi64(p[(2 * i + 1) * stride].l - 4, 0xf0, z[i]);
  }
}
CUZK_IFMA_INLINE FrX8 broadcast(const Fr& c) {
  alignas(64) Fr t[8];
  for (auto& v : t) v = c;
  return load8(t);
}
/// (u, v) ← (u + v, u − v) and (u, v) ← (u + w·v, u − w·v), canonical values.
CUZK_IFMA_INLINE void butterfly(FrX8& u, FrX8& v) {
  const FrX8 s = ifma::sub_if_ge<5>(ifma::add<5>(u, v), kR);
  v = ifma::sub_if_ge<5>(ifma::sub<5>(u, v, kR), kR);
  u = s;
}
CUZK_IFMA_INLINE void butterfly(FrX8& u, FrX8& v, const FrX8& w) {
  FrX8 t = ifma::sub_if_ge<5>(ifma::mont_mul<5>(v, w, kR, kInvR), kR);
  butterfly(u, t);
  v = t;
}
CUZK_IFMA_INLINE void store8(Fr* p, const FrX8& v) {
  __m512i z[4];
  from_lanes(v, z);
  for (int i = 0; i < 4; i++) _mm512_storeu_si512(p + 2 * i, z[i]);
}

}  // namespace

Fr to_lane_twiddle(const Fr& w) {
  static const Fr k = Fr::raw_pow2(260);  // w·k = w·2^260·2^−256
  return w * k;
}

CUZK_IFMA void butterflies_x8(Fr* x, size_t m, size_t j0, size_t j1, const Fr* W, size_t stride) {
  for (size_t j = j0; j < j1; j += 8) {
    const FrX8 u = load8(x + j), v = load8(x + j + m);
    const FrX8 w = stride == 1 ? load8(W + j) : load8_strided(W + j * stride, stride);
    const FrX8 t = ifma::sub_if_ge<5>(ifma::mont_mul<5>(v, w, kR, kInvR), kR);  // v·ω, canonical
    store8(x + j, ifma::sub_if_ge<5>(ifma::add<5>(u, t), kR));
    store8(x + j + m, ifma::sub_if_ge<5>(ifma::sub<5>(u, t, kR), kR));
  }
}

CUZK_IFMA void first_stages_x8(Fr* x, size_t len, const Fr* w8) {
  const FrX8 w1 = broadcast(w8[1]), w2 = broadcast(w8[2]), w3 = broadcast(w8[3]);
  for (size_t k = 0; k < len; k += 64) {
    FrX8 e[8];  // e[i], lane l = x[k + 8l + i]
    for (int i = 0; i < 8; i++) e[i] = load8_strided(x + k + i, 8);
    for (int i = 0; i < 8; i += 2) butterfly(e[i], e[i + 1]);  // half-size 1
    butterfly(e[0], e[2]);                                     // half-size 2: ω_4 = ω_8^2
    butterfly(e[1], e[3], w2);
    butterfly(e[4], e[6]);
    butterfly(e[5], e[7], w2);
    butterfly(e[0], e[4]);  // half-size 4
    butterfly(e[1], e[5], w1);
    butterfly(e[2], e[6], w2);
    butterfly(e[3], e[7], w3);
    for (int i = 0; i < 8; i++) store8_strided(x + k + i, 8, e[i]);
  }
}

CUZK_IFMA void scale_x8(Fr* x, const Fr* w, size_t n) {
  for (size_t k = 0; k < n; k += 8)
    store8(x + k, ifma::sub_if_ge<5>(ifma::mont_mul<5>(load8(x + k), load8(w + k), kR, kInvR), kR));
}

CUZK_IFMA void mul_sub_x8(Fr* out, const Fr* a, const Fr* b, const Fr* c, size_t n) {
  // b·2^256 → b·2^260 (lane form) by a lane product with the integer 2^264 mod r
  static const Fr k264 = Fr::raw_pow2(264);
  alignas(64) Fr kk[8];
  for (auto& v : kk) v = k264;
  const FrX8 K = load8(kk);
  for (size_t k = 0; k < n; k += 8) {
    const FrX8 bl = ifma::mont_mul<5>(load8(b + k), K, kR, kInvR);
    FrX8 t = ifma::sub_if_ge<5>(ifma::mont_mul<5>(load8(a + k), bl, kR, kInvR), kR);
    if (c) t = ifma::sub_if_ge<5>(ifma::sub<5>(t, load8(c + k), kR), kR);
    store8(out + k, t);
  }
}

}  // namespace cuzk::ntt_detail
