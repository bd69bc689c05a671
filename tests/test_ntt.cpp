// CPU NTT (src/ntt) against a naive O(n²) DFT in both root conventions, round trips, cosets, thread-count
// independence and edge inputs; plus the ThreadPool it runs on.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <stdexcept>
#include <thread>
#include <vector>

#include "ff/fp52x8.hpp"
#include "ntt/ntt.hpp"
#include "random.hpp"
#include "util/error.hpp"

namespace cuzk::test {
namespace {

constexpr RootConvention kConvs[] = {RootConvention::kGenerator7, RootConvention::kSnarkjs5};

std::vector<Fr> random_vec(size_t n, std::mt19937_64& rng) {
  std::vector<Fr> v(n);
  for (auto& x : v) x = random_fe<Fr>(rng);
  return v;
}

// out[i] = scale · Σ_k in[k]·(shift·w^i)^k.
std::vector<Fr> naive_eval(const std::vector<Fr>& in, const Fr& w, const Fr& shift, const Fr& scale) {
  const size_t n = in.size();
  std::vector<Fr> out(n);
  Fr x = shift;  // shift·w^i
  for (size_t i = 0; i < n; i++) {
    Fr acc = Fr::zero(), p = Fr::one();
    for (size_t k = 0; k < n; k++) {
      acc += in[k] * p;
      p *= x;
    }
    out[i] = acc * scale;
    x *= w;
  }
  return out;
}

// Naive inverse of the coset transform: in[k] = n⁻¹·shift^(−k)·Σ_i out[i]·w^(−ik).
std::vector<Fr> naive_coset_inverse(const std::vector<Fr>& vals, const Fr& w, const Fr& shift) {
  const size_t n = vals.size();
  auto c = naive_eval(vals, w.inverse(), Fr::one(), Fr::from_u64(n).inverse());
  Fr si = shift.inverse(), p = Fr::one();
  for (auto& x : c) {
    x *= p;
    p *= si;
  }
  return c;
}

TEST(NttNaive, ForwardAndInverseMatchDftBothConventions) {
  ThreadPool pool(2);
  std::mt19937_64 rng(101);
  for (auto conv : kConvs)
    for (int log_n = 1; log_n <= 8; log_n++) {
      Domain d(log_n, conv);
      const size_t n = d.size();
      ASSERT_EQ(d.omega(), root_of_unity(log_n, conv));
      ASSERT_EQ(d.omega() * d.omega_inv(), Fr::one());
      ASSERT_EQ(d.n_inv() * Fr::from_u64(n), Fr::one());
      auto x = random_vec(n, rng);
      auto y = x;
      ntt(d, y, pool);
      EXPECT_EQ(y, naive_eval(x, d.omega(), Fr::one(), Fr::one())) << "log_n " << log_n;
      auto z = x;
      intt(d, z, pool);
      EXPECT_EQ(z, naive_eval(x, d.omega_inv(), Fr::one(), d.n_inv())) << "log_n " << log_n;
    }
}

TEST(NttCoset, MatchesNaiveForGeneratorAndSnarkjsShift) {
  ThreadPool pool(2);
  std::mt19937_64 rng(102);
  for (auto conv : kConvs)
    for (int log_n = 1; log_n <= 7; log_n++) {
      Domain d(log_n, conv);
      const Fr shifts[] = {Fr::from_u64(7), coset_shift_snarkjs(log_n), random_fe<Fr>(rng)};
      for (const Fr& g : shifts) {
        auto x = random_vec(d.size(), rng);
        auto y = x;
        coset_ntt(d, y, g, pool);
        EXPECT_EQ(y, naive_eval(x, d.omega(), g, Fr::one())) << "log_n " << log_n;
        auto z = x;
        coset_intt(d, z, g, pool);
        EXPECT_EQ(z, naive_coset_inverse(x, d.omega(), g)) << "log_n " << log_n;
      }
    }
}

TEST(NttCoset, SnarkjsShiftIsOddCoset) {
  for (int log_n = 0; log_n <= 31; log_n++) {
    Fr g = coset_shift_snarkjs(log_n);
    uint64_t n = uint64_t{1} << log_n;
    EXPECT_EQ(g.pow(&n, 1), -Fr::one()) << log_n;  // g^n = −1: g is a primitive 2n-th root
    EXPECT_EQ(g.sqr(), root_of_unity(log_n, RootConvention::kSnarkjs5));
  }
  EXPECT_THROW(coset_shift_snarkjs(32), Error);
}

TEST(NttRoundTrip, RandomSizesUpTo2to16) {
  ThreadPool pool(2);
  std::mt19937_64 rng(103);
  for (int log_n : {9, 11, 12, 13, 14, 16})
    for (auto conv : kConvs) {
      Domain d(log_n, conv);
      auto x = random_vec(d.size(), rng);
      auto y = x;
      ntt(d, y, pool);
      EXPECT_NE(y, x);
      intt(d, y, pool);
      EXPECT_EQ(y, x) << "ntt→intt log_n " << log_n;
      intt(d, y, pool);
      ntt(d, y, pool);
      EXPECT_EQ(y, x) << "intt→ntt log_n " << log_n;
      Fr g = conv == RootConvention::kSnarkjs5 ? coset_shift_snarkjs(log_n) : Fr::from_u64(7);
      coset_ntt(d, y, g, pool);
      coset_intt(d, y, g, pool);
      EXPECT_EQ(y, x) << "coset log_n " << log_n;
    }
}

// Spot check a transform bigger than the in-cache block size against single naive evaluations.
TEST(NttNaive, LargeDomainSpotValues) {
  ThreadPool pool(2);
  std::mt19937_64 rng(104);
  Domain d(15, RootConvention::kGenerator7);
  auto x = random_vec(d.size(), rng);
  auto y = x;
  ntt(d, y, pool);
  for (size_t i : {size_t{0}, size_t{1}, size_t{4097}, d.size() / 2, d.size() - 1}) {
    Fr w = d.omega().pow_u64(i), acc = Fr::zero(), p = Fr::one();
    for (size_t k = 0; k < d.size(); k++) {
      acc += x[k] * p;
      p *= w;
    }
    EXPECT_EQ(y[i], acc) << i;
  }
}

TEST(NttThreads, OneAndTwoThreadsIdentical) {
  ThreadPool p1(1), p2(2);
  std::mt19937_64 rng(105);
  for (int log_n : {3, 12, 14}) {
    Domain d(log_n, RootConvention::kSnarkjs5);
    auto x = random_vec(d.size(), rng);
    auto a = x, b = x;
    ntt(d, a, p1);
    ntt(d, b, p2);
    EXPECT_EQ(a, b);
    Fr g = coset_shift_snarkjs(log_n);
    coset_intt(d, a, g, p1);
    coset_intt(d, b, g, p2);
    EXPECT_EQ(a, b);
  }
}

TEST(NttEdge, ZeroDeltaOnes) {
  ThreadPool pool(2);
  for (int log_n : {1, 5, 13}) {
    Domain d(log_n, RootConvention::kGenerator7);
    const size_t n = d.size();
    std::vector<Fr> v(n, Fr::zero());
    ntt(d, v, pool);
    EXPECT_EQ(v, std::vector<Fr>(n, Fr::zero()));
    intt(d, v, pool);
    EXPECT_EQ(v, std::vector<Fr>(n, Fr::zero()));
    // δ₀ (the constant polynomial 1) → all ones; all ones → n·δ₀
    v[0] = Fr::one();
    ntt(d, v, pool);
    EXPECT_EQ(v, std::vector<Fr>(n, Fr::one()));
    ntt(d, v, pool);
    std::vector<Fr> nd(n, Fr::zero());
    nd[0] = Fr::from_u64(n);
    EXPECT_EQ(v, nd);
    // intt of all ones is δ₀
    std::vector<Fr> ones(n, Fr::one()), delta(n, Fr::zero());
    delta[0] = Fr::one();
    intt(d, ones, pool);
    EXPECT_EQ(ones, delta);
    // X (δ₁) → ω^i
    std::vector<Fr> x(n, Fr::zero());
    x[1] = Fr::one();
    ntt(d, x, pool);
    for (size_t i = 0; i < n; i++) ASSERT_EQ(x[i], d.omega().pow_u64(i)) << i;
  }
}

TEST(NttDomain, RejectsBadArguments) {
  EXPECT_THROW(Domain(0, RootConvention::kGenerator7), Error);
  EXPECT_THROW(Domain(29, RootConvention::kGenerator7), Error);
  ThreadPool pool(1);
  Domain d(4, RootConvention::kGenerator7);
  EXPECT_EQ(d.twiddles().size(), 8u);
  std::vector<Fr> v(8);
  EXPECT_THROW(ntt(d, v, pool), Error);
  EXPECT_THROW(intt(d, v, pool), Error);
  std::vector<Fr> w(16);
  EXPECT_THROW(coset_intt(d, w, Fr::zero(), pool), Error);
}

TEST(NttThreadPool, CoversRangeOnceAndRethrows) {
  for (unsigned t : {1u, 2u, 3u}) {
    ThreadPool pool(t);
    EXPECT_EQ(pool.size(), t);
    for (size_t n : {size_t{0}, size_t{1}, size_t{7}, size_t{1000}}) {
      for (size_t grain : {size_t{0}, size_t{1}, size_t{3}}) {
        std::vector<std::atomic<int>> hits(n);
        pool.parallel_for(
            n,
            [&](size_t b, size_t e) {
              EXPECT_LT(b, e);
              if (grain) {
                EXPECT_LE(e - b, grain);
              }
              for (size_t i = b; i < e; i++) hits[i]++;
            },
            grain);
        for (size_t i = 0; i < n; i++) ASSERT_EQ(hits[i].load(), 1) << n << " " << i;
      }
    }
    EXPECT_THROW(pool.parallel_for(
                     100,
                     [](size_t b, size_t) {
                       if (b >= 50) throw std::runtime_error("boom");
                     },
                     1),
                 std::runtime_error);
    // nested parallel_for runs inline; the pool stays usable after an exception
    std::atomic<int> total{0};
    pool.parallel_for(
        4, [&](size_t, size_t) { pool.parallel_for(10, [&](size_t b, size_t e) { total += (int)(e - b); }); },
        1);
    EXPECT_EQ(total.load(), 40);
  }
  EXPECT_GE(ThreadPool(0).size(), 1u);
}

TEST(NttThreadPool, ConcurrentCallersEachCoverTheirRange) {
  ThreadPool pool(3);
  auto caller = [&](size_t n, std::atomic<long>& total) {
    for (int r = 0; r < 40; r++) {
      std::vector<std::atomic<int>> hits(n);
      pool.parallel_for(n, [&](size_t b, size_t e) {
        for (size_t i = b; i < e; i++) hits[i]++;
      });
      for (size_t i = 0; i < n; i++) ASSERT_EQ(hits[i].load(), 1) << n << " " << i;
      total += (long)n;
    }
  };
  std::atomic<long> totals[4] = {0, 0, 0, 0};
  const size_t sizes[4] = {1000, 37, 4096, 5};
  std::vector<std::thread> threads;
  for (int i = 0; i < 4; i++) threads.emplace_back(caller, sizes[i], std::ref(totals[i]));
  for (auto& t : threads) t.join();
  for (int i = 0; i < 4; i++) EXPECT_EQ(totals[i].load(), 40 * (long)sizes[i]);
}

// A call does not wait for another: with every thread of the pool held in a first call's chunks, a second
// call from another thread finishes on its own thread (a pool that ran one call at a time would stall here
// until the first call's chunks gave up waiting).
TEST(NttThreadPool, ACallFinishesWhileAnotherHoldsEveryWorker) {
  ThreadPool pool(3);
  std::atomic<int> holding{0};
  std::atomic<bool> second_done{false}, first_gave_up{false};
  std::thread first([&] {
    pool.parallel_for(
        3,
        [&](size_t, size_t) {
          holding++;
          const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(30);
          while (!second_done && std::chrono::steady_clock::now() < until)
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
          if (!second_done) first_gave_up = true;
        },
        1);
  });
  while (holding < 3) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  std::atomic<long> total{0};
  std::thread second([&] {
    pool.parallel_for(
        100, [&](size_t b, size_t e) { total += (long)(e - b); }, 1);
    second_done = true;
  });
  second.join();
  first.join();
  EXPECT_EQ(total.load(), 100);
  EXPECT_FALSE(first_gave_up);
}

// The workers help the call made first: while the first call has chunks not yet taken, the second
// call's chunks run on its own thread only. (A worker may take one of the second's chunks only once every
// chunk of the first is taken; a chunk taken but not yet begun is why the bound allows size() of them.)
TEST(NttThreadPool, WorkersHelpTheOldestCallFirst) {
  ThreadPool pool(4);
  constexpr size_t kFirst = 400;
  std::atomic<size_t> first_begun{0};
  std::atomic<bool> first_running{false};
  std::thread first([&] {
    pool.parallel_for(
        kFirst,
        [&](size_t, size_t) {
          first_running = true;
          first_begun++;
          std::this_thread::sleep_for(std::chrono::microseconds(500));
        },
        1);
  });
  while (!first_running) std::this_thread::sleep_for(std::chrono::microseconds(100));
  std::vector<std::pair<std::thread::id, size_t>> seen(1000);
  std::thread::id caller;
  std::thread second([&] {
    caller = std::this_thread::get_id();
    pool.parallel_for(
        seen.size(),
        [&](size_t b, size_t) {
          seen[b] = {std::this_thread::get_id(), first_begun.load()};
          std::this_thread::sleep_for(std::chrono::microseconds(500));
        },
        1);
  });
  second.join();
  first.join();
  EXPECT_EQ(first_begun.load(), kFirst);
  size_t helped = 0;
  for (const auto& [id, begun] : seen)
    if (id != caller) {
      helped++;
      EXPECT_GE(begun + pool.size(), kFirst) << "a worker left the first call while it had chunks left";
    }
  // Alone on their threads the first takes ~200 ms and the second ~500 ms: the first, helped by every worker,
  // ends long before the second, whose remaining chunks the workers then take.
  EXPECT_GT(helped, 0u);
}

}  // namespace
}  // namespace cuzk::test

