#include "msm/pippenger.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "msm/batch_affine.hpp"
#include "util/error.hpp"
#include "util/huge_alloc.hpp"
#include "util/plural.hpp"

namespace cuzk {

namespace {

// ---- scalars and digits ---------------------------------------------------------------------------

constexpr int kScalarBits = 255;  // r < 2^255
constexpr int kMaxWindow = 20;

/// A scalar as its canonical integer, little-endian limbs.
struct Canon {
  uint64_t l[Fr::N];
};

/// Bits [pos, pos + len) of a 256-bit integer (bits past 255 read as 0); len ≤ 32.
inline uint64_t bits_at(const uint64_t* k, int pos, int len) {
  const int li = pos >> 6, off = pos & 63;
  if (li >= Fr::N) return 0;
  uint64_t v = k[li] >> off;
  if (off + len > 64 && li + 1 < Fr::N) v |= k[li + 1] << (64 - off);
  return v & ((uint64_t{1} << len) - 1);
}

/// Signed (Booth) digit of window w of width c: d_w = bits[wc, wc+c) + bit[wc−1] − 2^c·bit[wc+c−1],
/// in [−2^(c−1), 2^(c−1)]. Σ d_w·2^(wc) = k when the top window's bit wc+c−1 is zero, i.e. with
/// ⌈256/c⌉ windows for k < 2^255. Each digit depends only on c + 1 bits: no carry between windows.
inline int booth_digit(const uint64_t* k, int w, int c) {
  const uint64_t v = w == 0 ? bits_at(k, 0, c) << 1 : bits_at(k, w * c - 1, c + 1);
  return (int)((int64_t)((v >> 1) + (v & 1)) - (int64_t)((v >> c) << c));
}

inline int num_windows(int c) { return (256 + c - 1) / c; }

/// Largest |digit| of window w: 2^(c−1), or 2^t for a top window holding only t < c bits of the scalar.
inline size_t window_buckets(int w, int c) {
  const int t = std::max(0, kScalarBits - w * c);
  return t >= c ? size_t{1} << (c - 1) : std::min(size_t{1} << (c - 1), size_t{1} << t);
}

// ---- cost model (field multiplications of F) ---------------------------------------------------

template <class F>
struct Costs;
template <>
struct Costs<Fp> {
  static constexpr double kInverse = 500;  // Fermat: 381 squarings + ~190 products
  static constexpr double kMiss = 2.5;     // a bucket access that misses the caches (~100 ns)
};
template <>
struct Costs<Fp2> {
  static constexpr double kInverse = 170;  // norm + one Fp inversion, in Fp2 products (≈ 3.5 Fp each)
  static constexpr double kMiss = 0.7;
};
// Costs in multiplications. Per point: an XYZZ mixed addition is 10 products, a batch-affine addition 6;
// kXyzzPoint and kAffinePoint also count what measurements on a 2-core EPYC showed besides them (digits,
// bucket state, subtractions, memory). Per bucket, the running sum costs one mixed and one full addition.
constexpr double kXyzzPoint = 12, kAffinePoint = 9, kXyzzMadd = 10, kXyzzAdd = 14;
// Bucket arrays above this size no longer stay in cache: every point pays kMiss. Windows whose bucket array
// would exceed kMaxBucketBytes are not planned (each running task holds one).
constexpr double kCachedBucketBytes = 8 << 20, kMaxBucketBytes = 32 << 20;

/// Windows with fewer buckets than this use XYZZ buckets even in a batch-affine plan.
constexpr size_t kMinAffineBuckets = 256;

/// Batch size of the batch-affine accumulation for nb buckets: minimizes inversion/K + collisions (a point
/// whose bucket is already in the batch costs an XYZZ add instead: ≈ 2K/nb extra per point). The vector
/// buckets run best at 0.6 of that (measured on a Zen 5 core, G1 2^20: the batch's per-group arrays then
/// stay in L2).
template <class F>
size_t batch_size(size_t nb, bool simd = false) {
  double k = (simd ? 0.6 : 1.0) * std::sqrt(Costs<F>::kInverse * (double)nb / 2);
  return (size_t)std::clamp(k, 16.0, 4096.0);
}

/// A full plan: window, bucket method, and the number of point ranges ("parts") each window is split
/// into so that windows × parts tasks keep the pool busy.
struct Plan {
  int c;
  MsmBuckets method;
  size_t parts;
  double cost;  // estimated makespan in field multiplications
};

/// Makespan of c-bit windows with `method` and `parts` parts on `threads` threads: the tasks
/// (windows × parts, equal sizes) run in ⌈tasks / threads⌉ rounds.
template <class F>
double plan_cost(size_t n, unsigned threads, int c, MsmBuckets method, size_t parts) {
  const size_t W = (size_t)num_windows(c);
  const double np = std::ceil((double)n / (double)parts) * (1.0 - std::ldexp(1.0, -c));
  const double nb = std::ldexp(1.0, c - 1);
  double per_task;
  if (method == MsmBuckets::kXyzz) {
    const double miss = nb * sizeof(XYZZ<F>) > kCachedBucketBytes ? Costs<F>::kMiss : 0;
    per_task = np * (kXyzzPoint + miss) + nb * 2 * kXyzzAdd;
  } else {
    const double k = std::min((double)batch_size<F>((size_t)nb), std::max(np, 1.0));
    const double miss = nb * sizeof(Affine<F>) > kCachedBucketBytes ? Costs<F>::kMiss : 0;
    per_task = np * (kAffinePoint + miss + 2 * k / nb) + std::ceil(np / k) * Costs<F>::kInverse +
               nb * (kXyzzMadd + kXyzzAdd);
  }
  const size_t tasks = W * parts;
  return (double)((tasks + threads - 1) / threads) * per_task;
}

/// The cheapest plan; c_fixed = 0 and method_fixed = kAuto leave those free.
template <class F>
Plan best_plan(size_t n, unsigned threads, int c_fixed, MsmBuckets method_fixed) {
  threads = std::max(1u, threads);
  Plan best{1, MsmBuckets::kXyzz, 1, std::numeric_limits<double>::infinity()};
  for (int c = 1; c <= kMaxWindow; c++) {
    if (c_fixed ? c != c_fixed : std::ldexp((double)sizeof(Affine<F>), c - 1) > kMaxBucketBytes) continue;
    const size_t W = (size_t)num_windows(c);
    // parts up to about eight tasks per thread, with at least 64 points per part
    const size_t max_parts = std::max<size_t>(1, std::min((8 * threads + W - 1) / W, n / 64));
    for (MsmBuckets m : {MsmBuckets::kXyzz, MsmBuckets::kBatchAffine}) {
      if (method_fixed != MsmBuckets::kAuto && m != method_fixed) continue;
      for (size_t parts = 1; parts <= max_parts; parts++) {
        const double cost = plan_cost<F>(n, threads, c, m, parts);
        if (cost < best.cost) best = {c, m, parts, cost};
      }
    }
  }
  return best;
}

/// A scratch array of the calling thread, kept between MSMs: a proof runs several MSMs of similar sizes
/// in a row, and reusing the memory saves clearing fresh pages for each (hundreds of MB per proof).
template <class T, int kSlot = 0>
BigVector<T>& scratch() {
  static thread_local BigVector<T> v;
  return v;
}

// ---- the points that go through buckets ------------------------------------------------------------

template <class F>
struct Tail {
  const Affine<F>* bases;
  const uint32_t* idx;  // compacted position → index into bases; nullptr when the identity
  const Canon* k;       // canonical scalars, compacted
  size_t n;
  const Affine<F>& base(size_t i) const { return bases[idx ? idx[i] : i]; }
};

// ---- XYZZ buckets ----------------------------------------------------------------------------------

template <class F>
XYZZ<F> window_xyzz(const Tail<F>& in, size_t b, size_t e, int w, int c) {
  const size_t nb = window_buckets(w, c);
  std::vector<XYZZ<F>> bk(nb, XYZZ<F>::infinity());
  for (size_t i = b; i < e; i++) {
    const int d = booth_digit(in.k[i].l, w, c);
    if (d == 0) continue;
    const Affine<F>& p = in.base(i);
    if (d > 0)
      bk[d - 1] = bk[d - 1].add_affine(p);
    else
      bk[-d - 1] = bk[-d - 1].add_affine(Affine<F>{p.x, -p.y});
  }
  // Σ j·B_j = Σ_j (B_nb + … + B_j), the running sum.
  XYZZ<F> sum = XYZZ<F>::infinity(), acc = XYZZ<F>::infinity();
  for (size_t j = nb; j-- > 0;) {
    sum += bk[j];
    acc += sum;
  }
  return acc;
}

// ---- batch-affine buckets --------------------------------------------------------------------------

using msm_detail::BucketAdd;

/// One window over one point range with affine buckets (stored by `Buckets`, batch_affine.hpp). A point
/// whose bucket is empty is copied in; a point whose bucket is free joins the current batch; a point whose
/// bucket is already in the batch waits in a queue for the next batch (or, when the queue is full, goes to
/// that bucket's XYZZ overflow), and a point whose x equals its bucket's (P = ±B) goes to the overflow.
/// A full batch is resolved by Buckets::flush with one inversion.
template <class F, class Buckets>
class BatchAffineWindow {
 public:
  BatchAffineWindow(const Tail<F>& in, int w, int c, Buckets& bk, size_t nb, size_t batch)
      : in_(in), w_(w), c_(c), nb_(nb), k_(batch), bk_(bk) {
    state_.assign(nb_, kEmpty);
    pend_.reserve(k_);
    queue_.reserve(max_queue());
  }

