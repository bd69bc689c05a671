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
  // canonical in, canonical out
  CUZK_IFMA_INLINE static V cmul(const V& a, const V& b) {
    return ifma::sub_if_ge(ifma::mul(a, b), ifma::kP);
  }
  CUZK_IFMA_INLINE static V csub(const V& a, const V& b) { return ifma::sub_if_ge(sub(a, b), ifma::kP); }
  CUZK_IFMA_INLINE static V cadd(const V& a, const V& b) {
    return ifma::sub_if_ge(ifma::add(a, b), ifma::kP);
  }
  CUZK_IFMA_INLINE static __mmask8 is_zero(const V& a) { return ifma::equal(a, FpX8{}); }
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
    const FpX8 t2 = ifma::mul(ifma::add(a.c0, a.c1), ifma::add(b.c0, b.c1));
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
  // canonical in, canonical out
  CUZK_IFMA_INLINE static V cmul(const V& a, const V& b) { return reduce(mul(a, b)); }
  CUZK_IFMA_INLINE static V csub(const V& a, const V& b) {
    return {Lanes<Fp>::csub(a.c0, b.c0), Lanes<Fp>::csub(a.c1, b.c1)};
  }
  CUZK_IFMA_INLINE static V cadd(const V& a, const V& b) {
    return {Lanes<Fp>::cadd(a.c0, b.c0), Lanes<Fp>::cadd(a.c1, b.c1)};
  }
  CUZK_IFMA_INLINE static __mmask8 is_zero(const V& a) {
    return Lanes<Fp>::is_zero(a.c0) & Lanes<Fp>::is_zero(a.c1);
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

namespace {

/// Eight XYZZ points, canonical coordinates; which lanes are ∞ is tracked by the caller.
template <class F>
struct Xyzz8 {
  typename Lanes<F>::V X, Y, ZZ, ZZZ;
};

template <class F>
CUZK_IFMA_INLINE Xyzz8<F> blend(__mmask8 m, const Xyzz8<F>& a, const Xyzz8<F>& b) {
  using L = Lanes<F>;
  return {L::blend(m, a.X, b.X), L::blend(m, a.Y, b.Y), L::blend(m, a.ZZ, b.ZZ), L::blend(m, a.ZZZ, b.ZZZ)};
}

/// P + Q for affine Q (madd-2008-s, as XYZZ::add_affine); `degenerate` gets the lanes where
/// x_P = x_Q, whose results are wrong (P = ±Q: the caller redoes them).
template <class F>
CUZK_IFMA_INLINE Xyzz8<F> add_affine(const Xyzz8<F>& p, const typename Lanes<F>::V& qx,
                                     const typename Lanes<F>::V& qy, __mmask8& degenerate) {
  using L = Lanes<F>;
  const auto P = L::csub(L::cmul(qx, p.ZZ), p.X), R = L::csub(L::cmul(qy, p.ZZZ), p.Y);
  degenerate = L::is_zero(P);
  const auto PP = L::cmul(P, P), PPP = L::cmul(P, PP), Q = L::cmul(p.X, PP);
  const auto X3 = L::csub(L::csub(L::cmul(R, R), PPP), L::cadd(Q, Q));
  const auto Y3 = L::csub(L::cmul(R, L::csub(Q, X3)), L::cmul(p.Y, PPP));
  return {X3, Y3, L::cmul(p.ZZ, PP), L::cmul(p.ZZZ, PPP)};
}

/// P + Q (add-2008-s, as XYZZ::operator+); `degenerate` as in add_affine.
template <class F>
CUZK_IFMA_INLINE Xyzz8<F> add_full(const Xyzz8<F>& p, const Xyzz8<F>& q, __mmask8& degenerate) {
  using L = Lanes<F>;
  const auto U1 = L::cmul(p.X, q.ZZ), U2 = L::cmul(q.X, p.ZZ);
  const auto S1 = L::cmul(p.Y, q.ZZZ), S2 = L::cmul(q.Y, p.ZZZ);
  const auto P = L::csub(U2, U1), R = L::csub(S2, S1);
  degenerate = L::is_zero(P);
  const auto PP = L::cmul(P, P), PPP = L::cmul(P, PP), Q = L::cmul(U1, PP);
  const auto X3 = L::csub(L::csub(L::cmul(R, R), PPP), L::cadd(Q, Q));
  const auto Y3 = L::csub(L::cmul(R, L::csub(Q, X3)), L::cmul(S1, PPP));
  return {X3, Y3, L::cmul(L::cmul(p.ZZ, q.ZZ), PP), L::cmul(L::cmul(p.ZZZ, q.ZZZ), PPP)};
}

/// Lane l of v as a scalar point (∞ when the bit l of `inf` is set), and back.
template <class F>
CUZK_IFMA XYZZ<F> lane(const Xyzz8<F>& v, int l, __mmask8 inf) {
  if (inf >> l & 1) return XYZZ<F>::infinity();
  using L = Lanes<F>;
  alignas(64) std::array<Elem52<F>, 8> rows;
  Elem52<F>* dst[8];
  for (int i = 0; i < 8; i++) dst[i] = &rows[i];
  F c[4];
  const typename L::V* vs[4] = {&v.X, &v.Y, &v.ZZ, &v.ZZZ};
  for (int k = 0; k < 4; k++) {
    L::scatter(*vs[k], dst, 0xff);
    c[k] = L::from52(rows[l]);
  }
  return {c[0], c[1], c[2], c[3]};
}
template <class F>
CUZK_IFMA void set_lane(Xyzz8<F>& v, int l, const XYZZ<F>& p) {
  using L = Lanes<F>;
  alignas(64) std::array<Elem52<F>, 8> rows;
  Elem52<F>* dst[8];
  for (int i = 0; i < 8; i++) dst[i] = &rows[i];
  typename L::V* vs[4] = {&v.X, &v.Y, &v.ZZ, &v.ZZZ};
  const F* c[4] = {&p.X, &p.Y, &p.ZZ, &p.ZZZ};
  for (int k = 0; k < 4; k++) {
    L::scatter(*vs[k], dst, 0xff);
    rows[l] = L::to52(*c[k]);
    *vs[k] = L::gather(dst);
  }
}

/// acc ← acc + q in the lanes of `act`, where ∞ lanes are tracked in acc_inf / q_inf: fresh lanes copy
/// q, degenerate ones are redone in scalar code.
template <class F>
CUZK_IFMA void accumulate(Xyzz8<F>& acc, __mmask8& acc_inf, const Xyzz8<F>& q, __mmask8 act) {
  __mmask8 degenerate;
  const Xyzz8<F> r = add_full(acc, q, degenerate);
  const __mmask8 fresh = act & acc_inf, regular = act & ~acc_inf & ~degenerate,
                 slow = act & ~acc_inf & degenerate;
  acc = blend(regular, acc, r);
  acc = blend(fresh, acc, q);
  acc_inf &= ~fresh;
  for (int l = 0; l < 8; l++)
    if (slow >> l & 1) {
      const XYZZ<F> s = lane(acc, l, 0) + lane(q, l, 0);
      if (s.is_inf())
        acc_inf |= 1 << l;
      else
        set_lane(acc, l, s);
    }
}

template <class F>
CUZK_IFMA XYZZ<F> running_sum_lanes(const Point52<F>* bk, size_t nb, const std::vector<uint32_t>& present,
                                    const std::vector<const XYZZ<F>*>& extra) {
  using L = Lanes<F>;
  const size_t len = nb / 8;  // segment s = buckets [s·len, (s+1)·len), in lane s
  const auto one = L::broadcast(one52<F>());
  Xyzz8<F> sum{one, one, one, one}, acc = sum;
  __mmask8 sum_inf = 0xff, acc_inf = 0xff;
  alignas(64) std::array<Elem52<F>, 8> ox, oy, ozz, ozzz;
  const Elem52<F>*qx[8], *qy[8], *px[8], *py[8], *pzz[8], *pzzz[8];
  for (int l = 0; l < 8; l++) {
    px[l] = &ox[l];
    py[l] = &oy[l];
    pzz[l] = &ozz[l];
    pzzz[l] = &ozzz[l];
  }
  for (size_t step = len; step-- > 0;) {
    __mmask8 has = 0, hasx = 0;
    for (int l = 0; l < 8; l++) {
      const size_t j = l * len + step;
      if (present[j]) has |= 1 << l;
      qx[l] = &bk[j].x;
      qy[l] = &bk[j].y;
      if (extra[j] && !extra[j]->is_inf()) {
        hasx |= 1 << l;
        ox[l] = L::to52(extra[j]->X);
        oy[l] = L::to52(extra[j]->Y);
        ozz[l] = L::to52(extra[j]->ZZ);
        ozzz[l] = L::to52(extra[j]->ZZZ);
      }
    }
    if (has) {  // sum += affine bucket
      const auto x = L::gather(qx), y = L::gather(qy);
      __mmask8 degenerate;
      const Xyzz8<F> r = add_affine(sum, x, y, degenerate);
      const __mmask8 fresh = has & sum_inf, regular = has & ~sum_inf & ~degenerate;
      const __mmask8 slow = has & ~sum_inf & degenerate;
      sum = blend(regular, sum, r);
      sum = blend(fresh, sum, Xyzz8<F>{x, y, one, one});
      sum_inf &= ~fresh;
      for (int l = 0; l < 8; l++)
        if (slow >> l & 1) {
          const XYZZ<F> t = lane(sum, l, 0).add_affine({L::from52(*qx[l]), L::from52(*qy[l])});
          if (t.is_inf())
            sum_inf |= 1 << l;
          else
            set_lane(sum, l, t);
        }
    }
    if (hasx)
      accumulate(sum, sum_inf, Xyzz8<F>{L::gather(px), L::gather(py), L::gather(pzz), L::gather(pzzz)}, hasx);
    accumulate(acc, acc_inf, sum, (__mmask8)~sum_inf);
  }
  // Σ_s A_s + len·Σ_s s·S_s
  XYZZ<F> total = XYZZ<F>::infinity(), t = XYZZ<F>::infinity(), u = XYZZ<F>::infinity();
  for (int l = 8; l-- > 0;) {
    total += lane(acc, l, acc_inf);
    if (l == 0) break;
    t += lane(sum, l, sum_inf);
    u += t;
  }
  for (size_t m = len; m > 1; m >>= 1) u = u.dbl();
  return total + u;
}

}  // namespace

template <class F>
IfmaBuckets<F>::IfmaBuckets(const Point52<F>* pts, size_t nb, size_t batch, BigVector<Point52<F>>& storage)
    : pts_(pts), bk_(storage) {
  bk_.resize(nb);
  prefix_.resize((batch + 7) / 8 * 8);
  den_.resize(prefix_.size());
}

namespace {
/// −y in 52-bit limbs, canonical (y canonical).
ifma::Fp52 neg52(const ifma::Fp52& y) {
  uint64_t any = 0;
  for (uint64_t v : y.l) any |= v;
  if (any == 0) return y;
  ifma::Fp52 r;
  int64_t borrow = 0;
  for (int l = 0; l < 8; l++) {
    const int64_t d = (int64_t)ifma::kP.l[l] - (int64_t)y.l[l] + borrow;
    r.l[l] = (uint64_t)d & ifma::kMask52;
    borrow = d >> 52;
  }
  return r;
}
ifma::Fp52 neg52(const ifma::Fp52& y, Fp) { return neg52(y); }
Fp2_52 neg52(const Fp2_52& y, Fp2) { return {neg52(y.c0), neg52(y.c1)}; }
}  // namespace

template <class F>
void IfmaBuckets<F>::set(uint32_t j, uint32_t i, bool neg) {
  bk_[j] = pts_[i];
  if (neg) bk_[j].y = neg52(pts_[i].y, F{});
}

template <class F>
XYZZ<F> IfmaBuckets<F>::running_sum(const std::vector<uint32_t>& present,
                                    const std::vector<const XYZZ<F>*>& extra) const {
  return running_sum_lanes<F>(bk_.data(), bk_.size(), present, extra);
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
