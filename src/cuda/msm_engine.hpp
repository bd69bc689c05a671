// The GPU MSM algorithm, written once over a "backend" that launches per-thread kernels, sorts,
// scans, allocates and copies. The CUDA backend (msm_util.cuh) runs it on the GPU; the host
// backend (msm_host_backend.hpp) runs the very same kernel bodies thread by thread on the CPU, which
// lets the whole algorithm be tested without a GPU. Hence the rules for every kernel here: a functor
// with `operator()(size_t thread)`, no shared memory, no barriers, and disjoint writes per thread.
//
// Steps of one Pippenger MSM (window c, B = 2^(c−1) buckets per window, W = ⌈256/c⌉ windows):
//  1. DigitsK: per scalar, signed digits d ∈ [−B, B] (carry-propagated), one (key, value) pair per
//     window: key = window·B + |d| − 1 (or `zero_key` for d = 0, which sorts last and is skipped),
//     value = point index | sign bit.
//  2. Radix sort of the pairs by key (windows processed in batches to bound memory).
//  3. Segmented sum by key ("levels"): thread t owns the slice [tK, tK + K) of the sorted pairs and
//     sums each run of equal keys with XYZZ mixed additions. A run entirely inside the slice is a
//     whole bucket: written to buckets[key]. A run that crosses the slice's start or end is a piece:
//     emitted (key, partial sum) to a compacted list (counts + exclusive scan), which is again sorted
//     by key and reduced the same way until no piece is left. Every thread does K additions
//     whatever the distribution of the scalars: skew (all scalars equal → one bucket) only adds a
//     few short levels.
//  4. BucketReduceK: per window, buckets split into segments of L; a segment computes
//     Σ (idx − lo + 1)·S_idx by the running sum and adds lo·(Σ S_idx); the segment results are
//     reduced per window by the same segmented sum (key = window).
//  5. Window sums go to the host: Σ_w 2^(c·w)·S_w by Horner.
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "ec/point.hpp"
#include "ff/bls12_381.hpp"
#include "ff/fp2.hpp"

