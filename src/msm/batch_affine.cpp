#include "msm/batch_affine.hpp"

#include <array>

namespace cuzk::msm_detail {

using ifma::Fp52;
using ifma::FpX8;

namespace {

// Buckets and points are read in random order: fetch the cache lines of the additions this far ahead.
constexpr size_t kAhead = 32;

CUZK_IFMA_INLINE FpX8 blend(__mmask8 m, const FpX8& a, const FpX8& b) {
  FpX8 r;
  for (int i = 0; i < 8; i++) r.l[i] = _mm512_mask_blend_epi64(m, a.l[i], b.l[i]);
  return r;
}
CUZK_IFMA_INLINE FpX8 add(const FpX8& a, const FpX8& b) {
  FpX8 r;
  for (int i = 0; i < 8; i++) r.l[i] = _mm512_add_epi64(a.l[i], b.l[i]);
  return ifma::normalize(r);
}

/// The lane arithmetic the buckets need, for F = Fp and F = Fp2. Value ranges (multiples of p) are
/// tracked in the comments; every subtrahend of sub() is canonical (< p) unless a bound is given.
template <class F>
struct Lanes;

template <>
struct Lanes<Fp> {
  using E = Fp52;
  using V = FpX8;
  static E to52(const Fp& a) { return ifma::to_fp52(a); }
  static Fp from52(const E& a) { return ifma::from_fp52(a); }
  CUZK_IFMA_INLINE static V gather(const E* const* p) { return ifma::gather(p); }
  CUZK_IFMA_INLINE static void scatter(const V& v, E* const* p, unsigned lanes) {
    ifma::scatter(v, p, lanes);
  }
  CUZK_IFMA_INLINE static V broadcast(const E& c) { return ifma::broadcast(c); }
  /// a + p − b for canonical b.
  CUZK_IFMA_INLINE static V sub(const V& a, const V& b) { return ifma::sub(a, b, ifma::kP); }
  /// Below 2p.
  CUZK_IFMA_INLINE static V mul(const V& a, const V& b) { return ifma::mul(a, b); }
  /// Canonical value of a result of the bucket formulas (below 4p for Fp).
  CUZK_IFMA_INLINE static V reduce(const V& v) { return ifma::reduce4(v); }
  CUZK_IFMA_INLINE static __mmask8 equal(const V& a, const V& b) { return ifma::equal(a, b); }
  CUZK_IFMA_INLINE static V blend(__mmask8 m, const V& a, const V& b) { return msm_detail::blend(m, a, b); }
};

struct Fp2X8 {
  FpX8 c0, c1;
};

template <>
struct Lanes<Fp2> {
  using E = Fp2_52;
  using V = Fp2X8;
  static E to52(const Fp2& a) { return {ifma::to_fp52(a.c0), ifma::to_fp52(a.c1)}; }
  static Fp2 from52(const E& a) { return {ifma::from_fp52(a.c0), ifma::from_fp52(a.c1)}; }
  CUZK_IFMA_INLINE static V gather(const E* const* p) {
    const Fp52 *c0[8], *c1[8];
    for (int i = 0; i < 8; i++) {
      c0[i] = &p[i]->c0;
      c1[i] = &p[i]->c1;
    }
    return {ifma::gather(c0), ifma::gather(c1)};
  }
  CUZK_IFMA_INLINE static void scatter(const V& v, E* const* p, unsigned lanes) {
    Fp52 *c0[8], *c1[8];
    for (int i = 0; i < 8; i++) {
      c0[i] = &p[i]->c0;
      c1[i] = &p[i]->c1;
    }
    ifma::scatter(v.c0, c0, lanes);
    ifma::scatter(v.c1, c1, lanes);
  }
  CUZK_IFMA_INLINE static V broadcast(const E& c) { return {ifma::broadcast(c.c0), ifma::broadcast(c.c1)}; }
  CUZK_IFMA_INLINE static V sub(const V& a, const V& b) {
    return {ifma::sub(a.c0, b.c0, ifma::kP), ifma::sub(a.c1, b.c1, ifma::kP)};
  }
  /// Karatsuba with u² = −1: c0 = a0b0 − a1b1 (below 4p), c1 = (a0 + a1)(b0 + b1) − a0b0 − a1b1 (below
  /// 6p); inputs may be lazily reduced (each sum stays below 2^390).
  CUZK_IFMA_INLINE static V mul(const V& a, const V& b) {
    const FpX8 t0 = ifma::mul(a.c0, b.c0), t1 = ifma::mul(a.c1, b.c1);
    const FpX8 t2 = ifma::mul(add(a.c0, a.c1), add(b.c0, b.c1));
    return {ifma::sub(t0, t1, ifma::k2P), ifma::sub(ifma::sub(t2, t0, ifma::k2P), t1, ifma::k2P)};
  }
  /// Canonical value of a result of the bucket formulas (below 8p for Fp2).
  CUZK_IFMA_INLINE static V reduce(const V& v) {
    return {ifma::reduce4(ifma::sub_if_ge(v.c0, ifma::k4P)), ifma::reduce4(ifma::sub_if_ge(v.c1, ifma::k4P))};
  }
  CUZK_IFMA_INLINE static __mmask8 equal(const V& a, const V& b) {
    return ifma::equal(a.c0, b.c0) & ifma::equal(a.c1, b.c1);
  }
  CUZK_IFMA_INLINE static V blend(__mmask8 m, const V& a, const V& b) {
    return {msm_detail::blend(m, a.c0, b.c0), msm_detail::blend(m, a.c1, b.c1)};
  }
};

/// The inverses of the 8 lanes (all non-zero): Montgomery's trick on scalar F, one inversion.
template <class F>
CUZK_IFMA typename Lanes<F>::V invert_lanes(const typename Lanes<F>::V& v) {
  using L = Lanes<F>;
  using E = typename L::E;
  alignas(64) std::array<E, 8> rows;
  E* dst[8];
  for (int i = 0; i < 8; i++) dst[i] = &rows[i];
  L::scatter(v, dst, 0xff);
  F x[8], pre[8], acc = F::one();
  for (int i = 0; i < 8; i++) {
    x[i] = L::from52(rows[i]);
    pre[i] = acc;
    acc = acc * x[i];
  }
  F inv = acc.inverse();
  for (int i = 8; i-- > 0;) {
    rows[i] = L::to52(inv * pre[i]);
    inv = inv * x[i];
  }
  return L::gather(dst);
}

template <class F>
const typename Lanes<F>::E& one52() {
  static const typename Lanes<F>::E v = Lanes<F>::to52(F::one());
  return v;
}

}  // namespace

Point52<Fp> to_point52(const Affine<Fp>& p) { return {Lanes<Fp>::to52(p.x), Lanes<Fp>::to52(p.y)}; }
Point52<Fp2> to_point52(const Affine<Fp2>& p) { return {Lanes<Fp2>::to52(p.x), Lanes<Fp2>::to52(p.y)}; }

template <class F>
IfmaBuckets<F>::IfmaBuckets(const Point52<F>* pts, size_t nb, size_t batch) : pts_(pts), bk_(nb) {
  prefix_.resize((batch + 7) / 8 * 8);
  den_.resize(prefix_.size());
}

template <class F>
void IfmaBuckets<F>::set(uint32_t j, uint32_t i, bool neg) {
  bk_[j] = pts_[i];
  if (neg) bk_[j].y = Lanes<F>::to52(-Lanes<F>::from52(pts_[i].y));
}

template <class F>
Affine<F> IfmaBuckets<F>::get(uint32_t j) const {
  return {Lanes<F>::from52(bk_[j].x), Lanes<F>::from52(bk_[j].y)};
}

namespace {

template <class F>
CUZK_IFMA_INLINE void store_rows(Elem52<F>* dst, const typename Lanes<F>::V& v) {
  Elem52<F>* p[8];
  for (int i = 0; i < 8; i++) p[i] = dst + i;
  Lanes<F>::scatter(v, p, 0xff);
}
template <class F>
CUZK_IFMA_INLINE typename Lanes<F>::V load_rows(const Elem52<F>* src) {
  const Elem52<F>* p[8];
  for (int i = 0; i < 8; i++) p[i] = src + i;
  return Lanes<F>::gather(p);
}

/// The batch as lanes: addition 8g + l is lane l of group g; the last group is padded with lanes that
/// read batch[0]'s bucket and point, multiply their denominator by 1 and store nothing.
///   pass 1: den = x_P − x_B (x_P = x_B: deferred, den := 1), prefix products per lane;
///   one inversion of the 8 lane products (scalar);
///   pass 2, backwards: 1/den from the running inverse and the prefix, λ = (y_P − y_B)/den,
///   x3 = λ² − x_B − x_P, y3 = λ(x_B − x3) − y_B, stored canonical.
template <class F>
CUZK_IFMA void flush_lanes(std::vector<BucketAdd>& batch, const Point52<F>* pts, Point52<F>* bk,
                           Elem52<F>* prefix, Elem52<F>* dens) {
  using L = Lanes<F>;
  using V = typename L::V;
  using E = Elem52<F>;
  const size_t k = batch.size(), groups = (k + 7) / 8;
  const V one = L::broadcast(one52<F>());
  V acc = one;
  const E *xp[8], *xb[8];
  for (size_t g = 0; g < groups; g++) {
    for (int l = 0; l < 8; l++) {
      const size_t t = 8 * g + l;
      const BucketAdd& a = batch[t < k ? t : 0];
      xp[l] = &pts[a.point].x;
      xb[l] = &bk[a.bucket].x;
      if (t + kAhead < k) {
        __builtin_prefetch(&bk[batch[t + kAhead].bucket].x);
        __builtin_prefetch(&pts[batch[t + kAhead].point].x);
      }
    }
    const V XP = L::gather(xp), XB = L::gather(xb);
    V den = L::sub(XP, XB);  // below 2p (each coefficient)
    // x_P = x_B (bucket and point canonical, so equal limbs ⇔ equal values) and padding: skipped
    const unsigned pad = g + 1 == groups && k % 8 ? 0xffu << (k % 8) & 0xffu : 0;
    const __mmask8 skip = L::equal(XP, XB) | (__mmask8)pad;
    if (skip) {
      for (int l = 0; l < 8; l++)
        if ((skip >> l & 1) && 8 * g + l < k) batch[8 * g + l].deferred = 1;
      den = L::blend(skip, den, one);
    }
    store_rows<F>(prefix + 8 * g, acc);
    store_rows<F>(dens + 8 * g, den);
    acc = L::mul(acc, den);
  }
  V inv = invert_lanes<F>(acc);
  const E *yp[8], *yb[8];
  E *dx[8], *dy[8];
  const V zero = L::broadcast(E{});
  for (size_t g = groups; g-- > 0;) {
    const V it = L::mul(inv, load_rows<F>(prefix + 8 * g));
    inv = L::mul(inv, load_rows<F>(dens + 8 * g));
    unsigned store = 0, neg = 0;
    for (int l = 0; l < 8; l++) {
      const size_t t = 8 * g + l;
      const BucketAdd& a = batch[t < k ? t : 0];
      const Point52<F>& p = pts[a.point];
      Point52<F>& b = bk[a.bucket];
      xp[l] = &p.x;
      yp[l] = &p.y;
      xb[l] = dx[l] = &b.x;
      yb[l] = dy[l] = &b.y;
      store |= (unsigned)(t < k && !a.deferred) << l;
      neg |= (unsigned)a.neg << l;
      if (t >= kAhead) {
        const BucketAdd& n = batch[t - kAhead];
        __builtin_prefetch(&bk[n.bucket].x);
        __builtin_prefetch(&bk[n.bucket].y);
        __builtin_prefetch(&pts[n.point].x);
        __builtin_prefetch(&pts[n.point].y);
      }
    }
    const V XP = L::gather(xp), XB = L::gather(xb), YB = L::gather(yb);
    V YP = L::gather(yp);
    if (neg) YP = L::blend((__mmask8)neg, YP, L::sub(zero, YP));  // p − y ≤ p
    const V lambda = L::mul(L::sub(YP, YB), it);
    const V x3 = L::reduce(L::sub(L::sub(L::mul(lambda, lambda), XB), XP));
    const V y3 = L::reduce(L::sub(L::mul(lambda, L::sub(XB, x3)), YB));
    L::scatter(x3, dx, store);
    L::scatter(y3, dy, store);
  }
}

}  // namespace

template <class F>
void IfmaBuckets<F>::flush(std::vector<BucketAdd>& batch) {
  const size_t groups = (batch.size() + 7) / 8;
  if (groups * 8 > prefix_.size()) {
    prefix_.resize(groups * 8);
    den_.resize(groups * 8);
  }
  flush_lanes<F>(batch, pts_, bk_.data(), prefix_.data(), den_.data());
}

template class IfmaBuckets<Fp>;
template class IfmaBuckets<Fp2>;

}  // namespace cuzk::msm_detail
