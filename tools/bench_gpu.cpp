// `cuzk bench-gpu`: see bench_gpu.hpp.
#include "bench_gpu.hpp"

#include <cstdio>
#include <string>

#include "util/error.hpp"

#ifdef CUZK_WITH_CUDA
#include <algorithm>
#include <chrono>
#include <cstring>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <vector>

#include "bench_common.hpp"
#include "cuda/gpu.hpp"
#include "cuda/witness_pack.hpp"
#include "ff/roots.hpp"
#include "ntt/ntt.hpp"
#include "util/huge_alloc.hpp"
#include "util/thread_pool.hpp"
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
int bench_gpu_ntt(int, int, int, const std::string&) {
  require_gpu("bench ntt");
  return 1;
}
int bench_gpu_upload(double, int) {
  require_gpu("bench gpu-upload");
  return 1;
}

#else

void require_gpu(const char* command) {
  if (cuda::device_count() == 0) no_gpu(command, "no CUDA device is visible");
}

namespace {

void print_device() {
  auto d = cuda::device_info(0);
  std::printf("device 0: %s (cc %d.%d, %d SMs, %.1f GiB, L2 %.0f MiB)\n", d.name.c_str(), d.cc_major,
              d.cc_minor, d.sm_count, d.global_mem / 1073741824.0, d.l2_bytes / 1048576.0);
}

void print_memory() {
  auto m = cuda::memory_stats(0);
  std::printf(
      "GPU memory: pool in use %.1f MiB, pool reserved %.1f MiB, pool peak %.1f MiB, device used %.1f of "
      "%.1f GiB\n",
      m.pool_in_use / 1048576.0, m.pool_reserved / 1048576.0, m.pool_peak / 1048576.0,
      (m.device_total - m.device_free) / 1073741824.0, m.device_total / 1073741824.0);
}

/// Σ_k x_k·z^k (the polynomial with coefficients x at z), in parallel chunks.
Fr eval_poly(const std::vector<Fr>& x, const Fr& z, ThreadPool& pool) {
  constexpr size_t kChunk = size_t{1} << 16;
  const size_t n = x.size(), chunks = (n + kChunk - 1) / kChunk;
  std::vector<Fr> part(chunks, Fr::zero());
  pool.parallel_for(chunks, [&](size_t c0, size_t c1) {
    for (size_t c = c0; c < c1; c++) {
      const uint64_t e = c * kChunk;
      Fr p = z.pow(&e, 1), acc = Fr::zero();
      for (size_t k = c * kChunk; k < std::min(n, (c + 1) * kChunk); k++) {
        acc += x[k] * p;
        p = p * z;
      }
      part[c] = acc;
    }
  });
  Fr s = Fr::zero();
  for (auto& p : part) s += p;
  return s;
}

/// Largest size whose NTT outputs the benchmark compares in full with the CPU NTT (sampled above).
constexpr int kFullCheckMaxLog = 24;

/// Checks `got` = the forward (coset: shift·ω^i) transform of x against the CPU: every element of
/// src/ntt's ntt / coset_ntt up to 2^kFullCheckMaxLog, else a few sampled outputs evaluated directly.
bool check_forward(const std::vector<Fr>& x, const std::vector<Fr>& got, int L, RootConvention conv,
                   bool coset, const Fr& shift, ThreadPool& pool) {
  const size_t n = x.size();
  if (L <= kFullCheckMaxLog) {
    Domain dom(L, conv);
    std::vector<Fr> want = x;
    if (coset)
      coset_ntt(dom, std::span<Fr>(want), shift, pool);
    else
      ntt(dom, std::span<Fr>(want), pool);
    return got == want;
  }
  const Fr w = root_of_unity(L, conv);
  bool good = true;
  for (uint64_t s = 0; s < 4; s++) {
    const uint64_t i = (s * 0x9e3779b97f4a7c15ULL + 1) % n;
    const Fr z = coset ? shift * w.pow(&i, 1) : w.pow(&i, 1);
    good = good && got[i] == eval_poly(x, z, pool);
  }
  return good;
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
    std::printf("%-8s %-22s %14.4g %10.3f %6d %6zu/%zu%s\n", op, var, t.ops_per_s, t.ms_median,
                t.regs_per_thread, t.checked - t.mismatches, t.checked, good ? "" : "  WRONG");
    std::fflush(stdout);
  };
  for (auto v : {cuda::MulVariant::kEvenOdd, cuda::MulVariant::kCios4, cuda::MulVariant::kWide64,
                 cuda::MulVariant::kF64, cuda::MulVariant::kF64Columns, cuda::MulVariant::kSplitHalf,
                 cuda::MulVariant::kSplitQuarter})
    row("Fp mul", cuda::mul_variant_name(v), cuda::bench_fp_mul(v));
  for (auto v : {cuda::MulVariant::kEvenOdd, cuda::MulVariant::kEvenOddShape, cuda::MulVariant::kCios4,
                 cuda::MulVariant::kWide64})
    row("Fr mul", cuda::mul_variant_name(v), cuda::bench_fr_mul(v));
  row("Fp sqr", "wide square + REDC", cuda::bench_fp_sqr());
  row("Fp2 mul", "lazy (2 reductions)", cuda::bench_fp2_mul(true));
  row("Fp2 mul", "3 reduced (operator*)", cuda::bench_fp2_mul(false));
  row("G1 madd", "XYZZ (point.hpp)", cuda::bench_g1_madd());
  for (unsigned mask : cuda::kMaddF64Masks) {
    char name[32];
    std::snprintf(name, sizeof name, "XYZZ, fp64 mask %03x", mask);
    row("G1 madd", name, cuda::bench_g1_madd_f64(mask));
  }
  print_memory();
  return ok ? 0 : 1;
}

