// cuzk_gpu_bench: the GPU benchmarks without the CLI (scripts/gpu-check.sh runs it on the GPU machine).
//   cuzk_gpu_bench [arith] [ntt LOG_MIN LOG_MAX REPS] [msm LOG_MIN LOG_MAX REPS]
//                  [prove LOG2 REPS GW PARTITIONS G2(gpu|cpu) BUDGET_BYTES(0 = auto)]
//                  [prove-sweep LOG2 REPS PARTITIONS STREAM_BUDGET_BYTES(0 = none)]
//                  [params-load LOG2 DIR]
//   `--json FILE` before an ntt, msm, prove or prove-sweep command writes that command's report to FILE
//   (the CLI's `bench … --json FILE`), e.g.
//     cuzk_gpu_bench --json ntt.json ntt 10 27 7 --json msm.json msm 20 26 5
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "../../tools/backend_select.hpp"
#include "../../tools/bench_gpu.hpp"
#include "../../tools/bench_gpu_msm.hpp"
#include "../../tools/bench_prove.hpp"
#include "cuda/point_decode.hpp"
#include "formats/params.hpp"
#include "groth16/setup.hpp"
#include "groth16/synthetic.hpp"
#include "util/error.hpp"
#include "util/thread_pool.hpp"

namespace {

using Clock = std::chrono::steady_clock;
double secs(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

/// Whether two point vectors hold the same bytes, compared in parallel.
template <class V>
bool same_points(const V& a, const V& b, cuzk::ThreadPool& pool) {
  if (a.size() != b.size()) return false;
  std::atomic<bool> same{true};
  pool.parallel_for(a.size(), [&](size_t lo, size_t hi) {
    if (std::memcmp(a.data() + lo, b.data() + lo, (hi - lo) * sizeof(a[0])) != 0) same = false;
  });
  return same;
}

/// Whether `r` (read from the file) equals `k` (the key written): scalars and header points, then every
/// point of every vector.
bool same_key(const cuzk::ProvingKey& r, const cuzk::ProvingKey& k, cuzk::ThreadPool& pool) {
  return r.convention == k.convention && r.log_n == k.log_n && r.n_inputs == k.n_inputs &&
         r.n_aux == k.n_aux && r.alpha1 == k.alpha1 && r.beta1 == k.beta1 && r.delta1 == k.delta1 &&
         r.beta2 == k.beta2 && r.gamma2 == k.gamma2 && r.delta2 == k.delta2 && r.ic == k.ic &&
         same_points(r.h, k.h, pool) && same_points(r.l, k.l, pool) && same_points(r.a, k.a, pool) &&
         same_points(r.b_g1, k.b_g1, pool) && same_points(r.b_g2, k.b_g2, pool);
}

/// params-load: the synthetic PoRep circuit 2^log2 (seed 1), its single-party setup in memory (GPU
/// fixed-base multiplications), written to DIR/porep-LOG2.params; then read_params three times with the
/// GPU decoder (subgroup check on) and once on all CPU threads without the subgroup check, each read
/// compared with the key in memory point for point. Prints file bytes / seconds per read and the medians.
/// Needs disk for the file (2^26: 23.6 GB; the GPU machine has 64 GiB) and host memory for two keys
/// (2 × 23.6 GB at 2^26). The file is deleted at the end, also after an error. Returns 1 when a key read
/// differs from the one written.
int params_load(int log2, const std::filesystem::path& dir) {
  namespace fs = std::filesystem;
  using namespace cuzk;
  // 2^27 would need a 47 GB file and twice that in host memory: more than the GPU machine has.
  if (log2 < 10 || log2 > 26) throw Error(ErrorCode::kInvalidArgument, "params-load: LOG2 must be in 10..26");
  ThreadPool pool;
  cli::DeviceChoice gpu;
  gpu.device = "gpu";
  ProvingKey key;
  {
    auto t = Clock::now();
    const SyntheticCircuit sc = synthetic_porep(log2, 1, pool);
    std::printf("params-load 2^%d: circuit generated in %.2f s\n", log2, secs(t));
    t = Clock::now();
    key = setup(sc.cs, ToxicWaste::from_seed(1), pool, cli::setup_accel(gpu));
    std::printf("params-load: single-party setup (GPU fixed-base) in %.2f s\n", secs(t));
  }
  const fs::path path = dir / ("porep-" + std::to_string(log2) + ".params");
  struct Remove {
    fs::path p;
    ~Remove() {
      std::error_code ec;
      fs::remove(p, ec);
    }
  } remove{path};
  auto t = Clock::now();
  write_params(path, key, &pool);
  const double bytes = (double)fs::file_size(path);
  std::printf(
      "params-load: wrote %s, %.3f GB, in %.2f s (%.2f GB/s); the reads below find it in the page "
      "cache (it was just written)\n",
      path.c_str(), bytes / 1e9, secs(t), bytes / 1e9 / secs(t));
  std::fflush(stdout);

  bool all_same = true;
  auto run = [&](const char* what, bool on_gpu, int reps) {
    std::vector<double> s;
    for (int i = 0; i < reps; i++) {
      std::unique_ptr<cuda::GpuPointDecoder> decoder;
      ParamsReadOptions opt;
      opt.pool = &pool;
      opt.subgroup = on_gpu ? SubgroupCheck::kYes : SubgroupCheck::kNo;
      const auto t0 = Clock::now();
      if (on_gpu) decoder = std::make_unique<cuda::GpuPointDecoder>(0);  // its staging is part of the time
      opt.decoder = decoder.get();
      const ProvingKey r = read_params(path, opt);
      s.push_back(secs(t0));
      const bool same = same_key(r, key, pool);
      all_same = all_same && same;
      std::printf("params-load: %s, run %d: %.2f s, %.2f GB/s, key %s\n", what, i + 1, s.back(),
                  bytes / 1e9 / s.back(), same ? "equal to the one written" : "DIFFERS from the one written");
      std::fflush(stdout);
    }
    std::sort(s.begin(), s.end());
    std::printf("params-load: %s: median %.2f s, %.2f GB/s\n", what, s[s.size() / 2],
                bytes / 1e9 / s[s.size() / 2]);
  };
  run("GPU decode, subgroup check on", true, 3);
  const std::string cpu = "CPU decode on " + std::to_string(pool.size()) + " threads, subgroup check off";
  run(cpu.c_str(), false, 1);
  std::printf("params-load: %s\n", all_same ? "check: ok (every key read equals the key written)"
                                            : "check: FAILED (a key read differs from the key written)");
  return all_same ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) try {
  int rc = 0;
  std::string json;  // --json FILE: the report of the next command
  auto take_json = [&json] { return std::exchange(json, std::string()); };
  for (int i = 1; i < argc; i++) {
    if (!std::strcmp(argv[i], "--json") && i + 1 < argc) {
      json = argv[++i];
    } else if (!std::strcmp(argv[i], "arith")) {
      rc |= cuzk::cli::bench_gpu_arith();
    } else if (!std::strcmp(argv[i], "ntt") && i + 3 < argc) {
      rc |= cuzk::cli::bench_gpu_ntt(std::atoi(argv[i + 1]), std::atoi(argv[i + 2]), std::atoi(argv[i + 3]),
                                     take_json());
      i += 3;
    } else if (!std::strcmp(argv[i], "msm") && i + 3 < argc) {
      rc |= cuzk::cli::bench_gpu_msm(std::atoi(argv[i + 1]), std::atoi(argv[i + 2]), std::atoi(argv[i + 3]),
                                     take_json());
      i += 3;
    } else if (!std::strcmp(argv[i], "prove") && i + 6 < argc) {
      cuzk::cli::BenchProveArgs a;
      a.log2 = std::atoi(argv[i + 1]);
      a.reps = std::atoi(argv[i + 2]);
      a.gw = std::atoi(argv[i + 3]);
      a.partitions = std::atoi(argv[i + 4]);
      a.device.device = "gpu";
      a.device.g2 = argv[i + 5];
      a.device.gpu_mem_budget = std::strtoull(argv[i + 6], nullptr, 10);
      a.json = take_json();
      try {
        rc |= cuzk::cli::bench_prove(a);
      } catch (const std::exception& e) {
        std::fprintf(stderr, "cuzk_gpu_bench: error: %s\n", e.what());
        rc |= 3;
      }
      i += 6;
    } else if (!std::strcmp(argv[i], "prove-sweep") && i + 4 < argc) {
      cuzk::cli::BenchProveArgs a;
      a.log2 = std::atoi(argv[i + 1]);
      a.reps = std::atoi(argv[i + 2]);
      a.partitions = std::atoi(argv[i + 3]);
      a.sweep = true;
      a.stream_budgets = {std::strtoull(argv[i + 4], nullptr, 10)};
      a.device.device = "gpu";
      a.json = take_json();
      try {
        rc |= cuzk::cli::bench_prove(a);
      } catch (const std::exception& e) {
        std::fprintf(stderr, "cuzk_gpu_bench: error: %s\n", e.what());
        rc |= 3;
      }
      i += 4;
    } else if (!std::strcmp(argv[i], "params-load") && i + 2 < argc) {
      rc |= params_load(std::atoi(argv[i + 1]), argv[i + 2]);
      i += 2;
    } else {
      std::fprintf(stderr,
                   "usage: %s [arith] [--json FILE] [ntt LOG_MIN LOG_MAX REPS] [msm LOG_MIN LOG_MAX REPS] "
                   "[prove ...] [params-load LOG2 DIR]\n",
                   argv[0]);
      return 64;
    }
  }
  return rc;
} catch (const cuzk::Error& e) {  // the CLI's rule: 3 for CUDA and internal errors, 2 for bad input
  std::fprintf(stderr, "cuzk_gpu_bench: error: %s\n", e.what());
  return e.code() == cuzk::ErrorCode::kCuda || e.code() == cuzk::ErrorCode::kInternal ? 3 : 2;
}