namespace cuzk::test {
namespace {

// The vector (AVX-512 IFMA) butterflies and the scalar ones agree on every transform, on random data
// with 0, 1 and r − 1 mixed in, in the in-block stages (2^4, 2^9) and the global ones (2^13, 2^16).
TEST(NttSimd, VectorButterfliesMatchScalar) {
  ThreadPool pool(2);
  std::mt19937_64 rng(111);
  for (int log_n : {4, 9, 13, 16}) {
    Domain vec(log_n, RootConvention::kSnarkjs5, true), sca(log_n, RootConvention::kSnarkjs5, false);
    EXPECT_FALSE(sca.simd());
    EXPECT_EQ(vec.simd(), ifma::cpu_has_ifma());
    auto x = random_vec(vec.size(), rng);
    x[0] = Fr::zero();
    x[1] = Fr::one();
    x[2] = -Fr::one();
    x[x.size() - 1] = -Fr::one();
    const Fr shift = coset_shift_snarkjs(log_n);
    auto a = x, b = x;
    ntt(vec, a, pool);
    ntt(sca, b, pool);
    EXPECT_EQ(a, b) << "ntt 2^" << log_n;
    intt(vec, a, pool);
    intt(sca, b, pool);
    EXPECT_EQ(a, b) << "intt 2^" << log_n;
    EXPECT_EQ(a, x) << "round trip 2^" << log_n;
    coset_ntt(vec, a, shift, pool);
    coset_ntt(sca, b, shift, pool);
    EXPECT_EQ(a, b) << "coset_ntt 2^" << log_n;
  }
}

}  // namespace
}  // namespace cuzk::test
