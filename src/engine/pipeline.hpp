// What the pipeline's stages share (internal to the engine): the unit of work — one partition of one
// job — its queues, and the helpers that fail or discard it. Stages: synthesis.hpp → gpu_worker.hpp →
// finalizer.hpp, results into tracker.hpp; engine.hpp builds and owns them.
#pragma once

#include <cstdio>
#include <memory>
#include <mutex>
#include <string>

#include "engine/engine_config.hpp"
#include "engine/job.hpp"
#include "engine/memory.hpp"
#include "engine/metrics.hpp"
#include "engine/queue.hpp"
#include "engine/registry.hpp"
#include "engine/tracker.hpp"
#include "groth16/backend.hpp"
#include "groth16/prover.hpp"
#include "groth16/synthesis.hpp"

namespace cuzk::engine {

/// One partition on its way through the stages. Owns everything it needs: the witness, then the
/// circuit lease and memory reservation (both released when the task is destroyed, after finalize),
/// the assignment, then the pending proof.
struct PartitionTask {
  std::shared_ptr<Job> job;
  uint32_t index = 0;
  WitnessInput witness;
  CircuitRegistry::Lease circuit;
  MemoryBudget::Reservation memory;
  Assignment asg;
  PendingProof pending;
  std::string device;
  Clock::time_point queued, synth_start, synth_end, gpu_start, gpu_end;
  double srs_load_ms = 0;
};

/// Queue order at the moment `now` (taken when the order is made): jobs whose deadline is near (now ≥
/// Job::urgent_from) first, the earliest deadline first; then higher priority, older job, lower
/// partition index.
struct TaskOrder {
  Clock::time_point now = Clock::now();
  bool operator()(const PartitionTask& x, const PartitionTask& y) const {
    const bool ux = x.job->urgent(now), uy = y.job->urgent(now);
    if (ux != uy) return ux;
    if (ux && *x.job->deadline != *y.job->deadline) return *x.job->deadline < *y.job->deadline;
    if (x.job->priority != y.job->priority) return x.job->priority > y.job->priority;
    if (x.job->seq != y.job->seq) return x.job->seq < y.job->seq;
    return x.index < y.index;
  }
};

using TaskQueue = WorkQueue<PartitionTask, TaskOrder>;

/// The shared state of the stages.
struct Pipeline {
  /// `backends`: the devices' backends (not owned), asked what host memory a partition takes there.
  Pipeline(const EngineConfig& cfg, Metrics& metrics, MemoryBudget& memory, CircuitRegistry& circuits,
           Tracker& tracker, std::vector<ProverBackend*> backends);
  ~Pipeline();

  const EngineConfig& cfg;
  Metrics& metrics;
  MemoryBudget& memory;
  CircuitRegistry& circuits;
  Tracker& tracker;
  TaskQueue synth_queue;  ///< submitted partitions, unbounded
  TaskQueue gpu_queue;    ///< synthesized partitions, bounded by cfg.synthesis_lookahead
  TaskQueue final_queue;  ///< started partitions waiting for a finalizer, unbounded
  const std::vector<ProverBackend*> backends;

  /// Host bytes one partition of `c` with witness `w` holds while in flight, for the memory budget: its
  /// assignment (partition_bytes) and what the most demanding backend adds while it proves it
  /// (ProverBackend::partition_host_bytes).
  uint64_t partition_charge(const LoadedCircuit& c, const WitnessInput& w) const;

  void log(LogLevel level, std::string event, std::vector<std::pair<std::string, std::string>> fields) const;
  /// Fails the task's job with `reason` and drops its other queued partitions.
  void fail(PartitionTask& task, const std::string& reason);
  /// Removes every queued partition of `job` from the three queues (their memory is released).
  void drop_queued(const Job& job);
  /// Counts a partition discarded because its job was cancelled or failed.
  void discard(std::unique_ptr<PartitionTask> task);
  /// Appends the task's timeline line to cfg.timeline_csv (when set).
  void timeline(const PartitionTask& task, Clock::time_point finalized);

 private:
  std::mutex timeline_mu_;
  std::FILE* timeline_ = nullptr;
  Clock::time_point t0_;
};

}  // namespace cuzk::engine
