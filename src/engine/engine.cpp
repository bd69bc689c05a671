#include "engine/engine.hpp"

#include <map>
#include <thread>

#include "engine/finalizer.hpp"
#include "engine/gpu_worker.hpp"
#include "engine/pipeline.hpp"
#include "engine/synthesis.hpp"
#include "engine/tracker.hpp"
#include "util/error.hpp"

namespace cuzk::engine {

uint64_t queued_input_limit(const EngineConfig& cfg) {
  return cfg.max_queued_bytes ? cfg.max_queued_bytes
         : cfg.memory_budget  ? std::max<uint64_t>(cfg.memory_budget / 4, 1ull << 30)
                              : 0;
}

struct Engine::Impl {
  Impl(EngineConfig c, const std::vector<ProverBackend*>& backends)
      : cfg(std::move(c)),
        memory(cfg.memory_budget),
        circuits(memory, cfg.log),
        tracker(metrics, cfg.log, memory, std::max<size_t>(1, cfg.retained_jobs), cfg.retained_bytes,
                queued_input_limit(cfg)),
        devices(backends.size()),
        pipeline(cfg, metrics, memory, circuits, tracker, backends),
        started(Clock::now()) {
    for (size_t i = 0; i < backends.size(); i++) {
      devices[i].ordinal = (unsigned)i;
      devices[i].backend = backends[i];
      devices[i].name = backends[i]->name();
    }
    const unsigned hw = std::max(1u, std::thread::hardware_concurrency());
    const unsigned workers = std::max(1u, cfg.synthesis_workers);
    const unsigned threads = cfg.synthesis_threads ? cfg.synthesis_threads : std::max(1u, hw / 2);
    const unsigned gw = std::max(1u, cfg.gpu_workers_per_device);
    const unsigned fin = cfg.finalizer_threads ? cfg.finalizer_threads : gw * (unsigned)devices.size();
    finalizers = std::make_unique<Finalizers>(pipeline, fin);
    gpu = std::make_unique<GpuWorkers>(pipeline, devices, gw);
    synth = std::make_unique<SynthesisWorkers>(pipeline, workers, threads);
    pipeline.log(LogLevel::kInfo, "engine_started",
                 {{"devices", std::to_string(devices.size())},
                  {"gpu_workers_per_device", std::to_string(gw)},
                  {"synthesis_workers", std::to_string(workers)},
                  {"synthesis_threads", std::to_string(threads)},
                  {"finalizers", std::to_string(fin)},
                  {"memory_budget", std::to_string(cfg.memory_budget)}});
  }

  EngineConfig cfg;
  Metrics metrics;
  MemoryBudget memory;
  CircuitRegistry circuits;
  Tracker tracker;
  std::vector<DeviceState> devices;
  Pipeline pipeline;
  std::unique_ptr<Finalizers> finalizers;
  std::unique_ptr<GpuWorkers> gpu;
  std::unique_ptr<SynthesisWorkers> synth;
  std::atomic<bool> accepting{true};
  std::mutex shutdown_mu;
  bool stopped = false;
  Clock::time_point started;
  /// set_key_plan: (circuit, GPU) → (resident, streamed) bytes.
  mutable std::mutex plans_mu;
  std::map<std::pair<std::string, int>, std::pair<uint64_t, uint64_t>> key_plans;
};

Engine::Engine(EngineConfig cfg, std::vector<ProverBackend*> devices) {
  if (devices.empty())
    throw Error(ErrorCode::kInvalidArgument, "the engine needs at least one device (backend)");
  impl_ = std::make_unique<Impl>(std::move(cfg), devices);
}

Engine::~Engine() { shutdown(false); }

CircuitRegistry& Engine::circuits() { return impl_->circuits; }

SubmitResult Engine::submit(JobRequest req) {
  Impl& m = *impl_;
  if (!m.accepting)
    throw SubmitRefused(SubmitRefused::Reason::kShuttingDown, "the engine is shutting down: no new jobs");
  // The job's input: what its partitions hold until they are synthesized (a shared witness is the
  // caller's, not the job's: benchmarks share one between jobs).
  uint64_t input = req.extra_bytes + req.request_id.size() + req.circuit_id.size();
  for (const WitnessInput& w : req.partitions)
    input += sizeof(PartitionTask) + w.wtns.size() + w.values.size() * sizeof(Fr);
  auto [job, existing] = m.tracker.create(
      req, input,
      std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(m.cfg.deadline_lead_s)));
  if (existing) return {job->id, 0, true};
  std::vector<std::pair<std::string, std::string>> fields = {
      {"job", job->id},
      {"circuit", job->circuit_id},
      {"partitions", std::to_string(job->n_partitions)},
      {"priority", to_string(job->priority)},
      {"request_id", job->request_id},
      {"input_bytes", std::to_string(input)}};
  if (job->deadline)
    fields.emplace_back("deadline_in_ms",
                        std::to_string((long long)ms_between(Clock::now(), *job->deadline)));
  m.pipeline.log(LogLevel::kInfo, "job_submitted", std::move(fields));
  if (req.partitions.empty()) {
    m.tracker.fail(*job, "the job has no partition (no witness)");
    return {job->id, 0, false};
  }
  if (!m.circuits.contains(req.circuit_id)) {
    m.tracker.fail(*job, "unknown circuit \"" + printable(req.circuit_id) + "\"");
    return {job->id, 0, false};
  }
  SubmitResult out{job->id, 0, false};
  const Clock::time_point now = Clock::now();
  for (uint32_t i = 0; i < req.partitions.size(); i++) {
    auto t = std::make_unique<PartitionTask>();
    t->job = job;
    t->index = i;
    t->witness = std::move(req.partitions[i]);
    t->queued = now;
    if (i == 0) out.queue_position = (uint32_t)m.pipeline.synth_queue.count_before(*t);
    if (!m.pipeline.synth_queue.push(t)) {
      m.tracker.fail(*job, "the engine is shutting down");
      m.pipeline.drop_queued(*job);
      break;
    }
  }
  return out;
}

