// `cuzk bench msm --gpu`: see bench_gpu_msm.hpp.
#include "bench_gpu_msm.hpp"

#include <cstdio>

#include "bench_gpu.hpp"

#ifdef CUZK_WITH_CUDA
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <random>
#include <span>
#include <vector>

#include "bench_common.hpp"
#include "cuda/gpu.hpp"
#include "cuda/msm.hpp"
#include "ec/curves.hpp"
#include "msm/pippenger.hpp"
#include "util/error.hpp"
#include "util/thread_pool.hpp"
#endif

namespace cuzk::cli {

#ifndef CUZK_WITH_CUDA

int bench_gpu_msm(int, int, int, const std::string&) {
  require_gpu("bench msm --gpu");
  return 1;
}

#else

namespace {

using Clock = std::chrono::steady_clock;

/// Distinct random points behind the benchmark's bases (the bases are this pool tiled to the size).
constexpr size_t kPoolPoints = size_t{1} << 20;

double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}
double gib(size_t b) { return b / 1073741824.0; }

/// The synthetic witness shape of REFERENCE.md §2: 45% zero, 45% one, 10% uniform below r.
std::vector<Fr> witness_scalars(size_t n, uint64_t seed, ThreadPool& pool) {
  std::vector<Fr> s = random_fr_uniform(n, seed, false, pool);
  constexpr size_t kBlock = size_t{1} << 16;
  pool.parallel_for((n + kBlock - 1) / kBlock, [&](size_t b0, size_t b1) {
    for (size_t b = b0; b < b1; b++) {
      std::mt19937_64 rng(seed * 31 + b);
      for (size_t i = b * kBlock; i < std::min(n, (b + 1) * kBlock); i++) {
        const unsigned k = (unsigned)(rng() % 100);
        if (k < 45)
          s[i] = Fr::zero();
        else if (k < 90)
          s[i] = Fr::one();
      }
    }
  });
  return s;
}

/// m points k_j·G of the group, k_j uniform in [1, r), made on the GPU (fixed_base_mul). Checked before
/// use: every point on the curve and finite, and a sample of 16 equal to the CPU's k_j·G; throws
/// Error(kInternal) otherwise.
template <class F>
std::vector<Affine<F> > random_points(size_t m, uint64_t seed, ThreadPool& pool) {
  const std::vector<Fr> k = random_fr_uniform(m, seed, true, pool);
  std::vector<Affine<F> > p(m);
  cuda::fixed_base_mul(Curve<F>::generator(), k.data(), m, p.data());
  std::atomic<size_t> bad{0};
  pool.parallel_for(m, [&](size_t lo, size_t hi) {
    size_t b = 0;
    for (size_t i = lo; i < hi; i++) b += p[i].is_inf() || !is_on_curve(p[i]);
    bad += b;
  });
  for (size_t j = 0; j < m; j += m / 16 + 1)
    bad += !(scalar_mul(Curve<F>::generator(), k[j]).to_affine() == p[j]);
  if (bad)
    throw Error(ErrorCode::kInternal, "bench msm: the GPU's fixed-base multiplication made wrong points");
  return p;
}

/// n bases: base i = pts[i mod pts.size()].
template <class F>
std::vector<Affine<F> > tile(const std::vector<Affine<F> >& pts, size_t n, ThreadPool& pool) {
  std::vector<Affine<F> > b(n);
  pool.parallel_for(n, [&](size_t lo, size_t hi) {
    for (size_t i = lo; i < hi; i++) b[i] = pts[i % pts.size()];
  });
  return b;
}

/// The CPU's Σ_{i<n} s_i·pts[i mod m], m = min(n, pts.size()), computed independently of the GPU: the
/// scalars are folded onto the distinct points, S_j = Σ_t s_{j+t·m}, then src/msm's CPU Pippenger sums
/// S_j·pts[j] over j < m.
template <class F>
Jacobian<F> cpu_reference(const std::vector<Affine<F> >& pts, const std::vector<Fr>& s, ThreadPool& pool) {
  const size_t n = s.size(), m = std::min(n, pts.size());
  std::vector<Fr> folded(s.begin(), s.begin() + m);
  pool.parallel_for(m, [&](size_t lo, size_t hi) {
    for (size_t t = m; t < n; t += m)
      for (size_t j = lo; j < std::min(hi, n - t); j++) folded[j] += s[t + j];
  });
  return msm<F>(std::span<const Affine<F> >(pts.data(), m), std::span<const Fr>(folded), pool);
}

/// Runs fn once (warm-up: allocates scratch), then `reps` timed times; `all_equal` is set when every
/// timed run's result equals `want` (compared in affine form).
template <class F, class Fn>
std::vector<double> time_runs(int reps, const Jacobian<F>& want, bool& all_equal, Fn fn) {
  fn();
  const Affine<F> w = want.to_affine();
  std::vector<double> t;
  all_equal = true;
  for (int r = 0; r < reps; r++) {
    const auto t0 = Clock::now();
    const Jacobian<F> got = fn();
    t.push_back(ms_since(t0));
    all_equal = all_equal && got.to_affine() == w;
  }
  return t;
}

nlohmann::json row(const char* curve, int log_n, const char* scalars, const char* method,
                   const std::vector<double>& ms, bool ok) {
  nlohmann::json r = timing_json(ms);
  r["curve"] = curve;
  r["log_n"] = log_n;
  r["scalars"] = scalars;
  r["method"] = method;
  r["ok"] = ok;
  return r;
}

/// One curve at every size in `logs`: random bases (the pool of random_points tiled to the largest
/// size), uniform and witness-shaped scalars, every timed result compared with cpu_reference.
template <class F>
bool bench_curve(const char* name, const std::vector<int>& logs, int reps, const double* target_ms,
                 const double* sppark_ms, ThreadPool& pool, nlohmann::json& results) {
  if (logs.empty()) return true;
  const int kmax = *std::max_element(logs.begin(), logs.end());
  const size_t nmax = size_t{1} << kmax;
  auto t0 = Clock::now();
  const std::vector<Affine<F> > pts = random_points<F>(std::min(nmax, kPoolPoints), 2024, pool);
  cuda::Msm<F> msm;
  msm.set_bases(tile(pts, nmax, pool));
  std::printf(
      "%s: %zu bases = %zu random points k·G (k uniform, made on the GPU, checked) tiled; %.0f ms, %.2f "
      "GiB\n",
      name, nmax, pts.size(), ms_since(t0), gib(msm.device_bytes()));
  bool ok = true;
  auto verdict = [&](bool good) {
    ok = ok && good;
    return good ? "OK" : "MISMATCH";
  };
  cuda::DeviceScalars ds;
  for (size_t li = 0; li < logs.size(); li++) {
    const int k = logs[li];
    const size_t n = size_t{1} << k;
    msm.release_scratch();  // the scratch reported below is this size's own (buffers only grow otherwise)
    const std::vector<Fr> s = random_fr_uniform(n, 100 + k, false, pool);
    ds.upload(s);
    const Jacobian<F> want = cpu_reference(pts, s, pool);
    bool good = false;
    auto t = time_runs(reps, want, good, [&] { return msm.msm_device(ds.data(), n); });
    std::printf("%s 2^%d uniform:   median %8.2f ms  (min %.2f, max %.2f, %d runs)", name, k, median(t),
                *std::min_element(t.begin(), t.end()), *std::max_element(t.begin(), t.end()), reps);
    if (target_ms[li] > 0) std::printf("  target %.0f ms", target_ms[li]);
    if (sppark_ms[li] > 0) std::printf("  sppark %.1f ms", sppark_ms[li]);
    std::printf("  vs CPU: %s; scratch %.2f GiB\n", verdict(good), gib(msm.scratch_bytes()));
    results.push_back(row(name, k, "uniform", "msm", t, good));
    results.back()["scratch_bytes"] = msm.scratch_bytes();

    const std::vector<Fr> w = witness_scalars(n, 200 + k, pool);
    ds.upload(w);
    const Jacobian<F> want_w = cpu_reference(pts, w, pool);
    cuda::MsmSplitCounts cnt;
    bool good_s = false, good_p = false;
    auto ts = time_runs(reps, want_w, good_s, [&] { return msm.msm_split01_device(ds.data(), n, &cnt); });
    auto tp = time_runs(std::max(1, reps / 2), want_w, good_p, [&] { return msm.msm_device(ds.data(), n); });
    std::printf(
        "%s 2^%d 0/1-heavy: split01 median %8.2f ms, plain msm %8.2f ms  (%zu zero, %zu one, %zu other)"
        "  vs CPU: %s\n",
        name, k, median(ts), median(tp), cnt.zeros, cnt.ones, cnt.others, verdict(good_s && good_p));
    results.push_back(row(name, k, "witness", "msm_split01", ts, good_s));
    results.push_back(row(name, k, "witness", "msm", tp, good_p));
    const auto mem = cuda::msm_mem_info(0);
    std::printf(
        "%s 2^%d GPU memory: MSM object %.2f GiB (bases, scalar upload area, scratch), of which scratch %.2f "
        "GiB;"
        " device used %.2f of %.2f GiB\n",
        name, k, gib(msm.device_bytes()), gib(msm.scratch_bytes()), gib(mem.total - mem.free),
        gib(mem.total));
    results.back()["scratch_bytes"] = msm.scratch_bytes();
    if (k == kmax) {  // host scalars (upload included) at the largest size, for reference
      auto th = time_runs(std::max(1, reps / 2), want, good, [&] { return msm.msm(s); });
      std::printf("%s 2^%d with host scalars (upload included): median %.2f ms  vs CPU: %s\n", name, k,
                  median(th), verdict(good));
      results.push_back(row(name, k, "uniform", "msm_host_scalars", th, good));
    }
    std::fflush(stdout);
  }
  return ok;
}

/// Times G1 at 2^log_n for every window size c near the default (environment CUZK_MSM_SWEEP=log_n).
bool sweep_windows(int log_n, int reps, ThreadPool& pool) {
  const size_t n = size_t{1} << log_n;
  const std::vector<Affine<Fp> > pts = random_points<Fp>(std::min(n, kPoolPoints), 2024, pool);
  const std::vector<Affine<Fp> > bases = tile(pts, n, pool);
  const std::vector<Fr> s = random_fr_uniform(n, 77, false, pool);
  const Jacobian<Fp> want = cpu_reference(pts, s, pool);
  cuda::DeviceScalars ds;
  ds.upload(s);
  bool ok = true;
  for (int c = std::max(8, log_n - 10); c <= std::min(22, log_n + 1); c++) {
    cuda::MsmConfig cfg;
    cfg.window_bits = c;
    cuda::Msm<Fp> msm(cfg);
    msm.set_bases(bases);
    bool good = false;
    auto t = time_runs(reps, want, good, [&] { return msm.msm_device(ds.data(), n); });
    ok = ok && good;
    std::printf("G1 2^%d window sweep: c = %2d  median %8.2f ms  (scratch+bases %.2f GiB)  vs CPU: %s\n",
                log_n, c, median(t), gib(msm.device_bytes()), good ? "OK" : "MISMATCH");
  }
  return ok;
}

}  // namespace