namespace cuzk::cuda::msm_detail {

inline constexpr uint32_t kSignBit = 0x80000000u;  ///< value bit: the point enters negated
inline constexpr uint32_t kNoKey = 0xffffffffu;    ///< a zero_key that never occurs

/// Read-only load of one element; on the device through the non-coherent cache in 16-byte words
/// (every element type here is a multiple of 16 bytes and the arrays are 256-byte aligned).
template <class T>
CUZK_HD T ld(const T* p) {
#ifdef __CUDA_ARCH__
  if constexpr (sizeof(T) % 16 == 0) {
    T r;
    uint64_t* d = reinterpret_cast<uint64_t*>(&r);
    const ulonglong2* s = reinterpret_cast<const ulonglong2*>(p);
#pragma unroll
    for (int i = 0; i < (int)(sizeof(T) / 16); i++) {
      ulonglong2 v = __ldg(s + i);
      d[2 * i] = v.x;
      d[2 * i + 1] = v.y;
    }
    return r;
  } else {
    return *p;
  }
#else
  return *p;
#endif
}

// The point operations are called through out-of-line wrappers on the device: inlined, every kernel
// would carry its own copies of ~6k (G1) to ~20k (G2) instructions per operation, which multiplies
// compile time and overflows the instruction cache; a call costs a few dozen local-memory moves.
#if defined(__CUDACC__)
#define CUZK_MSM_NOINLINE __host__ __device__ __noinline__
#define CUZK_MSM_NOINLINE_FN inline __host__ __device__ __noinline__
#else
#define CUZK_MSM_NOINLINE inline
#define CUZK_MSM_NOINLINE_FN inline
#endif

template <class F>
CUZK_MSM_NOINLINE XYZZ<F> xyzz_madd(const XYZZ<F>& a, const Affine<F>& q) {
  return a.add_affine(q);
}
template <class F>
CUZK_MSM_NOINLINE XYZZ<F> xyzz_add(const XYZZ<F>& a, const XYZZ<F>& b) {
  return a + b;
}
template <class F>
CUZK_MSM_NOINLINE XYZZ<F> xyzz_dbl(const XYZZ<F>& a) {
  return a.dbl();
}
template <class F>
CUZK_MSM_NOINLINE Jacobian<F> jac_add(const Jacobian<F>& a, const Jacobian<F>& b) {
  return a + b;
}
template <class F>
CUZK_MSM_NOINLINE Jacobian<F> jac_madd(const Jacobian<F>& a, const Affine<F>& q) {
  return a.add_affine(q);
}
template <class F>
CUZK_MSM_NOINLINE Jacobian<F> jac_dbl(const Jacobian<F>& a) {
  return a.dbl();
}
template <class F>
CUZK_MSM_NOINLINE F field_inverse(const F& a) {
  return a.inverse();
}

// G2 variant: the XYZZ formulas of ec/point.hpp (EFD madd-2008-s, add-2008-s, dbl-2008-s-1) restated
// with every Fp2 product out of line, so that a point operation keeps few Fp2 temporaries in
// registers (the inlined Fp2 formulas need > 255 registers and spill). For Fp the products stay inline.
CUZK_MSM_NOINLINE_FN Fp2 fp2_mul_ool(const Fp2& a, const Fp2& b) { return a * b; }
CUZK_MSM_NOINLINE_FN Fp2 fp2_sqr_ool(const Fp2& a) { return a.sqr(); }
template <class F>
CUZK_HD F pmul(const F& a, const F& b) {
  if constexpr (std::is_same_v<F, Fp2>) {
    return fp2_mul_ool(a, b);
  } else {
    return a * b;
  }
}
template <class F>
CUZK_HD F psqr(const F& a) {
  if constexpr (std::is_same_v<F, Fp2>) {
    return fp2_sqr_ool(a);
  } else {
    return a.sqr();
  }
}
template <class F>
CUZK_MSM_NOINLINE XYZZ<F> xyzz_dbl_ool(const XYZZ<F>& p) {
  if (p.is_inf()) return p;
  const F U = p.Y.dbl(), V = psqr(U), W = pmul(U, V), S = pmul(p.X, V);
  const F X2 = psqr(p.X), M = X2.dbl() + X2;
  const F X3 = psqr(M) - S.dbl();
  const F Y3 = pmul(M, S - X3) - pmul(W, p.Y);
  return {X3, Y3, pmul(V, p.ZZ), pmul(W, p.ZZZ)};
}
template <class F>
CUZK_MSM_NOINLINE XYZZ<F> xyzz_madd_ool(const XYZZ<F>& a, const Affine<F>& q) {
  if (q.is_inf()) return a;
  if (a.is_inf()) return XYZZ<F>::from_affine(q);
  const F P = pmul(q.x, a.ZZ) - a.X, R = pmul(q.y, a.ZZZ) - a.Y;
  if (P.is_zero()) return R.is_zero() ? XYZZ<F>::dbl_affine(q) : XYZZ<F>::infinity();
  const F PP = psqr(P), PPP = pmul(P, PP), Q = pmul(a.X, PP);
  const F X3 = psqr(R) - PPP - Q.dbl();
  const F Y3 = pmul(R, Q - X3) - pmul(a.Y, PPP);
  return {X3, Y3, pmul(a.ZZ, PP), pmul(a.ZZZ, PPP)};
}
template <class F>
CUZK_MSM_NOINLINE XYZZ<F> xyzz_add_ool(const XYZZ<F>& p, const XYZZ<F>& q) {
  if (p.is_inf()) return q;
  if (q.is_inf()) return p;
  const F U1 = pmul(p.X, q.ZZ), U2 = pmul(q.X, p.ZZ);
  const F S1 = pmul(p.Y, q.ZZZ), S2 = pmul(q.Y, p.ZZZ);
  const F P = U2 - U1, R = S2 - S1;
  if (P.is_zero()) return R.is_zero() ? xyzz_dbl_ool(p) : XYZZ<F>::infinity();
  const F PP = psqr(P), PPP = pmul(P, PP), Q = pmul(U1, PP);
  const F X3 = psqr(R) - PPP - Q.dbl();
  const F Y3 = pmul(R, Q - X3) - pmul(S1, PPP);
  return {X3, Y3, pmul(pmul(p.ZZ, q.ZZ), PP), pmul(pmul(p.ZZZ, q.ZZZ), PPP)};
}

/// Point-operation policies of the bucket kernels (chosen per call by Engine::set_variant):
/// OpsCall: ec/point.hpp's operators behind out-of-line wrappers (variant 0, both curves);
/// OpsInline: the operators inlined into the kernels (variant 1 on G1);
/// OpsOol: the restated formulas with out-of-line Fp2 products (variant 1 on G2).
/// Variant 1 is Msm's default: 5% faster on G1 and 24% faster on G2 than variant 0 on an H200.
struct OpsCall {
  template <class F>
  CUZK_HD static XYZZ<F> madd(const XYZZ<F>& a, const Affine<F>& q) { return xyzz_madd(a, q); }
  template <class F>
  CUZK_HD static XYZZ<F> add(const XYZZ<F>& a, const XYZZ<F>& b) { return xyzz_add(a, b); }
  template <class F>
  CUZK_HD static XYZZ<F> dbl(const XYZZ<F>& a) { return xyzz_dbl(a); }
};
struct OpsInline {
  template <class F>
  CUZK_HD static XYZZ<F> madd(const XYZZ<F>& a, const Affine<F>& q) { return a.add_affine(q); }
  template <class F>
  CUZK_HD static XYZZ<F> add(const XYZZ<F>& a, const XYZZ<F>& b) { return a + b; }
  template <class F>
  CUZK_HD static XYZZ<F> dbl(const XYZZ<F>& a) { return a.dbl(); }
};
struct OpsOol {
  template <class F>
  CUZK_HD static XYZZ<F> madd(const XYZZ<F>& a, const Affine<F>& q) { return xyzz_madd_ool(a, q); }
  template <class F>
  CUZK_HD static XYZZ<F> add(const XYZZ<F>& a, const XYZZ<F>& b) { return xyzz_add_ool(a, b); }
  template <class F>
  CUZK_HD static XYZZ<F> dbl(const XYZZ<F>& a) { return xyzz_dbl_ool(a); }
};

/// Bits [off, off + c) of a 256-bit little-endian integer (c ≤ 31).
CUZK_HD uint32_t window_bits(const uint64_t l[4], int off, int c) {
  int q = off >> 6, r = off & 63;
  uint64_t lo = q == 0 ? l[0] : q == 1 ? l[1] : q == 2 ? l[2] : l[3];
  uint64_t v = lo >> r;
  if (r + c > 64 && q < 3) {
    uint64_t hi = q == 0 ? l[1] : q == 1 ? l[2] : l[3];
    v |= hi << (64 - r);
  }
  return (uint32_t)v & ((1u << c) - 1);
}

/// Number of windows for window size c: W·c ≥ 256 keeps the top signed digit within [−B, B] for any
/// scalar < r < 2^255.
inline int num_windows(int c) { return (256 + c - 1) / c; }

/// Window size minimising a simple cost model: m·W mixed additions for the buckets plus about
/// 2.5 mixed-addition equivalents per bucket for the running-sum reduction.
inline int choose_window(size_t m) {
  int best = 2;
  double best_cost = 1e300;
  for (int c = 2; c <= 22; c++) {
    double W = num_windows(c);
    double cost = (double)m * W + 2.5 * W * (double)(1u << (c - 1)) + 64.0 * W;
    if (cost < best_cost) {
      best_cost = cost;
      best = c;
    }
  }
  return best;
}

// ---- kernels ------------------------------------------------------------------------------------

/// Signed digits of windows [w0, w0 + nb) of m scalars (scalar j is scalars[idx[j]], or scalars[j]
/// without idx); pair (window − w0)·m + j gets key (window − w0)·B + |d| − 1 and value index | sign.
struct DigitsK {
  const Fr* scalars;
  const uint32_t* idx;
  size_t m;
  int c, w0, nb;
  uint32_t* keys;
  uint32_t* vals;
  CUZK_HD void operator()(size_t j) const {
    const uint32_t i = idx ? idx[j] : (uint32_t)j;
    const Fr s = ld(scalars + i);
    uint64_t l[4];
    s.to_canonical(l);
    const uint32_t B = 1u << (c - 1);
    const uint32_t zero_key = (uint32_t)nb * B;
    uint32_t carry = 0;
    for (int w = 0; w < w0 + nb; w++) {
      uint32_t d = window_bits(l, w * c, c) + carry;
      uint32_t sign = 0;
      if (d > B) {
        d = (1u << c) - d;  // digit d − 2^c < 0, magnitude 2^c − d (0 when d = 2^c)
        sign = kSignBit;
        carry = 1;
      } else {
        carry = 0;
      }
      if (w >= w0) {
        const size_t o = (size_t)(w - w0) * m + j;
        keys[o] = d ? (uint32_t)(w - w0) * B + d - 1 : zero_key;
        vals[o] = i | sign;
      }
    }
  }
};

/// Key of entry j; a null key array means "all keys 0".
CUZK_HD uint32_t key_at(const uint32_t* keys, size_t j) { return keys ? keys[j] : 0u; }

/// Pieces (runs crossing the slice boundary) emitted by slice t of a sorted key array: 0, 1 or 2.
/// Thread `chunks` writes counts[chunks] = 0 so that an exclusive scan of chunks + 1 entries ends
/// with the total.
struct CountK {
  const uint32_t* keys;
  size_t M;
  uint32_t K;
  uint32_t zero_key;
  size_t chunks;
  uint32_t* counts;
  CUZK_HD void operator()(size_t t) const {
    if (t >= chunks) {
      counts[t] = 0;
      return;
    }
    const size_t s = t * K, e = s + K < M ? s + K : M;
    const uint32_t first = key_at(keys, s), last = key_at(keys, e - 1);
    const bool H = s > 0 && first != zero_key && key_at(keys, s - 1) == first;
    const bool T = e < M && last != zero_key && key_at(keys, e) == last;
    counts[t] = first == last ? (uint32_t)(H || T) : (uint32_t)H + (uint32_t)T;
  }
};

/// Level-1 source: affine bases addressed by value = index | sign.
template <class F, class Ops>
struct AffineSrc {
  const Affine<F>* bases;
  const uint32_t* vals;
  CUZK_HD Affine<F> point(size_t j) const {
    const uint32_t v = vals[j];
    Affine<F> p = ld(bases + (v & ~kSignBit));
    if (v & kSignBit) p = -p;
    return p;
  }
  CUZK_HD XYZZ<F> first(size_t j) const { return XYZZ<F>::from_affine(point(j)); }
  CUZK_HD XYZZ<F> add(const XYZZ<F>& acc, size_t j) const { return Ops::madd(acc, point(j)); }
};

/// Later-level source: partial sums in XYZZ.
template <class F, class Ops>
struct XyzzSrc {
  const XYZZ<F>* vals;
  CUZK_HD XYZZ<F> first(size_t j) const { return ld(vals + j); }
  CUZK_HD XYZZ<F> add(const XYZZ<F>& acc, size_t j) const { return Ops::add(acc, ld(vals + j)); }
};

/// One level of the segmented sum (see the file comment, step 3). Slice t sums its runs; whole runs
/// go to dest[key], crossing runs to (out_keys, out_vals)[offsets[t] + 0/1].
template <class F, class Src>
struct AccumulateK {
  const uint32_t* keys;
  Src src;
  size_t M;
  uint32_t K;
  uint32_t zero_key;
  const uint32_t* offsets;
  XYZZ<F>* dest;
  uint32_t* out_keys;
  XYZZ<F>* out_vals;

