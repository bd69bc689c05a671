// The BLS12-381 base field's Montgomery product on double-precision (FP64) pipes.
//
// Hopper and Ampere data-centre GPUs (GH100, GA100) issue FP64 fused multiply-adds at the same rate as
// 32-bit integer multiply-adds, through a separate pipe. A 48×48-bit product splits exactly into two
// doubles with two FMAs, so a field product can run on the FP64 pipe instead of the IMAD pipe (the
// route of N. Emmart, J. Zheng and C. Weems, "Faster Modular Exponentiation Using Double Precision
// Floating Point Arithmetic on the GPU", ARITH 2018; the column scheme below is this file's own).
// Consumer cards (GA102, AD102, GB202) run FP64 at 1/64 of the FP32 rate: there this product is slow
// and Mont::operator* stays the one to use. On an H100 it runs at 0.92× Mont::operator*, and warps running it
// beside warps running Mont::operator* lower the SM's rate (docs/PERFORMANCE.md §35): the prover does not
// use it; `bench gpu-arith` measures it.
//
// Representation: 8 limbs of 48 bits (little-endian), each an integer held exactly in a double;
// Montgomery form with R = 2^384, the same R as Fp (mont.hpp), so Fp's limbs repack unchanged in value.
//
// The product keeps two accumulators per column k of 48 bits (16 columns):
// - hi[k] starts at 2^100, where a double's unit in the last place is 2^48. Each term t = x·y of the
//   column is added with one FMA, which rounds the sum to a multiple of 2^48: hi[k] gains round(t), the
//   part of t that belongs to column k + 1 (counted in units of 2^48).
// - lo[k] starts at 1.5·2^52, where the unit in the last place is 1. The rounding's remainder
//   r = t − round(t) = fma(x, y, old − new) is exact (|r| ≤ 2^47) and is added to lo[k] exactly.
// Bounds: a column has at most 15 terms below 2^96 (8 of a·b, 7 of q·p), so hi[k] stays in [2^100,
// 2^101) and lo[k] in [2^52, 2^53]; in both binades a double's bit pattern minus the start's pattern is
// the integer counted, so each column is read with 64-bit integer subtractions, no conversions. Every
// floating-point operation here is exact except the hi FMAs' rounding, which the lo FMAs recover; the
// rounding mode is round-to-nearest-even (the default on host and device), and no operation may be
// contracted or reassociated (no -ffast-math).
//
// The reduction is word-by-word Montgomery (CIOS order): q_i = V_i·(−p⁻¹) mod 2^48 from column i's
// value V_i, the terms q_i·p_j (j ≥ 1) into the columns' accumulators, and column i's carry
// (V_i + q_i·p_0)/2^48 in integers (p_0 = 2^48 − 0x5555, so q_i·p_0 needs no wide product).
// For inputs below 2p the output is below 2p; from_f64 returns the canonical Fp.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>

#include "ff/bls12_381.hpp"

