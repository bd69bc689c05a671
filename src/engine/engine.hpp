// The proving engine: the pipeline of REFERENCE.md §1 as a library, with no network code in it.
//
//   submit ─▶ [submit queue] ─▶ synthesis workers ─▶ [GPU queue, bounded] ─▶ GPU workers (gw per device)
//          ─▶ [finalize queue] ─▶ finalizers ─▶ tracker ─▶ await
//
// Queues are ordered by (priority, job order, partition). Each partition is one start() call on the
// device's ProverBackend (CpuBackend when there is no GPU), then one prove_finalize. The daemon
// (src/service) and the in-process benchmark (`cuzk bench pipeline`) are its two users.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/engine_config.hpp"
#include "engine/job.hpp"
#include "engine/memory.hpp"
#include "engine/metrics.hpp"
#include "engine/registry.hpp"
#include "groth16/backend.hpp"

namespace cuzk::engine {

/// The answer to submit().
struct SubmitResult {
  std::string job_id;
  uint32_t queue_position = 0;  ///< partitions queued ahead of this job's first one
  bool existing = false;        ///< the request_id was seen before: nothing new was queued
};

/// One device as GetStatus reports it.
struct DeviceStatus {
  unsigned ordinal = 0;
  std::string name;
  unsigned workers = 0;
  double busy_fraction = 0;  ///< share of the engine's uptime with a start() call running
  std::string current_job_id, current_kind;
};

/// Jobs of one kind not final yet.
struct KindStatus {
  std::string kind;
  unsigned pending = 0;      ///< no partition started
  unsigned in_progress = 0;  ///< some partition started
};

/// A snapshot for GetStatus and /status.
struct EngineStatus {
  std::vector<DeviceStatus> devices;
  std::vector<CircuitInfo> circuits;
  std::vector<KindStatus> kinds;
  size_t synth_queue = 0, gpu_queue = 0, final_queue = 0;
  uint64_t jobs_submitted = 0, jobs_completed = 0, jobs_failed = 0, jobs_cancelled = 0;
  uint64_t partitions_completed = 0;
  double uptime_s = 0;
  uint64_t memory_used = 0, memory_budget = 0, memory_peak = 0;
  unsigned partitions_in_flight = 0, partitions_in_flight_peak = 0;
  unsigned partitions_waiting_memory = 0;  ///< syntheses waiting for room in the memory budget now
  uint64_t early_releases = 0;             ///< Metrics::early_releases
  size_t retained_jobs = 0;                ///< finished jobs remembered
  uint64_t retained_bytes = 0;             ///< what they hold (EngineConfig::retained_bytes bounds it)
  uint64_t queued_input_bytes = 0;         ///< inputs of jobs not final (EngineConfig::max_queued_bytes)
  bool accepting = true;
};

/// The engine. Thread-safe; the destructor cancels what is left and joins every thread.
class Engine {
 public:
  /// Starts the stages. `devices` (at least one) are the backends to prove on, one per GPU (or one
  /// CpuBackend); they must outlive the engine. Throws Error(kInvalidArgument) for an empty device list
  /// and Error(kIo) when the timeline file cannot be opened.
  Engine(EngineConfig cfg, std::vector<ProverBackend*> devices);
  ~Engine();
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  /// The circuits; register them before submitting jobs for them.
  CircuitRegistry& circuits();

  /// Queues a job. A job for an unknown circuit or with no partition is created failed (its await
  /// says why): only that job fails. Throws SubmitRefused (job.hpp) after shutdown() began, for a
  /// request_id taken by a different request and for an input over EngineConfig::max_queued_bytes.
  SubmitResult submit(JobRequest req);
  /// Waits for a job to be final or for `timeout_ms` (0 = no limit). nullopt for an unknown job id.
  std::optional<JobResult> await(const std::string& job_id, uint64_t timeout_ms = 0);
  /// The job as it is now, without waiting. nullopt for an unknown job id.
  std::optional<JobResult> peek(const std::string& job_id) const;
  /// Calls `f` each time a job becomes final, so that one thread can wait for many jobs (the daemon's
  /// AwaitProof calls, service/await_hub.hpp); one listener, replaced by the next call (empty: none). `f`
  /// runs with the engine's job table locked: it must only signal another thread, never call the engine.
  /// Once this returns, the previous listener is not called any more.
  void set_final_listener(std::function<void()> f);
  /// submit + await.
  JobResult prove(JobRequest req);
  /// Cancels a job: its queued partitions are dropped, running ones are discarded when they finish.
  /// nullopt for an unknown id; else whether a partition had started.
  std::optional<bool> cancel(const std::string& job_id);

  EngineStatus status() const;
  /// Counters, histograms and gauges in the Prometheus text format (metric names start with cuzk_).
  std::string metrics_text() const;

  /// The point vectors of a key of `shape`'s counts (with `rows`, its circuit's compact rows, if any) that
  /// every device keeps in memory of its own (ProverBackend::device_resident): what a loader may release
  /// from host memory (ParamsReadOptions::release). None when any device is a CPU backend.
  KeyVectorSet device_resident(const ProvingKey& shape, const CompactCs* rows) const;

  /// Records how circuit `circuit`'s key is laid out on GPU `gpu` (the device plan,
  /// groth16/device_plan.hpp): metrics_text exports it as cuzk_key_resident_bytes and
  /// cuzk_key_streamed_bytes{circuit, gpu}. A later call for the same circuit and GPU replaces it.
  void set_key_plan(const std::string& circuit, int gpu, uint64_t resident_bytes, uint64_t streamed_bytes);

  /// Stops taking jobs. With `drain`, jobs that have started run to completion and queued ones are
  /// cancelled ("the engine is shutting down"); without, every job not final is cancelled. Then the
  /// stages stop. Returns when every thread has joined. Idempotent.
  void shutdown(bool drain);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace cuzk::engine