  CUZK_HD void flush(uint32_t key, const XYZZ<F>& acc, bool head, bool tail, bool H, uint32_t o) const {
    if (head || tail) {
      const uint32_t slot = o + ((head || !H) ? 0u : 1u);
      out_keys[slot] = key;
      out_vals[slot] = acc;
    } else {
      dest[key] = acc;
    }
  }
  CUZK_HD void operator()(size_t t) const {
    const size_t s = t * K, e = s + K < M ? s + K : M;
    const uint32_t first = key_at(keys, s), last = key_at(keys, e - 1);
    if (first == zero_key) return;
    const bool H = s > 0 && key_at(keys, s - 1) == first;
    const bool T = e < M && last != zero_key && key_at(keys, e) == last;
    const uint32_t o = offsets[t];
    uint32_t cur = first;
    bool first_run = true;
    XYZZ<F> acc = src.first(s);
    for (size_t j = s + 1; j < e; j++) {
      const uint32_t k = key_at(keys, j);
      if (k != cur) {
        flush(cur, acc, first_run && H, false, H, o);
        first_run = false;
        if (k == zero_key) return;
        cur = k;
        acc = src.first(j);
      } else {
        acc = src.add(acc, j);
      }
    }
    flush(cur, acc, first_run && H, T, H, o);
  }
};

/// k·p for a small non-negative k (double-and-add from the top bit).
template <class Ops, class F>
CUZK_HD XYZZ<F> mul_small(const XYZZ<F>& p, uint32_t k) {
  XYZZ<F> r = XYZZ<F>::infinity();
  for (int b = 31; b >= 0; b--) {
    if (!r.is_inf()) r = Ops::dbl(r);
    if ((k >> b) & 1) r = Ops::add(r, p);
  }
  return r;
}

/// Running-sum reduction of bucket segments: thread g = w·T + s covers buckets [s·L, s·L + L) of
/// window w (bucket idx holds digit idx + 1) and emits (w, Σ (idx + 1)·S_idx over its segment).
template <class F, class Ops>
struct BucketReduceK {
  const XYZZ<F>* buckets;
  uint32_t B, L, T;
  uint32_t* out_keys;
  XYZZ<F>* out_vals;
  CUZK_HD void operator()(size_t g) const {
    const uint32_t w = (uint32_t)(g / T), s = (uint32_t)(g % T);
    const uint32_t lo = s * L;
    const XYZZ<F>* b = buckets + (size_t)w * B + lo;
    XYZZ<F> run = XYZZ<F>::infinity(), acc = XYZZ<F>::infinity();
    for (uint32_t k = L; k-- > 0;) {
      run = Ops::add(run, ld(b + k));
      acc = Ops::add(acc, run);
    }
    if (lo) acc = Ops::add(acc, mul_small<Ops>(run, lo));
    out_keys[g] = w;
    out_vals[g] = acc;
  }
};

/// 0/1 classification of Montgomery-form scalars: one[i] = (s = 1), other[i] = (s ∉ {0, 1}).
/// Thread n writes the trailing zeros that make the exclusive scans end with the totals.
struct ClassifyK {
  const Fr* scalars;
  size_t n;
  uint32_t* one;
  uint32_t* other;
  CUZK_HD void operator()(size_t i) const {
    if (i >= n) {
      one[i] = other[i] = 0;
      return;
    }
    const Fr s = ld(scalars + i);
    const bool z = s.is_zero(), o = s == Fr::one();
    one[i] = o;
    other[i] = !z && !o;
  }
};

/// Compaction: out[offsets[i]] = i where flags[i].
struct ScatterK {
  const uint32_t* flags;
  const uint32_t* offsets;
  size_t n;
  uint32_t* out;
  CUZK_HD void operator()(size_t i) const {
    if (flags[i]) out[offsets[i]] = (uint32_t)i;
  }
};

/// k·p on Jacobian points for a 64-bit k.
template <class F>
CUZK_HD Jacobian<F> jac_mul_u64(const Jacobian<F>& p, uint64_t k) {
  Jacobian<F> r = Jacobian<F>::infinity();
  for (int b = 63; b >= 0; b--) {
    r = jac_dbl(r);
    if ((k >> b) & 1) r = jac_add(r, p);
  }
  return r;
}

/// Synthetic bases out[first + j] = a + (first + j)·b for j in this thread's slice of L points:
/// walk with mixed additions, then one inversion per slice (Montgomery's trick) for the affine form.
template <class F>
struct ProgressionK {
  Affine<F> a, b;
  size_t first, len;
  uint32_t L;
  Affine<F>* out;
  Jacobian<F>* tmp;
  F* pref;
  CUZK_HD void operator()(size_t t) const {
    const size_t s = t * L, e = s + L < len ? s + L : len;
    Jacobian<F> p = jac_add(Jacobian<F>::from_affine(a), jac_mul_u64(Jacobian<F>::from_affine(b), first + s));
    F acc = F::one();
    for (size_t j = s; j < e; j++) {
      tmp[j] = p;
      pref[j] = acc;
      if (!p.is_inf()) acc = acc * p.Z;
      p = jac_madd(p, b);
    }
    F inv = field_inverse(acc);
    for (size_t j = e; j-- > s;) {
      const Jacobian<F> q = tmp[j];
      if (q.is_inf()) {
        out[first + j] = Affine<F>::infinity();
        continue;
      }
      const F zi = inv * pref[j];
      inv = inv * q.Z;
      const F zi2 = zi.sqr();
      out[first + j] = Affine<F>{q.X * zi2, q.Y * zi2 * zi};
    }
  }
};

/// out[i] = a[i]·b[i] (field-layer diagnostic).
template <class F>
struct MulK {
  const F* a;
  const F* b;
  F* out;
  CUZK_HD void operator()(size_t i) const { out[i] = ld(a + i) * ld(b + i); }
};

// ---- orchestration --------------------------------------------------------------------------------

/// The MSM steps over a backend `Be`, which provides: `Buffer` (owning, grow-only), `ensure<T>(buf, n)`
/// → T*, `zero(T*, n)`, `launch(kernel, threads)`, `sort_pairs(keys, keys_alt, vals, vals_alt, n, bits)`
/// (result left in keys/vals, swapping the pointers if needed), `scan(counts, offsets, n)` → total
/// (exclusive sum; counts[n − 1] is 0), `to_host(dst, src, n)`, `buffer_bytes(buf)`, and
/// `phase(name)` / `phase_report(m, c, windows, per_batch)` (optional per-phase timing; may do nothing).
template <class Be, class F>
class Engine {
 public:
  using A = Affine<F>;
  using X = XYZZ<F>;
  using J = Jacobian<F>;

