// sppark's NTT and G1 MSM for BLS12-381, timed the way cuzk_gpu_bench times cuzk's (METHOD.md: a warm-up,
// then the median of several runs, random non-zero inputs, every result checked), so that issue 22's
// "faster than sppark" figures come from the same machine and the same run as cuzk's.
//
// Not part of the cuzk build: it is compiled by scripts/sppark-anchor.sh against a checkout of
// supranational/sppark and of supranational/blst (its host-side field types; check.cpp uses blst for
// the inputs and the checks). Only sppark's public entry points are called: NTT::Base_dev_ptr (ntt/ntt.cuh)
// and msm_t::invoke (msm/pippenger.cuh), with inputs and outputs resident on the GPU as in REFERENCE.md §3.
//
//   sppark_anchor ntt LOG_MIN LOG_MAX RUNS     forward / inverse, plain / coset, natural order
//   sppark_anchor msm LOG_MIN LOG_MAX RUNS     G1, random scalars; bases a tiled pool of 2^20 random points
//   (as cuzk_gpu_bench)
// Prints one line per case: `sppark <op> <variant> 2^<log> median <ms> ms (min <ms>, <runs> runs) check ok`.
// The checks themselves are tried first (anchor::self_test). Exits 1 if a check fails, 2 on bad arguments.
#include <cuda.h>

#include <ec/jacobian_t.hpp>
#include <ec/xyzz_t.hpp>
#include <ff/bls12-381.hpp>

typedef jacobian_t<fp_t> point_t;
typedef xyzz_t<fp_t> bucket_t;
typedef bucket_t::affine_t affine_t;
typedef fr_t scalar_t;

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <msm/pippenger.cuh>
#include <ntt/ntt.cuh>
#include <string>
#include <thread>
#include <vector>

#include "check.hpp"

namespace {

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

/// One warm-up call of f, then `runs` timed calls (f returns once the GPU is done); milliseconds.
template <class F>
std::vector<double> time_runs(int runs, F&& f) {
  f();
  std::vector<double> ms;
  for (int i = 0; i < runs; i++) {
    auto t0 = std::chrono::steady_clock::now();
    f();
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  return ms;
}

void cuda_check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, "sppark_anchor: %s: %s\n", what, cudaGetErrorString(e));
    std::exit(1);
  }
}

unsigned host_threads() { return std::max(1u, std::thread::hardware_concurrency()); }

void to_device(fr_t* d, const std::vector<fr_t>& h) {
  cuda_check(cudaMemcpy(d, h.data(), h.size() * sizeof(fr_t), cudaMemcpyHostToDevice), "copy to the GPU");
}
void to_host(std::vector<fr_t>& h, const fr_t* d) {
  cuda_check(cudaMemcpy(h.data(), d, h.size() * sizeof(fr_t), cudaMemcpyDeviceToHost), "copy to the host");
}

void ntt(const gpu_t& gpu, fr_t* d, uint32_t lg, NTT::Direction dir, NTT::Type type) {
  NTT::Base_dev_ptr(gpu, d, lg, NTT::InputOutputOrder::NN, dir, type);
}

/// The NTT's check at 2^10: e_1 transforms to ω^k for a primitive root ω, random x to its naive DFT,
/// and the inverse transform gives x back.
bool check_ntt(const gpu_t& gpu) {
  const uint32_t lg = 10;
  const size_t n = size_t(1) << lg;
  dev_ptr_t<fr_t> d(n);
  std::vector<fr_t> e1(n), w(n), x(n), y(n), back(n);
  std::memset(static_cast<void*>(e1.data()), 0, n * sizeof(fr_t));
  e1[1] = fr_t::one();
  to_device(&d[0], e1);
  ntt(gpu, &d[0], lg, NTT::Direction::forward, NTT::Type::standard);
  gpu.sync();
  to_host(w, &d[0]);
  anchor::random_frs(x.data(), n, 7, 1);
  to_device(&d[0], x);
  ntt(gpu, &d[0], lg, NTT::Direction::forward, NTT::Type::standard);
  gpu.sync();
  to_host(y, &d[0]);
  ntt(gpu, &d[0], lg, NTT::Direction::inverse, NTT::Type::standard);
  gpu.sync();
  to_host(back, &d[0]);
  return anchor::is_dft(x.data(), w.data(), y.data(), lg) && anchor::same_frs(back.data(), x.data(), n);
}

int run_ntt(int lo, int hi, int runs) {
  static_assert(sizeof(fr_t) == anchor::kFrBytes);
  const gpu_t& gpu = select_gpu(0);
  if (!check_ntt(gpu)) {
    std::printf("sppark ntt: the 2^10 check against the naive DFT FAILED\n");
    return 1;
  }
  std::printf("sppark ntt: the 2^10 transform equals the naive DFT; the inverse gives the input back\n");
  struct Case {
    const char* name;
    NTT::Direction dir;
    NTT::Type type;
  } const cases[] = {{"forward", NTT::Direction::forward, NTT::Type::standard},
                     {"inverse", NTT::Direction::inverse, NTT::Type::standard},
                     {"coset_forward", NTT::Direction::forward, NTT::Type::coset},
                     {"coset_inverse", NTT::Direction::inverse, NTT::Type::coset}};
  for (int lg = lo; lg <= hi; lg++) {
    const size_t n = size_t(1) << lg;
    std::vector<fr_t> x(n), back(n);
    anchor::random_frs(x.data(), n, 100 + lg, host_threads());
    dev_ptr_t<fr_t> d(n);
    for (const Case& c : cases) {
      to_device(&d[0], x);
      // Each timed run transforms the previous run's output: the data stay random and non-zero.
      auto ms = time_runs(runs, [&] {
        ntt(gpu, &d[0], lg, c.dir, c.type);
        gpu.sync();
      });
      cuda_check(cudaGetLastError(), c.name);
      // The check: runs + 1 transforms the other way must give x back.
      const auto undo = c.dir == NTT::Direction::forward ? NTT::Direction::inverse : NTT::Direction::forward;
      for (int i = 0; i <= runs; i++) ntt(gpu, &d[0], lg, undo, c.type);
      gpu.sync();
      to_host(back, &d[0]);
      const bool ok = anchor::same_frs(back.data(), x.data(), n);
      std::printf("sppark ntt %s 2^%d median %.3f ms (min %.3f, %d runs) check %s\n", c.name, lg, median(ms),
                  *std::min_element(ms.begin(), ms.end()), runs, ok ? "ok" : "FAILED");
      if (!ok) return 1;
    }
  }
  return 0;
}

