// sppark_anchor's inputs and checks with blst (check.hpp).
#include "check.hpp"

#include <blst.h>

#include <algorithm>
#include <cstring>
#include <thread>
#include <vector>

namespace anchor {
namespace {

/// splitmix64: the fixed-seed generator of the inputs.
struct Rng {
  uint64_t s;
  uint64_t next() {
    uint64_t z = (s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
};

blst_fr random_fr(Rng& g) {
  uint64_t v[4];
  do {
    for (auto& x : v) x = g.next();
    v[3] &= 0x3fffffffffffffffull;
  } while ((v[0] | v[1] | v[2] | v[3]) == 0);
  blst_fr r;
  blst_fr_from_uint64(&r, v);
  return r;
}

template <class F>
void parallel(size_t n, unsigned threads, F&& f) {
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; t++)
    pool.emplace_back([&, t] {
      for (size_t i = t; i < n; i += threads) f(t, i);
    });
  for (auto& th : pool) th.join();
}

/// a = b as elements of Fr, whatever the representatives (a GPU may leave values in [r, 2^256)).
bool fr_eq(const blst_fr& a, const blst_fr& b) {
  blst_scalar x, y;
  blst_scalar_from_fr(&x, &a);
  blst_scalar_from_fr(&y, &b);
  return std::memcmp(&x, &y, sizeof x) == 0;
}

blst_fr fr_pow(blst_fr b, uint64_t e) {
  const uint64_t one[4] = {1, 0, 0, 0};
  blst_fr r;
  blst_fr_from_uint64(&r, one);
  for (; e; e >>= 1) {
    if (e & 1) blst_fr_mul(&r, &r, &b);
    blst_fr_mul(&b, &b, &b);
  }
  return r;
}

}  // namespace

void random_frs(void* out, size_t n, uint64_t seed, unsigned threads) {
  static_assert(sizeof(blst_fr) == kFrBytes);
  auto* o = static_cast<blst_fr*>(out);
  std::vector<Rng> g(threads);
  for (unsigned t = 0; t < threads; t++) g[t].s = seed * 1000003 + t;
  parallel(n, threads, [&](unsigned t, size_t i) { o[i] = random_fr(g[t]); });
}

void random_points(void* out, size_t m, unsigned threads) {
  static_assert(sizeof(blst_p1_affine) == kAffineBytes);
  auto* o = static_cast<blst_p1_affine*>(out);
  size_t side = 1;
  while (side * side < m) side++;
  std::vector<blst_p1> qr(2 * side);  // Q_t = qr[t], R_u = qr[side + u]
  std::vector<Rng> g(threads);
  for (unsigned t = 0; t < threads; t++) g[t].s = 77 + t;
  parallel(qr.size(), threads, [&](unsigned t, size_t i) {
    const blst_fr k = random_fr(g[t]);
    blst_scalar s;
    blst_scalar_from_fr(&s, &k);
    blst_p1_mult(&qr[i], blst_p1_generator(), s.b, 255);
  });
  const size_t chunk = 4096, chunks = (m + chunk - 1) / chunk;
  parallel(chunks, threads, [&](unsigned, size_t c) {
    const size_t lo = c * chunk, hi = std::min(m, lo + chunk);
    std::vector<blst_p1> sum(hi - lo);
    for (size_t i = lo; i < hi; i++) blst_p1_add_or_double(&sum[i - lo], &qr[i / side], &qr[side + i % side]);
    const blst_p1* list[2] = {sum.data(), nullptr};  // one pointer then nullptr: a contiguous array
    blst_p1s_to_affine(o + lo, list, hi - lo);
  });
}

void fold_scalars(const void* scalars, size_t n, size_t m, void* out) {
  const auto* k = static_cast<const blst_fr*>(scalars);
  auto* o = static_cast<blst_fr*>(out);
  std::memset(static_cast<void*>(o), 0, m * sizeof(blst_fr));
  for (size_t i = 0; i < n; i++) blst_fr_add(&o[i % m], &o[i % m], &k[i]);
}

bool same_frs(const void* a, const void* b, size_t n) {
  const auto* x = static_cast<const blst_fr*>(a);
  const auto* y = static_cast<const blst_fr*>(b);
  // Equal bytes first (the common case, fast at 2^27 elements); the field comparison only where they differ.
  for (size_t i = 0; i < n; i++)
    if (std::memcmp(&x[i], &y[i], sizeof x[i]) != 0 && !fr_eq(x[i], y[i])) return false;
  return true;
}

bool same_point(const void* a, const void* b) {
  blst_p1 p, q;
  std::memcpy(&p, a, sizeof p);
  std::memcpy(&q, b, sizeof q);
  return blst_p1_is_equal(&p, &q);
}

bool is_dft(const void* xv, const void* wv, const void* yv, unsigned lg) {
  const size_t n = size_t(1) << lg;
  const auto* x = static_cast<const blst_fr*>(xv);
  const auto* w = static_cast<const blst_fr*>(wv);
  const auto* y = static_cast<const blst_fr*>(yv);
  const uint64_t one[4] = {1, 0, 0, 0};
  blst_fr unit;
  blst_fr_from_uint64(&unit, one);
  if (!fr_eq(fr_pow(w[1], n), unit) || fr_eq(fr_pow(w[1], n / 2), unit)) return false;
  for (size_t k = 0; k < n; k++)
    if (!fr_eq(w[k], fr_pow(w[1], k))) return false;
  for (size_t k = 0; k < n; k++) {
    blst_fr acc, t;
    std::memset(&acc, 0, sizeof acc);
    for (size_t j = 0; j < n; j++) {
      blst_fr_mul(&t, &x[j], &w[(j * k) % n]);
      blst_fr_add(&acc, &acc, &t);
    }
    if (!fr_eq(acc, y[k])) return false;
  }
  return true;
}

bool is_msm(const void* bases, const void* scalars, size_t n, const void* got) {
  static_assert(sizeof(blst_p1) == kJacobianBytes);
  const auto* k = static_cast<const blst_fr*>(scalars);
  std::vector<blst_scalar> s(n);
  for (size_t i = 0; i < n; i++) blst_scalar_from_fr(&s[i], &k[i]);
  // One pointer followed by nullptr: blst reads the points and scalars as contiguous arrays.
  const blst_p1_affine* pp[2] = {static_cast<const blst_p1_affine*>(bases), nullptr};
  const byte* sp[2] = {s[0].b, nullptr};
  std::vector<limb_t> scratch(blst_p1s_mult_pippenger_scratch_sizeof(n) / sizeof(limb_t) + 1);
  blst_p1 want;
  blst_p1s_mult_pippenger(&want, pp, n, sp, 255, scratch.data());
  blst_p1 g;
  std::memcpy(&g, got, sizeof g);
  return blst_p1_is_equal(&g, &want);
}

bool self_test() {
  // is_dft: x random, ω = 7^((r−1)/2^10), y_k = Σ_j x_j ω^(jk), w_k = ω^k.
  const unsigned lg = 10;
  const size_t n = size_t(1) << lg;
  const uint64_t seven[4] = {7, 0, 0, 0}, e[4] = {0xffbfffffffc00000ull, 0x0154ef6900bfff96ull,
                                                  0x520cce7602026876ull, 0x001cfb69d4ca675full};
  blst_fr g, omega;
  blst_fr_from_uint64(&g, seven);
  const uint64_t one[4] = {1, 0, 0, 0};
  blst_fr_from_uint64(&omega, one);
  for (int i = 255; i >= 0; i--) {
    blst_fr_mul(&omega, &omega, &omega);
    if ((e[i / 64] >> (i % 64)) & 1) blst_fr_mul(&omega, &omega, &g);
  }
  std::vector<blst_fr> x(n), w(n), y(n);
  random_frs(x.data(), n, 3, 1);
  for (size_t k = 0; k < n; k++) w[k] = fr_pow(omega, k);
  for (size_t k = 0; k < n; k++) {
    blst_fr t;
    std::memset(&y[k], 0, sizeof y[k]);
    for (size_t j = 0; j < n; j++) {
      blst_fr_mul(&t, &x[j], &w[(j * k) % n]);
      blst_fr_add(&y[k], &y[k], &t);
    }
  }
  if (!is_dft(x.data(), w.data(), y.data(), lg) || !same_frs(y.data(), y.data(), n)) return false;
  std::vector<blst_fr> y2 = y;
  // y2[0] + r: another representative of the same element (r < 2^255, so it stays below 2^256).
  const uint64_t r[4] = {0xffffffff00000001ull, 0x53bda402fffe5bfeull, 0x3339d80809a1d805ull,
                         0x73eda753299d7d48ull};
  unsigned __int128 carry = 0;
  for (int i = 0; i < 4; i++) {
    carry += (unsigned __int128)y2[0].l[i] + r[i];
    y2[0].l[i] = (uint64_t)carry;
    carry >>= 64;
  }
  if (carry != 0 || !same_frs(y.data(), y2.data(), n)) return false;
  blst_fr_add(&y[5], &y[5], &g);
  if (is_dft(x.data(), w.data(), y.data(), lg) || same_frs(y.data(), y2.data(), n)) return false;
  // is_msm: 64 terms summed one scalar multiplication at a time.
  const size_t m = 64;
  std::vector<blst_p1_affine> pts(m);
  std::vector<blst_fr> k(m);
  random_points(pts.data(), m, 1);
  random_frs(k.data(), m, 4, 1);
  blst_p1 sum, t, p;
  std::memset(&sum, 0, sizeof sum);
  for (size_t i = 0; i < m; i++) {
    blst_scalar s;
    blst_scalar_from_fr(&s, &k[i]);
    blst_p1_from_affine(&p, &pts[i]);
    blst_p1_mult(&t, &p, s.b, 255);
    blst_p1_add_or_double(&sum, &sum, &t);
  }
  for (const auto& q : pts)
    if (!blst_p1_affine_on_curve(&q) || !blst_p1_affine_in_g1(&q)) return false;
  if (!is_msm(pts.data(), k.data(), m, &sum)) return false;
  // fold_scalars: the 2m-term sum over bases repeating with period m (its second half by scalar
  // multiplications too) is the m-term MSM by the folded scalars.
  std::vector<blst_fr> k2(2 * m), folded(m);
  random_frs(k2.data(), 2 * m, 6, 1);
  std::memset(&sum, 0, sizeof sum);
  for (size_t i = 0; i < 2 * m; i++) {
    blst_scalar s;
    blst_scalar_from_fr(&s, &k2[i]);
    blst_p1_from_affine(&p, &pts[i % m]);
    blst_p1_mult(&t, &p, s.b, 255);
    blst_p1_add_or_double(&sum, &sum, &t);
  }
  fold_scalars(k2.data(), 2 * m, m, folded.data());
  if (!is_msm(pts.data(), folded.data(), m, &sum) || !same_point(&sum, &sum)) return false;
  blst_p1 off;
  blst_p1_add_or_double(&off, &sum, blst_p1_generator());
  return !is_msm(pts.data(), folded.data(), m, &off) && !same_point(&sum, &off);
}

}  // namespace anchor
