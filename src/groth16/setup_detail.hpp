// Building blocks of the single-party setup (setup.hpp), in both H conventions: fixed-base scalar
// multiplication with precomputed window tables, and Lagrange basis polynomials evaluated at τ.
// Internal to src/groth16.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "ec/curves.hpp"
#include "ff/roots.hpp"
#include "util/error.hpp"
#include "util/huge_alloc.hpp"
#include "util/thread_pool.hpp"

namespace cuzk::setup_detail {

/// k·G for many scalars k and one fixed point G, from a table of signed window multiples:
/// with c-bit windows, W = ⌈256/c⌉ windows and digits d ∈ [−2^(c−1), 2^(c−1)], the table holds
/// d·2^(c·w)·G (affine) for w < W and d = 1..2^(c−1); k·G then costs at most W mixed additions.
/// The table has W·2^(c−1) points (c = 16: 524 288 points, 50 MB in G1, 100 MB in G2).
template <class F>
class FixedBase {
 public:
  /// Builds the table of `g` for `bits`-bit windows (clamped to 2..20), windows in parallel on `pool`.
  FixedBase(const Affine<F>& g, ThreadPool& pool, int bits)
      : bits_(std::clamp(bits, 2, 20)), windows_((256 + bits_ - 1) / bits_), half_(size_t{1} << (bits_ - 1)) {
    std::vector<Jacobian<F>> base(windows_);
    base[0] = Jacobian<F>::from_affine(g);
    for (int w = 1; w < windows_; w++) {
      base[w] = base[w - 1];
      for (int i = 0; i < bits_; i++) base[w] = base[w].dbl();
    }
    table_.resize(windows_ * half_);
    pool.parallel_for(
        windows_,
        [&](size_t lo, size_t hi) {
          std::vector<Jacobian<F>> row(half_);
          for (size_t w = lo; w < hi; w++) {
            row[0] = base[w];
            for (size_t d = 1; d < half_; d++) row[d] = row[d - 1] + base[w];
            auto aff = batch_to_affine(row);
            std::copy(aff.begin(), aff.end(), table_.begin() + w * half_);
          }
        },
        1);
  }

  /// The window width that minimizes table building plus multiplication work for `points` scalar
  /// multiplications: W·(2^(c−1) + points) mixed additions, c capped at 16 (larger tables stop
  /// fitting in the caches).
  static int window_bits_for(size_t points) {
    int best = 2;
    double best_cost = 1e300;
    for (int c = 2; c <= 16; c++) {
      double cost = (double)((256 + c - 1) / c) * ((double)(size_t{1} << (c - 1)) + (double)points);
      if (cost < best_cost) best_cost = cost, best = c;
    }
    return best;
  }

  /// k·G, accumulated in XYZZ coordinates (madd-2008-s: 8M + 2S per window, against 7M + 4S
  /// and more additions for Jacobian).
  XYZZ<F> mul(const Fr& k) const {
    Digits d;
    digits(k, d, true);
    XYZZ<F> acc = XYZZ<F>::infinity();
    for (int i = 0; i < d.used; i++) acc = acc.add_affine(d.negative[i] ? -*d.entry[i] : *d.entry[i]);
    return acc;
  }

  /// out[i] = scalar(i)·G in affine form for i < count, in parallel on `pool`. Each chunk of points is
  /// accumulated in affine coordinates, one window at a time for all its points together: the chunk's
  /// denominators x_T − x_acc share one inversion (Montgomery's trick), so an addition costs ~5M + 1S
  /// (λ = (y_T − y_acc)/(x_T − x_acc), x3 = λ² − x_acc − x_T, y3 = λ(x_acc − x3) − y_acc) against
  /// madd-2008-s's 8M + 2S and a final normalization. A point whose running sum meets ±T (x equal: the
  /// affine formula cannot add it; only for scalars built to do so) is computed by mul() instead. (The
  /// Pippenger's msm_detail::ScalarAffineBuckets does the same additions, but through it, without the table
  /// entries fetched ahead, a 2 KiB PoRep setup took 43 s against 28 s here.)
  template <class ScalarAt>
  void mul_into(size_t count, ScalarAt&& scalar, Affine<F>* out, ThreadPool& pool) const {
    pool.parallel_for(
        count,
        [&](size_t lo, size_t hi) {
          const size_t m = hi - lo;
          std::vector<Digits> d(m);
          std::vector<F> prefix(m);
          std::vector<uint8_t> slow(m, 0);
          int rounds = 0;
          for (size_t i = 0; i < m; i++) {
            digits(scalar(lo + i), d[i], false);
            rounds = std::max(rounds, d[i].used);
            out[lo + i] = d[i].used ? d[i].at(0) : Affine<F>::infinity();
          }
          for (int r = 1; r < rounds; r++) {
            F acc = F::one();
            for (size_t i = 0; i < m; i++) {  // pass 1: the product of the denominators before each
              if (i + kAhead < m && d[i + kAhead].used > r) prefetch(d[i + kAhead].entry[r]);
              prefix[i] = acc;
              if (slow[i] || d[i].used <= r) continue;
              const F den = d[i].entry[r]->x - out[lo + i].x;
              if (den.is_zero())
                slow[i] = 1;
              else
                acc = acc * den;
            }
            F inv = acc.inverse();
            for (size_t i = m; i-- > 0;) {  // pass 2: each 1/den from the running inverse, and the sum
              if (slow[i] || d[i].used <= r) continue;
              const Affine<F> t = d[i].at(r);
              Affine<F>& b = out[lo + i];
              const F den = t.x - b.x;
              const F lambda = (t.y - b.y) * (inv * prefix[i]);
              inv = inv * den;
              const F x3 = lambda.sqr() - b.x - t.x;
              b.y = lambda * (b.x - x3) - b.y;
              b.x = x3;
            }
          }
          for (size_t i = 0; i < m; i++)
            if (slow[i]) out[lo + i] = mul(scalar(lo + i)).to_affine();
        },
        4096);
  }