  XYZZ<F> run(size_t b, size_t e) {
    for (size_t i = b; i < e; i++) {
      const int d = booth_digit(in_.k[i].l, w_, c_);
      if (d == 0) continue;
      const uint32_t j = (uint32_t)(d > 0 ? d - 1 : -d - 1);
      if (admit({j, (uint32_t)i, (uint8_t)(d < 0), 0}) && pend_.size() >= k_) flush();
    }
    // Drain the queue; once it only fills small batches (points piling onto few buckets), let the
    // overflow take the rest rather than paying an inversion for a handful of additions.
    while (!pend_.empty()) {
      if (pend_.size() < k_ / 8) {
        for (const BucketAdd& q : queue_) overflow(q.bucket, q.point, q.neg);
        queue_.clear();
      }
      flush();
    }
    // bucket j = the affine bucket (state ≠ kEmpty) + its XYZZ overflow, if any
    std::vector<const XYZZ<F>*> extra(nb_, nullptr);
    if (!over_slot_.empty())
      for (size_t j = 0; j < nb_; j++)
        if (over_slot_[j]) extra[j] = &over_[over_slot_[j] - 1];
    return bk_.running_sum(state_, extra);
  }

 private:
  static constexpr uint32_t kEmpty = 0, kFree = std::numeric_limits<uint32_t>::max();

