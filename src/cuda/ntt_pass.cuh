// One pass of the GPU NTT over Fr, written as per-thread phases so that the same code runs in the CUDA
// kernel (phases separated by __syncthreads) and in a CPU emulator used by the tests (phases separated
// by loops over the units of a block). No CUDA header is needed: it compiles with g++ too.
//
// Algorithm (natural order in and out). N = 2^L is factored into P ≤ 3 digits of radices R_q = 2^K_q,
// q = 1..P in execution order; digit q sits at stride S_q = R_{q+1}···R_P of the position. This is the
// "four-step" recursion of Gentleman–Sande / Bailey ("FFTs in external or hierarchical memory", 1990)
// applied top digit first:
//   pass q < P : in place, for every fixed value of the other digits, a size-R_q DFT over digit q
//                (output frequency f_q stored in the slot of digit q), then every element is multiplied
//                by ω_M^(low·f_q) with M = R_q·S_q and low = position mod S_q;
//   pass P     : size-R_P DFT over the contiguous lowest digit, written out of place to the natural
//                index f_1 + R_1·f_2 + R_1R_2·f_3 (the digit reversal of the run index).
// Inside a pass a block holds C sub-problems (E = C·R elements) in shared memory and computes each
// size-R DFT by radix-2 decimation in frequency, two stages per round on units of four elements held in
// registers (see "the pass kernel" below). The code does not depend on K, so one small kernel serves
// every radix (an earlier kernel unrolled per radix, with eight elements per thread and radix-8 rounds,
// was ~490 KB of code, stalled on instruction fetch and ran 1.3–1.6× slower on an H200).
// The post-pass twiddles come from exact tables or two-level ones lo[e & mask]·hi[e >> w]. A coset
// transform folds most of its shift powers into them ("positional" tables, indexed by (low, f) rather than
// by the exponent low·f) and applies the rest as a per-digit factor on load (pass 1) or a per-frequency
// factor on store (pass P), so that it costs one product per element more than the plain transform at
// every size (make_transform).
#pragma once

#include <cstddef>
#include <cstdint>

#include "ff/bls12_381.hpp"
#include "ff/emu_carry_ops.hpp"
#include "ff/roots.hpp"

