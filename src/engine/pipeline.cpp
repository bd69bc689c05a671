#include "engine/pipeline.hpp"

#include <algorithm>

#include "engine/synthesis.hpp"
#include "util/error.hpp"

namespace cuzk::engine {

Pipeline::Pipeline(const EngineConfig& c, Metrics& m, MemoryBudget& mem, CircuitRegistry& reg, Tracker& t,
                   std::vector<ProverBackend*> b)
    : cfg(c),
      metrics(m),
      memory(mem),
      circuits(reg),
      tracker(t),
      gpu_queue(std::max<size_t>(1, c.synthesis_lookahead)),
      backends(std::move(b)),
      t0_(Clock::now()) {
  if (!cfg.timeline_csv.empty()) {
    timeline_ = std::fopen(cfg.timeline_csv.c_str(), "w");
    if (!timeline_)
      throw Error(ErrorCode::kIo, cfg.timeline_csv + ": cannot open the timeline file for writing");
    std::fprintf(
        timeline_,
        "job,partition,circuit,device,submitted_ms,synth_start_ms,synth_end_ms,gpu_start_ms,gpu_end_ms,"
        "finalized_ms\n");
    std::fflush(timeline_);
  }
}

Pipeline::~Pipeline() {
  if (timeline_) std::fclose(timeline_);
}

uint64_t Pipeline::partition_charge(const LoadedCircuit& c, const WitnessInput& w) const {
  uint64_t extra = 0;
  for (const ProverBackend* b : backends)
    extra = std::max(extra, b->partition_host_bytes(*c.key, c.rows.get()));
  return partition_bytes(c, w) + extra;
}

void Pipeline::log(LogLevel level, std::string event,
                   std::vector<std::pair<std::string, std::string>> fields) const {
  if (cfg.log) cfg.log(LogEvent{level, std::move(event), std::move(fields)});
}

void Pipeline::fail(PartitionTask& task, const std::string& reason) {
  log(LogLevel::kWarn, "partition_failed",
      {{"job", task.job->id}, {"partition", std::to_string(task.index)}, {"error", reason}});
  if (tracker.partition_failed(*task.job, task.index, reason)) drop_queued(*task.job);
}

void Pipeline::drop_queued(const Job& job) {
  auto mine = [&](const PartitionTask& t) { return t.job.get() == &job; };
  for (TaskQueue* q : {&synth_queue, &gpu_queue, &final_queue})
    for (auto& t : q->remove_if(mine)) discard(std::move(t));
}

void Pipeline::discard(std::unique_ptr<PartitionTask> task) {
  metrics.partitions_dropped++;
  task.reset();
}

void Pipeline::timeline(const PartitionTask& t, Clock::time_point finalized) {
  if (!timeline_) return;
  auto at = [&](Clock::time_point p) { return ms_between(t0_, p); };
  std::lock_guard lk(timeline_mu_);
  std::fprintf(timeline_, "%s,%u,%s,%s,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f\n", t.job->id.c_str(), t.index,
               t.job->circuit_id.c_str(), t.device.c_str(), at(t.job->submitted), at(t.synth_start),
               at(t.synth_end), at(t.gpu_start), at(t.gpu_end), at(finalized));
  std::fflush(timeline_);
}

}  // namespace cuzk::engine