int bench_gpu_msm(int log_min, int log_max, int reps, const std::string& json_path) {
  reps = std::max(reps, 5);
  require_gpu("bench msm --gpu");
  ThreadPool pool;
  if (const char* sw = std::getenv("CUZK_MSM_SWEEP")) return sweep_windows(std::atoi(sw), reps, pool) ? 0 : 1;
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
  nlohmann::json results = nlohmann::json::array();
  bool ok = bench_curve<Fp>("G1", g1, reps, g1_target.data(), g1_sppark.data(), pool, results);
  ok = bench_curve<Fp2>("G2", g2, reps, g2_target.data(), g2_sppark.data(), pool, results) && ok;
  if (!json_path.empty())
    write_bench_json(
        json_path, "msm", true,
        {{"log_min", log_min},
         {"log_max", log_max},
         {"reps", reps},
         {"bases", "2^20 random points k·G (k uniform in [1, r)) tiled to the size"},
         {"scalars", {{"uniform", "uniform in [0, r)"}, {"witness", "45% 0, 45% 1, 10% uniform"}}},
         {"check", "every timed run equals the CPU MSM of the folded scalars over the distinct points"},
         {"timing", "host wall clock per call, bases and scalars resident on the device"}},
        results);
  return ok ? 0 : 1;
}

#endif

}  // namespace cuzk::cli