  void overflow(uint32_t j, uint32_t i, uint8_t neg) {
    if (over_slot_.empty()) over_slot_.assign(nb_, 0);
    uint32_t& slot = over_slot_[j];
    if (slot == 0) {
      over_.push_back(XYZZ<F>::infinity());
      slot = (uint32_t)over_.size();
    }
    const Affine<F>& p = in_.base(i);
    over_[slot - 1] = over_[slot - 1].add_affine(neg ? Affine<F>{p.x, -p.y} : p);
  }

  size_t max_queue() const { return k_ / 2; }

  /// Places one addition: into an empty bucket, the batch, the queue or the overflow. True when it
  /// joined the batch.
  bool admit(const BucketAdd& a) {
    uint32_t& st = state_[a.bucket];
    if (st == kEmpty) {
      bk_.set(a.bucket, a.point, a.neg);
      st = kFree;
    } else if (st == batch_) {
      if (queue_.size() < max_queue())
        queue_.push_back(a);
      else
        overflow(a.bucket, a.point, a.neg);
    } else {
      st = batch_;
      pend_.push_back(a);
      return true;
    }
    return false;
  }

  /// Resolves the batch, then starts the next one with the queued additions (at most k_/2 of them).
  void flush() {
    if (pend_.empty()) return;
    bk_.flush(pend_);
    for (const BucketAdd& a : pend_) {
      state_[a.bucket] = kFree;
      if (a.deferred) overflow(a.bucket, a.point, a.neg);
    }
    pend_.clear();
    if (++batch_ == kFree) batch_ = 1;  // never reached in practice (2^32 batches)
    retry_.swap(queue_);
    queue_.clear();
    for (const BucketAdd& a : retry_) admit(a);
    retry_.clear();
  }

