#include "info_gpu.hpp"

#include <chrono>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "engine/proof_shapes.hpp"
#include "groth16/device_plan.hpp"
#include "util/cuda_arch.hpp"
#include "util/error.hpp"
#include "util/thread_pool.hpp"
#ifdef CUZK_WITH_CUDA
#include "cuda/gpu.hpp"
#else
#include "cuda/ntt_pass.cuh"  // host code: the NTT's table sizes
#endif

#ifndef CUZK_CUDA_ARCHS_STRING
#define CUZK_CUDA_ARCHS_STRING ""
#endif

namespace cuzk::cli {
namespace {

double gib(size_t b) { return (double)b / (double)(size_t{1} << 30); }

std::string fmt(const char* f, auto... args) {
  char buf[512];
  std::snprintf(buf, sizeof buf, f, args...);
  return buf;
}

/// "130,169,893".
std::string grouped(size_t v) {
  const std::string digits = std::to_string(v);
  std::string s;
  for (size_t i = 0; i < digits.size(); i++) {
    if (i > 0 && (digits.size() - i) % 3 == 0) s += ',';
    s += digits[i];
  }
  return s;
}

/// The device bytes of the NTT's twiddle tables at 2^log_n, as the GPU backend plans them
/// (cuda::GpuNtt::max_table_bytes; without CUDA the same sum at its default settings).
size_t ntt_table_bytes(int log_n) {
#ifdef CUZK_WITH_CUDA
  return cuda::GpuNtt::max_table_bytes(log_n);
#else
  namespace nd = cuda::ntt_detail;
  if (log_n < nd::kMinLogRadix) return 0;
  size_t entries = 0;
  for (int mode = 0; mode < 4; mode++)
    entries += nd::table_entries(
        nd::make_transform(log_n, RootConvention::kGenerator7, mode & 1, mode & 2, Fr::from_u64(7)));
  return entries * sizeof(Fr);
#endif
}

#ifdef CUZK_WITH_CUDA
/// "12.4" of 12040.
std::string cuda_version(int v) { return v ? fmt("%d.%d", v / 1000, v % 1000 / 10) : "unknown"; }
#endif

/// `cuzk info gpu --measure`: each kind's row of engine/proof_shapes.cpp's table, measured now.
int measure(unsigned threads) {
  ThreadPool pool(threads);
  for (const engine::ProofKindShape& known : engine::filecoin_proof_kinds()) {
    const auto t0 = std::chrono::steady_clock::now();
    const engine::ProofKindShape k = engine::measure_proof_kind(known.circuit_id, pool);
    const DeviceShape& s = k.shape;
    std::printf("    {\"%s\", \"%s\", %d, %zu, %zu, %zu, %zu, %zu, %zu},\n", k.name.c_str(),
                k.circuit_id.c_str(), s.log_n, s.n_inputs, s.n_aux, s.a, s.b_g1, s.rows_bytes,
                s.rows_table_bytes);
    std::fflush(stdout);
    std::fprintf(stderr, "%s: %.1f s\n", k.circuit_id.c_str(),
                 std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  return 0;
}

}  // namespace

int run_info_gpu(const InfoGpuArgs& args) {
  if (args.measure) return measure(args.threads);
  const std::string archs = CUZK_CUDA_ARCHS_STRING;
  // The budgets to plan for, each with what it is: the one given, else each device's automatic budget
  // (the GPU backend's: its memory less 1 GiB), devices of equal budgets together.
  std::vector<std::pair<std::string, size_t>> budgets;
  if (args.budget)
    budgets.push_back({fmt("budget %.1f GiB (--gpu-mem-budget)", gib(args.budget)), args.budget});
  std::string out;
#ifdef CUZK_WITH_CUDA
  const int n_dev = cuda::device_count();
  const cuda::CudaVersions v = cuda::cuda_versions();
  out += fmt("build: CUDA architectures %s (CUZK_CUDA_ARCHS); CUDA runtime %s, driver %s\n",
             archs.empty() ? "unknown" : archs.c_str(), cuda_version(v.runtime).c_str(),
             cuda_version(v.driver).c_str());
#ifdef CUZK_CUDA_CHECK_ONLY
  out += "build: device code UNOPTIMIZED (CUZK_CUDA_CHECK_ONLY, a compile check as scripts/test.sh makes it): "
         "slow on a GPU; rebuild without it to prove\n";
#endif
  if (n_dev == 0) out += "no CUDA device\n";
  for (int d = 0; d < n_dev; d++) {
    const cuda::DeviceInfo info = cuda::device_info(d);
    const CudaCodeMatch code = cuda_code_for(archs, info.cc_major, info.cc_minor);
    out += fmt("GPU %d: %s, %.1f GiB, %d SMs, sm_%d%d: %s\n", d, info.name.c_str(), gib(info.global_mem),
               info.sm_count, info.cc_major, info.cc_minor, code.describe(archs).c_str());
    if (args.budget) continue;
    const size_t total = info.global_mem;
    const size_t b = total > (size_t{2} << 30) ? total - (size_t{1} << 30) : total / 2;
    bool same = false;
    for (auto& [label, budget] : budgets)
      if (budget == b) label.insert(label.find(':'), fmt(",%d", d)), same = true;
    if (!same) budgets.push_back({fmt("GPU %d: automatic budget %.1f GiB", d, gib(b)), b});
  }
#else
  out += "build: CPU only (built without CUDA): no CUDA device\n";
#endif
  if (budgets.empty())
    throw Error(ErrorCode::kInvalidArgument,
                "info gpu: no CUDA device: give --gpu-mem-budget SIZE (e.g. 16GiB) to see the plans");
  out +=
      "\nplans of one partition per proof kind (the key in host memory; its resident vectors also on "
      "the device, the others streamed from host memory):\n";
  for (const engine::ProofKindShape& k : engine::filecoin_proof_kinds()) {
    DeviceShape s = k.shape;
    s.ntt_table_bytes = ntt_table_bytes(s.log_n);
    const size_t key = k.key_host_bytes();
    out +=
        fmt("%s (%s): domain 2^%d, %s inputs, %s aux; host memory %.1f GiB (key %.1f GiB, rows %.1f GiB)\n",
            k.name.c_str(), k.circuit_id.c_str(), s.log_n, grouped(s.n_inputs).c_str(),
            grouped(s.n_aux).c_str(), gib(key + s.rows_bytes), gib(key), gib(s.rows_bytes));
    for (const auto& [label, budget] : budgets)
      out += "  " + label + ": " + plan_device(s, budget).describe() + "\n";
  }
  std::fputs(out.c_str(), stdout);
  return 0;
}

}  // namespace cuzk::cli
