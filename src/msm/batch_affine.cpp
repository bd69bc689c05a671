#include "msm/batch_affine.hpp"

#include <array>

namespace cuzk::msm_detail {

using ifma::Fp52;
using ifma::FpX8;

namespace {

// Buckets and points are read in random order: fetch the cache lines of the additions this far ahead.
constexpr size_t kAhead = 32;

const Fp52& one52() {
  static const Fp52 v = ifma::to_fp52(Fp::one());
  return v;
}

/// The inverses of the 8 lanes (all non-zero): Montgomery's trick on scalar Fp, one inversion.
CUZK_IFMA FpX8 invert_lanes(const FpX8& v) {
  alignas(64) std::array<Fp52, 8> rows;
  FpX8 t = v;
  ifma::transpose8(t.l);
  for (int i = 0; i < 8; i++) _mm512_store_si512(rows[i].l, t.l[i]);
  Fp x[8], pre[8], acc = Fp::one();
  for (int i = 0; i < 8; i++) {
    x[i] = ifma::from_fp52(rows[i]);
    pre[i] = acc;
    acc = acc * x[i];
  }
  Fp inv = acc.inverse();
  for (int i = 8; i-- > 0;) {
    rows[i] = ifma::to_fp52(inv * pre[i]);
    inv = inv * x[i];
  }
  const Fp52* src[8];
  for (int i = 0; i < 8; i++) src[i] = &rows[i];
  return ifma::gather(src);
}

CUZK_IFMA_INLINE void store_rows(Fp52* dst, const FpX8& v) {
  for (int i = 0; i < 8; i++) _mm512_store_si512(dst[i].l, v.l[i]);
}
CUZK_IFMA_INLINE FpX8 load_rows(const Fp52* src) {
  FpX8 v;
  for (int i = 0; i < 8; i++) v.l[i] = _mm512_load_si512(src[i].l);
  return v;
}

}  // namespace

Ifma52Buckets::Ifma52Buckets(const Point52* pts, size_t nb, size_t batch) : pts_(pts), bk_(nb) {
  prefix_.resize((batch + 7) / 8 * 8);
  den_.resize(prefix_.size());
}

void Ifma52Buckets::set(uint32_t j, uint32_t i, bool neg) {
  bk_[j] = pts_[i];
  if (neg) {  // p − y, y ≠ 0 (no point of G1's curve has y = 0)
    int64_t borrow = 0;
    for (int l = 0; l < 8; l++) {
      const int64_t d = (int64_t)ifma::kP.l[l] - (int64_t)pts_[i].y.l[l] + borrow;
      bk_[j].y.l[l] = (uint64_t)d & ifma::kMask52;
      borrow = d >> 52;
    }
  }
}

Affine<Fp> Ifma52Buckets::get(uint32_t j) const {
  return {ifma::from_fp52(bk_[j].x), ifma::from_fp52(bk_[j].y)};
}

// Lane l of group g is addition 8g + l; the last group is padded with lanes that read bucket 0 /
// point 0 (any valid data), multiply their denominator by 1 and store nothing.
CUZK_IFMA void Ifma52Buckets::flush(std::vector<BucketAdd>& batch) {
  const size_t k = batch.size(), groups = (k + 7) / 8;
  if (groups * 8 > prefix_.size()) {
    prefix_.resize(groups * 8);
    den_.resize(groups * 8);
  }
  const FpX8 one = ifma::broadcast(one52());
  const FpX8 zero{};
  FpX8 acc = one;
  const Fp52 *xp[8], *xb[8];
  for (size_t g = 0; g < groups; g++) {
    for (int l = 0; l < 8; l++) {
      const size_t t = 8 * g + l;
      const BucketAdd& a = batch[t < k ? t : 0];
      xp[l] = &pts_[a.point].x;
      xb[l] = &bk_[a.bucket].x;
      if (t + kAhead < k) {
        __builtin_prefetch(&bk_[batch[t + kAhead].bucket].x);
        __builtin_prefetch(&pts_[batch[t + kAhead].point].x);
      }
    }
    const FpX8 XP = ifma::gather(xp), XB = ifma::gather(xb);
    FpX8 den = ifma::sub(XP, XB, ifma::kP);  // x_P + p − x_B ∈ (0, 2p)
    // x_P = x_B: deferred (bucket and point canonical, so equal limbs ⇔ equal values); padding too
    const unsigned pad = g + 1 == groups && k % 8 ? 0xffu << (k % 8) & 0xffu : 0;
    const __mmask8 skip = ifma::equal(XP, XB) | (__mmask8)pad;
    if (skip) {
      for (int l = 0; l < 8; l++)
        if ((skip >> l & 1) && 8 * g + l < k) batch[8 * g + l].deferred = 1;
      for (int i = 0; i < 8; i++) den.l[i] = _mm512_mask_blend_epi64(skip, den.l[i], one.l[i]);
    }
    store_rows(&prefix_[8 * g], acc);
    store_rows(&den_[8 * g], den);
    acc = ifma::mul(acc, den);
  }
  FpX8 inv = invert_lanes(acc);
  const Fp52 *yp[8], *yb[8];
  Fp52 *dx[8], *dy[8];
  for (size_t g = groups; g-- > 0;) {
    const FpX8 it = ifma::mul(inv, load_rows(&prefix_[8 * g]));
    inv = ifma::mul(inv, load_rows(&den_[8 * g]));
    unsigned store = 0, neg = 0;
    for (int l = 0; l < 8; l++) {
      const size_t t = 8 * g + l;
      const BucketAdd& a = batch[t < k ? t : 0];
      const Point52& p = pts_[a.point];
      Point52& b = bk_[a.bucket];
      xp[l] = &p.x;
      yp[l] = &p.y;
      xb[l] = &b.x;
      yb[l] = &b.y;
      dx[l] = &b.x;
      dy[l] = &b.y;
      store |= (unsigned)(t < k && !a.deferred) << l;
      neg |= (unsigned)a.neg << l;
      if (t >= kAhead) {
        const Point52& nb = bk_[batch[t - kAhead].bucket];
        const Point52& np = pts_[batch[t - kAhead].point];
        __builtin_prefetch(&nb.x);
        __builtin_prefetch(&nb.y);
        __builtin_prefetch(&np.x);
        __builtin_prefetch(&np.y);
      }
    }
    const FpX8 XP = ifma::gather(xp), XB = ifma::gather(xb), YB = ifma::gather(yb);
    FpX8 YP = ifma::gather(yp);
    if (neg) {
      const FpX8 minus = ifma::sub(zero, YP, ifma::kP);  // p − y ∈ (0, p]
      for (int i = 0; i < 8; i++) YP.l[i] = _mm512_mask_blend_epi64((__mmask8)neg, YP.l[i], minus.l[i]);
    }
    const FpX8 lambda = ifma::mul(ifma::sub(YP, YB, ifma::kP), it);  // (y_P − y_B)/(x_P − x_B)
    const FpX8 x3 =
        ifma::reduce4(ifma::sub(ifma::sub(ifma::mul(lambda, lambda), XB, ifma::kP), XP, ifma::kP));
    const FpX8 y3 = ifma::reduce4(ifma::sub(ifma::mul(lambda, ifma::sub(XB, x3, ifma::kP)), YB, ifma::kP));
    ifma::scatter(x3, dx, store);
    ifma::scatter(y3, dy, store);
  }
}

}  // namespace cuzk::msm_detail