  explicit Engine(Be& be) : be_(be) {}

  /// Chooses the point-operation policy of the bucket kernels: 0 = OpsCall; 1 = OpsInline on G1,
  /// OpsOol on G2 (see the policies' comment).
  void set_variant(int v) { variant_ = v; }
  int variant() const { return variant_; }
  /// Bounds the scratch of a Pippenger call (batch_bytes, plus the 0/1 split's buffers when held) to
  /// `bytes` by sorting fewer windows at a time; 0 leaves only max_pairs as the bound. One window per
  /// batch is the least it goes down to.
  void set_scratch_budget(size_t bytes) { scratch_budget_ = bytes; }

  /// Scratch bytes of one batch of nb windows of m scalars with window c: keys and values twice
  /// (16 bytes per pair), the buckets, the level-1 pieces at their bound (two per slice) and the later
  /// levels', counts and offsets, the bucket-reduction segments and window sums. CUB's temporary
  /// storage (a few MiB) comes on top.
  static size_t batch_bytes(size_t m, int c, int nb) {
    const size_t M = (size_t)nb * m, K1 = M >= (size_t{1} << 24) ? 64 : 32, chunks = (M + K1 - 1) / K1;
    const size_t pieces = 2 * chunks, later = 2 * ((pieces + 15) / 16);
    const size_t buckets = (size_t)nb << (c - 1), segments = std::min<size_t>(buckets, 65536 + (size_t)nb);
    return 16 * M + buckets * sizeof(X) + (pieces + later + segments) * (4 + sizeof(X)) + 8 * (chunks + 1) +
           (size_t)nb * sizeof(X);
  }

