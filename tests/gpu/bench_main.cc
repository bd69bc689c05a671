// cuzk_gpu_bench: the GPU benchmarks without the CLI (scripts/gpu-check.sh runs it on the GPU machine).
//   cuzk_gpu_bench [arith] [ntt LOG_MIN LOG_MAX REPS] [msm LOG_MIN LOG_MAX REPS]
//                  [prove LOG2 REPS GW PARTITIONS G2(gpu|cpu) BUDGET_BYTES(0 = auto)]
//                  [prove-sweep LOG2 REPS PARTITIONS STREAM_BUDGET_BYTES(0 = none)]
//   `--json FILE` before an ntt, msm, prove or prove-sweep command writes that command's report to FILE
//   (the CLI's `bench … --json FILE`), e.g.
//     cuzk_gpu_bench --json ntt.json ntt 10 27 7 --json msm.json msm 20 26 5
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>

#include "../../tools/bench_gpu.hpp"
#include "../../tools/bench_gpu_msm.hpp"
#include "../../tools/bench_prove.hpp"
#include "util/error.hpp"

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
      a.stream_budget = std::strtoull(argv[i + 4], nullptr, 10);
      a.device.device = "gpu";
      a.json = take_json();
      try {
        rc |= cuzk::cli::bench_prove(a);
      } catch (const std::exception& e) {
        std::fprintf(stderr, "cuzk_gpu_bench: error: %s\n", e.what());
        rc |= 3;
      }
      i += 4;
    } else {
      std::fprintf(stderr,
                   "usage: %s [arith] [--json FILE] [ntt LOG_MIN LOG_MAX REPS] [msm LOG_MIN LOG_MAX REPS] "
                   "[prove ...]\n",
                   argv[0]);
      return 64;
    }
  }
  return rc;
} catch (const cuzk::Error& e) {  // the CLI's rule: 3 for CUDA and internal errors, 2 for bad input
  std::fprintf(stderr, "cuzk_gpu_bench: error: %s\n", e.what());
  return e.code() == cuzk::ErrorCode::kCuda || e.code() == cuzk::ErrorCode::kInternal ? 3 : 2;
}