namespace cuzk::cuda::ntt_detail {

constexpr int kMaxPasses = 3;
constexpr int kMinLogRadix = 4;
constexpr int kMaxLogRadix = 10;
constexpr int kPassThreads = 256;   ///< threads per block at most (units of four elements)
constexpr int kLogBlockElems = 11;  ///< a block holds up to 2^11 elements (64 KiB of shared memory)

/// The pass kernel's field operations. Values between operations are kept lazily reduced in [0, 2r)
/// (Mont::add_lazy, sub_lazy; products without their final subtraction), and a transform's last pass
/// stores canonical values (canon). Products use the Fr-modulus-shape savings (mul_evenodd<true>). On the
/// device these are the PTX carry chains; on the host (the CPU emulation in the tests) the same
/// instruction sequence under an emulated carry flag. Measured on an H200 against Fr's reduced operators
/// (docs/PERFORMANCE.md §19): 2^27 forward 47.5 → 46.8 ms.
struct PassArith {
#ifdef __CUDA_ARCH__
  using Ops = Fr::PtxCarryOps;
#else
  using Ops = EmuCarryOps;
#endif
  /// a·b for a in [0, 2r) and a table value b < r: a·b·R⁻¹ mod r in [0, 2r).
  CUZK_HD static Fr mul(const Fr& a, const Fr& b) {
    Ops op;
    return Fr::mul_evenodd<true, false>(a, b, op);
  }
  /// a·b for canonical a, b (two table entries), canonical.
  CUZK_HD static Fr mul_canon(const Fr& a, const Fr& b) {
    Ops op;
    return Fr::mul_evenodd<true>(a, b, op);
  }
  /// a ± b for a, b in [0, 2r), in [0, 2r).
  CUZK_HD static Fr add(const Fr& a, const Fr& b) {
    Ops op;
    return Fr::add_lazy(a, b, op);
  }
  CUZK_HD static Fr sub(const Fr& a, const Fr& b) {
    Ops op;
    return Fr::sub_lazy(a, b, op);
  }
  /// The canonical value (< r) of a in [0, 2r), for the transform's final store.
  CUZK_HD static Fr canon(const Fr& a) {
    Ops op;
    return Fr::reduce_lazy(a, op);
  }
};

/// How the multiplier ω_M^e applied after a pass (or a coset power) is looked up.
enum TableKind : int {
  kTabNone = 0,      ///< no multiplier
  kTabExact = 1,     ///< lo[e]
  kTabTwoLevel = 2,  ///< lo[e & (2^w − 1)] · hi[e >> w]
};

/// A table lookup descriptor (device pointers; Fr in Montgomery form).
struct Table {
  const Fr* lo = nullptr;
  const Fr* hi = nullptr;
  int kind = kTabNone;
  int log_lo = 0;       ///< w
  int by_position = 0;  ///< a positional post-pass table (TableSpec::pos): picks r4_last<true>
};

/// Everything one pass needs (passed by value to the kernel).
struct PassParams {
  const Fr* in = nullptr;
  Fr* out = nullptr;
  int log_n = 0;                 ///< L
  int log_stride = 0;            ///< s: this pass's digit sits at stride 2^s (0 for the last pass)
  int log_c = 0;                 ///< C = 2^log_c sub-problems per block
  int last = 0;                  ///< 1 for the final, out-of-place pass
  int num_passes = 1;            ///< P
  int log_r = 0;                 ///< K: this pass's log radix
  int log_r1 = 0;                ///< K_1 (digit reversal in the last pass)
  int log_r2 = 0;                ///< K_2 (digit reversal in the last pass when P = 3)
  const Fr* tw_inner = nullptr;  ///< ω_R^e for e < R/2 (ω⁻¹ for the inverse)
  Table post;                    ///< ω_M^(low·f) (times coset factors) after a non-last pass
  Table in_factor;               ///< factor[j] on load of digit j (pass 1 only)
  Table out_factor;              ///< factor[f] on store of frequency f (last pass only)
  int scale_out = 0;             ///< multiply every output by `scale`
  Fr scale{};
};

CUZK_HD Fr ld_table(const Fr* p) {
#ifdef __CUDA_ARCH__
  const uint4* q = reinterpret_cast<const uint4*>(p);
  const uint4 a = __ldg(q), b = __ldg(q + 1);
  Fr r;
  r.l[0] = a.x | ((uint64_t)a.y << 32);
  r.l[1] = a.z | ((uint64_t)a.w << 32);
  r.l[2] = b.x | ((uint64_t)b.y << 32);
  r.l[3] = b.z | ((uint64_t)b.w << 32);
  return r;
#else
  return *p;
#endif
}
CUZK_HD Fr ld_data(const Fr* p) {
#ifdef __CUDA_ARCH__
  const uint4* q = reinterpret_cast<const uint4*>(p);
  const uint4 a = q[0], b = q[1];
  Fr r;
  r.l[0] = a.x | ((uint64_t)a.y << 32);
  r.l[1] = a.z | ((uint64_t)a.w << 32);
  r.l[2] = b.x | ((uint64_t)b.y << 32);
  r.l[3] = b.z | ((uint64_t)b.w << 32);
  return r;
#else
  return *p;
#endif
}
CUZK_HD void st_data(Fr* p, const Fr& v) {
#ifdef __CUDA_ARCH__
  uint4* q = reinterpret_cast<uint4*>(p);
  q[0] = make_uint4((uint32_t)v.l[0], (uint32_t)(v.l[0] >> 32), (uint32_t)v.l[1], (uint32_t)(v.l[1] >> 32));
  q[1] = make_uint4((uint32_t)v.l[2], (uint32_t)(v.l[2] >> 32), (uint32_t)v.l[3], (uint32_t)(v.l[3] >> 32));
#else
  *p = v;
#endif
}

/// The multiplier for exponent/index e from a table descriptor (kind ≠ kTabNone).
CUZK_HD Fr table_value(const Table& t, uint64_t e) {
  if (t.kind == kTabExact) return ld_table(t.lo + e);
  const uint64_t mask = (uint64_t{1} << t.log_lo) - 1;
  return PassArith::mul_canon(ld_table(t.lo + (e & mask)), ld_table(t.hi + (e >> t.log_lo)));
}

/// The post-pass multiplier of output frequency f of sub-problem `low` (low < 2^log_s) from a positional
/// table (TableSpec::pos): exact lo[low + f·2^s] (w = s), or two-level with low = l0 + 2^w·l1:
/// lo[l0 + f·2^w]·hi[l1 + f·2^(s − w)].
CUZK_HD Fr post_value(const Table& t, uint64_t low, uint64_t f, int log_s) {
  const Fr x = ld_table(t.lo + (low & ((uint64_t{1} << t.log_lo) - 1)) + (f << t.log_lo));
  if (t.kind == kTabExact) return x;
  return PassArith::mul_canon(x, ld_table(t.hi + (low >> t.log_lo) + (f << (log_s - t.log_lo))));
}

CUZK_HD uint32_t bitrev(uint32_t x, int bits) {
  uint32_t r = 0;
  for (int i = 0; i < bits; i++) r |= ((x >> i) & 1u) << (bits - 1 - i);
  return r;
}

// ---- the pass kernel: radix-4 rounds through shared memory --------------------------------------------
//
// A block holds E = C·R elements in shared memory and its T threads work on units of four elements.
// Round (h, h/2) of the radix-2 DIF stages (h = R/2, R/8, … down to 2) takes the elements j, j + h/2,
// j + h, j + 3h/2 of a sub-problem (j = g·2h + pos, pos < h/2) and does the four butterflies of stages h
// and h/2 in registers; a single stage is left over when K is odd and done as radix-2. The first round
// reads the input from global memory (times the load factor), the last round (h = 2: one non-trivial
// twiddle) writes the outputs (times the post-pass twiddle or the output factor). Between rounds the
// block synchronizes. Shared memory holds element e of the block (e = j·C + c for position j of
// sub-problem c) as two 16-byte planes, so that the 16-byte accesses of a quarter warp fall on distinct
// banks.

/// Element e of a block's shared memory (E elements: plane 0 = limbs 0–1, plane 1 = limbs 2–3).
CUZK_HD Fr sm_get(const uint64_t* sm, uint32_t E, uint32_t e) {
  Fr r;
#ifdef __CUDA_ARCH__
  const ulonglong2* q = reinterpret_cast<const ulonglong2*>(sm);
  const ulonglong2 a = q[e], b = q[E + e];
  r.l[0] = a.x;
  r.l[1] = a.y;
  r.l[2] = b.x;
  r.l[3] = b.y;
#else
  r.l[0] = sm[2 * e];
  r.l[1] = sm[2 * e + 1];
  r.l[2] = sm[2 * (E + e)];
  r.l[3] = sm[2 * (E + e) + 1];
#endif
  return r;
}
CUZK_HD void sm_put(uint64_t* sm, uint32_t E, uint32_t e, const Fr& v) {
#ifdef __CUDA_ARCH__
  ulonglong2* q = reinterpret_cast<ulonglong2*>(sm);
  q[e] = make_ulonglong2(v.l[0], v.l[1]);
  q[E + e] = make_ulonglong2(v.l[2], v.l[3]);
#else
  sm[2 * e] = v.l[0];
  sm[2 * e + 1] = v.l[1];
  sm[2 * (E + e)] = v.l[2];
  sm[2 * (E + e) + 1] = v.l[3];
#endif
}

/// x · table(e) for x in [0, 2r), in [0, 2r). Inline: an out-of-line call (one copy of the two products
/// of a two-level lookup) passed its operands through a 400-byte stack frame and made a 2^24 forward
/// transform 8 % slower on an H200 (docs/PERFORMANCE.md §19).
CUZK_HD Fr mul_table(const Fr& x, const Table& t, uint64_t e) { return PassArith::mul(x, table_value(t, e)); }

/// Bytes of shared memory a block of the pass kernel needs.
constexpr size_t r4_smem_bytes(int k, int log_c) { return (size_t)32 << (k + log_c); }
/// Threads per block of the pass kernel: one per unit of four elements, at most kPassThreads.
constexpr uint32_t r4_threads(int k, int log_c) {
  return ((size_t)1 << (k + log_c - 2)) < (size_t)kPassThreads ? (uint32_t)1 << (k + log_c - 2)
                                                               : (uint32_t)kPassThreads;
}

/// Where sub-problem c of a block lives: positions low + S·j + S·R·high for a
/// non-last pass; (run·R + j) in and base + f·N/R out for the last.
struct SubGeom {
  size_t low = 0, high = 0, run = 0, base = 0;
};
CUZK_HD SubGeom sub_geom(const PassParams& p, uint32_t block, uint32_t c) {
  SubGeom g;
  const int K = p.log_r;
  if (!p.last) {
    const size_t nlow_blocks = (size_t{1} << p.log_stride) >> p.log_c;
    g.low = (size_t)(block % nlow_blocks) * ((size_t)1 << p.log_c) + c;
    g.high = block / nlow_blocks;
  } else if (p.num_passes > 1) {
    const int log_w1 = p.log_n - p.log_r1 - K;
    const size_t w1 = size_t{1} << log_w1;
    const size_t rest = block % w1;
    const size_t f1 = (size_t)(block / w1) * ((size_t)1 << p.log_c) + c;
    g.run = rest + (f1 << log_w1);
    g.base = p.num_passes == 2 ? f1 : f1 + (rest << p.log_r1);
  }
  return g;
}
CUZK_HD size_t r4_in_pos(const PassParams& p, const SubGeom& g, uint32_t j) {
  if (p.last) return (g.run << p.log_r) + j;
  return g.low + ((size_t)j << p.log_stride) + ((g.high << p.log_r) << p.log_stride);
}
/// Stores output frequency f of sub-problem g with the post-pass twiddle or the output factor (a
/// non-last pass may store a lazily reduced value; the last stores canonical ones). kPositional: the post
/// table is positional (coset transforms), else indexed by the exponent low·f. The two forms are two
/// instantiations of the kernel: one kernel doing both (one load and product, the index chosen at run
/// time) made plain transforms 2–3 % slower on an H200 (docs/PERFORMANCE.md §20).
template <bool kPositional>
CUZK_HD void r4_store(const PassParams& p, const SubGeom& g, uint32_t f, Fr x) {
  using A = PassArith;
  if (!p.last) {
    if (p.post.kind != kTabNone) {
      if constexpr (kPositional)
        x = A::mul(x, post_value(p.post, g.low, f, p.log_stride));
      else
        x = mul_table(x, p.post, (uint64_t)g.low * f);
    }
    st_data(p.out + g.low + ((size_t)f << p.log_stride) + ((g.high << p.log_r) << p.log_stride), x);
  } else {
    const size_t idx = g.base + ((size_t)f << (p.log_n - p.log_r));
    if (p.out_factor.kind != kTabNone) x = mul_table(x, p.out_factor, f);
    if (p.scale_out) x = A::mul(x, p.scale);
    st_data(p.out + idx, A::canon(x));
  }
}

/// The butterflies of stages h and h/2 on a[0..3] = elements j, j + h/2, j + h, j + 3h/2 with twiddle
/// exponent e = pos·R/(2h): stage h pairs (a0, a2) by ω^e and (a1, a3) by ω^(e + R/4), stage h/2 pairs
/// (a0, a1) and (a2, a3) by ω^(2e) (ω = ω_R from tw_inner).
CUZK_HD void r4_butterflies(Fr a[4], const Fr* tw, uint32_t e, uint32_t quarter) {
  using A = PassArith;
  Fr d = A::sub(a[0], a[2]);
  a[0] = A::add(a[0], a[2]);
  a[2] = A::mul(d, ld_table(tw + e));
  d = A::sub(a[1], a[3]);
  a[1] = A::add(a[1], a[3]);
  a[3] = A::mul(d, ld_table(tw + e + quarter));
  const Fr w3 = ld_table(tw + 2 * e);
  d = A::sub(a[0], a[1]);
  a[0] = A::add(a[0], a[1]);
  a[1] = A::mul(d, w3);
  d = A::sub(a[2], a[3]);
  a[2] = A::add(a[2], a[3]);
  a[3] = A::mul(d, w3);
}

/// First round (stages R/2 and R/4) of unit u: reads the input.
CUZK_HD void r4_first(const PassParams& p, uint32_t block, uint32_t u, uint64_t* sm) {
  const int K = p.log_r;
  const uint32_t C = 1u << p.log_c, R = 1u << K, E = C * R, q4 = R / 4;
  const uint32_t c = u & (C - 1), q = u >> p.log_c;
  const SubGeom g = sub_geom(p, block, c);
  Fr a[4];
  CUZK_MONT_UNROLL
  for (int t = 0; t < 4; t++) {
    const size_t gp = r4_in_pos(p, g, q + t * q4);
    a[t] = ld_data(p.in + gp);
    if (p.in_factor.kind != kTabNone) a[t] = mul_table(a[t], p.in_factor, q + t * q4);
  }
  // a = elements q, q + R/4, q + R/2, q + 3R/4: stage R/2 pairs (a0, a2), (a1, a3)
  r4_butterflies(a, p.tw_inner, q, q4);
  CUZK_MONT_UNROLL
  for (int t = 0; t < 4; t++) sm_put(sm, E, (q + t * q4) * C + c, a[t]);
}

/// Middle round (stages h = 2^log_h and h/2, 8 ≤ h ≤ R/8) of unit u.
CUZK_HD void r4_middle(const PassParams& p, int log_h, uint32_t u, uint64_t* sm) {
  const int K = p.log_r;
  const uint32_t C = 1u << p.log_c, R = 1u << K, E = C * R, h = 1u << log_h;
  const uint32_t c = u & (C - 1), q = u >> p.log_c;
  const uint32_t pos = q & (h / 2 - 1), j = ((q >> (log_h - 1)) << (log_h + 1)) | pos;
  Fr a[4];
  CUZK_MONT_UNROLL
  for (int t = 0; t < 4; t++) a[t] = sm_get(sm, E, (j + t * (h / 2)) * C + c);
  r4_butterflies(a, p.tw_inner, pos << (K - 1 - log_h), R / 4);
  CUZK_MONT_UNROLL
  for (int t = 0; t < 4; t++) sm_put(sm, E, (j + t * (h / 2)) * C + c, a[t]);
}

/// Single radix-2 stage h = 2^log_h (4 ≤ h ≤ R/8, odd K) on butterfly v.
CUZK_HD void r2_middle(const PassParams& p, int log_h, uint32_t v, uint64_t* sm) {
  const int K = p.log_r;
  const uint32_t C = 1u << p.log_c, E = C << K, h = 1u << log_h;
  const uint32_t c = v & (C - 1), i = v >> p.log_c;
  const uint32_t pos = i & (h - 1), j = ((i >> log_h) << (log_h + 1)) | pos;
  const Fr x = sm_get(sm, E, j * C + c), y = sm_get(sm, E, (j + h) * C + c);
  using A = PassArith;
  sm_put(sm, E, j * C + c, A::add(x, y));
  sm_put(sm, E, (j + h) * C + c, A::mul(A::sub(x, y), ld_table(p.tw_inner + (pos << (K - 1 - log_h)))));
}

/// Last round (stages 2 and 1) of unit u: elements 4q..4q + 3, whose results are the frequencies
/// bitrev_K(4q + t); writes the outputs.
template <bool kPositional>
CUZK_HD void r4_last(const PassParams& p, uint32_t block, uint32_t u, const uint64_t* sm) {
  const int K = p.log_r;
  const uint32_t C = 1u << p.log_c, R = 1u << K, E = C * R;
  const uint32_t c = u & (C - 1), q = u >> p.log_c;
  Fr a[4];
  CUZK_MONT_UNROLL
  for (int t = 0; t < 4; t++) a[t] = sm_get(sm, E, (4 * q + t) * C + c);
  // stage 2: (a0, a2) by ω^0, (a1, a3) by ω^(R/4); stage 1: all by ω^0
  using A = PassArith;
  Fr d = A::sub(a[0], a[2]);
  a[0] = A::add(a[0], a[2]);
  a[2] = d;
  d = A::sub(a[1], a[3]);
  a[1] = A::add(a[1], a[3]);
  a[3] = A::mul(d, ld_table(p.tw_inner + R / 4));
  const SubGeom g = sub_geom(p, block, c);
  r4_store<kPositional>(p, g, bitrev(4 * q, K), A::add(a[0], a[1]));
  r4_store<kPositional>(p, g, bitrev(4 * q + 1, K), A::sub(a[0], a[1]));
  r4_store<kPositional>(p, g, bitrev(4 * q + 2, K), A::add(a[2], a[3]));
  r4_store<kPositional>(p, g, bitrev(4 * q + 3, K), A::sub(a[2], a[3]));
}

/// The middle rounds of a pass of radix 2^k (between r4_first and r4_last), in order: n of them, log_h[i]
/// = log2 h of a radix-4 round (stages h and h/2), or −log2 h of a single radix-2 stage. The kernel and
/// the emulator iterate it the same way.
struct R4Rounds {
  int n = 0;
  int log_h[kMaxLogRadix];
};
CUZK_HD R4Rounds r4_rounds(int k) {
  R4Rounds r{};
  int lh = k - 3;  // the first round did stages R/2 and R/4
  while (lh >= 2) {
    if (lh >= 3) {
      r.log_h[r.n++] = lh;
      lh -= 2;
    } else {
      r.log_h[r.n++] = -lh;
      lh -= 1;
    }
  }
  return r;
}

// ---- host-side planning (shared by the CUDA driver and the CPU emulator of the tests) ----------------

/// table[i] = factor · base^i for i < count (Montgomery form).
struct PowSpec {
  Fr base{};
  Fr factor{};
  size_t count = 0;
};
/// A positional post-pass table of a pass with radix R = 2^log_r and digit stride S = 2^log_s: entry
/// (low, f) = ω_M^(low·f)·a^low·b^f for low < S, f < R (ω_M the pass's post-pass root, M = R·S). The
/// factors are coset powers that ride on the twiddle's product. Exact (w = s): one table lo[low + f·S],
/// M entries. Two-level: low = l0 + 2^w·l1, lo[l0 + f·2^w] = ω_M^(l0·f)·a^l0·b^f
/// and hi[l1 + f·2^(s − w)] = ω_M^(2^w·l1·f)·a^(2^w·l1), (2^w + 2^(s − w))·R entries, two products.
/// Indexing by position rather than by the exponent low·f is what lets the coset powers ride along.
struct PosSpec {
  Fr omega{}, a{}, b{};
  int log_s = 0, log_r = 0;
};
/// One half of a positional table as a grid: entry l + f·2^log_l = W^(l·f)·A^l·B^f for l < 2^log_l,
/// f < 2^log_r (the lo half: W = ω_M, A = a, B = b, log_l = w; the hi half: W = ω_M^(2^w), A = a^(2^w),
/// B = 1, log_l = s − w).
struct PosGrid {
  Fr w{}, a{}, b{};
  int log_l = 0, log_r = 0;
  size_t count() const { return size_t{1} << (log_l + log_r); }
};

/// A table: by exponent as powers, exact (lo only) or two-level (lo = ω^i, i < 2^w; hi =
/// factor·ω^(i·2^w)); or positional (by_position, pos: the post-pass tables of coset transforms).
struct TableSpec {
  int kind = kTabNone;
  int log_lo = 0;
  PowSpec lo, hi;
  int by_position = 0;
  PosSpec pos;
};

/// x^(2^e): e squarings (table setup on the host).
inline Fr pow2k(Fr x, int e) {
  for (int i = 0; i < e; i++) x = x.sqr();
  return x;
}

/// The lo (half 0) or hi (half 1) grid of a positional table spec.
inline PosGrid pos_grid(const TableSpec& t, int half) {
  const PosSpec& p = t.pos;
  if (half == 0) return {p.omega, p.a, p.b, t.log_lo, p.log_r};
  return {pow2k(p.omega, t.log_lo), pow2k(p.a, t.log_lo), Fr::one(), p.log_s - t.log_lo, p.log_r};
}

/// Entries (Fr) a table spec materializes.
inline size_t table_entries(const TableSpec& t) {
  if (t.kind == kTabNone) return 0;
  if (t.by_position) return pos_grid(t, 0).count() + (t.kind == kTabTwoLevel ? pos_grid(t, 1).count() : 0);
  return t.lo.count + (t.kind == kTabTwoLevel ? t.hi.count : 0);
}

/// Geometry of one pass.
struct PassGeom {
  int k = 0;           ///< log radix
  int log_stride = 0;  ///< digit stride (0 for the last pass)
  int log_c = 0;       ///< sub-problems per block
};

/// Default largest exponent range kept as one exact table (2^24 entries, 512 MiB); larger ones are
/// two-level: two products per lookup instead of one. Exact tables cut a 2^24 forward transform by 3 %
/// on an H200 (docs/PERFORMANCE.md §17); at 2^27 the same tables would take 4 GiB each, which a resident
/// PoRep key leaves no room for.
constexpr int kMaxExactLog = 24;

/// Pass decomposition of a size-2^L transform, kMinLogRadix ≤ L ≤ 30: one pass up to 2^10, two up to
/// 2^20, three beyond, radices as equal as possible (larger first); a block of pass q holds
/// C = 2^log_c sub-problems, 2^log_block elements where the digit strides allow.
struct NttPlan {
  int log_n = 0;
  int num_passes = 0;
  PassGeom pass[kMaxPasses];
};
inline NttPlan plan_ntt(int L, int log_block = kLogBlockElems) {
  NttPlan pl;
  pl.log_n = L;
  pl.num_passes = L <= kMaxLogRadix ? 1 : (L <= 2 * kMaxLogRadix ? 2 : 3);
  const int P = pl.num_passes;
  for (int q = 0; q < P; q++) pl.pass[q].k = L / P + (q < L % P ? 1 : 0);
  int s = 0;
  for (int q = P - 1; q >= 0; q--) {
    pl.pass[q].log_stride = q == P - 1 ? 0 : s;
    s += pl.pass[q].k;
  }
  for (int q = 0; q < P; q++) {
    PassGeom& g = pl.pass[q];
    int lc = log_block - g.k;
    if (lc < 0) lc = 0;
    if (q < P - 1) {
      if (lc > g.log_stride) lc = g.log_stride;
    } else if (P == 1) {
      lc = 0;
    } else if (lc > pl.pass[0].k) {
      lc = pl.pass[0].k;
    }
    g.log_c = lc;
  }
  return pl;
}

/// Exact table of factor·root^e for e < 2^log_m when small, else the two-level split.
inline TableSpec power_table(const Fr& root, int log_m, const Fr& factor, int max_exact_log = kMaxExactLog) {
  TableSpec t;
  if (log_m <= max_exact_log) {
    t.kind = kTabExact;
    t.lo = {root, factor, size_t{1} << log_m};
    return t;
  }
  t.kind = kTabTwoLevel;
  t.log_lo = (log_m + 1) / 2;
  t.lo = {root, Fr::one(), size_t{1} << t.log_lo};
  t.hi = {pow2k(root, t.log_lo), factor, size_t{1} << (log_m - t.log_lo)};
  return t;
}

/// Positional post-pass table (PosSpec) of root ω_M, M = 2^(log_s + log_r): exact when M ≤
/// 2^max_exact_log, else two-level with w = ⌈log_s / 2⌉.
inline TableSpec positional_table(const Fr& omega, int log_s, int log_r, const Fr& a, const Fr& b,
                                  int max_exact_log = kMaxExactLog) {
  TableSpec t;
  t.by_position = 1;
  t.pos = {omega, a, b, log_s, log_r};
  t.kind = log_s + log_r <= max_exact_log ? kTabExact : kTabTwoLevel;
  t.log_lo = t.kind == kTabExact ? log_s : (log_s + 1) / 2;
  return t;
}

/// All tables of one transform: inner twiddles and post-pass twiddles per pass, load/store factors.
struct TransformSpec {
  NttPlan plan;
  TableSpec inner[kMaxPasses];  ///< exact, ω_R^e for e < R/2
  TableSpec post[kMaxPasses];   ///< after non-last passes
  TableSpec in_factor, out_factor;
  int scale_out = 0;
  Fr scale{};
};

/// Tables of a size-2^L transform (kMinLogRadix ≤ L ≤ 30). Forward: X_i = Σ_k x_k·(shift^k)·ω^(ik) (shift = 1
/// unless coset). Inverse: x_k = n⁻¹·shift^(−k)·Σ_i X_i·ω^(−ik). ω = root_of_unity(L, conv). Exponent
/// ranges up to 2^max_exact_log get exact tables. A coset transform of P > 1 passes folds its shift powers
/// into positional post-pass tables (PosSpec), leaving one product per element over the plain transform:
///  - forward: position k = low + S·j of pass 1 (S = 2^s, j its digit) needs shift^low·(shift^S)^j; the
///    first factor is the same for the whole size-R DFT of sub-problem `low`, so it moves past that DFT
///    into pass 1's post table (a = shift), and only the R-entry table of (shift^S)^j is applied on load;
///  - inverse: output index f_1 + R_1·f_2 + R_1R_2·f_3 (f_q the frequency of pass q) needs
///    n⁻¹·shift^(−f_1)·shift^(−R_1·f_2)·…; every factor but the last pass's is constant over the later
///    passes' DFTs that its element enters, so pass q's post table carries shift^(−R_1···R_(q−1)·f_q)
///    (b), and the store applies n⁻¹·(shift^(−n/R_P))^(f_P) from an R_P-entry table.
inline TransformSpec make_transform(int L, RootConvention conv, bool inverse, bool coset, const Fr& shift,
                                    int log_block = kLogBlockElems, int max_exact_log = kMaxExactLog) {
  TransformSpec ts;
  ts.plan = plan_ntt(L, log_block);
  const int P = ts.plan.num_passes;
  const Fr n_inv = Fr::from_u64(uint64_t{1} << (L < 64 ? L : 0)).inverse();
  // ω_{2^j} for j ≤ L in the right direction
  auto root = [&](int log_m) {
    Fr w = root_of_unity(log_m, conv);
    return inverse ? w.inverse() : w;
  };
  const bool fold_n_inv = inverse && !coset && P > 1;
  const Fr shift_inv = coset && inverse ? shift.inverse() : Fr::one();
  int log_done = 0;  // log2 of R_1···R_(q−1)
  for (int q = 0; q < P; q++) {
    const PassGeom& g = ts.plan.pass[q];
    ts.inner[q].kind = kTabExact;
    ts.inner[q].lo = {root(g.k), Fr::one(), size_t{1} << (g.k - 1)};
    if (q < P - 1) {
      // Coset transforms: positional, a = the forward's shift^low (pass 1), b = the inverse's
      // shift^(−R_1···R_(q−1)·f). Plain ones: by exponent (the same products; its two-level tables are
      // ~1 MiB against 16 MiB positional ones at 2^27, which made a plain 2^27 transform 2.4 % slower),
      // an inverse's n⁻¹ on the last post table.
      const int log_m = g.k + g.log_stride;
      if (coset) {
        const Fr a = !inverse && q == 0 ? shift : Fr::one();
        const Fr b = inverse ? pow2k(shift_inv, log_done) : Fr::one();
        ts.post[q] = positional_table(root(log_m), g.log_stride, g.k, a, b, max_exact_log);
      } else {
        ts.post[q] =
            power_table(root(log_m), log_m, fold_n_inv && q == P - 2 ? n_inv : Fr::one(), max_exact_log);
      }
    }
    log_done += g.k;
  }
  // the rest of the coset powers: the digit of pass 1 on load, the frequency of pass P on store (R-entry
  // tables; with one pass the digit is the whole index)
  if (coset && !inverse) {
    const int k = ts.plan.pass[0].k;
    ts.in_factor = power_table(pow2k(shift, L - k), k, Fr::one(), max_exact_log);
  } else if (coset) {
    const int k = ts.plan.pass[P - 1].k;
    ts.out_factor = power_table(pow2k(shift_inv, L - k), k, n_inv, max_exact_log);
  }
  if (inverse && !coset && P == 1) {
    ts.scale_out = 1;
    ts.scale = n_inv;
  }
  return ts;
}

/// Entries (Fr) of all tables of a transform.
inline size_t table_entries(const TransformSpec& ts) {
  size_t e = table_entries(ts.in_factor) + table_entries(ts.out_factor);
  for (int q = 0; q < ts.plan.num_passes; q++) e += table_entries(ts.inner[q]) + table_entries(ts.post[q]);
  return e;
}

/// Number of blocks of a pass.
inline size_t pass_blocks(int log_n, int k, int log_c) { return (size_t)1 << (log_n - k - log_c); }

}  // namespace cuzk::cuda::ntt_detail