  /// Σ scalars[idx[j]]·bases[idx[j]] for j < m (idx null: Σ scalars[j]·bases[j]); c = 0 chooses.
  J pippenger(const A* bases, const Fr* scalars, const uint32_t* idx, size_t m, int c = 0,
              size_t max_pairs = size_t{1} << 28) {
    if (variant_ == 1) return pippenger_impl<AltOps>(bases, scalars, idx, m, c, max_pairs);
    return pippenger_impl<OpsCall>(bases, scalars, idx, m, c, max_pairs);
  }

  /// Σ bases[idx[j]] for j < m (a load-balanced parallel sum; idx entries < 2^31).
  J sum_indexed(const A* bases, const uint32_t* idx, size_t m) {
    if (variant_ == 1) return sum_indexed_impl<AltOps>(bases, idx, m);
    return sum_indexed_impl<OpsCall>(bases, idx, m);
  }

 private:
  using AltOps = std::conditional_t<std::is_same_v<F, Fp2>, OpsOol, OpsInline>;

  template <class Ops>
  J pippenger_impl(const A* bases, const Fr* scalars, const uint32_t* idx, size_t m, int c, size_t max_pairs) {
    if (m == 0) return J::infinity();
    if (c <= 0) c = choose_window(m);
    const int W = num_windows(c);
    const uint32_t B = 1u << (c - 1);
    max_pairs = std::min(max_pairs, size_t{1} << 30);  // sort sizes stay below 2^31
    int wb = (int)std::clamp<size_t>(max_pairs / m, 1, (size_t)W);
    if (scratch_budget_) {
      // the 0/1 split's classification and index buffers stay allocated beside the batch
      const size_t held = split_bytes();
      const size_t budget = scratch_budget_ > held ? scratch_budget_ - held : 0;
      while (wb > 1 && batch_bytes(m, c, wb) > budget) wb--;
      // buffers only grow: drop those of an earlier, larger batch rather than keep both sizes
      if (held + pippenger_bytes() > scratch_budget_ && pippenger_bytes() > batch_bytes(m, c, wb))
        for (Buf* b : pippenger_buffers()) be_.free(*b);
    }
    std::vector<J> wsum(W, J::infinity());
    for (int w0 = 0; w0 < W; w0 += wb) {
      const int nb = std::min(wb, W - w0);
      const size_t M = (size_t)nb * m;
      const uint32_t zero_key = (uint32_t)nb * B;
      uint32_t* keys = be_.template ensure<uint32_t>(keys_[0], M);
      uint32_t* keys_alt = be_.template ensure<uint32_t>(keys_[1], M);
      uint32_t* vals = be_.template ensure<uint32_t>(vals_[0], M);
      uint32_t* vals_alt = be_.template ensure<uint32_t>(vals_[1], M);
      be_.phase("digits");
      be_.launch(DigitsK{scalars, idx, m, c, w0, nb, keys, vals}, m);
      be_.phase("sort");
      be_.sort_pairs(keys, keys_alt, vals, vals_alt, M, (int)std::bit_width(zero_key));

      be_.phase("zero buckets");
      X* buckets = be_.template ensure<X>(buckets_, (size_t)nb * B);
      be_.zero(buckets, (size_t)nb * B);
      be_.phase("bucket sums");
      const uint32_t K1 = M >= (size_t{1} << 24) ? 64 : 32;
      segmented_sum<Ops>(keys, AffineSrc<F, Ops>{bases, vals}, M, K1, zero_key, buckets);

      // Segments of L buckets, aiming at ~64K threads.
      uint32_t L = 1;
      while (L < B && (size_t)nb * (B / L) > 65536) L *= 2;
      const uint32_t T = B / L;
      uint32_t* seg_keys = be_.template ensure<uint32_t>(seg_keys_, (size_t)nb * T);
      X* seg_vals = be_.template ensure<X>(seg_vals_, (size_t)nb * T);
      be_.phase("bucket reduce");
      be_.launch(BucketReduceK<F, Ops>{buckets, B, L, T, seg_keys, seg_vals}, (size_t)nb * T);
      be_.phase("window reduce");
      X* ws = be_.template ensure<X>(wsum_, (size_t)nb);
      be_.zero(ws, (size_t)nb);
      segmented_sum<Ops>(seg_keys, XyzzSrc<F, Ops>{seg_vals}, (size_t)nb * T, 16, kNoKey, ws);
      std::vector<X> h(nb);
      be_.to_host(h.data(), ws, (size_t)nb);
      for (int i = 0; i < nb; i++) wsum[w0 + i] = h[i].to_jacobian();
    }
    be_.phase(nullptr);
    be_.phase_report(m, c, W, wb);
    J r = J::infinity();
    for (int w = W - 1; w >= 0; w--) {
      for (int i = 0; i < c && !r.is_inf(); i++) r = r.dbl();
      r += wsum[w];
    }
    return r;
  }

