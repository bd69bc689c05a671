// The engine's settings (the daemon fills them from cuzk.toml: pipeline.*, synthesis.*, gpus.*,
// memory.*; the pipeline benchmark from its flags).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "engine/log.hpp"

namespace cuzk::engine {

/// Settings of an Engine. Zero means "pick a default" where noted.
struct EngineConfig {
  /// Partitions synthesized at once (pipeline.max_parallel_synthesis); 0 = 1.
  unsigned synthesis_workers = 1;
  /// CPU threads for synthesis, shared by the workers (synthesis.threads): the partition begun first gets
  /// the threads that the others leave; 0 = half the cores.
  unsigned synthesis_threads = 0;
  /// GPU workers per device (gpus.gpu_workers_per_device): each calls start() and loops back at once.
  unsigned gpu_workers_per_device = 2;
  /// Threads that finalize (wait for the backend, epilogue, verify); 0 = gpu workers of all devices.
  unsigned finalizer_threads = 0;
  /// Synthesized partitions that may wait for a GPU worker (pipeline.synthesis_lookahead); ≥ 1.
  size_t synthesis_lookahead = 1;
  /// Host-memory budget in bytes for resident circuits and partitions in flight (memory.total_budget);
  /// 0 = unlimited.
  uint64_t memory_budget = 0;
  /// Verify every proof with the pairing before returning it (a few ms each).
  bool verify_proofs = true;
  /// Finished jobs remembered for AwaitProof and idempotent resubmission (at most this many, holding at
  /// most retained_bytes: ids, error text, proofs, public inputs, timings). Past either, failed and
  /// cancelled jobs are forgotten first, those of the JobRequest::owner holding the most of them first,
  /// then the oldest completed ones (Tracker). What they hold on the heap (engine::retained_footprint) is
  /// charged to the memory budget.
  size_t retained_jobs = 10000;
  uint64_t retained_bytes = 64ull << 20;
  /// Input bytes (witness files and values, JobRequest::extra_bytes; not shared witnesses, which are the
  /// caller's) that jobs not final yet may hold; a submit beyond it is refused
  /// (SubmitRefused::Reason::kOverLimit) and the bytes held are charged to the memory budget. 0 = a
  /// quarter of memory_budget, at least 1 GiB (no limit when memory_budget is 0 too).
  uint64_t max_queued_bytes = 0;
  /// How long before its JobRequest::deadline a job becomes urgent (scheduler.deadline_lead_s).
  double deadline_lead_s = 600;
  /// When set, one CSV line per proved partition (stage start/end times, ms since engine start).
  std::string timeline_csv;
  /// Receives the engine's structured log events (may be empty).
  LogSink log;
};

/// The queued-input limit (bytes) an Engine of `cfg` applies: cfg.max_queued_bytes, else a quarter of
/// cfg.memory_budget, at least 1 GiB; 0 (no limit) when both are 0.
uint64_t queued_input_limit(const EngineConfig& cfg);

}  // namespace cuzk::engine
