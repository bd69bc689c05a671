// `cuzk bench-gpu-msm`: see bench_gpu_msm.hpp.
#include "bench_gpu_msm.hpp"

#include <cstdio>

#include "bench_gpu.hpp"

#ifdef CUZK_WITH_CUDA
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <random>
#include <thread>
#include <vector>

#include "cuda/msm.hpp"
#include "ec/curves.hpp"
#endif

namespace cuzk::cli {

#ifndef CUZK_WITH_CUDA

int bench_gpu_msm(int, int, int) {
  require_gpu("bench msm --gpu");
  return 1;
}

#else

namespace {

using Clock = std::chrono::steady_clock;

template <class Fn>
void parallel(size_t n, Fn fn) {
  const unsigned T = std::max(1u, std::min(32u, std::thread::hardware_concurrency()));
  std::vector<std::thread> th;
  for (unsigned t = 0; t < T; t++) th.emplace_back([&, t] { fn(n * t / T, n * (t + 1) / T, t); });
  for (auto& x : th) x.join();
}

/// Uniform non-zero scalars below 2^254 (valid Montgomery representations), made in parallel.
std::vector<Fr> random_scalars(size_t n, uint64_t seed) {
  std::vector<Fr> s(n);
  parallel(n, [&](size_t lo, size_t hi, unsigned t) {
    std::mt19937_64 rng(seed * 7919 + t);
    for (size_t i = lo; i < hi; i++) {
      do {
        s[i].l[0] = rng();
        s[i].l[1] = rng();
        s[i].l[2] = rng();
        s[i].l[3] = rng() >> 2;
      } while (s[i].is_zero());
    }
  });
  return s;
}

/// The synthetic witness shape of REFERENCE.md §2: 45% zero, 45% one, 10% uniform.
std::vector<Fr> witness_scalars(size_t n, uint64_t seed) {
  std::vector<Fr> s = random_scalars(n, seed);
  parallel(n, [&](size_t lo, size_t hi, unsigned t) {
    std::mt19937_64 rng(seed * 31 + t);
    for (size_t i = lo; i < hi; i++) {
      const unsigned k = (unsigned)(rng() % 100);
      if (k < 45) s[i] = Fr::zero();
      else if (k < 90) s[i] = Fr::one();
    }
  });
  return s;
}

/// Σ sᵢ·(a + i·b) = (Σ sᵢ)·a + (Σ i·sᵢ)·b on the CPU.
template <class F>
Jacobian<F> closed_form(const Affine<F>& a, const Affine<F>& b, const std::vector<Fr>& s) {
  std::vector<Fr> s0(64, Fr::zero()), s1(64, Fr::zero());
  parallel(s.size(), [&](size_t lo, size_t hi, unsigned t) {
    Fr idx = Fr::from_u64(lo), one = Fr::one();
    for (size_t i = lo; i < hi; i++) {
      s0[t] += s[i];
      s1[t] += s[i] * idx;
      idx += one;
    }
  });
  Fr S0 = Fr::zero(), S1 = Fr::zero();
  for (int t = 0; t < 64; t++) {
    S0 += s0[t];
    S1 += s1[t];
  }
  return scalar_mul(a, S0) + scalar_mul(b, S1);
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t k = v.size();
  return k % 2 ? v[k / 2] : 0.5 * (v[k / 2 - 1] + v[k / 2]);
}

template <class Fn>
std::vector<double> time_runs(int reps, Fn fn) {
  fn();  // warm-up (allocates scratch)
  std::vector<double> t;
  for (int r = 0; r < reps; r++) {
    const auto t0 = Clock::now();
    fn();
    t.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
  }
  return t;
}

double gib(size_t b) { return b / 1073741824.0; }

/// One curve: bases a + i·b for the largest size, then every size in `logs`.
template <class F>
bool bench_curve(const char* name, const std::vector<int>& logs, int reps, const double* target_ms,
                 const double* sppark_ms) {
  if (logs.empty()) return true;
  std::mt19937_64 rng(2024);
  const Fr ka = Fr::from_u64(rng() | 1), kb = Fr::from_u64(rng() | 1);
  const Affine<F> a = scalar_mul(Curve<F>::generator(), ka).to_affine();
  const Affine<F> b = scalar_mul(Curve<F>::generator(), kb).to_affine();
  const size_t nmax = size_t{1} << *std::max_element(logs.begin(), logs.end());
  cuda::Msm<F> msm;
  auto t0 = Clock::now();
  msm.set_bases_progression(a, b, nmax);
  std::printf("%s: %zu bases generated on the GPU in %.0f ms (%.2f GiB)\n", name, nmax,
              std::chrono::duration<double, std::milli>(Clock::now() - t0).count(), gib(msm.device_bytes()));
  bool ok = true;
  cuda::DeviceScalars ds;
  for (size_t li = 0; li < logs.size(); li++) {
    const int k = logs[li];
    const size_t n = size_t{1} << k;
    const std::vector<Fr> s = random_scalars(n, 100 + k);
    ds.upload(s);
    Jacobian<F> res;
    auto t = time_runs(reps, [&] { res = msm.msm_device(ds.data(), n); });
    const double med = median(t);
    std::printf("%s 2^%d uniform:   median %8.2f ms  (min %.2f, max %.2f, %d runs)", name, k, med,
                *std::min_element(t.begin(), t.end()), *std::max_element(t.begin(), t.end()), reps);
    if (target_ms[li] > 0) std::printf("  target %.0f ms", target_ms[li]);
    if (sppark_ms[li] > 0) std::printf("  sppark %.1f ms", sppark_ms[li]);
    std::printf("\n");
    if (li == 0) {
      const bool good = res.to_affine() == closed_form(a, b, s).to_affine();
      std::printf("%s 2^%d result vs CPU: %s\n", name, k, good ? "OK" : "MISMATCH");
      ok = ok && good;
    }
    const std::vector<Fr> w = witness_scalars(n, 200 + k);
    ds.upload(w);
    cuda::MsmSplitCounts cnt;
    auto ts = time_runs(reps, [&] { res = msm.msm_split01_device(ds.data(), n, &cnt); });
    auto tp = time_runs(std::max(1, reps / 2), [&] { msm.msm_device(ds.data(), n); });
    std::printf("%s 2^%d 0/1-heavy: split01 median %8.2f ms, plain msm %8.2f ms  (%zu zero, %zu one, %zu other)\n",
                name, k, median(ts), median(tp), cnt.zeros, cnt.ones, cnt.others);
    if (li == 0) {
      const bool good = res.to_affine() == closed_form(a, b, w).to_affine();
      std::printf("%s 2^%d split01 result vs CPU: %s\n", name, k, good ? "OK" : "MISMATCH");
      ok = ok && good;
    }
    const auto mem = cuda::msm_mem_info(0);
    std::printf("%s 2^%d GPU memory: MSM object %.2f GiB (bases + scratch); device used %.2f of %.2f GiB\n", name,
                k, gib(msm.device_bytes()), gib(mem.total - mem.free), gib(mem.total));
  }
  // Host scalars (upload included) at the largest size, for reference.
  {
    const size_t n = nmax;
    const std::vector<Fr> s = random_scalars(n, 999);
    auto t = time_runs(std::max(1, reps / 2), [&] { msm.msm(s); });
    std::printf("%s 2^%d with host scalars (upload included): median %.2f ms\n", name,
                *std::max_element(logs.begin(), logs.end()), median(t));
  }
  return ok;
}

/// Times G1 at 2^log_n for every window size c in [c_lo, c_hi] (environment CUZK_MSM_SWEEP=log_n).
void sweep_windows(int log_n, int reps) {
  const size_t n = size_t{1} << log_n;
  const Affine<Fp> a = scalar_mul(Curve<Fp>::generator(), Fr::from_u64(3)).to_affine();
  const Affine<Fp> b = scalar_mul(Curve<Fp>::generator(), Fr::from_u64(5)).to_affine();
  const std::vector<Fr> s = random_scalars(n, 77);
  cuda::DeviceScalars ds;
  ds.upload(s);
  for (int c = std::max(8, log_n - 10); c <= std::min(22, log_n + 1); c++) {
    cuda::MsmConfig cfg;
    cfg.window_bits = c;
    cuda::Msm<Fp> msm(cfg);
    msm.set_bases_progression(a, b, n);
    auto t = time_runs(reps, [&] { msm.msm_device(ds.data(), n); });
    std::printf("G1 2^%d window sweep: c = %2d  median %8.2f ms  (scratch+bases %.2f GiB)\n", log_n, c, median(t),
                gib(msm.device_bytes()));
  }
}

}  // namespace

int bench_gpu_msm(int log_min, int log_max, int reps) {
  reps = std::max(reps, 5);
  require_gpu("bench msm --gpu");
  std::vector<int> g1, g2;
  std::vector<double> g1_target, g1_sppark, g2_target, g2_sppark;
  const int g1_logs[] = {20, 22, 24, 26};
  const double g1_t[] = {15, 0, 110, 400}, g1_s[] = {21.0, 53.7, 155, 561};
  for (int i = 0; i < 4; i++)
    if (g1_logs[i] >= log_min && g1_logs[i] <= log_max) {
      g1.push_back(g1_logs[i]);
      g1_target.push_back(g1_t[i]);
      g1_sppark.push_back(g1_s[i]);
    }
  for (int k : {20, 22, 24})
    if (k >= log_min && k <= log_max) {
      g2.push_back(k);
      g2_target.push_back(0);
      g2_sppark.push_back(0);
    }
  if (const char* sw = std::getenv("CUZK_MSM_SWEEP")) {
    sweep_windows(std::atoi(sw), reps);
    return 0;
  }
  bool ok = bench_curve<Fp>("G1", g1, reps, g1_target.data(), g1_sppark.data());
  ok = bench_curve<Fp2>("G2", g2, reps, g2_target.data(), g2_sppark.data()) && ok;
  return ok ? 0 : 1;
}

#endif

}  // namespace cuzk::cli
