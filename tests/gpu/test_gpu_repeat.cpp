// Determinism: 20 runs of the same NTT and the same MSMs give identical results, and the first equals
// the CPU's (so a result that is wrong every time fails too). scripts/gpu-check.sh runs these once as
// they are and once under CUDA_LAUNCH_BLOCKING=1, which serializes the launches: a race between kernels,
// streams or host and device shows up as a difference between runs or between the two invocations.
#include <gtest/gtest.h>

#include <random>
#include <span>
#include <vector>

#include "cuda/gpu.hpp"
#include "cuda/msm.hpp"
#include "ec/curves.hpp"
#include "gpu_support.hpp"
#include "msm/pippenger.hpp"
#include "ntt/ntt.hpp"
#include "util/thread_pool.hpp"

namespace cuzk::test {
namespace {

constexpr int kRuns = 20;

TEST(GpuRepeat, Ntt) {
  CUZK_REQUIRE_GPU();
  const int L = 22;  // three passes
  const auto conv = RootConvention::kGenerator7;
  const Fr shift = Fr::from_u64(7);
  const auto x = fast_random<Fr>(size_t{1} << L, 2201);
  ThreadPool pool;
  const Domain dom(L, conv);
  std::vector<Fr> want_fwd = x, want_coset = x;
  ntt(dom, std::span<Fr>(want_fwd), pool);
  coset_ntt(dom, std::span<Fr>(want_coset), shift, pool);
  cuda::GpuNtt g(L, conv);
  cuda::DeviceFrVec d(x.size());
  int bad_fwd = 0, bad_coset = 0, bad_round_trip = 0;
  for (int r = 0; r < kRuns; r++) {
    d.upload(x);
    g.forward(d);
    bad_fwd += d.download() != want_fwd;
    g.inverse(d);
    bad_round_trip += d.download() != x;
    g.coset_forward(d, shift);
    bad_coset += d.download() != want_coset;
  }
  EXPECT_EQ(bad_fwd, 0) << "forward runs (of " << kRuns << ") that differ from the CPU NTT";
  EXPECT_EQ(bad_round_trip, 0) << "inverse runs that did not give the input back";
  EXPECT_EQ(bad_coset, 0) << "coset forward runs that differ from the CPU coset NTT";
}

TEST(GpuRepeat, Msm) {
  CUZK_REQUIRE_GPU();
  const size_t n = size_t{1} << 20;
  ThreadPool pool;
  // random points k·G (GPU fixed-base multiplication; the CPU reference uses the same points)
  const auto k = fast_random<Fr>(n, 2202);
  std::vector<G1Affine> bases(n);
  cuda::fixed_base_mul(Curve<Fp>::generator(), k.data(), n, bases.data());
  auto s = fast_random<Fr>(n, 2203);
  auto w = s;  // the 0/1-heavy witness shape: 45% zero, 45% one
  std::mt19937_64 rng(2204);
  for (auto& e : w) {
    const unsigned c = (unsigned)(rng() % 100);
    if (c < 45)
      e = Fr::zero();
    else if (c < 90)
      e = Fr::one();
  }
  const G1Affine want_s = msm<Fp>(std::span<const G1Affine>(bases), std::span<const Fr>(s), pool).to_affine();
  const G1Affine want_w = msm<Fp>(std::span<const G1Affine>(bases), std::span<const Fr>(w), pool).to_affine();
  cuda::MsmG1 gpu;
  gpu.set_bases(bases);
  cuda::DeviceScalars ds, dw;
  ds.upload(s);
  dw.upload(w);
  int bad_msm = 0, bad_split = 0;
  for (int r = 0; r < kRuns; r++) {
    bad_msm += !(gpu.msm_device(ds.data(), n).to_affine() == want_s);
    bad_split += !(gpu.msm_split01_device(dw.data(), n).to_affine() == want_w);
  }
  EXPECT_EQ(bad_msm, 0) << "G1 2^20 msm runs (of " << kRuns << ") that differ from the CPU MSM";
  EXPECT_EQ(bad_split, 0) << "G1 2^20 msm_split01 runs that differ from the CPU MSM";
}

}  // namespace
}  // namespace cuzk::test
