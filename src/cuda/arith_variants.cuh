// Alternative Montgomery multipliers, kept only to benchmark against Mont::mul_evenodd (the one
// operator* uses on the device). Both compute a·b·R⁻¹ mod m for inputs < m, output < m.
#pragma once

#include <cstdint>

#include "ff/mont.hpp"

namespace cuzk::cuda::variants {

/// Subtracts m once when x ≥ m (x < 2m), 32-bit words.
template <class P, int n>
CUZK_HD void final_sub(uint32_t (&x)[n]) {
  uint32_t y[n];
  int64_t borrow = 0;
CUZK_MONT_UNROLL
  for (int k = 0; k < n; k++) {
    const int64_t d = (int64_t)x[k] - (int64_t)Mont<P>::mod_word(k) - borrow;
    y[k] = (uint32_t)d;
    borrow = d < 0;
  }
  if (!borrow) {
CUZK_MONT_UNROLL
    for (int k = 0; k < n; k++) x[k] = y[k];
  }
}

template <class P, int n>
CUZK_HD Mont<P> from_words(const uint32_t (&x)[n]) {
  Mont<P> r;
CUZK_MONT_UNROLL
  for (int i = 0; i < n / 2; i++) r.l[i] = (uint64_t)x[2 * i] | ((uint64_t)x[2 * i + 1] << 32);
  return r;
}

/// CIOS on 32-bit words written with 64-bit accumulators (mul.wide.u32 + add.u64), leaving the carry
/// handling to the compiler (Koç–Acar–Kaliski 1996).
template <class P>
CUZK_HD Mont<P> mul_wide64(const Mont<P>& a, const Mont<P>& b) {
  constexpr int n = 2 * P::N;
  uint32_t A[n], B[n], t[n + 2];
CUZK_MONT_UNROLL
  for (int i = 0; i < P::N; i++) {
    A[2 * i] = (uint32_t)a.l[i];
    A[2 * i + 1] = (uint32_t)(a.l[i] >> 32);
    B[2 * i] = (uint32_t)b.l[i];
    B[2 * i + 1] = (uint32_t)(b.l[i] >> 32);
  }
CUZK_MONT_UNROLL
  for (int k = 0; k < n + 2; k++) t[k] = 0;
CUZK_MONT_UNROLL
  for (int i = 0; i < n; i++) {
    uint64_t c = 0;
CUZK_MONT_UNROLL
    for (int j = 0; j < n; j++) {
      const uint64_t s = (uint64_t)A[j] * B[i] + t[j] + c;
      t[j] = (uint32_t)s;
      c = s >> 32;
    }
    uint64_t s = (uint64_t)t[n] + c;
    t[n] = (uint32_t)s;
    t[n + 1] = (uint32_t)(s >> 32);
    const uint32_t m = t[0] * (uint32_t)P::inv;
    s = (uint64_t)m * Mont<P>::mod_word(0) + t[0];
    c = s >> 32;
CUZK_MONT_UNROLL
    for (int j = 1; j < n; j++) {
      s = (uint64_t)m * Mont<P>::mod_word(j) + t[j] + c;
      t[j - 1] = (uint32_t)s;
      c = s >> 32;
    }
    s = (uint64_t)t[n] + c;
    t[n - 1] = (uint32_t)s;
    t[n] = t[n + 1] + (uint32_t)(s >> 32);
  }
  uint32_t r[n];
CUZK_MONT_UNROLL
  for (int k = 0; k < n; k++) r[k] = t[k];
  final_sub<P, n>(r);
  return from_words<P, n>(r);
}

/// PTX carry-chain primitives for Mont::mul_evenodd (the same instructions as Mont's own, usable here).
struct PtxOps {
#define CUZK_VAR_OP3(name, ins)                                                   \
  __device__ __forceinline__ uint32_t name(uint32_t a, uint32_t b, uint32_t c) {  \
    uint32_t d;                                                                   \
    asm volatile(ins " %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));      \
    return d;                                                                     \
  }
#define CUZK_VAR_OP2(name, ins)                                   \
  __device__ __forceinline__ uint32_t name(uint32_t a, uint32_t b) { \
    uint32_t d;                                                   \
    asm volatile(ins " %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));  \
    return d;                                                     \
  }
  CUZK_VAR_OP3(mad_lo_cc, "mad.lo.cc.u32")
  CUZK_VAR_OP3(madc_lo_cc, "madc.lo.cc.u32")
  CUZK_VAR_OP3(madc_hi_cc, "madc.hi.cc.u32")
  CUZK_VAR_OP2(add_cc, "add.cc.u32")
  CUZK_VAR_OP2(addc_cc, "addc.cc.u32")
  CUZK_VAR_OP2(addc, "addc.u32")
  CUZK_VAR_OP2(sub_cc, "sub.cc.u32")
  CUZK_VAR_OP2(subc_cc, "subc.cc.u32")
  CUZK_VAR_OP2(subc, "subc.u32")
#undef CUZK_VAR_OP3
#undef CUZK_VAR_OP2
};

/// mul_evenodd with the modulus-shape tricks (Fr: m·r_0 and m·r_1 without multiplications).
template <class P>
__device__ Mont<P> mul_evenodd_shape(const Mont<P>& a, const Mont<P>& b) {
  PtxOps ops;
  return Mont<P>::template mul_evenodd<true>(a, b, ops);
}

/// The first device multiplier of this project: CIOS with four separate carry chains per row (a·b_i
/// low halves, high halves, m·p low halves, high halves) and a running value of 2n+2 words.
template <class P>
__device__ Mont<P> mul_cios4(const Mont<P>& a, const Mont<P>& b) {
  constexpr int n = 2 * P::N;
  uint32_t A[n], B[n], M[n];
CUZK_MONT_UNROLL
  for (int i = 0; i < P::N; i++) {
    A[2 * i] = (uint32_t)a.l[i];
    A[2 * i + 1] = (uint32_t)(a.l[i] >> 32);
    B[2 * i] = (uint32_t)b.l[i];
    B[2 * i + 1] = (uint32_t)(b.l[i] >> 32);
  }
CUZK_MONT_UNROLL
  for (int j = 0; j < n; j++) M[j] = Mont<P>::mod_word(j);
  const uint32_t inv = (uint32_t)P::inv;
  uint32_t t[n + 2];
CUZK_MONT_UNROLL
  for (int i = 0; i < n + 2; i++) t[i] = 0;
CUZK_MONT_UNROLL
  for (int i = 0; i < n; i++) {
    const uint32_t bi = B[i];
    asm volatile("mad.lo.cc.u32 %0, %1, %2, %0;" : "+r"(t[0]) : "r"(A[0]), "r"(bi));
CUZK_MONT_UNROLL
    for (int j = 1; j < n; j++) asm volatile("madc.lo.cc.u32 %0, %1, %2, %0;" : "+r"(t[j]) : "r"(A[j]), "r"(bi));
    asm volatile("addc.cc.u32 %0, %0, 0;" : "+r"(t[n]));
    asm volatile("addc.u32 %0, %0, 0;" : "+r"(t[n + 1]));
    asm volatile("mad.hi.cc.u32 %0, %1, %2, %0;" : "+r"(t[1]) : "r"(A[0]), "r"(bi));
CUZK_MONT_UNROLL
    for (int j = 1; j < n; j++)
      asm volatile("madc.hi.cc.u32 %0, %1, %2, %0;" : "+r"(t[j + 1]) : "r"(A[j]), "r"(bi));
    asm volatile("addc.u32 %0, %0, 0;" : "+r"(t[n + 1]));
    const uint32_t m = t[0] * inv;
    asm volatile("mad.lo.cc.u32 %0, %1, %2, %0;" : "+r"(t[0]) : "r"(M[0]), "r"(m));
CUZK_MONT_UNROLL
    for (int j = 1; j < n; j++) asm volatile("madc.lo.cc.u32 %0, %1, %2, %0;" : "+r"(t[j]) : "r"(M[j]), "r"(m));
    asm volatile("addc.cc.u32 %0, %0, 0;" : "+r"(t[n]));
    asm volatile("addc.u32 %0, %0, 0;" : "+r"(t[n + 1]));
    asm volatile("mad.hi.cc.u32 %0, %1, %2, %0;" : "+r"(t[1]) : "r"(M[0]), "r"(m));
CUZK_MONT_UNROLL
    for (int j = 1; j < n; j++)
      asm volatile("madc.hi.cc.u32 %0, %1, %2, %0;" : "+r"(t[j + 1]) : "r"(M[j]), "r"(m));
    asm volatile("addc.u32 %0, %0, 0;" : "+r"(t[n + 1]));
CUZK_MONT_UNROLL
    for (int j = 0; j < n + 1; j++) t[j] = t[j + 1];
    t[n + 1] = 0;
  }
  uint32_t r[n];
CUZK_MONT_UNROLL
  for (int k = 0; k < n; k++) r[k] = t[k];
  final_sub<P, n>(r);
  return from_words<P, n>(r);
}

}  // namespace cuzk::cuda::variants