  template <class Ops>
  J sum_indexed_impl(const A* bases, const uint32_t* idx, size_t m) {
    if (m == 0) return J::infinity();
    X* ws = be_.template ensure<X>(wsum_, 1);
    be_.zero(ws, 1);
    segmented_sum<Ops>(nullptr, AffineSrc<F, Ops>{bases, idx}, m, 32, kNoKey, ws);
    X h;
    be_.to_host(&h, ws, 1);
    return h.to_jacobian();
  }

 public:
  /// Σ scalars[i]·bases[i] for i < n by the 0/1 split.
  J split01(const A* bases, const Fr* scalars, size_t n, size_t* zeros, size_t* ones, size_t* others,
            int c = 0, size_t max_pairs = size_t{1} << 28) {
    if (n == 0) {
      if (zeros) *zeros = 0;
      if (ones) *ones = 0;
      if (others) *others = 0;
      return J::infinity();
    }
    // classification buffers (four of n + 1 words) and indices (at most n words) join the held scratch
    if (scratch_budget_ && pippenger_bytes() + 20 * (n + 1) > scratch_budget_)
      for (Buf* b : pippenger_buffers()) be_.free(*b);
    uint32_t* f1 = be_.template ensure<uint32_t>(flag1_, n + 1);
    uint32_t* f2 = be_.template ensure<uint32_t>(flag2_, n + 1);
    uint32_t* o1 = be_.template ensure<uint32_t>(off1_, n + 1);
    uint32_t* o2 = be_.template ensure<uint32_t>(off2_, n + 1);
    be_.phase("split01 classify");
    be_.launch(ClassifyK{scalars, n, f1, f2}, n + 1);
    const size_t n1 = be_.scan(f1, o1, n + 1);
    const size_t n2 = be_.scan(f2, o2, n + 1);
    uint32_t* i1 = be_.template ensure<uint32_t>(idx1_, n1 ? n1 : 1);
    uint32_t* i2 = be_.template ensure<uint32_t>(idx2_, n2 ? n2 : 1);
    be_.launch(ScatterK{f1, o1, n, i1}, n);
    be_.launch(ScatterK{f2, o2, n, i2}, n);
    if (zeros) *zeros = n - n1 - n2;
    if (ones) *ones = n1;
    if (others) *others = n2;
    be_.phase("split01 ones");
    J r = sum_indexed(bases, i1, n1);
    r += pippenger(bases, scalars, i2, n2, c, max_pairs);
    be_.phase(nullptr);
    be_.phase_report(n2, 0, 0, 0);  // prints only when pippenger did not (no other scalars)
    return r;
  }

