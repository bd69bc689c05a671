// One pass of the GPU NTT over Fr, written as per-thread phases so that the same code runs in the CUDA
// kernel (phases separated by __syncthreads) and in a CPU emulator used by the tests (phases separated
// by loops over the threads of a block). No CUDA header is needed: it compiles with g++ too.
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
// Inside a pass each thread holds 8 elements; a size-2^K DFT is radix-2 decimation in frequency whose
// stages are grouped three at a time in registers (radix-8 rounds), with word-planar shared memory
// (xor swizzle pos ^ ((pos >> 3) & 31), conflict-free for every round) between the rounds.
// Optional extras: a per-position factor on load (coset shift powers, pass 1) and a per-output factor on
// store (inverse coset powers times n⁻¹, pass P), both from two-level tables lo[e & mask]·hi[e >> w].
#pragma once

#include <cstddef>
#include <cstdint>

#include "ff/bls12_381.hpp"
#include "ff/roots.hpp"

namespace cuzk::cuda::ntt_detail {

constexpr int kMaxPasses = 3;
constexpr int kMinLogRadix = 3;
constexpr int kMaxLogRadix = 10;
constexpr int kPassThreads = 256;  ///< threads per block (C sub-problems of R/8 threads each)

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
  int log_lo = 0;  ///< w
};

/// Everything one pass needs (passed by value to the kernel).
struct PassParams {
  const Fr* in = nullptr;
  Fr* out = nullptr;
  int log_n = 0;       ///< L
  int log_stride = 0;  ///< s: this pass's digit sits at stride 2^s (0 for the last pass)
  int log_c = 0;       ///< C = 2^log_c sub-problems per block
  int last = 0;        ///< 1 for the final, out-of-place pass
  int num_passes = 1;  ///< P
  int log_r1 = 0;      ///< K_1 (digit reversal in the last pass)
  int log_r2 = 0;      ///< K_2 (digit reversal in the last pass when P = 3)
  const Fr* tw_inner = nullptr;  ///< ω_R^e for e < R/2 (ω⁻¹ for the inverse)
  Table post;                    ///< ω_M^(low·f) after a non-last pass
  Table in_factor;               ///< factor[pos] on load (pass 1 only)
  Table out_factor;              ///< factor[index] on store (last pass only)
  int scale_out = 0;             ///< multiply every output by `scale`
  Fr scale{};
  uint32_t num_blocks = 0;       ///< grid size
  uint32_t prefetch_ahead = 0;   ///< ≠ 0: prefetch into L2 the inputs of block blockIdx + this (device only)
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
  return ld_table(t.lo + (e & mask)) * ld_table(t.hi + (e >> t.log_lo));
}

CUZK_HD uint32_t bitrev(uint32_t x, int bits) {
  uint32_t r = 0;
  for (int i = 0; i < bits; i++) r |= ((x >> i) & 1u) << (bits - 1 - i);
  return r;
}

/// Shared memory words a block of the K-pass needs.
constexpr size_t pass_smem_words(int k, int log_c) { return (size_t)8 << (k + log_c); }

/// Per-thread state and phases of a pass with radix R = 2^K (3 ≤ K ≤ 10).
template <int K>
struct PassThread {
  static constexpr int R = 1 << K;
  static constexpr int kSub = R / 8;           ///< threads per sub-problem
  static constexpr int kRounds = (K + 2) / 3;  ///< radix-8 rounds

  Fr v[8];
  int c = 0;  ///< sub-problem within the block
  int t = 0;  ///< thread within the sub-problem
  size_t low = 0, high = 0;  ///< non-last pass: position = low + S·j + S·R·high
  size_t run = 0, base = 0;  ///< last pass: input run index u, output base index

  /// Lowest position bit of round J's three register bits.
  static constexpr int round_lo(int j) { return K - 3 * (j + 1) > 0 ? K - 3 * (j + 1) : 0; }
  /// Position (within the sub-problem) of register m of thread t in round J's layout.
  template <int J>
  CUZK_HD static uint32_t pos(int t, int m) {
    constexpr int lo = round_lo(J);
    return ((uint32_t)t & ((1u << lo) - 1)) | ((uint32_t)m << lo) | (((uint32_t)t >> lo) << (lo + 3));
  }
  CUZK_HD static uint32_t swz(uint32_t p) { return p ^ ((p >> 3) & 31u); }

