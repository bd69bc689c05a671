// `cuzk bench-gpu`: see bench_gpu.hpp.
#include "bench_gpu.hpp"

#include <cstdio>
#include <string>

#include "util/error.hpp"

#ifdef CUZK_WITH_CUDA
#include <algorithm>
#include <random>
#include <thread>
#include <vector>

#include "cuda/gpu.hpp"
#include "ff/roots.hpp"
#endif

namespace cuzk::cli {

namespace {

[[noreturn]] void no_gpu(const char* command, const char* reason) {
  throw Error(ErrorCode::kCuda, std::string(command) + ": no CUDA GPU available: " + reason);
}

}  // namespace

#ifndef CUZK_WITH_CUDA

void require_gpu(const char* command) {
  no_gpu(command, "this build has no CUDA support (build with nvcc available, or -DCUZK_CUDA=ON)");
}
int bench_gpu_arith() {
  require_gpu("bench gpu-arith");
  return 1;
}
int bench_gpu_ntt(int, int, int) {
  require_gpu("bench ntt");
  return 1;
}

#else

void require_gpu(const char* command) {
  if (cuda::device_count() == 0) no_gpu(command, "no CUDA device is visible");
}

namespace {

void print_device() {
  auto d = cuda::device_info(0);
  std::printf("device 0: %s (cc %d.%d, %d SMs, %.1f GiB, L2 %.0f MiB)\n", d.name.c_str(), d.cc_major, d.cc_minor,
              d.sm_count, d.global_mem / 1073741824.0, d.l2_bytes / 1048576.0);
}

void print_memory() {
  auto m = cuda::memory_stats(0);
  std::printf("GPU memory: pool in use %.1f MiB, pool reserved %.1f MiB, pool peak %.1f MiB, device used %.1f of %.1f GiB\n",
              m.pool_in_use / 1048576.0, m.pool_reserved / 1048576.0, m.pool_peak / 1048576.0,
              (m.device_total - m.device_free) / 1073741824.0, m.device_total / 1073741824.0);
}

template <class Fn>
void parallel(size_t n, Fn fn) {
  const unsigned T = std::max(1u, std::min(64u, std::thread::hardware_concurrency()));
  std::vector<std::thread> th;
  for (unsigned t = 0; t < T; t++) th.emplace_back([&, t] { fn(n * t / T, n * (t + 1) / T); });
  for (auto& x : th) x.join();
}

/// Random elements below r (top limb below r's), in parallel.
std::vector<Fr> random_fr(size_t n, uint64_t seed) {
  std::vector<Fr> v(n);
  parallel(n, [&](size_t lo, size_t hi) {
    std::mt19937_64 rng(seed * 1000003 + lo);
    for (size_t i = lo; i < hi; i++) {
      for (int j = 0; j < 4; j++) v[i].l[j] = rng();
      v[i].l[3] &= 0x3fffffffffffffffULL;
    }
  });
  return v;
}

/// Σ_k x_k·w^k (the polynomial with coefficients x at w), in parallel chunks.
Fr eval_poly(const std::vector<Fr>& x, const Fr& w) {
  const unsigned T = std::max(1u, std::min(64u, std::thread::hardware_concurrency()));
  std::vector<Fr> part(T, Fr::zero());
  std::vector<std::thread> th;
  const size_t n = x.size();
  for (unsigned t = 0; t < T; t++)
    th.emplace_back([&, t] {
      const size_t lo = n * t / T, hi = n * (t + 1) / T;
      const uint64_t e = lo;
      Fr p = w.pow(&e, 1), acc = Fr::zero();
      for (size_t k = lo; k < hi; k++) {
        acc += x[k] * p;
        p = p * w;
      }
      part[t] = acc;
    });
  for (auto& t : th) t.join();
  Fr s = Fr::zero();
  for (auto& p : part) s += p;
  return s;
}

double median(std::vector<float> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int bench_gpu_arith() {
  require_gpu("bench gpu-arith");
  print_device();
  bool ok = true;
  std::printf("%-8s %-22s %14s %10s %6s %10s\n", "op", "variant", "ops/s", "ms/launch", "regs", "check");
  auto row = [&](const char* op, const char* var, const cuda::Throughput& t) {
    const bool good = t.mismatches == 0 && t.checked > 0;
    ok = ok && good;
    std::printf("%-8s %-22s %14.4g %10.3f %6d %6zu/%zu%s\n", op, var, t.ops_per_s, t.ms_median, t.regs_per_thread,
                t.checked - t.mismatches, t.checked, good ? "" : "  WRONG");
    std::fflush(stdout);
  };
  for (auto v : {cuda::MulVariant::kEvenOdd, cuda::MulVariant::kCios4, cuda::MulVariant::kWide64})
    row("Fp mul", cuda::mul_variant_name(v), cuda::bench_fp_mul(v));
  for (auto v : {cuda::MulVariant::kEvenOdd, cuda::MulVariant::kEvenOddShape, cuda::MulVariant::kCios4,
                 cuda::MulVariant::kWide64})
    row("Fr mul", cuda::mul_variant_name(v), cuda::bench_fr_mul(v));
  row("G1 madd", "XYZZ (point.hpp)", cuda::bench_g1_madd());
  print_memory();
  return ok ? 0 : 1;
}

int bench_gpu_ntt(int log_min, int log_max, int reps) {
  if (log_min < 1 || log_max > 28 || log_min > log_max)
    throw Error(ErrorCode::kInvalidArgument, "bench ntt: sizes must satisfy 1 ≤ --min ≤ --max ≤ 28");
  if (reps < 5) reps = 5;
  require_gpu("bench ntt");
  print_device();
  bool ok = true;
  std::printf("%4s %12s %12s %12s %12s %10s %8s\n", "logn", "fwd ms", "inv ms", "coset fwd", "coset inv",
              "tables MiB", "check");
  for (int L = log_min; L <= log_max; L++) {
    const size_t n = size_t{1} << L;
    const auto conv = RootConvention::kGenerator7;
    cuda::GpuNtt g(L, conv);
    const Fr shift = Fr::from_u64(7);
    auto x = random_fr(n, L);
    cuda::DeviceFrVec d(n);
    d.upload(x);
    // check: forward then sampled evaluation, inverse round trip (also the warm-up of both)
    g.forward(d);
    auto y = d.download();
    const Fr w = root_of_unity(L, conv);
    const int samples = L <= 20 ? 4 : 2;
    bool good = true;
    for (int s = 0; s < samples; s++) {
      const uint64_t i = (s * 0x9e3779b97f4a7c15ULL) % n;
      good = good && y[i] == eval_poly(x, w.pow(&i, 1));
    }
    g.inverse(d);
    good = good && d.download() == x;
    g.coset_forward(d, shift);
    g.coset_inverse(d, shift);
    good = good && d.download() == x;
    ok = ok && good;
    cuda::StreamTimer timer;
    std::vector<float> tf, ti, tcf, tci;
    for (int r = 0; r < reps; r++) {
      timer.start();
      g.forward(d);
      timer.stop();
      tf.push_back(timer.ms());
      timer.start();
      g.inverse(d);
      timer.stop();
      ti.push_back(timer.ms());
      timer.start();
      g.coset_forward(d, shift);
      timer.stop();
      tcf.push_back(timer.ms());
      timer.start();
      g.coset_inverse(d, shift);
      timer.stop();
      tci.push_back(timer.ms());
    }
    std::printf("%4d %12.3f %12.3f %12.3f %12.3f %10.1f %8s\n", L, median(tf), median(ti), median(tcf), median(tci),
                g.table_bytes() / 1048576.0, good ? "ok" : "WRONG");
    std::fflush(stdout);
  }
  print_memory();
  return ok ? 0 : 1;
}

#endif

}  // namespace cuzk::cli