using Msm = msm_t<bucket_t, point_t, affine_t, scalar_t>;

int run_msm(int lo, int hi, int runs) {
  static_assert(sizeof(affine_t) == anchor::kAffineBytes && sizeof(point_t) == anchor::kJacobianBytes);
  // As cuzk_gpu_bench: a pool of distinct random points tiled to the size, random scalars.
  const size_t pool_size = size_t(1) << 20, nmax = size_t(1) << hi;
  std::vector<affine_t> pool(pool_size), bases(nmax);
  anchor::random_points(pool.data(), pool_size, host_threads());
  for (size_t i = 0; i < nmax; i++) bases[i] = pool[i % pool_size];
  std::vector<scalar_t> scalars(nmax);
  anchor::random_frs(scalars.data(), nmax, 5, host_threads());
  dev_ptr_t<affine_t> d_bases(nmax);
  dev_ptr_t<scalar_t> d_scalars(nmax);
  cuda_check(cudaMemcpy(&d_bases[0], bases.data(), nmax * sizeof(affine_t), cudaMemcpyHostToDevice), "copy");
  cuda_check(cudaMemcpy(&d_scalars[0], scalars.data(), nmax * sizeof(scalar_t), cudaMemcpyHostToDevice),
             "copy");
  for (int lg = lo; lg <= hi; lg++) {
    const size_t n = size_t(1) << lg;
    Msm msm(nullptr, n);
    point_t out;
    RustError err{cudaSuccess};
    auto ms = time_runs(runs, [&] {
      err = msm.invoke(out, dev_ptr_t<affine_t>(&d_bases[0]), n, dev_ptr_t<scalar_t>(&d_scalars[0]), true);
    });
    if (err.code != cudaSuccess) {
      std::printf("sppark msm g1 2^%d: CUDA error %d\n", lg, err.code);
      return 1;
    }
    // The check. The bases repeat with period m = min(n, pool): the sum equals the MSM of the first m bases
    // by the folded scalars, which sppark computes as a second, different MSM (m terms, other scalars);
    // at the first size that second MSM is checked against blst's CPU Pippenger as well.
    const size_t m = std::min(n, pool_size);
    std::vector<scalar_t> folded(m);
    anchor::fold_scalars(scalars.data(), n, m, folded.data());
    dev_ptr_t<scalar_t> d_folded(m);
    cuda_check(cudaMemcpy(&d_folded[0], folded.data(), m * sizeof(scalar_t), cudaMemcpyHostToDevice), "copy");
    point_t ref;
    Msm small(nullptr, m);
    err = small.invoke(ref, dev_ptr_t<affine_t>(&d_bases[0]), m, dev_ptr_t<scalar_t>(&d_folded[0]), true);
    if (err.code != cudaSuccess) {
      std::printf("sppark msm g1 2^%d: CUDA error %d in the check\n", lg, err.code);
      return 1;
    }
    bool ok = anchor::same_point(&out, &ref);
    const bool on_cpu = lg == lo;
    if (on_cpu) ok = ok && anchor::is_msm(bases.data(), folded.data(), m, &ref);
    std::printf(
        "sppark msm g1 2^%d median %.3f ms (min %.3f, %d runs) check %s (the folded %zu-term MSM%s)\n", lg,
        median(ms), *std::min_element(ms.begin(), ms.end()), runs, ok ? "ok" : "FAILED", m,
        on_cpu ? ", and it against blst" : "");
    if (!ok) return 1;
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 5) {
    std::fprintf(stderr, "usage: sppark_anchor ntt|msm LOG_MIN LOG_MAX RUNS\n");
    return 2;
  }
  const std::string op = argv[1];
  const int lo = std::atoi(argv[2]), hi = std::atoi(argv[3]), runs = std::atoi(argv[4]);
  if (lo < 10 || hi > 28 || lo > hi || runs < 1) {
    std::fprintf(stderr, "sppark_anchor: LOG_MIN..LOG_MAX must lie in 10..28, RUNS ≥ 1\n");
    return 2;
  }
  if (!anchor::self_test()) {
    std::printf("sppark_anchor: the CPU checks failed their self-test (check.cpp)\n");
    return 1;
  }
  try {
    if (op == "ntt") return run_ntt(lo, hi, runs);
    if (op == "msm") return run_msm(lo, hi, runs);
  } catch (const std::exception& e) {  // sppark reports CUDA errors as sppark_error
    std::fprintf(stderr, "sppark_anchor %s: %s\n", op.c_str(), e.what());
    return 1;
  }
  std::fprintf(stderr, "sppark_anchor: unknown operation '%s' (ntt or msm)\n", op.c_str());
  return 2;
}