  CUZK_HD void init(const PassParams& p, uint32_t block, uint32_t tid) {
    c = (int)(tid / kSub);
    t = (int)(tid % kSub);
    const int L = p.log_n;
    if (!p.last) {
      const size_t nlow_blocks = (size_t{1} << p.log_stride) >> p.log_c;
      low = (size_t)(block % nlow_blocks) * ((size_t)1 << p.log_c) + (size_t)c;
      high = block / nlow_blocks;
    } else if (p.num_passes == 1) {
      run = 0;
      base = 0;
    } else {
      // run u = rest + W1·f_1 with W1 = N / (R_1·R_P); the C sub-problems of a block have consecutive f_1
      const int log_w1 = L - p.log_r1 - K;
      const size_t w1 = size_t{1} << log_w1;
      const size_t rest = block % w1;
      const size_t f1 = (size_t)(block / w1) * ((size_t)1 << p.log_c) + (size_t)c;
      run = rest + (f1 << log_w1);
      if (p.num_passes == 2) {
        base = f1;
      } else {
        const size_t f2 = rest;  // P = 3: u = f_2 + R_2·f_1
        base = f1 + (f2 << p.log_r1);
      }
    }
  }
  CUZK_HD size_t in_pos(const PassParams& p, uint32_t j) const {
    if (p.last) return (run << K) + j;
    return low + ((size_t)j << p.log_stride) + ((high << K) << p.log_stride);
  }

  /// Asks L2 for the inputs that this thread will load as a member of block `block + prefetch_ahead`
  /// (about one wave of resident blocks later), so that its loads then hit L2 instead of waiting on
  /// DRAM. No effect on results; a no-op on the host.
  CUZK_HD void prefetch(const PassParams& p, uint32_t block, uint32_t tid) const {
#ifdef __CUDA_ARCH__
    const uint32_t b = block + p.prefetch_ahead;
    if (p.prefetch_ahead == 0 || b >= p.num_blocks) return;
    PassThread f;
    f.init(p, b, tid);
    CUZK_MONT_UNROLL
    for (int m = 0; m < 8; m++) {
      const Fr* a = p.in + f.in_pos(p, pos<0>(f.t, m));
      asm volatile("prefetch.global.L2 [%0];" ::"l"(a));
    }
#else
    (void)p;
    (void)block;
    (void)tid;
#endif
  }

  /// Loads the thread's 8 inputs in round 0's layout (times the load factor, if any).
  CUZK_HD void load(const PassParams& p) {
CUZK_MONT_UNROLL
    for (int m = 0; m < 8; m++) {
      const size_t gp = in_pos(p, pos<0>(t, m));
      v[m] = ld_data(p.in + gp);
      if (p.in_factor.kind != kTabNone) v[m] = v[m] * table_value(p.in_factor, gp);
    }
  }

  /// The radix-2 DIF stages of round J on the registers.
  template <int J>
  CUZK_HD void compute(const PassParams& p) {
    constexpr int lo = round_lo(J);
    constexpr int top = K - 3 * J;  // stages s = top−1 … lo
    constexpr bool kLastRound = J == kRounds - 1;
    Fr w8[4];
    if constexpr (kLastRound) {
      // last round: i mod 2^s is the register index, twiddles are ω_8^q = ω_R^(q·R/8)
CUZK_MONT_UNROLL
      for (int q = 1; q < 4; q++) w8[q] = ld_table(p.tw_inner + q * (R / 8));
    }
CUZK_MONT_UNROLL
    for (int s = top - 1; s >= lo; s--) {
      const int b = s - lo;
CUZK_MONT_UNROLL
      for (int m = 0; m < 8; m++) {
        if (m & (1 << b)) continue;
        const int m2 = m | (1 << b);
        const Fr x = v[m], y = v[m2];
        v[m] = x + y;
        const Fr d = x - y;
        if constexpr (kLastRound) {
          const int q = (m & ((1 << s) - 1)) << (2 - s);  // ω_{2^(s+1)}^(m mod 2^s) = ω_8^q
          v[m2] = q == 0 ? d : d * w8[q];
        } else {
          const uint32_t imod = ((uint32_t)t & ((1u << lo) - 1)) | ((uint32_t)(m & ((1 << b) - 1)) << lo);
          v[m2] = d * ld_table(p.tw_inner + (imod << (K - 1 - s)));
        }
      }
    }
  }

  /// Writes the registers to shared memory in round J's layout.
  template <int J>
  CUZK_HD void smem_write(uint32_t* smem) const {
    uint32_t* sub = smem + ((size_t)c << (K + 3));
CUZK_MONT_UNROLL
    for (int m = 0; m < 8; m++) {
      const uint32_t a = swz(pos<J>(t, m));
CUZK_MONT_UNROLL
      for (int w = 0; w < 4; w++) {
        sub[((2 * w) << K) + a] = (uint32_t)v[m].l[w];
        sub[((2 * w + 1) << K) + a] = (uint32_t)(v[m].l[w] >> 32);
      }
    }
  }
  /// Reads the registers from shared memory in round J's layout.
  template <int J>
  CUZK_HD void smem_read(const uint32_t* smem) {
    const uint32_t* sub = smem + ((size_t)c << (K + 3));
CUZK_MONT_UNROLL
    for (int m = 0; m < 8; m++) {
      const uint32_t a = swz(pos<J>(t, m));
CUZK_MONT_UNROLL
      for (int w = 0; w < 4; w++)
        v[m].l[w] = (uint64_t)sub[((2 * w) << K) + a] | ((uint64_t)sub[((2 * w + 1) << K) + a] << 32);
    }
  }