std::optional<JobResult> Engine::await(const std::string& job_id, uint64_t timeout_ms) {
  return impl_->tracker.await(job_id, timeout_ms);
}

std::optional<JobResult> Engine::peek(const std::string& job_id) const { return impl_->tracker.peek(job_id); }

void Engine::set_final_listener(std::function<void()> f) { impl_->tracker.set_final_listener(std::move(f)); }

JobResult Engine::prove(JobRequest req) { return *await(submit(std::move(req)).job_id); }

std::optional<bool> Engine::cancel(const std::string& job_id) {
  Impl& m = *impl_;
  std::optional<bool> r = m.tracker.cancel(job_id, "cancelled by the client");
  if (r)
    if (auto job = m.tracker.find(job_id)) m.pipeline.drop_queued(*job);
  return r;
}

EngineStatus Engine::status() const {
  const Impl& m = *impl_;
  EngineStatus s;
  s.uptime_s = ms_between(m.started, Clock::now()) / 1000;
  for (const DeviceState& d : m.devices) {
    auto [job, kind] = d.current();
    s.devices.push_back({d.ordinal, d.name, std::max(1u, m.cfg.gpu_workers_per_device),
                         s.uptime_s > 0 ? d.busy_seconds() / s.uptime_s : 0, job, kind});
  }
  s.circuits = m.circuits.list();
  for (const auto& [kind, c] : m.tracker.kind_counts()) s.kinds.push_back({kind, c.first, c.second});
  s.synth_queue = m.pipeline.synth_queue.size();
  s.gpu_queue = m.pipeline.gpu_queue.size();
  s.final_queue = m.pipeline.final_queue.size();
  s.jobs_submitted = m.metrics.jobs_submitted;
  s.jobs_completed = m.metrics.jobs_completed;
  s.jobs_failed = m.metrics.jobs_failed;
  s.jobs_cancelled = m.metrics.jobs_cancelled;
  s.partitions_completed = m.metrics.partitions_completed;
  s.memory_used = m.memory.used();
  s.memory_budget = m.memory.total();
  s.memory_peak = m.memory.peak();
  s.partitions_in_flight = m.memory.working_now();
  s.partitions_in_flight_peak = m.memory.working_peak();
  s.partitions_waiting_memory = m.memory.waiting();
  s.early_releases = m.metrics.early_releases;
  s.accepting = m.accepting;
  const Tracker::Held held = m.tracker.held();
  s.retained_jobs = held.retained_jobs;
  s.retained_bytes = held.retained_bytes;
  s.queued_input_bytes = held.input_bytes;
  return s;
}