 private:
  static constexpr int kMaxWindows = 128;  // ⌈256/2⌉
  static constexpr size_t kAhead = 8;      // table entries fetched this many points ahead
  /// k's signed digits as table entries, zero digits left out: k·G = Σ (negative[i] ? −1 : 1)·*entry[i].
  struct Digits {
    const Affine<F>* entry[kMaxWindows];
    bool negative[kMaxWindows];
    int used = 0;
    Affine<F> at(int i) const { return negative[i] ? -*entry[i] : *entry[i]; }
  };
  /// Splits k into digits ∈ [−2^(c−1), 2^(c−1)] (a digit above 2^(c−1) is d − 2^c, carrying one into the
  /// next window). With `fetch` their table entries are prefetched: large tables miss the caches, and the
  /// misses then overlap instead of stalling each addition in turn.
  void digits(const Fr& k, Digits& out, bool fetch) const {
    uint64_t c[Fr::N + 1] = {};
    k.to_canonical(c);
    const uint64_t mask = (uint64_t{1} << bits_) - 1;
    out.used = 0;
    uint64_t carry = 0;
    for (int w = 0; w < windows_; w++) {
      const int bit = w * bits_, limb = bit / 64, sh = bit % 64;
      uint64_t raw = c[limb] >> sh;
      if (sh + bits_ > 64 && limb + 1 <= Fr::N) raw |= c[limb + 1] << (64 - sh);
      const uint64_t d = (raw & mask) + carry;  // ≤ 2^c
      carry = d > half_;
      const uint64_t mag = carry ? (mask + 1) - d : d;
      if (!mag) continue;
      out.entry[out.used] = &table_[w * half_ + mag - 1];
      out.negative[out.used] = carry;
      if (fetch) prefetch(out.entry[out.used]);
      out.used++;
    }
    // k < 2^255 ≤ 2^(c·W − 1): the last digit never carries
  }
  static void prefetch(const Affine<F>* p) {
    for (size_t off = 0; off < sizeof(Affine<F>); off += 64)
      __builtin_prefetch(reinterpret_cast<const char*>(p) + off);
  }
  int bits_, windows_;
  size_t half_;
  std::vector<Affine<F>> table_;
};

/// L_k(τ) for k = first + step·i, i < count, over the domain of m = 2^log_m points {ω^k} (ω from
/// `conv`): L_k(τ) = (τ^m − 1)/m · ω^k/(τ − ω^k). One batch inversion per chunk of 16384 points, in
/// parallel. Throws Error(kInvalidArgument) when τ is one of the points (then a seed must change).
inline BigVector<Fr> lagrange_at(const Fr& tau, int log_m, RootConvention conv, size_t first, size_t step,
                                 size_t count, ThreadPool& pool) {
  const size_t m = size_t{1} << log_m;
  const Fr omega = root_of_unity(log_m, conv);
  const Fr omega_step = omega.pow_u64(step);
  const Fr factor = (tau.pow_u64(m) - Fr::one()) * Fr::from_u64(m).inverse();
  BigVector<Fr> out(count);
  pool.parallel_for(
      count,
      [&](size_t lo, size_t hi) {
        std::vector<Fr> den(hi - lo), pre(hi - lo);
        Fr x = omega.pow_u64(first) * omega_step.pow_u64(lo), acc = Fr::one();
        for (size_t i = lo; i < hi; i++, x = x * omega_step) {
          out[i] = x;
          den[i - lo] = tau - x;
          if (den[i - lo].is_zero())
            throw Error(ErrorCode::kInvalidArgument, "setup: τ lies on the domain; pick another seed");
          pre[i - lo] = acc;
          acc = acc * den[i - lo];
        }
        Fr inv = acc.inverse();
        for (size_t i = hi; i-- > lo;) {
          const Fr d_inv = inv * pre[i - lo];
          inv = inv * den[i - lo];
          out[i] = factor * out[i] * d_inv;
        }
      },
      16384);
  return out;
}

}  // namespace cuzk::setup_detail