namespace cuzk::f64 {

/// An Fp element as 8 limbs of 48 bits, each an exact integer in a double (Montgomery form, R = 2^384).
struct Fp48 {
  double l[8];
};

constexpr int kLimbs = 8;
constexpr int kLimbBits = 48;
constexpr uint64_t kMask48 = (uint64_t{1} << kLimbBits) - 1;

/// Start of a column's high accumulator: 2^100 (unit in the last place 2^48).
constexpr double kHiStart = 0x1p100;
/// Start of a column's low accumulator: 1.5·2^52 (unit in the last place 1, room for ±2^51).
constexpr double kLoStart = 0x1.8p52;
/// 2^52: integers below 2^52 are read from and written into a double's mantissa through it.
constexpr double kTwo52 = 0x1p52;

/// The 48-bit limb k of a 384-bit little-endian integer of 64-bit words.
CUZK_HD constexpr uint64_t limb48(const uint64_t* w, int k) {
  const int bit = kLimbBits * k, i = bit / 64, off = bit % 64;
  uint64_t v = w[i] >> off;
  if (off > 64 - kLimbBits && i + 1 < 6) v |= w[i + 1] << (64 - off);
  return v & kMask48;
}

/// p's limbs in radix 2^48.
CUZK_HD constexpr uint64_t p48(int k) {
  constexpr uint64_t m[6] = {FpParams::mod(0), FpParams::mod(1), FpParams::mod(2),
                             FpParams::mod(3), FpParams::mod(4), FpParams::mod(5)};
  return limb48(m, k);
}
/// −p⁻¹ mod 2^48.
constexpr uint64_t kPInv48 = FpParams::inv & kMask48;
/// c with p_0 = 2^48 − c: the carry of V + q·p_0 is q + (V − q·c)/2^48.
constexpr uint64_t kP0Gap = (uint64_t{1} << kLimbBits) - p48(0);
static_assert(kP0Gap < (uint64_t{1} << 15), "q·c must stay below 2^63");

/// The same bits as another 8-byte type (memcpy: a register move on host and device).
template <class To, class From>
CUZK_HD To same_bits(From x) {
  static_assert(sizeof(To) == sizeof(From));
  To y;
  memcpy(&y, &x, sizeof y);
  return y;
}
/// The bit pattern of a double.
CUZK_HD int64_t bits_of(double x) { return same_bits<int64_t>(x); }
/// The double of a bit pattern.
CUZK_HD double of_bits(int64_t b) { return same_bits<double>(b); }
/// x·y + z rounded once, to nearest even (DFMA on the device).
CUZK_HD double fma_rn(double x, double y, double z) {
#ifdef __CUDA_ARCH__
  return __fma_rn(x, y, z);
#else
  return std::fma(x, y, z);
#endif
}
/// An integer 0 ≤ v < 2^52 as a double, through the mantissa of 2^52 + v (exact).
CUZK_HD double small_to_double(uint64_t v) { return of_bits(bits_of(kTwo52) | (int64_t)v) - kTwo52; }

/// Adds the term x·y (x, y < 2^48 integers) to column accumulators (hi, lo): see the file comment.
CUZK_HD void add_term(double& hi, double& lo, double x, double y) {
  const double h = fma_rn(x, y, hi);
  const double r = fma_rn(x, y, hi - h);
  hi = h;
  lo = lo + r;
}

/// The signed integer a column's low accumulator holds (its sum of remainders).
CUZK_HD int64_t lo_value(double lo) { return bits_of(lo) - bits_of(kLoStart); }
/// The integer a column's high accumulator holds, in units of 2^48 (the next column's).
CUZK_HD int64_t hi_value(double hi) { return bits_of(hi) - bits_of(kHiStart); }

/// a·b·2^-384 mod p, below 2p for inputs below 2p (limbs < 2^48).
CUZK_HD Fp48 mul(const Fp48& a, const Fp48& b) {
  double hi[2 * kLimbs], lo[2 * kLimbs];
  CUZK_MONT_UNROLL
  for (int k = 0; k < 2 * kLimbs; k++) {
    hi[k] = kHiStart;
    lo[k] = kLoStart;
  }
  CUZK_MONT_UNROLL
  for (int i = 0; i < kLimbs; i++) CUZK_MONT_UNROLL
  for (int j = 0; j < kLimbs; j++) add_term(hi[i + j], lo[i + j], a.l[i], b.l[j]);
  int64_t carry = 0;
  CUZK_MONT_UNROLL
  for (int i = 0; i < kLimbs; i++) {
    const int64_t v = lo_value(lo[i]) + (i > 0 ? hi_value(hi[i - 1]) : 0) + carry;
    const uint64_t q = ((uint64_t)v * kPInv48) & kMask48;
    carry = (int64_t)q + ((v - (int64_t)(q * kP0Gap)) >> kLimbBits);
    const double qd = small_to_double(q);
    CUZK_MONT_UNROLL
    for (int j = 1; j < kLimbs; j++) add_term(hi[i + j], lo[i + j], qd, (double)p48(j));
  }
  Fp48 r;
  CUZK_MONT_UNROLL
  for (int k = kLimbs; k < 2 * kLimbs; k++) {
    const int64_t v = lo_value(lo[k]) + hi_value(hi[k - 1]) + carry;
    r.l[k - kLimbs] = small_to_double((uint64_t)v & kMask48);
    carry = v >> kLimbBits;
  }
  return r;
}

/// The same product column by column (product scanning, Comba order): each column's terms a_i·b_j and
/// q_i·p_j are summed into one pair of accumulators, read, and the column's q (k < 8) or output limb
/// (k ≥ 8) taken before the next column starts. Two accumulators and the q's are live instead of 32
/// accumulators: fewer registers, a longer dependent chain per column.
CUZK_HD Fp48 mul_by_columns(const Fp48& a, const Fp48& b) {
  double q[kLimbs];
  Fp48 r;
  int64_t carry = 0, hi_prev = 0;
  CUZK_MONT_UNROLL
  for (int k = 0; k < 2 * kLimbs - 1; k++) {
    double hi = kHiStart, lo = kLoStart;
    CUZK_MONT_UNROLL
    for (int i = 0; i < kLimbs; i++) {
      const int j = k - i;
      if (j >= 0 && j < kLimbs) add_term(hi, lo, a.l[i], b.l[j]);
      if (j >= 1 && j < kLimbs && i < k) add_term(hi, lo, q[i], (double)p48(j));
    }
    const int64_t v = lo_value(lo) + hi_prev + carry;
    hi_prev = hi_value(hi);
    if (k < kLimbs) {
      const uint64_t qk = ((uint64_t)v * kPInv48) & kMask48;
      carry = (int64_t)qk + ((v - (int64_t)(qk * kP0Gap)) >> kLimbBits);
      q[k] = small_to_double(qk);
    } else {
      r.l[k - kLimbs] = small_to_double((uint64_t)v & kMask48);
      carry = v >> kLimbBits;
    }
  }
  r.l[kLimbs - 1] = small_to_double((uint64_t)(hi_prev + carry) & kMask48);
  return r;
}

/// Fp's Montgomery limbs (a·2^384 mod p) as 8 limbs of 48 bits.
CUZK_HD Fp48 to_f64(const Fp& a) {
  Fp48 r;
  CUZK_MONT_UNROLL
  for (int k = 0; k < kLimbs; k++) r.l[k] = small_to_double(limb48(a.l, k));
  return r;
}

/// The canonical Fp of a value below 2p in 48-bit limbs.
CUZK_HD Fp from_f64(const Fp48& a) {
  uint64_t v[kLimbs];
  CUZK_MONT_UNROLL
  for (int k = 0; k < kLimbs; k++) v[k] = (uint64_t)(bits_of(a.l[k] + kTwo52) - bits_of(kTwo52));
  Fp r;
  CUZK_MONT_UNROLL
  for (int i = 0; i < 6; i++) {
    const int bit = 64 * i, k = bit / kLimbBits, off = bit % kLimbBits;
    uint64_t w = v[k] >> off;
    w |= v[k + 1] << (kLimbBits - off);
    if (off > 2 * kLimbBits - 64 && k + 2 < kLimbs) w |= v[k + 2] << (2 * kLimbBits - off);
    r.l[i] = w;
  }
  // r < 2p: subtract p once when r ≥ p
  Fp s;
  uint64_t borrow = 0;
  CUZK_MONT_UNROLL
  for (int i = 0; i < 6; i++) {
    const uint64_t m = FpParams::mod(i), d = r.l[i] - m - borrow;
    borrow = (r.l[i] < m || (r.l[i] == m && borrow)) ? 1 : 0;
    s.l[i] = d;
  }
  return borrow ? r : s;
}

}  // namespace cuzk::f64
