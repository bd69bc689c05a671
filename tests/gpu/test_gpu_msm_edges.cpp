// Edge cases of the GPU MSM that test_gpu_msm.cpp does not reach, each compared with the CPU MSM
// (src/msm), on G1 and G2, through both msm and msm_split01:
//  - sizes n = 1, 2, 3, 7, 10 and 1000 (test_gpu_msm.cpp's skewed scalars start at 2^12);
//  - bases: random; all at infinity; exactly n/10 at infinity (n ≥ 10); all the same point; each one of
//    P, Q, −P (duplicates and negations at every size);
//  - scalars: uniform; all equal; all 0; all 1; all r − 1; a mix of 0, 1, r − 1 and uniform.
// GpuMsmSanitize.Small is one small case per curve, for compute-sanitizer.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "cuda/msm.hpp"
#include "ec/curves.hpp"
#include "gpu_support.hpp"
#include "msm/pippenger.hpp"
#include "random.hpp"
#include "util/thread_pool.hpp"

namespace cuzk::test {
namespace {

ThreadPool& pool() {
  static ThreadPool p;
  return p;
}

enum class Bases { kRandom, kAllInfinity, kTenthInfinity, kAllSame, kFewDistinct };
const Bases kBaseKinds[] = {Bases::kRandom, Bases::kAllInfinity, Bases::kTenthInfinity, Bases::kAllSame,
                            Bases::kFewDistinct};
const char* bases_name(Bases b) {
  switch (b) {
    case Bases::kRandom:
      return "random bases";
    case Bases::kAllInfinity:
      return "all bases at infinity";
    case Bases::kTenthInfinity:
      return "10% of bases at infinity";
    case Bases::kAllSame:
      return "all bases equal";
    case Bases::kFewDistinct:
      return "bases from {P, Q, -P}";
  }
  return "?";
}

enum class Scalars { kUniform, kAllEqual, kZero, kOne, kMinusOne, kMixed };
const Scalars kScalarKinds[] = {Scalars::kUniform, Scalars::kAllEqual, Scalars::kZero,
                                Scalars::kOne,     Scalars::kMinusOne, Scalars::kMixed};
const char* scalars_name(Scalars s) {
  switch (s) {
    case Scalars::kUniform:
      return "uniform scalars";
    case Scalars::kAllEqual:
      return "all scalars equal";
    case Scalars::kZero:
      return "all scalars 0";
    case Scalars::kOne:
      return "all scalars 1";
    case Scalars::kMinusOne:
      return "all scalars r-1";
    case Scalars::kMixed:
      return "scalars from {0, 1, r-1, uniform}";
  }
  return "?";
}

/// n bases of the given kind; `random` holds at least n random points of the group.
template <class F>
std::vector<Affine<F>> make_bases(Bases kind, size_t n, const std::vector<Affine<F>>& random,
                                  std::mt19937_64& rng) {
  std::vector<Affine<F>> b(random.begin(), random.begin() + n);
  switch (kind) {
    case Bases::kRandom:
      break;
    case Bases::kAllInfinity:
      std::fill(b.begin(), b.end(), Affine<F>::infinity());
      break;
    case Bases::kTenthInfinity: {
      std::vector<size_t> idx(n);
      for (size_t i = 0; i < n; i++) idx[i] = i;
      std::shuffle(idx.begin(), idx.end(), rng);
      for (size_t i = 0; i < n / 10; i++) b[idx[i]] = Affine<F>::infinity();
      break;
    }
    case Bases::kAllSame:
      std::fill(b.begin(), b.end(), random[0]);
      break;
    case Bases::kFewDistinct: {
      const Affine<F> few[3] = {random[0], random[1], -random[0]};
      for (auto& p : b) p = few[rng() % 3];
      break;
    }
  }
  return b;
}

std::vector<Fr> make_scalars(Scalars kind, size_t n, std::mt19937_64& rng) {
  const Fr minus_one = Fr::zero() - Fr::one(), eq = random_fe<Fr>(rng);
  std::vector<Fr> s(n);
  for (auto& x : s) {
    switch (kind) {
      case Scalars::kUniform:
        x = random_fe<Fr>(rng);
        break;
      case Scalars::kAllEqual:
        x = eq;
        break;
      case Scalars::kZero:
        x = Fr::zero();
        break;
      case Scalars::kOne:
        x = Fr::one();
        break;
      case Scalars::kMinusOne:
        x = minus_one;
        break;
      case Scalars::kMixed: {
        const Fr pick[4] = {Fr::zero(), Fr::one(), minus_one, random_fe<Fr>(rng)};
        x = pick[rng() % 4];
        break;
      }
    }
  }
  return s;
}

/// Loads the bases, then checks msm and msm_split01 of s against the CPU MSM.
template <class F>
void check_case(cuda::Msm<F>& gpu, const std::vector<Affine<F>>& b, const std::vector<Fr>& s,
                const std::string& what) {
  gpu.set_bases(b);
  const Affine<F> want = msm<F>(std::span<const Affine<F>>(b), std::span<const Fr>(s), pool()).to_affine();
  EXPECT_TRUE(gpu.msm(s).to_affine() == want) << "msm, " << what;
  EXPECT_TRUE(gpu.msm_split01(s).to_affine() == want) << "msm_split01, " << what;
}

template <class F>
std::vector<Affine<F>> random_points(size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<Affine<F>> v(n);
  for (auto& p : v) p = random_point<F>(rng);
  return v;
}

template <class F>
void edge_matrix(const char* curve) {
  const std::vector<Affine<F>> random = random_points<F>(1000, 17);
  cuda::Msm<F> gpu;
  std::mt19937_64 rng(18);
  for (size_t n : {1, 2, 3, 7, 10, 1000})
    for (Bases bk : kBaseKinds) {
      if (bk == Bases::kTenthInfinity && n < 10) continue;
      const auto b = make_bases(bk, n, random, rng);
      for (Scalars sk : kScalarKinds)
        check_case(gpu, b, make_scalars(sk, n, rng),
                   std::string(curve) + " n = " + std::to_string(n) + ", " + bases_name(bk) + ", " +
                       scalars_name(sk));
    }
}

TEST(GpuMsmEdges, G1) {
  CUZK_REQUIRE_GPU();
  edge_matrix<Fp>("G1");
}

TEST(GpuMsmEdges, G2) {
  CUZK_REQUIRE_GPU();
  edge_matrix<Fp2>("G2");
}

template <class F>
void small_case(const char* curve) {
  const std::vector<Affine<F>> random = random_points<F>(1000, 27);
  cuda::Msm<F> gpu;
  std::mt19937_64 rng(28);
  const auto b = make_bases(Bases::kTenthInfinity, random.size(), random, rng);
  for (Scalars sk : {Scalars::kUniform, Scalars::kMixed})
    check_case(gpu, b, make_scalars(sk, b.size(), rng),
               std::string(curve) + " n = 1000, " + scalars_name(sk));
}

TEST(GpuMsmSanitize, Small) {
  CUZK_REQUIRE_GPU();
  small_case<Fp>("G1");
  small_case<Fp2>("G2");
}

}  // namespace
}  // namespace cuzk::test