int bench_gpu_ntt(int log_min, int log_max, int reps, const std::string& json_path) {
  if (log_min < 1 || log_max > 28 || log_min > log_max)
    throw Error(ErrorCode::kInvalidArgument, "bench ntt: sizes must satisfy 1 ≤ --min ≤ --max ≤ 28");
  if (reps < 5) reps = 5;
  require_gpu("bench ntt");
  print_device();
  ThreadPool pool;
  nlohmann::json results = nlohmann::json::array();
  bool ok = true;
  std::printf("%4s %12s %12s %12s %12s %10s %8s\n", "logn", "fwd ms", "inv ms", "coset fwd", "coset inv",
              "tables MiB", "check");
  for (int L = log_min; L <= log_max; L++) {
    const size_t n = size_t{1} << L;
    const auto conv = RootConvention::kGenerator7;
    cuda::GpuNtt g(L, conv);
    const Fr shift = Fr::from_u64(7);
    const std::vector<Fr> x = random_fr_uniform(n, 1000 + L, true, pool);
    cuda::DeviceFrVec d(n);
    // check (and warm-up of every mode): each forward output against the CPU, each inverse back to x
    d.upload(x);
    g.forward(d);
    bool good = check_forward(x, d.download(), L, conv, false, shift, pool);
    g.inverse(d);
    good = good && d.download() == x;
    g.coset_forward(d, shift);
    good = good && check_forward(x, d.download(), L, conv, true, shift, pool);
    g.coset_inverse(d, shift);
    good = good && d.download() == x;
    ok = ok && good;
    cuda::StreamTimer timer;
    std::vector<double> tf, ti, tcf, tci;
    auto timed = [&](std::vector<double>& t, auto&& op) {
      timer.start();
      op();
      timer.stop();
      t.push_back(timer.ms());
    };
    for (int r = 0; r < reps; r++) {
      timed(tf, [&] { g.forward(d); });
      timed(ti, [&] { g.inverse(d); });
      timed(tcf, [&] { g.coset_forward(d, shift); });
      timed(tci, [&] { g.coset_inverse(d, shift); });
    }
    std::printf("%4d %12.3f %12.3f %12.3f %12.3f %10.1f %8s\n", L, median(tf), median(ti), median(tcf),
                median(tci), g.table_bytes() / 1048576.0, good ? "ok" : "WRONG");
    std::fflush(stdout);
    results.push_back({{"log_n", L},
                       {"forward", timing_json(tf)},
                       {"inverse", timing_json(ti)},
                       {"coset_forward", timing_json(tcf)},
                       {"coset_inverse", timing_json(tci)},
                       {"table_mib", g.table_bytes() / 1048576.0},
                       {"check", L <= kFullCheckMaxLog ? "cpu-ntt" : "cpu-sampled"},
                       {"ok", good}});
  }
  print_memory();
  if (!json_path.empty())
    write_bench_json(json_path, "ntt", true,
                     {{"log_min", log_min},
                      {"log_max", log_max},
                      {"reps", reps},
                      {"roots", "generator-7"},
                      {"coset_shift", 7},
                      {"inputs", "uniform non-zero Fr"},
                      {"timing", "CUDA events on the context stream, data resident on the device"}},
                     results);
  return ok ? 0 : 1;
}