std::string Engine::metrics_text() const {
  const Impl& m = *impl_;
  const EngineStatus s = status();
  std::string out;
  const Metrics& c = m.metrics;
  render_metric(out, "cuzk_jobs_total", "counter", "Jobs by final state (submitted counts every job).",
                (double)c.jobs_submitted, "state=\"submitted\"");
  render_metric(out, "cuzk_jobs_total", "counter", "", (double)c.jobs_completed, "state=\"completed\"");
  render_metric(out, "cuzk_jobs_total", "counter", "", (double)c.jobs_failed, "state=\"failed\"");
  render_metric(out, "cuzk_jobs_total", "counter", "", (double)c.jobs_cancelled, "state=\"cancelled\"");
  render_metric(out, "cuzk_partitions_total", "counter",
                "Partitions proved, failed, or dropped because their job was cancelled or failed.",
                (double)c.partitions_completed, "result=\"completed\"");
  render_metric(out, "cuzk_partitions_total", "counter", "", (double)c.partitions_failed,
                "result=\"failed\"");
  render_metric(out, "cuzk_partitions_total", "counter", "", (double)c.partitions_dropped,
                "result=\"dropped\"");
  render_metric(out, "cuzk_partition_early_releases_total", "counter",
                "Partitions whose witness memory went back to the budget once the GPU had read it, while "
                "other partitions waited for memory.",
                (double)c.early_releases);
  c.queue_ms.render(out, "cuzk_partition_queue_ms", "Time a partition waited in queues (ms).");
  c.synth_ms.render(out, "cuzk_partition_synthesis_ms", "Synthesis time of a partition (ms).");
  c.gpu_ms.render(out, "cuzk_partition_gpu_ms", "Duration of the backend start() call of a partition (ms).");
  c.b_g2_ms.render(out, "cuzk_partition_b_g2_ms", "B G2 MSM time of a partition (ms).");
  c.epilogue_ms.render(out, "cuzk_partition_epilogue_ms", "Epilogue time of a partition (ms).");
  c.job_total_ms.render(out, "cuzk_job_total_ms", "Submit to proof, completed jobs (ms).");
  const char* qhelp = "Partitions waiting in each queue.";
  render_metric(out, "cuzk_queue_depth", "gauge", qhelp, (double)s.synth_queue, "queue=\"synthesis\"");
  render_metric(out, "cuzk_queue_depth", "gauge", qhelp, (double)s.gpu_queue, "queue=\"gpu\"");
  render_metric(out, "cuzk_queue_depth", "gauge", qhelp, (double)s.final_queue, "queue=\"finalize\"");
  render_metric(out, "cuzk_partitions_in_flight", "gauge", "Partitions holding working memory.",
                s.partitions_in_flight);
  render_metric(out, "cuzk_partitions_waiting_memory", "gauge",
                "Partitions whose synthesis waits for room in the memory budget.",
                s.partitions_waiting_memory);
  render_metric(out, "cuzk_memory_used_bytes", "gauge", "Host memory charged to the budget.",
                (double)s.memory_used);
  render_metric(out, "cuzk_memory_budget_bytes", "gauge", "The memory budget (0 = unlimited).",
                (double)s.memory_budget);
  for (const DeviceStatus& d : s.devices)
    render_metric(out, "cuzk_gpu_busy_fraction", "gauge", "Share of uptime with a start() call running.",
                  d.busy_fraction, "device=\"" + std::to_string(d.ordinal) + "\",name=\"" + d.name + "\"");
  unsigned resident = 0;
  for (const CircuitInfo& ci : s.circuits) resident += ci.resident;
  render_metric(out, "cuzk_circuits_resident", "gauge", "Circuits loaded in host memory.", resident);
  render_metric(out, "cuzk_uptime_seconds", "gauge", "Seconds since the engine started.", s.uptime_s);
  std::lock_guard lk(m.plans_mu);
  auto plan_labels = [](const std::pair<std::string, int>& key) {
    std::string id;  // a label value: backslash, quote and newline escaped (exposition format)
    for (char ch : key.first)
      id += ch == '\\' ? "\\\\" : ch == '"' ? "\\\"" : ch == '\n' ? "\\n" : std::string(1, ch);
    return "circuit=\"" + id + "\",gpu=\"" + std::to_string(key.second) + "\"";
  };
  for (const auto& [key, bytes] : m.key_plans)
    render_metric(out, "cuzk_key_resident_bytes", "gauge",
                  "Bytes of a circuit's key kept on a GPU (its device plan).", (double)bytes.first,
                  plan_labels(key));
  for (const auto& [key, bytes] : m.key_plans)
    render_metric(
        out, "cuzk_key_streamed_bytes", "gauge",
        "Bytes of a circuit's key streamed to a GPU from host memory per partition (its device plan).",
        (double)bytes.second, plan_labels(key));
  return out;
}

KeyVectorSet Engine::device_resident(const ProvingKey& shape, const CompactCs* rows) const {
  KeyVectorSet all;
  all.fill(true);
  for (const ProverBackend* b : impl_->pipeline.backends) {
    const KeyVectorSet mine = b->device_resident(shape, rows);
    for (int v = 0; v < kKeyVectors; v++) all[v] = all[v] && mine[v];
  }
  return all;
}

void Engine::set_key_plan(const std::string& circuit, int gpu, uint64_t resident_bytes,
                          uint64_t streamed_bytes) {
  std::lock_guard lk(impl_->plans_mu);
  impl_->key_plans[{circuit, gpu}] = {resident_bytes, streamed_bytes};
}

void Engine::shutdown(bool drain) {
  Impl& m = *impl_;
  std::lock_guard lk(m.shutdown_mu);
  if (m.stopped) return;
  m.accepting = false;
  m.pipeline.log(LogLevel::kInfo, "engine_stopping", {{"drain", drain ? "true" : "false"}});
  for (const auto& job : m.tracker.active()) {
    m.tracker.cancel(job->id, "the engine is shutting down", /*only_queued=*/drain);
    if (job->dropped) m.pipeline.drop_queued(*job);
  }
  if (drain) m.tracker.wait_idle();
  m.pipeline.synth_queue.close();
  m.synth.reset();
  m.pipeline.gpu_queue.close();
  m.gpu.reset();
  m.pipeline.final_queue.close();
  m.finalizers.reset();
  m.stopped = true;
  m.pipeline.log(LogLevel::kInfo, "engine_stopped", {});
}

}  // namespace cuzk::engine
