// The batched affine bucket additions of the CPU Pippenger (pippenger.cpp): one batch is a list of
// (bucket, point) additions whose buckets are pairwise distinct, resolved with a single field inversion
// by Montgomery's simultaneous-inversion trick ("Speeding the Pollard and elliptic curve methods of
// factorization", Math. Comp. 1987). Two bucket stores implement it: ScalarAffineBuckets (any F) and,
// on CPUs with AVX-512 IFMA, IfmaBuckets (G1 and G2, eight additions per vector instruction stream).
#pragma once

#include <cstdint>
#include <type_traits>
#include <vector>

#include "ec/curves.hpp"
#include "ff/fp52x8.hpp"
#include "util/huge_alloc.hpp"

namespace cuzk::msm_detail {

/// One addition of a batch: bucket ← bucket + (neg ? −P : P) for the tail point `point`. The store
/// sets `deferred` when x_P = x_B (P = ±B, which the affine formula cannot add); the caller adds those
/// points by another route.
struct BucketAdd {
  uint32_t bucket, point;
  uint8_t neg, deferred;
};

/// Affine buckets of F-coordinates; the tail points are read through `base(i)`.
///
/// flush: pass 1 multiplies up the denominators x_P − x_B, one inversion inverts the product, pass 2
/// walks back, recovering each 1/(x_P − x_B) and updating the bucket: λ = (y_P − y_B)/(x_P − x_B),
/// x3 = λ² − x_B − x_P, y3 = λ(x_B − x3) − y_B (about 6 multiplications per addition).
template <class F, class Points>
class ScalarAffineBuckets {
 public:
  ScalarAffineBuckets(const Points& pts, size_t nb, size_t batch) : pts_(pts), bk_(nb), prefix_(batch) {}

  void set(uint32_t j, uint32_t i, bool neg) { bk_[j] = point(i, neg); }

  /// Σ_j (j + 1)·B_j, where B_j is bucket j when present[j] ≠ 0 (else ∞) plus *extra[j] when not null:
  /// the running sum S_j = B_(nb−1) + … + B_j, accumulated.
  XYZZ<F> running_sum(const std::vector<uint32_t>& present, const std::vector<const XYZZ<F>*>& extra) const {
    XYZZ<F> sum = XYZZ<F>::infinity(), acc = XYZZ<F>::infinity();
    for (size_t j = bk_.size(); j-- > 0;) {
      if (present[j]) sum = sum.add_affine(bk_[j]);
      if (extra[j]) sum += *extra[j];
      acc += sum;
    }
    return acc;
  }

  void flush(std::vector<BucketAdd>& batch) {
    const size_t k = batch.size();
    if (k > prefix_.size()) prefix_.resize(k);
    F acc = F::one();
    for (size_t t = 0; t < k; t++) {
      if (t + kAhead < k) prefetch(batch[t + kAhead].bucket);
      BucketAdd& a = batch[t];
      prefix_[t] = acc;
      const F den = pts_.base(a.point).x - bk_[a.bucket].x;
      if (den.is_zero())
        a.deferred = 1;
      else
        acc = acc * den;
    }
    F inv = acc.inverse();
    for (size_t t = k; t-- > 0;) {
      if (t >= kAhead) prefetch(batch[t - kAhead].bucket);
      const BucketAdd& a = batch[t];
      if (a.deferred) continue;
      const Affine<F>& p = pts_.base(a.point);
      Affine<F>& b = bk_[a.bucket];
      const F den = p.x - b.x;
      const F it = inv * prefix_[t];
      inv = inv * den;
      const F lambda = ((a.neg ? -p.y : p.y) - b.y) * it;
      const F x3 = lambda.sqr() - b.x - p.x;
      b.y = lambda * (b.x - x3) - b.y;
      b.x = x3;
    }
  }

 private:
  // Buckets are touched in random order: fetch the cache lines of the ones a few entries ahead.
  static constexpr size_t kAhead = 4;
  void prefetch(uint32_t j) const {
    const char* p = reinterpret_cast<const char*>(&bk_[j]);
    __builtin_prefetch(p);
    __builtin_prefetch(p + 64);
    if constexpr (sizeof(Affine<F>) > 128) __builtin_prefetch(p + 128);
  }
  Affine<F> point(uint32_t i, bool neg) const {
    const Affine<F>& p = pts_.base(i);
    return neg ? Affine<F>{p.x, -p.y} : p;
  }

  const Points& pts_;
  std::vector<Affine<F>> bk_;
  std::vector<F> prefix_;
};

/// An Fp2 element c0 + c1·u in Fp52 form (128 bytes).
struct Fp2_52 {
  ifma::Fp52 c0, c1;
};

/// The Fp52 form of F's elements: Fp52 for Fp (G1), Fp2_52 for Fp2 (G2).
template <class F>
using Elem52 = std::conditional_t<std::is_same_v<F, Fp>, ifma::Fp52, Fp2_52>;

/// An affine point with Fp52-form coordinates (128 bytes on G1, 256 on G2).
template <class F>
struct Point52 {
  Elem52<F> x, y;
};

/// A (finite) point in Fp52 form; MSMs convert their points once (one multiplication per Fp
/// coordinate).
Point52<Fp> to_point52(const Affine<Fp>& p);
Point52<Fp2> to_point52(const Affine<Fp2>& p);

/// Affine buckets in Fp52 form, updated eight at a time with AVX-512 IFMA; same algorithm and results
/// as ScalarAffineBuckets<F>. F is Fp (G1) or Fp2 (G2). Only for CPUs where ifma::cpu_has_ifma().
template <class F>
class IfmaBuckets {
 public:
  /// `storage` holds the nb buckets (resized here; its contents need no initialization): callers keep
  /// it between windows so that its pages are cleared once.
  IfmaBuckets(const Point52<F>* pts, size_t nb, size_t batch, BigVector<Point52<F>>& storage);

  void set(uint32_t j, uint32_t i, bool neg);
  void flush(std::vector<BucketAdd>& batch);
  /// As ScalarAffineBuckets::running_sum, with 8 segments of the buckets summed in the 8 lanes (XYZZ
  /// coordinates; a lane that meets P = ±Q takes that step in scalar code), then combined:
  /// Σ_s (A_s + s·L·S_s) for segment s of length L with running-sum total A_s and plain sum S_s.
  XYZZ<F> running_sum(const std::vector<uint32_t>& present, const std::vector<const XYZZ<F>*>& extra) const;

 private:
  const Point52<F>* pts_;
  BigVector<Point52<F>>& bk_;
  std::vector<Elem52<F>> prefix_, den_;  // per group of 8 additions, 8 lane rows each
};

extern template class IfmaBuckets<Fp>;
extern template class IfmaBuckets<Fp2>;

}  // namespace cuzk::msm_detail