  /// Writes a + i·b for i < n into out (device memory of n points).
  void progression(A* out, const A& a, const A& b, size_t n) {
    const size_t pass = size_t{1} << 22;
    const uint32_t L = 32;
    for (size_t first = 0; first < n; first += pass) {
      const size_t len = std::min(pass, n - first);
      J* tmp = be_.template ensure<J>(prog_tmp_, len);
      F* pref = be_.template ensure<F>(prog_pref_, len);
      be_.launch(ProgressionK<F>{a, b, first, len, L, out, tmp, pref}, (len + L - 1) / L);
    }
    be_.sync();
    be_.free(prog_tmp_);
    be_.free(prog_pref_);
  }

  /// Bytes of scratch held.
  size_t scratch_bytes() const {
    size_t s = 0;
    for (const auto* b : all()) s += be_.buffer_bytes(*b);
    return s;
  }
  /// Frees all scratch.
  void release() {
    for (auto* b : all()) be_.free(*b);
  }

 private:
  using Buf = typename Be::Buffer;

  /// Reduces the sorted (keys, src) entries by key into dest (see the file comment, step 3).
  template <class Ops, class Src>
  void segmented_sum(const uint32_t* keys, Src src, size_t M, uint32_t K, uint32_t zero_key, X* dest) {
    // Level 1 reads `src`; later levels read the pieces of the previous level (ping-pong buffers).
    const uint32_t* in_keys = keys;
    int cur = -1;
    bool level1 = true;
    while (M > 0) {
      const size_t chunks = (M + K - 1) / K;
      uint32_t* counts = be_.template ensure<uint32_t>(counts_, chunks + 1);
      uint32_t* offs = be_.template ensure<uint32_t>(offsets_, chunks + 1);
      be_.launch(CountK{in_keys, M, K, zero_key, chunks, counts}, chunks + 1);
      const size_t total = be_.scan(counts, offs, chunks + 1);
      const int nxt = cur == 0 ? 1 : 0;
      uint32_t* pk = be_.template ensure<uint32_t>(piece_keys_[nxt], total ? total : 1);
      X* pv = be_.template ensure<X>(piece_vals_[nxt], total ? total : 1);
      if (level1) {
        be_.launch(AccumulateK<F, Src>{in_keys, src, M, K, zero_key, offs, dest, pk, pv}, chunks);
      } else {
        const X* prev = reinterpret_cast<const X*>(be_.data(piece_vals_[cur]));
        be_.launch(
            AccumulateK<F, XyzzSrc<F, Ops>>{in_keys, XyzzSrc<F, Ops>{prev}, M, K, zero_key, offs, dest, pk, pv},
            chunks);
      }
      level1 = false;
      cur = nxt;
      in_keys = pk;
      M = total;
      K = 16;
      zero_key = kNoKey;
    }
    // Termination: a level of `chunks` slices emits at most 2·chunks pieces, fewer than its M
    // entries once M > K, and none when one slice holds everything.
  }

