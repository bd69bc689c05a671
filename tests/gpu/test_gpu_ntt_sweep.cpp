// The GPU NTT against the CPU, bit for bit, at every size 2^1 … 2^max (max = CUZK_NTT_SWEEP_MAX_LOG, 22 by
// default; scripts/gpu-check.sh runs 27), for both root conventions and all four transforms (forward,
// inverse, coset forward, coset inverse):
//  - structured inputs (all zero, a single 1 at index 0, a single 1 at index n − 1, all r − 1), whose
//    transforms have closed forms (geometric sequences a·b^i, a single non-zero value at index 0, and for
//    the coset transform of a constant c the relation y_i·(g·ω^i − 1) = c·(g^n − 1)); every element is
//    checked, in parallel, without running a CPU transform;
//  - uniform random inputs (fixed seeds) compared element by element with src/ntt's multithreaded
//    transforms: both conventions up to 2^24, one above (generator-7 at odd sizes, snarkjs at even ones) to
//    keep the sweep within about three minutes on 16 cores.
// GpuNttSanitize.PassShapes runs the random check at one size of each pass shape (the single-thread tiny
// kernel, one, two and three passes), small enough for compute-sanitizer.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "cuda/gpu.hpp"
#include "gpu_support.hpp"
#include "ntt/ntt.hpp"
#include "util/thread_pool.hpp"

