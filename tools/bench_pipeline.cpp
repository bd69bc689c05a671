// `cuzk bench pipeline --synthetic porep --log2 K --jobs J --partitions P [--gw N[,N…]]
// [--memory-budget SIZE]`: the proving engine in-process, without the daemon (so it runs on the GPU machine,
// which has no gRPC): a PoRep-shaped synthetic circuit (REFERENCE.md §2) and a testing-only key from the
// single-party setup, then J jobs of P partitions through synthesis → GPU workers → finalizers. Prints wall
// time, s/proof (a proof = one partition) and per-stage medians; --timeline writes the per-partition CSV.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <mutex>

#include "backend_select.hpp"
#include "bench_common.hpp"
#include "engine/engine.hpp"
#include "engine/memory.hpp"
#include "engine_commands.hpp"
#include "groth16/compact_cs.hpp"
#include "groth16/key.hpp"
#include "groth16/setup.hpp"
#include "groth16/synthetic.hpp"
#include "util/error.hpp"

namespace cuzk::cli {

int run_bench_pipeline(const PipelineOptions& o, unsigned threads, bool quiet) {
  using engine::Clock;
  ThreadPool pool(threads);
  const Clock::time_point t_gen = Clock::now();
  SyntheticCircuit sc = synthetic_porep(o.log2, o.seed, pool);
  auto cs = std::make_shared<const ConstraintSystem>(std::move(sc.cs));
  auto witness = std::make_shared<const std::vector<Fr>>(std::move(sc.witness));
  const Clock::time_point t_setup = Clock::now();
  DeviceChoice choice;  // the GPU when there is one, else the CPU
  choice.threads = threads;
  auto key = std::make_shared<const ProvingKey>(
      setup(*cs, ToxicWaste::from_seed(o.seed), pool, setup_accel(choice)));
  std::shared_ptr<const CompactCs> rows;
  if (o.abc == "backend") rows = std::make_shared<const CompactCs>(compact(*cs, pool));
  const Clock::time_point t_ready = Clock::now();
  if (!quiet)
    std::fprintf(
        stderr,
        "synthetic porep 2^%d: %zu constraints rows, circuit %.1f s, setup + compact rows %.1f s (%s)\n",
        o.log2, cs->a.rows(), engine::ms_between(t_gen, t_setup) / 1000,
        engine::ms_between(t_setup, t_ready) / 1000,
        rows ? ("a, b, c by the backend; rows " + std::to_string(rows->bytes() >> 20) + " MiB").c_str()
             : "a, b, c on the host");

  if (rows) cs.reset();  // the compact rows replace the CSR matrices (tens of GB at 2^27)
  std::unique_ptr<ProverBackend> backend = make_backend(choice);
  if (!quiet) std::fprintf(stderr, "backend: %s\n", backend->name().c_str());
  const uint64_t budget = o.memory_budget == "0" ? 0 : engine::parse_size(o.memory_budget);
  for (unsigned gw : o.gw) {
    engine::EngineConfig cfg;
    cfg.gpu_workers_per_device = gw;
    cfg.synthesis_workers = o.synthesis_workers;
    cfg.synthesis_threads = threads;
    cfg.synthesis_lookahead = o.lookahead;
    cfg.memory_budget = budget;
    cfg.timeline_csv =
        o.gw.size() == 1 || o.timeline.empty() ? o.timeline : o.timeline + ".gw" + std::to_string(gw);
    std::mutex log_mu;
    if (!quiet)
      cfg.log = [&](const engine::LogEvent& e) {
        if (e.event != "partition_done" && e.level < engine::LogLevel::kWarn) return;
        std::lock_guard lk(log_mu);
        std::fprintf(stderr, "%s\n", e.logfmt().c_str());
      };
    engine::Engine eng(cfg, {backend.get()});
    const engine::LoadedCircuit loaded{key, rows ? nullptr : cs, rows};
    eng.circuits().add("synthetic-porep", "synthetic", [loaded] { return loaded; });
    eng.circuits().preload("synthetic-porep");

    const Clock::time_point t0 = Clock::now();
    std::vector<std::string> ids;
    for (unsigned j = 0; j < o.jobs; j++) {
      engine::JobRequest r;
      r.circuit_id = "synthetic-porep";
      for (unsigned p = 0; p < o.partitions; p++) r.partitions.push_back({{}, witness, {}, {}});
      ids.push_back(eng.submit(std::move(r)).job_id);
    }
    std::vector<double> synth, gpu, b_g2, epi, queue, job_latency;
    for (const auto& id : ids) {
      engine::JobResult r = *eng.await(id);
      if (r.state != engine::JobState::kCompleted) throw Error(ErrorCode::kInternal, id + ": " + r.error);
      job_latency.push_back(r.total_ms);
      for (const auto& t : r.partitions) {
        synth.push_back(t.synth_ms);
        gpu.push_back(t.gpu_ms);
        b_g2.push_back(t.b_g2_ms);
        epi.push_back(t.epilogue_ms);
        queue.push_back(t.queue_ms);
      }
    }
    const double wall = engine::ms_between(t0, Clock::now()) / 1000;
    const engine::EngineStatus st = eng.status();
    const double proofs = (double)o.jobs * o.partitions;
    std::printf(
        "bench pipeline: 2^%d, %u jobs x %u partitions, gw %u, device %s: %.2f s, %.3f s/partition, %.1f "
        "partition proofs/min (every proof verified)\n",
        o.log2, o.jobs, o.partitions, gw, backend->name().c_str(), wall, wall / proofs, 60 * proofs / wall);
    std::printf(
        "  median ms per partition: queue %.0f  synth %.0f  gpu(start) %.0f  b_g2 %.0f  epilogue %.1f; "
        "device busy %.0f%%\n",
        median(queue), median(synth), median(gpu), median(b_g2), median(epi),
        100 * st.devices[0].busy_fraction);
    std::printf(
        "  per job (%u partitions): %.2f s of throughput (wall / jobs), latency median %.2f s; memory: "
        "budget "
        "peak %.1f GiB of %.1f, %u partitions in flight at most; host RSS peak %.1f GiB\n",
        o.partitions, wall / o.jobs, median(job_latency) / 1000, st.memory_peak / 1073741824.0,
        st.memory_budget / 1073741824.0, st.partitions_in_flight_peak, peak_rss_gib());
    std::fflush(stdout);
  }
  return 0;
}

}  // namespace cuzk::cli