  /// Applies the post-pass twiddle or the output factors and stores the 8 outputs. Register m holds
  /// frequency f = bitrev_K(m | t·8).
  CUZK_HD void store(const PassParams& p) const {
CUZK_MONT_UNROLL
    for (int m = 0; m < 8; m++) {
      const uint32_t f = bitrev((uint32_t)m | ((uint32_t)t << 3), K);
      Fr x = v[m];
      if (!p.last) {
        if (p.post.kind != kTabNone) x = x * table_value(p.post, (uint64_t)low * f);
        st_data(p.out + low + ((size_t)f << p.log_stride) + ((high << K) << p.log_stride), x);
      } else {
        const size_t idx = base + ((size_t)f << (p.log_n - K));
        if (p.out_factor.kind != kTabNone) x = x * table_value(p.out_factor, idx);
        if (p.scale_out) x = x * p.scale;
        st_data(p.out + idx, x);
      }
    }
  }
};

// ---- host-side planning (shared by the CUDA driver and the CPU emulator of the tests) ----------------

/// table[i] = factor · base^i for i < count (Montgomery form).
struct PowSpec {
  Fr base{};
  Fr factor{};
  size_t count = 0;
};
/// A table as powers: exact (lo only) or two-level (lo = ω^i, i < 2^w; hi = factor·ω^(i·2^w)).
struct TableSpec {
  int kind = kTabNone;
  int log_lo = 0;
  PowSpec lo, hi;
};

/// Geometry of one pass.
struct PassGeom {
  int k = 0;           ///< log radix
  int log_stride = 0;  ///< digit stride (0 for the last pass)
  int log_c = 0;       ///< sub-problems per block
};

/// Largest exponent range kept as one exact table (2^19 entries, 16 MiB); larger ones are two-level.
constexpr int kMaxExactLog = 19;

/// Pass decomposition of a size-2^L transform, 3 ≤ L ≤ 30: one pass up to 2^10, two up to 2^20,
/// three beyond, radices as equal as possible (larger first).
struct NttPlan {
  int log_n = 0;
  int num_passes = 0;
  PassGeom pass[kMaxPasses];
};
inline NttPlan plan_ntt(int L, int max_threads = kPassThreads) {
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
  int log_threads = 0;
  while ((1 << (log_threads + 1)) <= max_threads) log_threads++;
  for (int q = 0; q < P; q++) {
    PassGeom& g = pl.pass[q];
    int lc = log_threads - (g.k - 3);
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
inline TableSpec power_table(const Fr& root, int log_m, const Fr& factor) {
  TableSpec t;
  if (log_m <= kMaxExactLog) {
    t.kind = kTabExact;
    t.lo = {root, factor, size_t{1} << log_m};
    return t;
  }
  t.kind = kTabTwoLevel;
  t.log_lo = (log_m + 1) / 2;
  t.lo = {root, Fr::one(), size_t{1} << t.log_lo};
  Fr step = root;
  for (int i = 0; i < t.log_lo; i++) step = step.sqr();
  t.hi = {step, factor, size_t{1} << (log_m - t.log_lo)};
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

/// Tables of a size-2^L transform (3 ≤ L ≤ 30). Forward: X_i = Σ_k x_k·(shift^k)·ω^(ik) (shift = 1
/// unless coset). Inverse: x_k = n⁻¹·shift^(−k)·Σ_i X_i·ω^(−ik). ω = root_of_unity(L, conv).
inline TransformSpec make_transform(int L, RootConvention conv, bool inverse, bool coset, const Fr& shift,
                                    int max_threads = kPassThreads) {
  TransformSpec ts;
  ts.plan = plan_ntt(L, max_threads);
  const int P = ts.plan.num_passes;
  const Fr n_inv = Fr::from_u64(uint64_t{1} << (L < 64 ? L : 0)).inverse();
  // ω_{2^j} for j ≤ L in the right direction
  auto root = [&](int log_m) {
    Fr w = root_of_unity(log_m, conv);
    return inverse ? w.inverse() : w;
  };
  const bool fold_n_inv = inverse && !coset && P > 1;
  for (int q = 0; q < P; q++) {
    const PassGeom& g = ts.plan.pass[q];
    ts.inner[q].kind = kTabExact;
    ts.inner[q].lo = {root(g.k), Fr::one(), size_t{1} << (g.k - 1)};
    if (q < P - 1) {
      const int log_m = g.k + g.log_stride;
      const Fr factor = fold_n_inv && q == P - 2 ? n_inv : Fr::one();
      ts.post[q] = power_table(root(log_m), log_m, factor);
    }
  }
  if (coset) {
    if (!inverse) {
      ts.in_factor = power_table(shift, L, Fr::one());
    } else {
      ts.out_factor = power_table(shift.inverse(), L, n_inv);
    }
  }
  if (inverse && !coset && P == 1) {
    ts.scale_out = 1;
    ts.scale = n_inv;
  }
  return ts;
}

/// Number of blocks of a pass.
inline size_t pass_blocks(int log_n, int k, int log_c) { return (size_t)1 << (log_n - k - log_c); }

}  // namespace cuzk::cuda::ntt_detail