namespace cuzk::test {
namespace {

using Clock = std::chrono::steady_clock;

double secs_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

ThreadPool& pool() {
  static ThreadPool p;
  return p;
}

/// The largest log2 size of the sweep: CUZK_NTT_SWEEP_MAX_LOG (1..28), 22 when unset.
int sweep_max_log() {
  const char* e = std::getenv("CUZK_NTT_SWEEP_MAX_LOG");
  if (!e || !*e) return 22;
  const int v = std::atoi(e);
  if (v < 1 || v > 28) {
    ADD_FAILURE() << "CUZK_NTT_SWEEP_MAX_LOG=" << e << ": expected 1..28";
    return 0;
  }
  return v;
}

const char* conv_name(RootConvention c) { return c == RootConvention::kSnarkjs5 ? "snarkjs" : "generator-7"; }

/// The coset shift the prover uses with each convention.
Fr shift_of(int L, RootConvention conv) {
  return conv == RootConvention::kSnarkjs5 ? coset_shift_snarkjs(L) : Fr::from_u64(7);
}

enum class Mode { kForward, kInverse, kCosetForward, kCosetInverse };
const Mode kModes[] = {Mode::kForward, Mode::kInverse, Mode::kCosetForward, Mode::kCosetInverse};
const char* mode_name(Mode m) {
  switch (m) {
    case Mode::kForward:
      return "forward";
    case Mode::kInverse:
      return "inverse";
    case Mode::kCosetForward:
      return "coset forward";
    case Mode::kCosetInverse:
      return "coset inverse";
  }
  return "?";
}

void gpu_run(cuda::GpuNtt& g, cuda::DeviceFrVec& d, Mode m, const Fr& shift) {
  switch (m) {
    case Mode::kForward:
      g.forward(d);
      break;
    case Mode::kInverse:
      g.inverse(d);
      break;
    case Mode::kCosetForward:
      g.coset_forward(d, shift);
      break;
    case Mode::kCosetInverse:
      g.coset_inverse(d, shift);
      break;
  }
}

void cpu_run(const Domain& dom, std::vector<Fr>& x, Mode m, const Fr& shift) {
  std::span<Fr> s(x);
  switch (m) {
    case Mode::kForward:
      ntt(dom, s, pool());
      break;
    case Mode::kInverse:
      intt(dom, s, pool());
      break;
    case Mode::kCosetForward:
      coset_ntt(dom, s, shift, pool());
      break;
    case Mode::kCosetInverse:
      coset_intt(dom, s, shift, pool());
      break;
  }
}

/// Number of indices i < n with !ok(i, state), where each parallel chunk starts its state with init(lo)
/// and advances it with step(state) from one index to the next.
template <class State, class Init, class Step, class Ok>
size_t count_bad(size_t n, Init init, Step step, Ok ok) {
  std::atomic<size_t> bad{0};
  pool().parallel_for(n, [&](size_t lo, size_t hi) {
    State st = init(lo);
    size_t b = 0;
    for (size_t i = lo; i < hi; i++) {
      b += !ok(i, st);
      st = step(st);
    }
    bad += b;
  });
  return bad;
}

/// Mismatches of y against y_i = a·b^i.
size_t bad_geometric(const Fr* y, size_t n, const Fr& a, const Fr& b) {
  return count_bad<Fr>(
      n,
      [&](size_t lo) {
        const uint64_t e = lo;
        return a * b.pow(&e, 1);
      },
      [&](const Fr& p) { return p * b; }, [&](size_t i, const Fr& p) { return y[i] == p; });
}

/// Mismatches of y against (v, 0, 0, …, 0).
size_t bad_delta(const Fr* y, size_t n, const Fr& v) {
  return count_bad<int>(
      n, [](size_t) { return 0; }, [](int s) { return s; },
      [&](size_t i, int) { return y[i] == (i == 0 ? v : Fr::zero()); });
}

/// Mismatches of y against y_i·(g·ω^i − 1) = k (the coset transform of a constant; g·ω^i ≠ 1).
size_t bad_coset_constant(const Fr* y, size_t n, const Fr& g, const Fr& w, const Fr& k) {
  return count_bad<Fr>(
      n,
      [&](size_t lo) {
        const uint64_t e = lo;
        return g * w.pow(&e, 1);
      },
      [&](const Fr& p) { return p * w; }, [&](size_t i, const Fr& p) { return y[i] * (p - Fr::one()) == k; });
}

enum class Input { kZero, kFirst, kLast, kMinusOne };
const Input kInputs[] = {Input::kZero, Input::kFirst, Input::kLast, Input::kMinusOne};
const char* input_name(Input in) {
  switch (in) {
    case Input::kZero:
      return "all zero";
    case Input::kFirst:
      return "1 at index 0";
    case Input::kLast:
      return "1 at index n-1";
    case Input::kMinusOne:
      return "all r-1";
  }
  return "?";
}

void fill(Fr* x, size_t n, Input in) {
  const Fr c = in == Input::kMinusOne ? Fr::zero() - Fr::one() : Fr::zero();
  pool().parallel_for(n, [&](size_t lo, size_t hi) { std::fill(x + lo, x + hi, c); });
  if (in == Input::kFirst) x[0] = Fr::one();
  if (in == Input::kLast) x[n - 1] = Fr::one();
}

/// Mismatches of y = transform m of input `in` (size 2^L) against its closed form.
size_t bad_closed_form(const Fr* y, int L, RootConvention conv, Input in, Mode m, const Fr& g) {
  const size_t n = size_t{1} << L;
  const Fr w = root_of_unity(L, conv), wi = w.inverse(), gi = g.inverse();
  const Fr nf = Fr::from_u64(n), ni = nf.inverse(), one = Fr::one(), c = Fr::zero() - one;
  const bool fwd = m == Mode::kForward || m == Mode::kCosetForward;
  switch (in) {
    case Input::kZero:
      return bad_geometric(y, n, Fr::zero(), one);
    case Input::kFirst:  // NTT(e_0) = 1, INTT(e_0) = n⁻¹; the coset inverse also scales by g^(−k)
      if (fwd) return bad_geometric(y, n, one, one);
      return bad_geometric(y, n, ni, m == Mode::kInverse ? one : gi);
    case Input::kLast: {  // x_{n−1} = 1: ω^(−i); n⁻¹·ω^k; g^(n−1)·ω^(−i); n⁻¹·(ω/g)^k
      const uint64_t e = n - 1;
      switch (m) {
        case Mode::kForward:
          return bad_geometric(y, n, one, wi);
        case Mode::kInverse:
          return bad_geometric(y, n, ni, w);
        case Mode::kCosetForward:
          return bad_geometric(y, n, g.pow(&e, 1), wi);
        case Mode::kCosetInverse:
          return bad_geometric(y, n, ni, w * gi);
      }
      break;
    }
    case Input::kMinusOne: {  // a constant c: n·c at 0; c at 0; c·Σ_k (g·ω^i)^k; c at 0
      const uint64_t e = n;
      switch (m) {
        case Mode::kForward:
          return bad_delta(y, n, nf * c);
        case Mode::kInverse:
          return bad_delta(y, n, c);
        case Mode::kCosetForward:
          return bad_coset_constant(y, n, g, w, c * (g.pow(&e, 1) - one));
        case Mode::kCosetInverse:
          return bad_delta(y, n, c);
      }
      break;
    }
  }
  return n;
}

/// The structured inputs at 2^L in every mode, through `buf` (pinned, at least 2^L elements).
void check_structured(int L, RootConvention conv, Fr* buf) {
  const size_t n = size_t{1} << L;
  const Fr g = shift_of(L, conv);
  cuda::GpuNtt gpu(L, conv);
  cuda::DeviceFrVec d(n);
  for (Input in : kInputs)
    for (Mode m : kModes) {
      fill(buf, n, in);
      d.upload(buf);
      gpu_run(gpu, d, m, g);
      d.download(buf);
      EXPECT_EQ(bad_closed_form(buf, L, conv, in, m, g), 0u)
          << "2^" << L << " " << conv_name(conv) << ", " << mode_name(m) << " of " << input_name(in);
    }
}

/// Uniform random elements below r, in parallel blocks (deterministic in seed).
std::vector<Fr> random_input(size_t n, uint64_t seed) {
  std::vector<Fr> x(n);
  constexpr size_t kBlock = size_t{1} << 16;
  pool().parallel_for((n + kBlock - 1) / kBlock, [&](size_t b0, size_t b1) {
    for (size_t b = b0; b < b1; b++) {
      std::mt19937_64 rng(seed * 1000003 + b);
      for (size_t i = b * kBlock; i < std::min(n, (b + 1) * kBlock); i++) {
        do {
          for (int j = 0; j < Fr::N; j++) x[i].l[j] = rng();
          x[i].l[Fr::N - 1] >>= 1;
        } while (!Fr::less_than_mod(x[i].l));
      }
    }
  });
  return x;
}

size_t count_diff(const std::vector<Fr>& a, const std::vector<Fr>& b) {
  if (a.size() != b.size()) return std::max(a.size(), b.size());
  return count_bad<int>(
      a.size(), [](size_t) { return 0; }, [](int s) { return s; },
      [&](size_t i, int) { return a[i] == b[i]; });
}

/// A random input at 2^L in every mode: the GPU's output equals src/ntt's.
void check_random(int L, RootConvention conv) {
  const size_t n = size_t{1} << L;
  const Fr g = shift_of(L, conv);
  const std::vector<Fr> x = random_input(n, 7000 + 2 * L + (conv == RootConvention::kSnarkjs5));
  const Domain dom(L, conv);
  cuda::GpuNtt gpu(L, conv);
  cuda::DeviceFrVec d(n);
  for (Mode m : kModes) {
    d.upload(x);
    gpu_run(gpu, d, m, g);
    std::vector<Fr> want = x;
    cpu_run(dom, want, m, g);
    EXPECT_EQ(count_diff(d.download(), want), 0u)
        << "2^" << L << " " << conv_name(conv) << ", " << mode_name(m) << " of a random input";
  }
}

const RootConvention kConvs[] = {RootConvention::kGenerator7, RootConvention::kSnarkjs5};

TEST(GpuNttSweep, StructuredInputsAllSizes) {
  CUZK_REQUIRE_GPU();
  const int max_log = sweep_max_log();
  cuda::PinnedBuffer buf((sizeof(Fr)) << max_log);
  for (int L = 1; L <= max_log; L++) {
    const auto t0 = Clock::now();
    for (auto conv : kConvs) check_structured(L, conv, static_cast<Fr*>(buf.data()));
    if (L >= 20) std::printf("  [structured inputs 2^%d: %.1f s]\n", L, secs_since(t0));
  }
}

TEST(GpuNttSweep, RandomInputsMatchCpuAllSizes) {
  CUZK_REQUIRE_GPU();
  const int max_log = sweep_max_log();
  for (int L = 1; L <= max_log; L++) {
    const auto t0 = Clock::now();
    if (L <= 24) {
      for (auto conv : kConvs) check_random(L, conv);
    } else {
      check_random(L, L % 2 ? RootConvention::kGenerator7 : RootConvention::kSnarkjs5);
    }
    if (L >= 20) std::printf("  [random inputs 2^%d: %.1f s]\n", L, secs_since(t0));
  }
}

TEST(GpuNttSanitize, PassShapes) {
  CUZK_REQUIRE_GPU();
  for (int L : {2, 3, 4, 8, 11, 14, 21}) check_random(L, RootConvention::kGenerator7);
}

}  // namespace
}  // namespace cuzk::test