  const Tail<F>& in_;
  const int w_, c_;
  const size_t nb_, k_;
  Buckets& bk_;
  std::vector<uint32_t> state_;      // kEmpty, kFree, or the batch number while in that batch
  std::vector<uint32_t> over_slot_;  // bucket → 1 + index into over_, 0 if none (allocated on first use)
  std::vector<XYZZ<F>> over_;        // XYZZ sums of the points that could not join a batch
  std::vector<BucketAdd> pend_, queue_, retry_;  // the batch; additions waiting for the next batch
  uint32_t batch_ = 1;
};

// ---- Pippenger over the tail -----------------------------------------------------------------------

template <class F>
XYZZ<F> pippenger(const Tail<F>& in, ThreadPool& pool, const MsmConfig& cfg) {
  if (in.n == 0) return XYZZ<F>::infinity();
  if (cfg.window_bits < 0 || cfg.window_bits > kMaxWindow)
    throw Error(ErrorCode::kInvalidArgument,
                "msm: window_bits must be in 1..20 (or 0), got " + std::to_string(cfg.window_bits));
  const Plan plan = best_plan<F>(in.n, pool.size(), cfg.window_bits, cfg.buckets);
  const int c = plan.c, W = num_windows(c);
  const MsmBuckets method = plan.method;
  const size_t parts = plan.parts;
  std::vector<XYZZ<F>> res((size_t)W * parts, XYZZ<F>::infinity());
  // On a CPU with AVX-512 IFMA: the tail points in Fp52 form for the vector buckets.
  const bool simd = method == MsmBuckets::kBatchAffine && cfg.simd && ifma::cpu_has_ifma();
  BigVector<msm_detail::Point52<F>>& pts52 = scratch<msm_detail::Point52<F>>();
  if (simd) {
    pts52.clear();  // no copy of the previous MSM's points when the array grows
    pts52.resize(in.n);
    pool.parallel_for(in.n, [&](size_t lo, size_t hi) {
      for (size_t i = lo; i < hi; i++) pts52[i] = msm_detail::to_point52(in.base(i));
    });
  }
  pool.parallel_for(
      res.size(),
      [&](size_t tb, size_t te) {
        for (size_t t = tb; t < te; t++) {
          const int w = (int)(t / parts);
          const size_t part = t % parts;
          const size_t b = in.n * part / parts, e = in.n * (part + 1) / parts;
          const size_t nb = window_buckets(w, c), k = std::min(batch_size<F>(nb, simd), nb);
          // A top window with few buckets would make batches of a few points, each paying an inversion.
          if (method == MsmBuckets::kXyzz || nb < kMinAffineBuckets) {
            res[t] = window_xyzz(in, b, e, w, c);
            continue;
          }
          if (simd) {
            msm_detail::IfmaBuckets<F> bk(pts52.data(), nb, k, scratch<msm_detail::Point52<F>, 1>());
            res[t] = BatchAffineWindow<F, decltype(bk)>(in, w, c, bk, nb, k).run(b, e);
            continue;
          }
          msm_detail::ScalarAffineBuckets<F, Tail<F>> bk(in, nb, k);
          res[t] = BatchAffineWindow<F, decltype(bk)>(in, w, c, bk, nb, k).run(b, e);
        }
      },
      1);
  // Σ_w 2^(wc)·S_w by Horner from the top window.
  XYZZ<F> acc = XYZZ<F>::infinity();
  for (int w = W - 1; w >= 0; w--) {
    for (int i = 0; i < c && !acc.is_inf(); i++) acc = acc.dbl();
    for (size_t p = 0; p < parts; p++) acc += res[(size_t)w * parts + p];
  }
  return acc;
}

}  // namespace

template <class F>
MsmConfig msm_plan(size_t n, unsigned threads) {
  const Plan p = best_plan<F>(n, threads, 0, MsmBuckets::kAuto);
  MsmConfig cfg;
  cfg.window_bits = p.c;
  cfg.buckets = p.method;
  return cfg;
}

template <class F>
Jacobian<F> msm(std::span<const Affine<F>> bases, std::span<const Fr> scalars, ThreadPool& pool,
                const MsmConfig& cfg) {
  const size_t n = bases.size();
  if (scalars.size() != n)
    throw Error(ErrorCode::kInvalidArgument,
                "msm: " + counted(n, "base") + " but " + counted(scalars.size(), "scalar"));
  if (n >= (size_t{1} << 32)) throw Error(ErrorCode::kInvalidArgument, "msm: more than 2^32 − 1 points");
  if (n == 0) return Jacobian<F>::infinity();

  // Pass 1 (per chunk): classify (0: skip, 1: summed here, 2: tail), count the tail.
  enum : uint8_t { kSkip, kOne, kTail };
  const size_t chunk = std::max<size_t>(4096, (n + 8 * pool.size() - 1) / (8 * pool.size()));
  const size_t nchunks = (n + chunk - 1) / chunk;
  std::vector<uint8_t> cls(n);
  std::vector<size_t> tail_count(nchunks + 1, 0);
  std::vector<XYZZ<F>> ones(nchunks, XYZZ<F>::infinity());
  const Fr one = Fr::one();
  pool.parallel_for(
      nchunks,
      [&](size_t cb, size_t ce) {
        for (size_t ci = cb; ci < ce; ci++) {
          size_t cnt = 0;
          XYZZ<F> sum = XYZZ<F>::infinity();
          for (size_t i = ci * chunk, e = std::min(n, i + chunk); i < e; i++) {
            const Fr& s = scalars[i];
            uint8_t k = kTail;
            if (s.is_zero() || bases[i].is_inf()) {
              k = kSkip;
            } else if (cfg.split01 && s == one) {
              k = kOne;
              sum = sum.add_affine(bases[i]);
            }
            cls[i] = k;
            cnt += k == kTail;
          }
          tail_count[ci + 1] = cnt;
          ones[ci] = sum;
        }
      },
      1);
  for (size_t ci = 0; ci < nchunks; ci++) tail_count[ci + 1] += tail_count[ci];
  const size_t m = tail_count[nchunks];

  // Pass 2: canonical scalars (and base indices unless nothing was dropped) of the tail.
  BigVector<Canon>& canon = scratch<Canon>();
  canon.clear();
  canon.resize(m);
  BigVector<uint32_t>& idx = scratch<uint32_t>();
  idx.clear();
  idx.resize(m == n ? 0 : m);
  pool.parallel_for(
      nchunks,
      [&](size_t cb, size_t ce) {
        for (size_t ci = cb; ci < ce; ci++) {
          size_t o = tail_count[ci];
          for (size_t i = ci * chunk, e = std::min(n, i + chunk); i < e; i++) {
            if (cls[i] != kTail) continue;
            scalars[i].to_canonical(canon[o].l);
            if (!idx.empty()) idx[o] = (uint32_t)i;
            o++;
          }
        }
      },
      1);
  cls = {};

  Tail<F> tail{bases.data(), idx.empty() ? nullptr : idx.data(), canon.data(), m};
  XYZZ<F> r = pippenger(tail, pool, cfg);
  for (const auto& s : ones) r += s;
  return r.to_jacobian();
}

template <class F>
Jacobian<F> msm_split01(std::span<const Affine<F>> bases, std::span<const Fr> scalars, ThreadPool& pool) {
  MsmConfig cfg;
  cfg.split01 = true;
  return msm<F>(bases, scalars, pool, cfg);
}

template Jacobian<Fp> msm<Fp>(std::span<const Affine<Fp>>, std::span<const Fr>, ThreadPool&,
                              const MsmConfig&);
template Jacobian<Fp2> msm<Fp2>(std::span<const Affine<Fp2>>, std::span<const Fr>, ThreadPool&,
                                const MsmConfig&);
template Jacobian<Fp> msm_split01<Fp>(std::span<const Affine<Fp>>, std::span<const Fr>, ThreadPool&);
template Jacobian<Fp2> msm_split01<Fp2>(std::span<const Affine<Fp2>>, std::span<const Fr>, ThreadPool&);
template MsmConfig msm_plan<Fp>(size_t, unsigned);
template MsmConfig msm_plan<Fp2>(size_t, unsigned);

}  // namespace cuzk
