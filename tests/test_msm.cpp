// CPU MSM (src/msm) against the naive Σ kᵢ·Pᵢ on G1 and G2: sizes 0..1000, both bucket methods and several
// window sizes, skewed scalars (0/1, equal, r − 1), repeated, opposite and infinity bases, thread-count
// independence and the 0/1 split.
#include <gtest/gtest.h>

#include <type_traits>
#include <vector>

#include "msm/pippenger.hpp"
#include "random.hpp"
#include "util/error.hpp"

namespace cuzk::test {
namespace {

// n pseudo-random points: a walk P_i = P_{i−1} + R_{i mod 8} from random points (cheap to make).
template <class F>
std::vector<Affine<F>> random_bases(size_t n, std::mt19937_64& rng) {
  Affine<F> r[8];
  for (auto& p : r) p = random_point<F>(rng);
  std::vector<Jacobian<F>> j(n);
  Jacobian<F> acc = Jacobian<F>::from_affine(random_point<F>(rng));
  for (size_t i = 0; i < n; i++) {
    acc = acc.add_affine(r[i % 8]);
    j[i] = acc;
  }
  return batch_to_affine(j);
}

std::vector<Fr> random_scalars(size_t n, std::mt19937_64& rng) {
  std::vector<Fr> s(n);
  for (auto& x : s) x = random_fe<Fr>(rng);
  return s;
}

template <class F>
Jacobian<F> naive(const std::vector<Affine<F>>& b, const std::vector<Fr>& s) {
  Jacobian<F> acc = Jacobian<F>::infinity();
  for (size_t i = 0; i < b.size(); i++) acc += scalar_mul(b[i], s[i]);
  return acc;
}

MsmConfig config(int c, MsmBuckets m, bool split01 = true, bool simd = true) {
  MsmConfig cfg;
  cfg.window_bits = c;
  cfg.buckets = m;
  cfg.split01 = split01;
  cfg.simd = simd;
  return cfg;
}

// Default plan, both forced bucket methods with a few window sizes (fewer on the slower G2), split on and
// off; batch-affine G1 both with the AVX-512 IFMA buckets (on CPUs that have them) and the scalar ones.
template <class F>
void check_all_configs(const std::vector<Affine<F>>& b, const std::vector<Fr>& s, ThreadPool& pool,
                       const Jacobian<F>& expect, const char* what) {
  EXPECT_EQ(msm<F>(b, s, pool), expect) << what << " default";
  EXPECT_EQ(msm_split01<F>(b, s, pool), expect) << what << " split01";
  // (batch-affine with tiny windows is correct but slow: one inversion per couple of additions)
  const bool g1 = std::is_same_v<F, Fp>;
  for (MsmBuckets m : {MsmBuckets::kXyzz, MsmBuckets::kBatchAffine})
    for (int c : m == MsmBuckets::kXyzz ? (g1 ? std::vector<int>{1, 4, 10} : std::vector<int>{1, 7})
                                        : (g1 ? std::vector<int>{3, 6, 10} : std::vector<int>{3, 7}))
      for (bool split : {false, true})
        for (bool simd : {false, true})
          EXPECT_EQ(msm<F>(b, s, pool, config(c, m, split, simd)), expect)
              << what << " c=" << c << " batch-affine=" << (m == MsmBuckets::kBatchAffine)
              << " split=" << split << " simd=" << simd;
}

template <class F>
void sizes_vs_naive(uint64_t seed) {
  ThreadPool pool(2);
  std::mt19937_64 rng(seed);
  for (size_t n : {0, 1, 2, 3, 17, 100, 1000}) {
    auto b = random_bases<F>(n, rng);
    auto s = random_scalars(n, rng);
    const auto expect = naive(b, s);
    if (n <= 100) {
      check_all_configs<F>(b, s, pool, expect, "random");
    } else {
      EXPECT_EQ(msm<F>(b, s, pool), expect) << n;
      EXPECT_EQ(msm<F>(b, s, pool, config(0, MsmBuckets::kXyzz)), expect) << n;
      EXPECT_EQ(msm<F>(b, s, pool, config(0, MsmBuckets::kBatchAffine)), expect) << n;
      EXPECT_EQ(msm<F>(b, s, pool, config(7, MsmBuckets::kBatchAffine)), expect) << n;
      EXPECT_EQ(msm<F>(b, s, pool, config(7, MsmBuckets::kBatchAffine, true, false)), expect) << n;
    }
  }
}

TEST(MsmNaive, G1Sizes0To1000) { sizes_vs_naive<Fp>(201); }
TEST(MsmNaive, G2Sizes0To1000) { sizes_vs_naive<Fp2>(202); }

template <class F>
void skewed(uint64_t seed) {
  ThreadPool pool(2);
  std::mt19937_64 rng(seed);
  const size_t n = std::is_same_v<F, Fp> ? 64 : 32;
  auto b = random_bases<F>(n, rng);
  Jacobian<F> sum_b = Jacobian<F>::infinity();
  for (auto& p : b) sum_b = sum_b.add_affine(p);

  std::vector<Fr> zero(n, Fr::zero()), ones(n, Fr::one());
  check_all_configs<F>(b, zero, pool, Jacobian<F>::infinity(), "all zero");
  check_all_configs<F>(b, ones, pool, sum_b, "all one");

  Fr k = random_fe<Fr>(rng);
  std::vector<Fr> equal(n, k), minus_one(n, -Fr::one());
  check_all_configs<F>(b, equal, pool, scalar_mul(sum_b, k), "all equal");
  check_all_configs<F>(b, minus_one, pool, -sum_b, "all r-1");

  std::vector<Fr> mostly01(n);
  for (size_t i = 0; i < n; i++) {
    unsigned r = rng() % 10;
    mostly01[i] = r < 5 ? Fr::zero() : r < 9 ? Fr::one() : random_fe<Fr>(rng);
  }
  check_all_configs<F>(b, mostly01, pool, naive(b, mostly01), "mostly 0/1");

  // one base repeated: with equal scalars every bucket addition is a doubling
  std::vector<Affine<F>> rep(n, b[0]);
  check_all_configs<F>(rep, equal, pool, scalar_mul(b[0], k * Fr::from_u64(n)), "repeated base, equal");
  auto rs = random_scalars(n, rng);
  check_all_configs<F>(rep, rs, pool, naive(rep, rs), "repeated base, random");

  // infinity bases are skipped whatever their scalar
  auto with_inf = b;
  for (size_t i = 0; i < n; i += 3) with_inf[i] = Affine<F>::infinity();
  check_all_configs<F>(with_inf, rs, pool, naive(with_inf, rs), "infinity bases");
  std::vector<Affine<F>> all_inf(n, Affine<F>::infinity());
  check_all_configs<F>(all_inf, rs, pool, Jacobian<F>::infinity(), "all infinity");

  // P and −P with equal scalars cancel bucket by bucket
  std::vector<Affine<F>> pm;
  std::vector<Fr> pm_s;
  for (size_t i = 0; i < n / 2; i++) {
    pm.push_back(b[i]);
    pm.push_back(-b[i]);
    Fr x = i % 4 == 0 ? Fr::one() : i % 4 == 1 ? k : random_fe<Fr>(rng);
    pm_s.push_back(x);
    pm_s.push_back(x);
  }
  check_all_configs<F>(pm, pm_s, pool, Jacobian<F>::infinity(), "P, -P pairs");
  // P and −P where −P carries the negated scalar: 2k·P
  pm_s[1] = -pm_s[0];
  Jacobian<F> e2 = naive(pm, pm_s);
  EXPECT_EQ(e2, scalar_mul(b[0], pm_s[0].dbl()));
  check_all_configs<F>(pm, pm_s, pool, e2, "P, -P with opposite scalars");
}

TEST(MsmSkewed, G1) { skewed<Fp>(203); }
TEST(MsmSkewed, G2) { skewed<Fp2>(204); }

// Mostly equal scalars: every batch collides on the same buckets, exercising the XYZZ overflow buckets.
TEST(MsmSkewed, G1EqualScalarsLargeWindow) {
  ThreadPool pool(2);
  std::mt19937_64 rng(205);
  const size_t n = 3000;
  auto b = random_bases<Fp>(n, rng);
  Fr k = random_fe<Fr>(rng);
  std::vector<Fr> s(n, k);
  for (size_t i = 0; i < n; i += 7) s[i] = random_fe<Fr>(rng);
  auto expect = naive(b, s);
  EXPECT_EQ(msm<Fp>(b, s, pool), expect);
  EXPECT_EQ(msm<Fp>(b, s, pool, config(12, MsmBuckets::kBatchAffine)), expect);
  EXPECT_EQ(msm<Fp>(b, s, pool, config(8, MsmBuckets::kBatchAffine)), expect);
  EXPECT_EQ(msm<Fp>(b, s, pool, config(8, MsmBuckets::kBatchAffine, true, false)), expect);
}

// Enough points for full batches of the vector buckets (many groups of 8, a padded last group), with
// every tenth base repeated from the one before so that x_P = x_B additions are deferred mid-batch.
template <class F>
void vector_buckets_match_scalar(size_t n, uint64_t seed) {
  ThreadPool pool(2);
  std::mt19937_64 rng(seed);
  auto b = random_bases<F>(n, rng);
  for (size_t i = 10; i < n; i += 10) b[i] = b[i - 1];
  auto s = random_scalars(n, rng);
  for (size_t i = 10; i < n; i += 20) s[i] = s[i - 1];
  for (int c : {9, 11, 13}) {
    const auto scalar = msm<F>(b, s, pool, config(c, MsmBuckets::kBatchAffine, true, false));
    EXPECT_EQ(msm<F>(b, s, pool, config(c, MsmBuckets::kBatchAffine, true, true)), scalar) << c;
    EXPECT_EQ(msm<F>(b, s, pool, config(c, MsmBuckets::kXyzz)), scalar) << c;
  }
}
// One base P with scalars 1..n: bucket sums are small multiples of P, so the running sums meet
// S = B and A = S (doublings) that the lane code hands to scalar code.
template <class F>
void equal_bases_small_scalars(uint64_t seed) {
  ThreadPool pool(2);
  std::mt19937_64 rng(seed);
  const size_t n = 700;
  const Affine<F> p = random_point<F>(rng);
  std::vector<Affine<F>> b(n, p);
  std::vector<Fr> s(n);
  uint64_t total = 0;
  for (size_t i = 0; i < n; i++) {
    s[i] = Fr::from_u64(i + 1);
    total += i + 1;
  }
  const auto expect = scalar_mul(p, Fr::from_u64(total));
  for (int c : {10, 11, 12})
    for (bool simd : {false, true})
      EXPECT_EQ(msm<F>(b, s, pool, config(c, MsmBuckets::kBatchAffine, true, simd)), expect)
          << "c=" << c << " simd=" << simd;
}
TEST(MsmSimd, G1EqualBasesSmallScalars) { equal_bases_small_scalars<Fp>(210); }
TEST(MsmSimd, G2EqualBasesSmallScalars) { equal_bases_small_scalars<Fp2>(211); }

TEST(MsmSimd, G1VectorBucketsMatchScalar) { vector_buckets_match_scalar<Fp>(20011, 208); }
TEST(MsmSimd, G2VectorBucketsMatchScalar) { vector_buckets_match_scalar<Fp2>(6007, 209); }

TEST(MsmThreads, OneAndTwoThreadsEqual) {
  ThreadPool p1(1), p2(2), p3(3);
  std::mt19937_64 rng(206);
  {
    auto b = random_bases<Fp>(5000, rng);
    auto s = random_scalars(5000, rng);
    for (int i = 0; i < 5000; i += 5) s[i] = Fr::one();
    auto r1 = msm<Fp>(b, s, p1);
    EXPECT_EQ(r1, msm<Fp>(b, s, p2));
    EXPECT_EQ(r1, msm<Fp>(b, s, p3));
    EXPECT_EQ(r1, msm<Fp>(b, s, p2, config(10, MsmBuckets::kXyzz)));
    EXPECT_EQ(r1, msm<Fp>(b, s, p2, config(10, MsmBuckets::kBatchAffine, false)));
  }
  {
    auto b = random_bases<Fp2>(1500, rng);
    auto s = random_scalars(1500, rng);
    auto r1 = msm<Fp2>(b, s, p1);
    EXPECT_EQ(r1, msm<Fp2>(b, s, p2));
    EXPECT_EQ(r1, msm<Fp2>(b, s, p2, config(9, MsmBuckets::kBatchAffine)));
  }
}

TEST(MsmSplit, Split01EqualsPlainPippenger) {
  ThreadPool pool(2);
  std::mt19937_64 rng(207);
  const size_t n = 4000;
  auto b = random_bases<Fp>(n, rng);
  std::vector<Fr> s(n);
  for (size_t i = 0; i < n; i++) {
    unsigned r = rng() % 100;
    s[i] = r < 60 ? Fr::zero() : r < 95 ? Fr::one() : random_fe<Fr>(rng);
  }
  MsmConfig no_split;
  no_split.split01 = false;
  EXPECT_EQ(msm_split01<Fp>(b, s, pool), msm<Fp>(b, s, pool, no_split));
  auto b2 = random_bases<Fp2>(500, rng);
  std::vector<Fr> s2(s.begin(), s.begin() + 500);
  EXPECT_EQ(msm_split01<Fp2>(b2, s2, pool), naive(b2, s2));
}

TEST(MsmPlan, WindowGrowsWithSize) {
  int last = 0;
  for (int lg = 0; lg <= 26; lg += 2) {
    MsmConfig p = msm_plan<Fp>(size_t{1} << lg, 1);
    EXPECT_GE(p.window_bits, last) << lg;
    EXPECT_LE(p.window_bits, 20);
    EXPECT_NE(p.buckets, MsmBuckets::kAuto);
    last = p.window_bits;
  }
  EXPECT_EQ(msm_plan<Fp>(size_t{1} << 20, 1).buckets, MsmBuckets::kBatchAffine);
  EXPECT_EQ(msm_plan<Fp2>(size_t{1} << 20, 1).buckets, MsmBuckets::kBatchAffine);
}

TEST(MsmErrors, RejectsMismatchedSpansAndBadWindow) {
  ThreadPool pool(1);
  std::mt19937_64 rng(208);
  auto b = random_bases<Fp>(4, rng);
  auto s = random_scalars(3, rng);
  EXPECT_THROW(msm<Fp>(b, s, pool), Error);
  s.push_back(Fr::from_u64(5));
  EXPECT_THROW(msm<Fp>(b, s, pool, config(21, MsmBuckets::kXyzz)), Error);
}

}  // namespace
}  // namespace cuzk::test
