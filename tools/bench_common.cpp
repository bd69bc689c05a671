// Shared benchmark helpers: see bench_common.hpp.
#include "bench_common.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <ctime>
#include <random>

#include "cuzk_build_info.h"  // generated: CUZK_GIT_COMMIT
#include "formats/atomic_file.hpp"
#ifdef CUZK_WITH_CUDA
#include "cuda/gpu.hpp"
#endif

namespace cuzk::cli {

double peak_rss_gib() {
  struct rusage ru {};
  getrusage(RUSAGE_SELF, &ru);
  return (double)ru.ru_maxrss / (1024.0 * 1024.0);
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const size_t k = v.size();
  return k % 2 ? v[k / 2] : 0.5 * (v[k / 2 - 1] + v[k / 2]);
}

nlohmann::json timing_json(const std::vector<double>& ms) {
  return {{"median_ms", median(ms)}, {"reps_ms", ms}};
}

std::vector<Fr> random_fr_uniform(size_t n, uint64_t seed, bool nonzero, ThreadPool& pool) {
  std::vector<Fr> v(n);
  constexpr size_t kBlock = size_t{1} << 16;  // one generator per block: the same output for any pool size
  pool.parallel_for((n + kBlock - 1) / kBlock, [&](size_t b0, size_t b1) {
    for (size_t b = b0; b < b1; b++) {
      std::mt19937_64 rng(seed * 0x9e3779b97f4a7c15ULL + b);
      for (size_t i = b * kBlock; i < std::min(n, (b + 1) * kBlock); i++) {
        do {
          for (int j = 0; j < Fr::N; j++) v[i].l[j] = rng();
          v[i].l[Fr::N - 1] >>= 1;  // r < 2^255: about 9 draws in 10 are accepted
        } while (!Fr::less_than_mod(v[i].l) || (nonzero && v[i].is_zero()));
      }
    }
  });
  return v;
}

namespace {

std::string host_name() {
  char buf[256] = {};
  if (gethostname(buf, sizeof buf - 1) != 0) return "unknown";
  return buf;
}

std::string utc_now() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  char buf[32];
  if (!gmtime_r(&t, &tm) || !std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm)) return "unknown";
  return buf;
}

#ifdef CUZK_WITH_CUDA
std::string version_text(int v) {
  return v > 0 ? std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10) : "unknown";
}
#endif

}  // namespace

nlohmann::json bench_environment(bool gpu) {
  nlohmann::json env = {{"host", host_name()}, {"date_utc", utc_now()}, {"git_commit", CUZK_GIT_COMMIT}};
#ifdef CUZK_WITH_CUDA
  if (gpu) {
    try {
      const cuda::DeviceInfo d = cuda::device_info(0);
      env["gpu"] = {{"name", d.name},
                    {"compute_capability", std::to_string(d.cc_major) + "." + std::to_string(d.cc_minor)},
                    {"sm_count", d.sm_count},
                    {"sm_clock_mhz", d.clock_khz / 1000.0},
                    {"memory_clock_mhz", d.mem_clock_khz / 1000.0},
                    {"memory_bus_bits", d.mem_bus_bits},
                    {"memory_gib", d.global_mem / 1073741824.0}};
    } catch (const std::exception& e) {
      env["gpu"] = {{"name", "unknown"}, {"error", e.what()}};
    }
    const cuda::CudaVersions v = cuda::cuda_versions();
    env["cuda_runtime"] = version_text(v.runtime);
    env["cuda_driver"] = version_text(v.driver);
  }
#else
  (void)gpu;
#endif
  return env;
}

void write_bench_json(const std::string& path, const std::string& name, bool gpu,
                      const nlohmann::json& parameters, const nlohmann::json& results) {
  const nlohmann::json doc = {{"benchmark", name},
                              {"environment", bench_environment(gpu)},
                              {"parameters", parameters},
                              {"results", results}};
  write_file_atomic(path, doc.dump(2) + "\n");
}

}  // namespace cuzk::cli