  /// Buffers of Pippenger's batches (not the 0/1 split's) and their bytes; those of the split.
  std::vector<Buf*> pippenger_buffers() {
    return {&keys_[0], &keys_[1], &vals_[0], &vals_[1], &buckets_, &seg_keys_, &seg_vals_,
            &counts_, &offsets_, &piece_keys_[0], &piece_keys_[1], &piece_vals_[0], &piece_vals_[1]};
  }
  size_t pippenger_bytes() {
    size_t s = 0;
    for (const Buf* b : pippenger_buffers()) s += be_.buffer_bytes(*b);
    return s;
  }
  size_t split_bytes() const {
    size_t s = 0;
    for (const Buf* b : {&flag1_, &flag2_, &off1_, &off2_, &idx1_, &idx2_}) s += be_.buffer_bytes(*b);
    return s;
  }

  std::vector<Buf*> all() {
    return {&keys_[0], &keys_[1], &vals_[0], &vals_[1], &buckets_, &seg_keys_, &seg_vals_, &wsum_,
            &counts_, &offsets_, &piece_keys_[0], &piece_keys_[1], &piece_vals_[0], &piece_vals_[1],
            &flag1_, &flag2_, &off1_, &off2_, &idx1_, &idx2_, &prog_tmp_, &prog_pref_};
  }
  std::vector<const Buf*> all() const {
    return {&keys_[0], &keys_[1], &vals_[0], &vals_[1], &buckets_, &seg_keys_, &seg_vals_, &wsum_,
            &counts_, &offsets_, &piece_keys_[0], &piece_keys_[1], &piece_vals_[0], &piece_vals_[1],
            &flag1_, &flag2_, &off1_, &off2_, &idx1_, &idx2_, &prog_tmp_, &prog_pref_};
  }

  Be& be_;
  int variant_ = 0;
  size_t scratch_budget_ = 0;
  Buf keys_[2], vals_[2], buckets_, seg_keys_, seg_vals_, wsum_, counts_, offsets_, piece_keys_[2],
      piece_vals_[2], flag1_, flag2_, off1_, off2_, idx1_, idx2_, prog_tmp_, prog_pref_;
};

}  // namespace cuzk::cuda::msm_detail
