#include "bench_prove.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <map>
#include <mutex>
#include <thread>

#include "bench_common.hpp"
#include "groth16/compact_cs.hpp"
#include "groth16/prover.hpp"
#include "groth16/setup.hpp"
#include "groth16/synthesis.hpp"
#include "groth16/synthetic.hpp"
#include "util/error.hpp"
#include "util/thread_pool.hpp"
#ifdef CUZK_WITH_CUDA
#include "cuda/gpu.hpp"
#include "cuda/gpu_backend.hpp"
#endif

namespace cuzk::cli {
namespace {

using Clock = std::chrono::steady_clock;
double secs(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

}  // namespace

int bench_prove(const BenchProveArgs& a) {
  if (a.log2 < 10 || a.log2 > 28) throw Error(ErrorCode::kInvalidArgument, "--log2 must be in 10..28");
  if (a.reps < 1 || a.gw < 1 || a.partitions < 0)
    throw Error(ErrorCode::kInvalidArgument, "--reps and --gw must be ≥ 1, --partitions ≥ 0");
  ThreadPool pool(a.device.threads);
  std::unique_ptr<ProverBackend> backend = make_backend(a.device);  // fails first when no GPU is there
  auto t = Clock::now();
  SyntheticCircuit circ = synthetic_porep(a.log2, a.seed, pool);
  const ConstraintSystem& cs = circ.cs;
  std::printf(
      "circuit: synthetic PoRep 2^%d (seed %llu): %zu rows, %u inputs, %u aux, nnz A/B/C %zu/%zu/%zu; "
      "a_aux %.1f%%, b_aux %.1f%%; generated in %.2f s\n",
      a.log2, (unsigned long long)a.seed, cs.a.rows(), cs.n_inputs, cs.n_aux, cs.a.nnz(), cs.b.nnz(),
      cs.c.nnz(), 100.0 * cs.a_aux.popcount() / cs.n_aux, 100.0 * cs.b_aux.popcount() / cs.n_aux, secs(t));
  std::fflush(stdout);

  t = Clock::now();
  std::shared_ptr<const ProvingKey> key;
  if (a.params.empty()) {
    std::printf("setup: single-party, in memory (TESTING ONLY)...\n");
    std::fflush(stdout);
    key = std::make_shared<const ProvingKey>(
        setup(cs, ToxicWaste::from_seed(a.seed), pool, setup_accel(a.device)));
    std::printf("setup: %.2f s\n", secs(t));
  } else {
    if (!a.load_params)
      throw Error(ErrorCode::kInvalidArgument, "bench prove: this tool cannot read .params files");
    key = std::make_shared<const ProvingKey>(a.load_params(a.params));
    check_key_fits(*key, cs, a.params + " and the synthetic circuit of seed " + std::to_string(a.seed));
    std::printf("loaded %s: %.2f s\n", a.params.c_str(), secs(t));
  }
  std::fflush(stdout);

  const std::string backend_name = backend->name();
  std::printf("backend: %s%s\n", backend_name.c_str(),
              a.device.g2 == "cpu" && backend->name() != "cpu" ? ", B_G2 on the CPU" : "");
#ifdef CUZK_WITH_CUDA
  if (auto* g = dynamic_cast<GpuBackend*>(backend.get())) {
    t = Clock::now();
    const bool res = g->preload(key);
    std::printf("SRS %s: %.2f GiB, %.2f s (budget %.2f GiB)\n",
                res ? "resident on the GPU" : "streamed from host", key->point_bytes() / 1073741824.0,
                secs(t), g->mem_budget() / 1073741824.0);
  }
#endif

  ProveOptions opt;  // random r, s; every proof verified
  std::map<std::string, std::vector<double>> stage_ms;
  std::vector<std::string> order;
  std::vector<double> synth_ms, total_ms;
  std::shared_ptr<const Assignment> asg;
#ifdef CUZK_WITH_CUDA
  std::unique_ptr<cuda::DeviceMemorySampler> sampler;
  if (auto* g = dynamic_cast<GpuBackend*>(backend.get()))
    sampler = std::make_unique<cuda::DeviceMemorySampler>(g->options().device);
#endif
  for (int rep = -1; rep < a.reps; rep++) {
    asg.reset();  // at 2^27 two assignments (17 GB each) would not fit beside the key and the circuit
    t = Clock::now();
    asg = std::make_shared<const Assignment>(synthesize(cs, circ.witness, pool));
    const double syn = secs(t) * 1e3;
    const auto t1 = Clock::now();
    ProveResult res;
    try {
      res = std::move(prove_finalize(prove_start(key, {asg}, *backend, opt))[0]);
    } catch (const Error& e) {
      if (e.code() != ErrorCode::kUnsatisfied || a.params.empty()) throw;
      throw Error(e.code(), std::string(e.what()) + ": was " + a.params +
                                " made for the synthetic circuit of seed " + std::to_string(a.seed) +
                                "? (setup --synthetic and bench prove need the same --seed)");
    }
    const double tot = secs(t1) * 1e3;
    std::printf("%s: synthesis %.1f ms |", rep < 0 ? "warm-up" : ("proof " + std::to_string(rep + 1)).c_str(),
                syn);
    for (auto& [name, ms] : res.stages) {
      std::printf(" %s %.1f", name.c_str(), ms);
      if (rep >= 0) {
        if (!stage_ms.count(name)) order.push_back(name);
        stage_ms[name].push_back(ms);
      }
    }
    std::printf(" | prove %.1f ms, verified\n", tot);
    std::fflush(stdout);
    if (rep >= 0) {
      synth_ms.push_back(syn);
      total_ms.push_back(tot);
    }
  }
#ifdef CUZK_WITH_CUDA
  if (sampler)
    std::printf("device memory peak: %.2f GiB (the driver's view, CUDA context included)\n",
                sampler->stop() / 1073741824.0);
#endif
  const double nnz = (double)cs.nnz();
  std::printf("median of %d: synthesis %.1f ms (%.2e nonzeros/s)", a.reps, median(synth_ms),
              nnz / (median(synth_ms) / 1e3));
  for (const auto& name : order) std::printf(", %s %.1f", name.c_str(), median(stage_ms[name]));
  std::printf("; prove latency %.1f ms\n", median(total_ms));
  nlohmann::json stages_json = nlohmann::json::object();
  for (const auto& name : order) stages_json[name] = timing_json(stage_ms[name]);
  nlohmann::json report = {{"synthesis", timing_json(synth_ms)},
                           {"prove", timing_json(total_ms)},
                           {"stages", stages_json},
                           {"throughput", nlohmann::json::array()}};

  // Throughput: gw workers, each looping start → finalize over the shared assignment.
  auto throughput = [&](ProverBackend& be, int gw, const std::string& label) {
    std::atomic<int> next{0};
    std::vector<std::thread> workers;
    std::exception_ptr err;
    std::mutex err_mu;
    const auto t0 = Clock::now();
    for (int w = 0; w < gw; w++)
      workers.emplace_back([&] {
        try {
          while (next++ < a.partitions) prove_finalize(prove_start(key, {asg}, be, opt));
        } catch (...) {
          std::lock_guard<std::mutex> lk(err_mu);
          err = std::current_exception();
        }
      });
    for (auto& th : workers) th.join();
    if (err) std::rethrow_exception(err);
    const double s = secs(t0);
    std::printf("throughput%s: %d partitions with gw = %d in %.2f s: %.1f ms per partition (all verified)\n",
                label.c_str(), a.partitions, gw, s, s * 1e3 / a.partitions);
    report["throughput"].push_back({{"label", label},
                                    {"gw", gw},
                                    {"partitions", a.partitions},
                                    {"seconds", s},
                                    {"ms_per_partition", s * 1e3 / a.partitions}});
    std::fflush(stdout);
  };
  if (a.partitions > 0 && !a.sweep) throughput(*backend, a.gw, "");
  if (a.partitions > 0 && a.sweep) {
    backend.reset();  // one resident copy of a 2^27 key at a time
    for (const char* g2 : {"gpu", "cpu"}) {
      DeviceChoice d = a.device;
      d.g2 = g2;
      std::unique_ptr<ProverBackend> be = make_backend(d);
      for (int gw : {1, 2}) throughput(*be, gw, std::string(" (B_G2 on the ") + g2 + ")");
    }
  }
  // Budgeted runs prove deferred assignments first (a, b, c by the backend from the compact rows, as
  // `porep prove` and the daemon do), then synthesized ones.
  std::shared_ptr<const CompactCs> rows;
  std::shared_ptr<const Assignment> deferred;
  if (!a.stream_budgets.empty()) {
    rows = std::make_shared<const CompactCs>(compact(cs, pool));
    deferred = std::make_shared<const Assignment>(deferred_assignment(rows, circ.witness, pool));
  }
  for (const size_t budget : a.stream_budgets) {
    backend.reset();
    DeviceChoice d = a.device;
    d.gpu_mem_budget = budget;
    std::unique_ptr<ProverBackend> be = make_backend(d);
    nlohmann::json run{{"budget_bytes", budget}};
#ifdef CUZK_WITH_CUDA
    auto* g = dynamic_cast<GpuBackend*>(be.get());
    if (g) {
      const DevicePlan p = g->plan(*key, rows.get());
      std::printf("budget %.1f GiB: %s\n", budget / 1073741824.0, p.describe().c_str());
      run["plan"] = p.describe();
      const double gbps = cuda::pinned_upload_gbps(size_t{1} << 30, 5, g->options().device);
      std::printf("pinned host->device: %.1f GB/s (1 GiB copies, median of 5)\n", gbps);
      run["pinned_h2d_gbps"] = gbps;
    }
    std::unique_ptr<cuda::DeviceMemorySampler> sampler;
    if (g) {  // the earlier runs' cached pool blocks go back first: the peak is this budget's alone
      cuda::release_cached_memory(g->options().device);
      sampler = std::make_unique<cuda::DeviceMemorySampler>(g->options().device);
    }
#endif
    for (const bool from_rows : {true, false}) {
      std::vector<double> streamed_ms;
      for (int rep = -1; rep < a.reps; rep++) {  // one warm-up (page-locking, first uploads)
        const auto t1 = Clock::now();
        ProveResult res =
            std::move(prove_finalize(prove_start(key, {from_rows ? deferred : asg}, *be, opt))[0]);
        std::printf("budget %.1f GiB, %s%s: ", budget / 1073741824.0, from_rows ? "deferred" : "synthesized",
                    rep < 0 ? " (warm-up)" : "");
        for (auto& [name, ms] : res.stages) std::printf(" %s %.1f", name.c_str(), ms);
        if (rep >= 0) streamed_ms.push_back(secs(t1) * 1e3);
        std::printf(" | prove %.1f ms, verified\n", secs(t1) * 1e3);
        std::fflush(stdout);
      }
      std::printf("budget %.1f GiB, %s: median %.1f ms\n", budget / 1073741824.0,
                  from_rows ? "deferred" : "synthesized", median(streamed_ms));
      run[from_rows ? "deferred_ms" : "synthesized_ms"] = timing_json(streamed_ms);
    }
#ifdef CUZK_WITH_CUDA
    if (sampler) {
      const size_t peak = sampler->stop();
      std::printf("budget %.1f GiB: device memory peak %.2f GiB (the driver's view, CUDA context included)\n",
                  budget / 1073741824.0, peak / 1073741824.0);
      run["device_peak_bytes"] = peak;
    }
#endif
    report["streamed"].push_back(run);
  }
  std::printf("host memory peak: %.2f GiB\n", peak_rss_gib());
#ifdef CUZK_WITH_CUDA
  if (a.device.device != "cpu") {
    const cuda::MemoryStats m = cuda::memory_stats(a.device.devices.empty() ? 0 : a.device.devices[0]);
    std::printf("GPU memory in use after the run: %.2f GiB of %.2f GiB (resident SRS and cached scratch)\n",
                (m.device_total - m.device_free) / 1073741824.0, m.device_total / 1073741824.0);
  }
#endif
  if (!a.json.empty())
    write_bench_json(a.json, "prove", backend_name != "cpu",
                     {{"circuit", "synthetic porep"},
                      {"log2", a.log2},
                      {"seed", a.seed},
                      {"params", a.params},
                      {"reps", a.reps},
                      {"gw", a.gw},
                      {"partitions", a.partitions},
                      {"sweep", a.sweep},
                      {"stream_budgets", a.stream_budgets},
                      {"device", a.device.device},
                      {"g2", a.device.g2},
                      {"backend", backend_name}},
                     report);
  return 0;
}

}  // namespace cuzk::cli
