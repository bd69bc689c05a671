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
#pragma unroll
  for (int k = 0; k < n; k++) {
    const int64_t d = (int64_t)x[k] - (int64_t)Mont<P>::mod_word(k) - borrow;
    y[k] = (uint32_t)d;
    borrow = d < 0;
  }
  if (!borrow) {
#pragma unroll
    for (int k = 0; k < n; k++) x[k] = y[k];
  }
}

template <class P, int n>
CUZK_HD Mont<P> from_words(const uint32_t (&x)[n]) {
  Mont<P> r;
#pragma unroll
  for (int i = 0; i < n / 2; i++) r.l[i] = (uint64_t)x[2 * i] | ((uint64_t)x[2 * i + 1] << 32);
  return r;
}

/// CIOS on 32-bit words written with 64-bit accumulators (mul.wide.u32 + add.u64), leaving the carry
/// handling to the compiler (Koç–Acar–Kaliski 1996).
template <class P>
CUZK_HD Mont<P> mul_wide64(const Mont<P>& a, const Mont<P>& b) {
  constexpr int n = 2 * P::N;
  uint32_t A[n], B[n], t[n + 2];
#pragma unroll
  for (int i = 0; i < P::N; i++) {
    A[2 * i] = (uint32_t)a.l[i];
    A[2 * i + 1] = (uint32_t)(a.l[i] >> 32);
    B[2 * i] = (uint32_t)b.l[i];
    B[2 * i + 1] = (uint32_t)(b.l[i] >> 32);
  }
#pragma unroll
  for (int k = 0; k < n + 2; k++) t[k] = 0;
#pragma unroll
  for (int i = 0; i < n; i++) {
    uint64_t c = 0;
#pragma unroll
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
#pragma unroll
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
#pragma unroll
  for (int k = 0; k < n; k++) r[k] = t[k];
  final_sub<P, n>(r);
  return from_words<P, n>(r);
}

/// The first device multiplier of this project: CIOS with four separate carry chains per row (a·b_i
/// low halves, high halves, m·p low halves, high halves) and a running value of 2n+2 words.
template <class P>
__device__ Mont<P> mul_cios4(const Mont<P>& a, const Mont<P>& b) {
  constexpr int n = 2 * P::N;
  uint32_t A[n], B[n], M[n];
#pragma unroll
  for (int i = 0; i < P::N; i++) {
    A[2 * i] = (uint32_t)a.l[i];
    A[2 * i + 1] = (uint32_t)(a.l[i] >> 32);
    B[2 * i] = (uint32_t)b.l[i];
    B[2 * i + 1] = (uint32_t)(b.l[i] >> 32);
  }
#pragma unroll
  for (int j = 0; j < n; j++) M[j] = Mont<P>::mod_word(j);
  const uint32_t inv = (uint32_t)P::inv;
  uint32_t t[n + 2];
#pragma unroll
  for (int i = 0; i < n + 2; i++) t[i] = 0;
#pragma unroll
  for (int i = 0; i < n; i++) {
    const uint32_t bi = B[i];
    asm volatile("mad.lo.cc.u32 %0, %1, %2, %0;" : "+r"(t[0]) : "r"(A[0]), "r"(bi));
#pragma unroll
    for (int j = 1; j < n; j++) asm volatile("madc.lo.cc.u32 %0, %1, %2, %0;" : "+r"(t[j]) : "r"(A[j]), "r"(bi));
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
    for (int j = 1; j < n; j++) asm volatile("madc.lo.cc.u32 %0, %1, %2, %0;" : "+r"(t[j]) : "r"(M[j]), "r"(m));
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
  uint32_t r[n];
#pragma unroll
  for (int k = 0; k < n; k++) r[k] = t[k];
  final_sub<P, n>(r);
  return from_words<P, n>(r);
}

}  // namespace cuzk::cuda::variants
