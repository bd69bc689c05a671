// Tests of the GPU MSM (src/cuda/msm*). Two families:
//  - GpuMsmEmulated*: the GPU algorithm (msm_engine.hpp's kernels and orchestration) run on the CPU through
//    the host backend; they need no GPU (ctest runs them as gpu_algorithms_emulated) and pin down the
//    algorithm at small sizes.
//  - GpuMsm*: the real thing on the GPU, G1 sizes 1 … 2^22 and 2^26, G2 up to 2^20, skewed scalars,
//    infinity and repeated bases, the 0/1 split. They fail without a GPU unless CUZK_ALLOW_NO_GPU=1.
// References: Σ scalar_mul for small n, a host bucket method for mid sizes, and for the large sizes
// bases in arithmetic progression Pᵢ = a + i·b, whose MSM is (Σ sᵢ)·a + (Σ i·sᵢ)·b exactly.
// Results are compared in affine form.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "cuda/msm.hpp"
#include "cuda/msm_engine.hpp"
#include "cuda/msm_host_backend.hpp"
#include "ec/curves.hpp"
#include "gpu_support.hpp"
#include "random.hpp"
#include "util/error.hpp"

namespace cuzk::test {
namespace {

using cuda::msm_detail::Engine;
using cuda::msm_detail::HostBackend;

// ---- references ---------------------------------------------------------------------------------

unsigned hw_threads() { return std::max(1u, std::min(32u, std::thread::hardware_concurrency())); }

/// Runs fn(t, T) on T threads.
template <class Fn>
void parallel(Fn fn) {
  const unsigned T = hw_threads();
  std::vector<std::thread> th;
  for (unsigned t = 1; t < T; t++) th.emplace_back(fn, t, T);
  fn(0u, T);
  for (auto& x : th) x.join();
}

template <class F>
Jacobian<F> naive_msm(const std::vector<Affine<F>>& b, const std::vector<Fr>& s) {
  Jacobian<F> r = Jacobian<F>::infinity();
  for (size_t i = 0; i < s.size(); i++) r += scalar_mul(b[i], s[i]);
  return r;
}

/// Host bucket method: unsigned 8-bit windows, one thread per group of windows.
template <class F>
Jacobian<F> host_msm(const std::vector<Affine<F>>& b, const std::vector<Fr>& s) {
  const size_t n = s.size();
  std::vector<uint64_t> canon(4 * n);
  for (size_t i = 0; i < n; i++) s[i].to_canonical(&canon[4 * i]);
  std::vector<Jacobian<F>> wsum(32, Jacobian<F>::infinity());
  parallel([&](unsigned t, unsigned T) {
    std::vector<Jacobian<F>> bk(255);
    for (unsigned w = t; w < 32; w += T) {
      std::fill(bk.begin(), bk.end(), Jacobian<F>::infinity());
      for (size_t i = 0; i < n; i++) {
        unsigned d = (unsigned)(canon[4 * i + w / 8] >> (8 * (w % 8))) & 255;
        if (d) bk[d - 1] = bk[d - 1].add_affine(b[i]);
      }
      Jacobian<F> run = Jacobian<F>::infinity(), acc = Jacobian<F>::infinity();
      for (int d = 254; d >= 0; d--) {
        run += bk[d];
        acc += run;
      }
      wsum[w] = acc;
    }
  });
  Jacobian<F> r = Jacobian<F>::infinity();
  for (int w = 31; w >= 0; w--) {
    for (int i = 0; i < 8; i++) r = r.dbl();
    r += wsum[w];
  }
  return r;
}

/// a + i·b for i < n, on the host.
template <class F>
std::vector<Affine<F>> host_progression(const Affine<F>& a, const Affine<F>& b, size_t n) {
  std::vector<Jacobian<F>> j(n);
  Jacobian<F> p = Jacobian<F>::from_affine(a);
  for (size_t i = 0; i < n; i++) {
    j[i] = p;
    p = p.add_affine(b);
  }
  return batch_to_affine(j);
}

/// Σ sᵢ·(a + i·b) = (Σ sᵢ)·a + (Σ i·sᵢ)·b.
template <class F>
Jacobian<F> closed_form(const Affine<F>& a, const Affine<F>& b, const std::vector<Fr>& s) {
  const unsigned T = hw_threads();
  std::vector<Fr> s0(T, Fr::zero()), s1(T, Fr::zero());
  parallel([&](unsigned t, unsigned TT) {
    const size_t lo = s.size() * t / TT, hi = s.size() * (t + 1) / TT;
    Fr idx = Fr::from_u64(lo), one = Fr::one(), a0 = Fr::zero(), a1 = Fr::zero();
    for (size_t i = lo; i < hi; i++) {
      a0 += s[i];
      a1 += s[i] * idx;
      idx += one;
    }
    s0[t] = a0;
    s1[t] = a1;
  });
  Fr S0 = Fr::zero(), S1 = Fr::zero();
  for (unsigned t = 0; t < T; t++) {
    S0 += s0[t];
    S1 += s1[t];
  }
  return scalar_mul(a, S0) + scalar_mul(b, S1);
}

template <class F>
::testing::AssertionResult same_point(const Jacobian<F>& got, const Jacobian<F>& want) {
  const Affine<F> g = got.to_affine(), w = want.to_affine();
  if (g == w) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "MSM mismatch (got " << (g.is_inf() ? "inf" : "a point")
                                       << ", want " << (w.is_inf() ? "inf" : "a point") << ")";
}

// ---- inputs -------------------------------------------------------------------------------------

/// A uniform scalar below 2^254 (< r), built directly as a Montgomery representation (fast).
Fr fast_scalar(std::mt19937_64& rng) {
  Fr s;
  s.l[0] = rng();
  s.l[1] = rng();
  s.l[2] = rng();
  s.l[3] = rng() >> 2;
  return s;
}

std::vector<Fr> uniform_scalars(size_t n, uint64_t seed) {
  std::vector<Fr> s(n);
  parallel([&](unsigned t, unsigned T) {
    std::mt19937_64 rng(seed * 1000003 + t);
    for (size_t i = n * t / T; i < n * (t + 1) / T; i++) s[i] = fast_scalar(rng);
  });
  return s;
}

/// Scalars whose digits sit on window edges: limbs drawn from 0, 2^63, 2^64 − 1, 0x80…80, 0x7f…ff,
/// random; top limb masked below r.
Fr edge_scalar(std::mt19937_64& rng) {
  static const uint64_t pick[] = {0, 0x8000000000000000ULL, ~0ULL, 0x8080808080808080ULL, 0x7fffffffffffffffULL,
                                  0x0000000100000000ULL};
  uint64_t l[4];
  for (int i = 0; i < 4; i++) {
    unsigned k = (unsigned)(rng() % 7);
    l[i] = k < 6 ? pick[k] : rng();
  }
  l[3] &= 0x3fffffffffffffffULL;
  Fr s;
  EXPECT_TRUE(Fr::from_canonical(l, s));
  return s;
}

enum class Dist { kUniform, kZero, kOne, kMostly01, kAllEqual, kFewDistinct, kMinusOne, kEdges, kSmall };
const char* dist_name(Dist d) {
  switch (d) {
    case Dist::kUniform: return "uniform";
    case Dist::kZero: return "all-zero";
    case Dist::kOne: return "all-one";
    case Dist::kMostly01: return "mostly-0/1";
    case Dist::kAllEqual: return "all-equal";
    case Dist::kFewDistinct: return "few-distinct";
    case Dist::kMinusOne: return "r-1";
    case Dist::kEdges: return "window-edges";
    case Dist::kSmall: return "small";
  }
  return "?";
}
const Dist kAllDists[] = {Dist::kUniform, Dist::kZero,     Dist::kOne,   Dist::kMostly01, Dist::kAllEqual,
                          Dist::kFewDistinct, Dist::kMinusOne, Dist::kEdges, Dist::kSmall};

std::vector<Fr> make_scalars(Dist d, size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<Fr> s(n);
  const Fr eq = random_fe<Fr>(rng);
  Fr few[5];
  for (auto& f : few) f = random_fe<Fr>(rng);
  for (size_t i = 0; i < n; i++) {
    switch (d) {
      case Dist::kUniform: s[i] = random_fe<Fr>(rng); break;
      case Dist::kZero: s[i] = Fr::zero(); break;
      case Dist::kOne: s[i] = Fr::one(); break;
      case Dist::kMostly01: {
        unsigned k = (unsigned)(rng() % 100);
        s[i] = k < 45 ? Fr::zero() : k < 90 ? Fr::one() : random_fe<Fr>(rng);
        break;
      }
      case Dist::kAllEqual: s[i] = eq; break;
      case Dist::kFewDistinct: s[i] = few[rng() % 5]; break;
      case Dist::kMinusOne: s[i] = Fr::zero() - Fr::one(); break;
      case Dist::kEdges: s[i] = edge_scalar(rng); break;
      case Dist::kSmall: s[i] = Fr::from_u64(rng() % 70); break;
    }
  }
  return s;
}

/// n distinct-looking bases: a shuffled progression (cheap to make on the host).
template <class F>
std::vector<Affine<F>> random_bases(size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  auto v = host_progression(random_point<F>(rng), random_point<F>(rng), n);
  std::shuffle(v.begin(), v.end(), rng);
  return v;
}

/// Bases with infinities, exact repeats and negations mixed in.
template <class F>
std::vector<Affine<F>> nasty_bases(size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  auto v = random_bases<F>(n, seed + 1);
  for (size_t i = 0; i < n; i++) {
    switch (rng() % 8) {
      case 0: v[i] = Affine<F>::infinity(); break;
      case 1: v[i] = v[rng() % n]; break;
      case 2: v[i] = -v[rng() % n]; break;
      case 3: v[i] = v[0]; break;
      default: break;
    }
  }
  return v;
}

// ---- GPU availability ---------------------------------------------------------------------------

#define REQUIRE_GPU() CUZK_REQUIRE_GPU()

double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

// ---- emulation of the GPU algorithm on the CPU --------------------------------------------------

/// Emulated Pippenger; both point-operation variants must agree (the first result is returned).
template <class F>
Jacobian<F> emu_msm(const std::vector<Affine<F>>& b, const std::vector<Fr>& s, int c = 0,
                    size_t max_pairs = size_t{1} << 28) {
  Jacobian<F> res[2];
  for (int v = 0; v < 2; v++) {
    HostBackend be;
    Engine<HostBackend, F> eng(be);
    eng.set_variant(v);
    res[v] = eng.pippenger(b.data(), s.data(), nullptr, s.size(), c, max_pairs);
  }
  EXPECT_TRUE(res[0] == res[1]) << "point-operation variants disagree";
  return res[0];
}
template <class F>
Jacobian<F> emu_split(const std::vector<Affine<F>>& b, const std::vector<Fr>& s, int c = 0,
                      size_t* counts = nullptr) {
  Jacobian<F> res[2];
  for (int v = 0; v < 2; v++) {
    HostBackend be;
    Engine<HostBackend, F> eng(be);
    eng.set_variant(v);
    size_t z, o, r;
    res[v] = eng.split01(b.data(), s.data(), s.size(), &z, &o, &r, c);
    if (counts) counts[0] = z, counts[1] = o, counts[2] = r;
  }
  EXPECT_TRUE(res[0] == res[1]) << "point-operation variants disagree";
  return res[0];
}

TEST(GpuMsmEmulated, WindowChoice) {
  using cuda::msm_detail::choose_window;
  using cuda::msm_detail::num_windows;
  for (int c = 2; c <= 22; c++) EXPECT_GE(num_windows(c) * c, 256);
  EXPECT_EQ(choose_window(size_t{1} << 20), 16);
  EXPECT_GE(choose_window(size_t{1} << 24), 18);
  EXPECT_LE(choose_window(size_t{1} << 26), 22);
  EXPECT_LE(choose_window(1), 6);
}

TEST(GpuMsmEmulated, DigitsReconstructScalars) {
  // Σ_w d_w·2^(c·w) must equal the scalar for every c, edge scalars included.
  std::mt19937_64 rng(5);
  std::vector<Fr> s;
  for (int i = 0; i < 40; i++) s.push_back(edge_scalar(rng));
  s.push_back(Fr::zero() - Fr::one());
  s.push_back(Fr::one());
  s.push_back(Fr::zero());
  for (int c = 2; c <= 22; c++) {
    const int W = cuda::msm_detail::num_windows(c);
    const uint32_t B = 1u << (c - 1);
    std::vector<uint32_t> keys(W * s.size()), vals(W * s.size());
    cuda::msm_detail::DigitsK k{s.data(), nullptr, s.size(), c, 0, W, keys.data(), vals.data()};
    for (size_t j = 0; j < s.size(); j++) k(j);
    for (size_t j = 0; j < s.size(); j++) {
      Fr acc = Fr::zero(), pw = Fr::one();
      const Fr two_c = Fr::from_u64(uint64_t{1} << c);
      for (int w = 0; w < W; w++) {
        const uint32_t key = keys[w * s.size() + j], val = vals[w * s.size() + j];
        EXPECT_EQ(val & 0x7fffffffu, j);
        if (key != (uint32_t)W * B) {
          ASSERT_EQ(key / B, (uint32_t)w);
          Fr d = Fr::from_u64(key % B + 1);
          acc += (val & 0x80000000u) ? -(d * pw) : d * pw;
        }
        pw *= two_c;
      }
      EXPECT_EQ(acc, s[j]) << "c = " << c << ", scalar " << j;
    }
  }
}

TEST(GpuMsmEmulated, G1SmallSizesMatchNaive) {
  for (size_t n : {1, 2, 3, 17, 100, 1023}) {
    auto b = random_bases<Fp>(n, 100 + n);
    auto s = make_scalars(Dist::kUniform, n, 200 + n);
    const auto want = naive_msm(b, s);
    EXPECT_TRUE(same_point(emu_msm(b, s), want)) << "n = " << n;
    EXPECT_TRUE(same_point(emu_split(b, s), want)) << "split, n = " << n;
  }
}

TEST(GpuMsmEmulated, G1AllDistributionsAndWindows) {
  const size_t n = 700;
  auto b = random_bases<Fp>(n, 7);
  for (Dist d : kAllDists) {
    auto s = make_scalars(d, n, 300 + (int)d);
    const auto want = host_msm(b, s);
    for (int c : {0, 2, 3, 7, 11}) {
      EXPECT_TRUE(same_point(emu_msm(b, s, c), want)) << dist_name(d) << ", c = " << c;
    }
    size_t counts[3];
    EXPECT_TRUE(same_point(emu_split(b, s, 0, counts), want)) << "split, " << dist_name(d);
    EXPECT_EQ(counts[0] + counts[1] + counts[2], n);
    if (d == Dist::kZero) {
      EXPECT_EQ(counts[0], n);
    }
    if (d == Dist::kOne) {
      EXPECT_EQ(counts[1], n);
    }
  }
}

TEST(GpuMsmEmulated, G1WindowBatchesAndNastyBases) {
  const size_t n = 900;
  auto b = nasty_bases<Fp>(n, 9);
  for (Dist d : {Dist::kUniform, Dist::kAllEqual, Dist::kMostly01}) {
    auto s = make_scalars(d, n, 400 + (int)d);
    const auto want = host_msm(b, s);
    EXPECT_TRUE(same_point(emu_msm(b, s), want)) << dist_name(d);
    EXPECT_TRUE(same_point(emu_msm(b, s, 6, n), want)) << "one window per batch, " << dist_name(d);
    EXPECT_TRUE(same_point(emu_msm(b, s, 9, 3 * n), want)) << "3 windows per batch, " << dist_name(d);
    EXPECT_TRUE(same_point(emu_split(b, s), want)) << "split, " << dist_name(d);
  }
  // P and −P under the same scalar cancel inside one bucket.
  std::vector<G1Affine> pm = {b[1], -b[1], b[2], -b[2]};
  std::vector<Fr> same(4, Fr::from_u64(12345));
  EXPECT_TRUE(emu_msm(pm, same).is_inf());
}

TEST(GpuMsmEmulated, ScratchBudgetBoundsBatches) {
  // A budget below two windows' batch makes Pippenger sort one window at a time: the result is unchanged
  // and the scratch it keeps stays within batch_bytes of one window (the estimate is an upper bound).
  using Eng = Engine<HostBackend, Fp>;
  const size_t n = 3000;
  const int c = 7;
  auto b = nasty_bases<Fp>(n, 19);
  auto s = make_scalars(Dist::kUniform, n, 20);
  const auto want = host_msm(b, s);
  EXPECT_LT(Eng::batch_bytes(n, c, 1), Eng::batch_bytes(n, c, 2));
  for (size_t budget : {size_t{0}, Eng::batch_bytes(n, c, 2) - 1, size_t{1}}) {
    HostBackend be;
    Eng eng(be);
    eng.set_scratch_budget(budget);
    EXPECT_TRUE(same_point(eng.pippenger(b.data(), s.data(), nullptr, n, c), want)) << budget;
    if (budget) EXPECT_LE(eng.scratch_bytes(), Eng::batch_bytes(n, c, 1)) << budget;
    else EXPECT_GT(eng.scratch_bytes(), Eng::batch_bytes(n, c, 2)) << "all windows in one batch";
  }
  // A plain MSM, then a 0/1 split: the split's flags and indices count against the same budget, so the
  // scratch held afterwards stays within it (window batches shrink to make room).
  {
    const size_t budget = Eng::batch_bytes(n, c, 3) + 20 * (n + 1);
    HostBackend be;
    Eng eng(be);
    eng.set_scratch_budget(budget);
    EXPECT_TRUE(same_point(eng.pippenger(b.data(), s.data(), nullptr, n, c), want));
    EXPECT_LE(eng.scratch_bytes(), budget);
    size_t z, o, r;
    EXPECT_TRUE(same_point(eng.split01(b.data(), s.data(), n, &z, &o, &r, c), want));
    EXPECT_EQ(r, n);  // uniform scalars: all go through Pippenger
    EXPECT_LE(eng.scratch_bytes(), budget);
    EXPECT_TRUE(same_point(eng.pippenger(b.data(), s.data(), nullptr, n, c), want));
    EXPECT_LE(eng.scratch_bytes(), budget);
  }
  // the bound at the size the GPU MSM is specified for: 2^26 G1 scalars, window 22, within 4 GiB
  EXPECT_LE(Eng::batch_bytes(size_t{1} << 26, 22, 1), size_t{4} << 30);
}

TEST(GpuMsmEmulated, G2SmallAndSkewed) {
  for (size_t n : {1, 3, 40}) {
    auto b = random_bases<Fp2>(n, 500 + n);
    auto s = make_scalars(Dist::kUniform, n, 600 + n);
    EXPECT_TRUE(same_point(emu_msm(b, s), naive_msm(b, s))) << "G2 n = " << n;
  }
  const size_t n = 300;
  auto b = nasty_bases<Fp2>(n, 11);
  for (Dist d : {Dist::kAllEqual, Dist::kMostly01, Dist::kEdges}) {
    auto s = make_scalars(d, n, 700 + (int)d);
    const auto want = host_msm(b, s);
    EXPECT_TRUE(same_point(emu_msm(b, s), want)) << "G2 " << dist_name(d);
    EXPECT_TRUE(same_point(emu_split(b, s), want)) << "G2 split " << dist_name(d);
  }
}

TEST(GpuMsmEmulated, ProgressionKernel) {
  std::mt19937_64 rng(13);
  const G1Affine a = random_point<Fp>(rng), b = random_point<Fp>(rng);
  const size_t n = 200;
  HostBackend be;
  Engine<HostBackend, Fp> eng(be);
  std::vector<G1Affine> out(n);
  eng.progression(out.data(), a, b, n);
  EXPECT_EQ(out, host_progression(a, b, n));
  auto s = make_scalars(Dist::kUniform, n, 14);
  EXPECT_TRUE(same_point(closed_form(a, b, s), naive_msm(out, s)));
}

// ---- on the GPU ---------------------------------------------------------------------------------

TEST(GpuMsmSanity, FpMulMatchesHost) {
  REQUIRE_GPU();
  std::mt19937_64 rng(1);
  const size_t n = 4096;
  std::vector<Fp> a(n), b(n), got(n);
  for (size_t i = 0; i < n; i++) {
    a[i] = random_fe<Fp>(rng);
    b[i] = random_fe<Fp>(rng);
  }
  a[0] = Fp::zero();
  a[1] = Fp::one();
  a[2] = b[2] = Fp::zero() - Fp::one();
  cuda::debug::fp_mul(a, b, got);
  size_t bad = 0;
  for (size_t i = 0; i < n; i++) bad += got[i] != a[i] * b[i];
  EXPECT_EQ(bad, 0u) << "the device Fp multiplication disagrees with the host's";
}

TEST(GpuMsmG1, SmallSizesMatchNaive) {
  REQUIRE_GPU();
  cuda::MsmG1 msm;
  auto b = random_bases<Fp>(1023, 31);
  msm.set_bases(b);
  EXPECT_EQ(msm.download_bases(0, 1023), b);
  for (size_t n : {1, 2, 3, 1023}) {
    std::vector<G1Affine> bn(b.begin(), b.begin() + n);
    auto s = make_scalars(Dist::kUniform, n, 32 + n);
    const auto want = naive_msm(bn, s);
    EXPECT_TRUE(same_point(msm.msm(s), want)) << "n = " << n;
    EXPECT_TRUE(same_point(msm.msm_split01(s), want)) << "split, n = " << n;
  }
  EXPECT_TRUE(msm.msm(std::span<const Fr>{}).is_inf());
}

TEST(GpuMsmG1, SkewedScalarsAndNastyBases) {
  REQUIRE_GPU();
  const size_t n = 1 << 14;
  cuda::MsmG1 msm;
  for (int nasty = 0; nasty < 2; nasty++) {
    auto b = nasty ? nasty_bases<Fp>(n, 41) : random_bases<Fp>(n, 42);
    msm.set_bases(b);
    for (Dist d : kAllDists) {
      auto s = make_scalars(d, n, 50 + (int)d);
      const auto want = host_msm(b, s);
      EXPECT_TRUE(same_point(msm.msm(s), want)) << dist_name(d) << (nasty ? " (nasty bases)" : "");
      cuda::MsmSplitCounts cnt;
      EXPECT_TRUE(same_point(msm.msm_split01(s, &cnt), want)) << "split " << dist_name(d);
      EXPECT_EQ(cnt.zeros + cnt.ones + cnt.others, n);
    }
  }
}

TEST(GpuMsmG1, ScratchBudgetFromEnvironment) {
  REQUIRE_GPU();
  // a bad value is a clear error naming the variable; a good one bounds the scratch and keeps the result
  for (const char* bad : {"lots", "12x", "-5"}) {
    setenv("CUZK_MSM_SCRATCH_MB", bad, 1);
    try {
      cuda::MsmG1 msm;
      ADD_FAILURE() << "accepted CUZK_MSM_SCRATCH_MB=" << bad;
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::kInvalidArgument) << bad;
      EXPECT_NE(std::string(e.what()).find("CUZK_MSM_SCRATCH_MB"), std::string::npos) << e.what();
    }
  }
  const size_t n = 1 << 18;  // unbounded, its 26 windows would keep > 100 MiB
  auto b = nasty_bases<Fp>(n, 63);
  auto s = make_scalars(Dist::kUniform, n, 64);
  setenv("CUZK_MSM_SCRATCH_MB", "1", 1);
  cuda::MsmConfig cfg;
  cfg.window_bits = 10;
  cuda::MsmG1 msm(cfg);
  unsetenv("CUZK_MSM_SCRATCH_MB");
  msm.set_bases(b);
  EXPECT_TRUE(same_point(msm.msm(s), host_msm(b, s)));
  // one window per batch: its own bound, plus CUB's temporaries and the device allocator's 2 MiB rounding
  // of each of ~13 buffers
  using Eng = Engine<HostBackend, Fp>;
  EXPECT_LE(msm.scratch_bytes(), Eng::batch_bytes(n, 10, 1) + (size_t{32} << 20));
}

TEST(GpuMsmG1, ForcedWindowsAndBatches) {
  REQUIRE_GPU();
  const size_t n = 1 << 13;
  auto b = nasty_bases<Fp>(n, 61);
  auto s = make_scalars(Dist::kEdges, n, 62);
  const auto want = host_msm(b, s);
  for (int c : {2, 5, 9, 13, 17, 22}) {
    for (size_t mp : {size_t{1} << 28, n, 3 * n}) {
      cuda::MsmConfig cfg;
      cfg.window_bits = c;
      cfg.max_pairs_per_batch = mp;
      cuda::MsmG1 msm(cfg);
      msm.set_bases(b);
      EXPECT_TRUE(same_point(msm.msm(s), want)) << "c = " << c << ", max pairs " << mp;
    }
  }
}

TEST(GpuMsmG1, PowersOfTwoUpTo2e22) {
  REQUIRE_GPU();
  std::mt19937_64 rng(71);
  const G1Affine a = random_point<Fp>(rng), bb = random_point<Fp>(rng);
  const size_t N = size_t{1} << 22;
  cuda::MsmG1 msm;
  auto t0 = std::chrono::steady_clock::now();
  msm.set_bases_progression(a, bb, N);
  std::printf("  [G1 progression bases 2^22 on GPU: %.1f ms]\n", ms_since(t0));
  // GPU bases = host bases (first 4096 and a sample).
  auto host = host_progression(a, bb, 4096);
  EXPECT_EQ(msm.download_bases(0, 4096), host);
  {
    Jacobian<Fp> p = scalar_mul(bb, Fr::from_u64(N - 1)).add_affine(a);
    EXPECT_EQ(msm.download_bases(N - 1, 1)[0], p.to_affine());
  }
  // Host bucket method cross-check of the closed form at 2^12.
  {
    auto s = make_scalars(Dist::kUniform, 4096, 72);
    EXPECT_TRUE(same_point(closed_form(a, bb, s), host_msm(host, s)));
  }
  cuda::DeviceScalars ds;
  for (int k = 10; k <= 22; k++) {
    const size_t n = size_t{1} << k;
    auto s = uniform_scalars(n, 80 + k);
    ds.upload(s);
    t0 = std::chrono::steady_clock::now();
    auto got = msm.msm_device(ds.data(), n);
    const double ms = ms_since(t0);
    EXPECT_TRUE(same_point(got, closed_form(a, bb, s))) << "n = 2^" << k;
    std::printf("  [G1 2^%d: %.2f ms (first call, includes allocation)]\n", k, ms);
  }
  // Skewed scalars at 2^20 and 2^22: everything in one bucket per window, and the 0/1-heavy witness.
  for (int k : {20, 22}) {
    const size_t n = size_t{1} << k;
    for (Dist d : {Dist::kAllEqual, Dist::kMostly01, Dist::kFewDistinct, Dist::kOne}) {
      auto s = make_scalars(d, n, 90 + k + (int)d);
      const auto want = closed_form(a, bb, s);
      ds.upload(s);
      t0 = std::chrono::steady_clock::now();
      EXPECT_TRUE(same_point(msm.msm_device(ds.data(), n), want)) << dist_name(d) << " 2^" << k;
      const double t_plain = ms_since(t0);
      t0 = std::chrono::steady_clock::now();
      EXPECT_TRUE(same_point(msm.msm_split01_device(ds.data(), n), want)) << "split " << dist_name(d) << " 2^" << k;
      std::printf("  [G1 2^%d %s: plain %.2f ms, split01 %.2f ms]\n", k, dist_name(d), t_plain, ms_since(t0));
    }
  }
  std::printf("  [device bytes held: %.1f MiB]\n", msm.device_bytes() / 1048576.0);
}

TEST(GpuMsmG1, Size2e26) {
  REQUIRE_GPU();
  std::mt19937_64 rng(91);
  const G1Affine a = random_point<Fp>(rng), bb = random_point<Fp>(rng);
  const size_t n = size_t{1} << 26;
  cuda::MsmG1 msm;
  auto t0 = std::chrono::steady_clock::now();
  msm.set_bases_progression(a, bb, n);
  std::printf("  [G1 progression bases 2^26 on GPU: %.1f ms]\n", ms_since(t0));
  auto s = uniform_scalars(n, 92);
  cuda::DeviceScalars ds;
  ds.upload(s);
  t0 = std::chrono::steady_clock::now();
  auto got = msm.msm_device(ds.data(), n);
  std::printf("  [G1 2^26 first call: %.1f ms; device bytes %.2f GiB]\n", ms_since(t0),
              msm.device_bytes() / 1073741824.0);
  EXPECT_TRUE(same_point(got, closed_form(a, bb, s)));
}

TEST(GpuMsmG2, SmallSizesAndSkewed) {
  REQUIRE_GPU();
  cuda::MsmG2 msm;
  auto b = random_bases<Fp2>(1023, 101);
  msm.set_bases(b);
  for (size_t n : {1, 3, 1023}) {
    std::vector<G2Affine> bn(b.begin(), b.begin() + n);
    auto s = make_scalars(Dist::kUniform, n, 102 + n);
    EXPECT_TRUE(same_point(msm.msm(s), naive_msm(bn, s))) << "G2 n = " << n;
  }
  const size_t n = 1 << 12;
  auto nb = nasty_bases<Fp2>(n, 103);
  msm.set_bases(nb);
  for (Dist d : kAllDists) {
    auto s = make_scalars(d, n, 110 + (int)d);
    const auto want = host_msm(nb, s);
    EXPECT_TRUE(same_point(msm.msm(s), want)) << "G2 " << dist_name(d);
    EXPECT_TRUE(same_point(msm.msm_split01(s), want)) << "G2 split " << dist_name(d);
  }
}

TEST(GpuMsmG2, PowersOfTwoUpTo2e20) {
  REQUIRE_GPU();
  std::mt19937_64 rng(121);
  const G2Affine a = random_point<Fp2>(rng), bb = random_point<Fp2>(rng);
  const size_t N = size_t{1} << 20;
  cuda::MsmG2 msm;
  msm.set_bases_progression(a, bb, N);
  EXPECT_EQ(msm.download_bases(0, 512), host_progression(a, bb, 512));
  cuda::DeviceScalars ds;
  for (int k : {10, 14, 18, 20}) {
    const size_t n = size_t{1} << k;
    auto s = uniform_scalars(n, 130 + k);
    ds.upload(s);
    auto t0 = std::chrono::steady_clock::now();
    auto got = msm.msm_device(ds.data(), n);
    std::printf("  [G2 2^%d: %.2f ms (first call)]\n", k, ms_since(t0));
    EXPECT_TRUE(same_point(got, closed_form(a, bb, s))) << "G2 n = 2^" << k;
  }
  auto s = make_scalars(Dist::kMostly01, N, 140);
  ds.upload(s);
  EXPECT_TRUE(same_point(msm.msm_split01_device(ds.data(), N), closed_form(a, bb, s))) << "G2 split 2^20";
}

TEST(GpuMsmErrors, BadArgumentsThrow) {
  REQUIRE_GPU();
  cuda::MsmG1 msm;
  auto b = random_bases<Fp>(8, 151);
  msm.set_bases(b);
  std::vector<Fr> s(9, Fr::one());
  try {
    msm.msm(s);
    ADD_FAILURE() << "more scalars than bases must throw";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kInvalidArgument);
  }
  try {
    cuda::MsmConfig cfg;
    cfg.device = 1000;
    cuda::MsmG1 bad(cfg);
    ADD_FAILURE() << "a missing device must throw";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kCuda);
  }
}

}  // namespace
}  // namespace cuzk::test