int bench_gpu_upload(double gib, int reps) {
  require_gpu("bench gpu-upload");
  if (!(gib > 0 && gib <= 64) || reps < 1)
    throw Error(ErrorCode::kInvalidArgument,
                "bench gpu-upload: --gib must be in (0, 64] and --reps at least 1");
  print_device();
  const size_t n = static_cast<size_t>(gib * 1073741824.0) / sizeof(Fr);
  const double gb = n * sizeof(Fr) / 1e9;
  // A witness as the engine makes one: a BigVector (pageable, huge pages advised), written before use.
  BigVector<Fr> host(n);
  {
    ThreadPool fill;
    fill.parallel_for(n, [&](size_t lo, size_t hi) {
      for (size_t i = lo; i < hi; i++) host[i] = Fr::from_u64(i * 0x9e3779b97f4a7c15ULL + 1);
    });
  }
  cuda::DeviceFrVec dst(n);
  std::printf("%.2f GB (%zu elements of Fr) host -> device, median of %d after a warm-up\n", gb, n, reps);
  std::printf("%-44s %10s %8s %6s\n", "variant", "ms", "GB/s", "check");
  bool ok = true;
  // The median time (ms) of `reps` runs of fn after one warm-up, each after prep (untimed).
  auto median_ms = [&](const std::function<void()>& prep, const std::function<void()>& fn) {
    std::vector<double> ms;
    for (int r = 0; r <= reps; r++) {
      if (prep) prep();
      const auto t0 = std::chrono::steady_clock::now();
      fn();
      const double t =
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
      if (r > 0) ms.push_back(t);
    }
    std::sort(ms.begin(), ms.end());
    return ms[ms.size() / 2];
  };
  auto print_row = [&](const std::string& name, double med, const char* check) {
    std::printf("%-44s %10.1f %8.2f %6s\n", name.c_str(), med, gb / (med / 1e3), check);
    std::fflush(stdout);
  };
  // Times `up` (which must return once the data is on the device), then checks 4096 spread elements.
  auto row = [&](const std::string& name, const std::function<void()>& up) {
    const double med = median_ms(
        [&] {
          dst.zero_from(0);
          cuda::synchronize(0);
        },
        up);
    cuda::synchronize(0);
    const std::vector<Fr> got = dst.download();
    size_t bad = 0;
    for (size_t k = 0; k < 4096; k++) {
      const size_t i = (k * 0x9e3779b97f4a7c15ULL) % n;
      bad += !(got[i] == host[i]);
    }
    bad += !(got[n - 1] == host[n - 1]);
    ok = ok && bad == 0;
    print_row(name, med, bad ? "WRONG" : "ok");
  };
  // Host work alone (no device).
  auto host_row = [&](const std::string& name, const std::function<void()>& fn) {
    print_row(name, median_ms({}, fn), "-");
  };
  row("cudaMemcpy from pageable (driver staging)", [&] { dst.upload(host.data()); });
  {
    cuda::PinnedBuffer pinned(n * sizeof(Fr));
    std::memcpy(pinned.data(), host.data(), n * sizeof(Fr));
    row("cudaMemcpy from page-locked (the link)", [&] { dst.upload(static_cast<const Fr*>(pinned.data())); });
  }
  // The host side alone: pageable -> a page-locked 64 MiB buffer, as the staging copies it.
  for (unsigned threads : {4u, 8u, 16u}) {
    ThreadPool pool(threads);
    cuda::PinnedBuffer stage(size_t{64} << 20);
    const size_t per = stage.size() / sizeof(Fr);
    host_row("host memcpy only, 64 MiB, " + std::to_string(threads) + " threads", [&] {
      for (size_t off = 0; off < n; off += per)
        parallel_memcpy(pool, stage.data(), host.data() + off, std::min(per, n - off) * sizeof(Fr));
    });
  }
  // UploadStaging as the GPU backend uses it (64 MiB x 2, an 8-part copy on 8 threads), and variants.
  struct Variant {
    size_t mib;
    int buffers;
    unsigned threads;
  };
  for (const Variant v : {Variant{64, 2, 8}, Variant{16, 2, 8}, Variant{32, 2, 8}, Variant{128, 2, 8},
                          Variant{256, 2, 8}, Variant{64, 4, 8}, Variant{16, 4, 8}, Variant{64, 2, 16},
                          Variant{16, 4, 16}, Variant{32, 4, 16}, Variant{64, 2, 4}}) {
    cuda::UploadStaging staging(v.mib << 20, 0, v.buffers);
    ThreadPool pool(v.threads);
    auto copy = [&](void* d, const void* src, size_t bytes) { parallel_memcpy(pool, d, src, bytes); };
    row("UploadStaging " + std::to_string(v.mib) + " MiB x " + std::to_string(v.buffers) + ", " +
            std::to_string(v.threads) + " threads",
        [&] { staging.upload_at(dst, 0, host.data(), n, copy, true); });
  }
  // A witness as a Filecoin circuit's is: 97 % of the values 0 or 1 (a 32 GiB PoRep partition's aux), the
  // rest random; plain against packed (cuda::UploadStaging::upload_packed_at).
  {
    ThreadPool fill;
    fill.parallel_for(n, [&](size_t lo, size_t hi) {
      for (size_t i = lo; i < hi; i++) {
        const uint64_t x = (i + 1) * 0x9e3779b97f4a7c15ULL;
        host[i] = x % 100 < 3 ? Fr::from_u64(x) : (x >> 32 & 1) ? Fr::one() : Fr::zero();
      }
    });
  }
  for (const unsigned threads : {8u, 16u}) {
    cuda::UploadStaging staging(size_t{64} << 20, 0, 2);
    ThreadPool pool(threads);
    auto copy = [&](void* d, const void* src, size_t bytes) { parallel_memcpy(pool, d, src, bytes); };
    row("Witness 3 % dense, plain, " + std::to_string(threads) + " threads",
        [&] { staging.upload_at(dst, 0, host.data(), n, copy, true); });
    row("Witness 3 % dense, packed, " + std::to_string(threads) + " threads",
        [&] { staging.upload_packed_at(dst, 0, host.data(), n, pool, true); });
    // Packed ahead (CUZK_UPLOAD_PACK=2): the packing, outside the GPU mutex, then the crossing under it.
    std::optional<cuda::PackedWitness> pw;
    host_row("host packing ahead only, " + std::to_string(threads) + " threads",
             [&] { pw = cuda::pack_witness_ahead(host.data(), n, staging.packed_piece(), pool); });
    if (!pw) {
      std::printf("the witness did not pack ahead\n");
      ok = false;
    }
    if (pw)
      row("Witness 3 % dense, packed ahead, " + std::to_string(threads) + " threads",
          [&] { staging.upload_packed_at(dst, 0, *pw, pool, true); });
  }
  print_memory();
  return ok ? 0 : 1;
}

#endif

}  // namespace cuzk::cli
