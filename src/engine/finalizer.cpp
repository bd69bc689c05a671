#include "engine/finalizer.hpp"

#include <cstdio>

#include "util/fault.hpp"

namespace cuzk::engine {
namespace {

/// The sum of the stage times whose name contains `part` (e.g. "b_g2", "epilogue").
double stage_ms(const StageTimes& st, const char* part) {
  double ms = 0;
  for (const auto& [name, t] : st)
    if (name.find(part) != std::string::npos) ms += t;
  return ms;
}

std::string fmt_ms(double ms) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", ms);
  return buf;
}

}  // namespace

Finalizers::Finalizers(Pipeline& p, unsigned threads) : p_(p) {
  for (unsigned i = 0; i < std::max(1u, threads); i++) threads_.emplace_back([this] { run(); });
}

Finalizers::~Finalizers() {
  for (auto& t : threads_) t.join();
}

void Finalizers::run() {
  while (std::unique_ptr<PartitionTask> task = p_.final_queue.pop()) {
    const std::shared_ptr<Job> job_ref = task->job;  // outlives the task
    Job& job = *job_ref;
    if (job.dropped) {
      p_.discard(std::move(task));
      continue;
    }
    ProveResult res;
    try {
      check_fault(FaultPoint::kFinalize, "finalize");  // tests (util/fault.hpp)
      res = std::move(prove_finalize(std::move(task->pending))[0]);
    } catch (const std::exception& e) {
      p_.fail(*task, e.what());
      continue;
    }
    const Clock::time_point done = Clock::now();
    PartitionTiming t;
    t.queue_ms = ms_between(task->queued, task->synth_start) + ms_between(task->synth_end, task->gpu_start);
    t.synth_ms = ms_between(task->synth_start, task->synth_end);
    t.gpu_ms = ms_between(task->gpu_start, task->gpu_end);
    t.gpu_start = task->gpu_start;
    t.gpu_end = task->gpu_end;
    t.b_g2_ms = stage_ms(res.stages, "b_g2");
    t.epilogue_ms = stage_ms(res.stages, "epilogue");
    t.total_ms = ms_between(job.submitted, done);
    t.device = task->device;
    Metrics& m = p_.metrics;
    m.queue_ms.observe(t.queue_ms);
    m.synth_ms.observe(t.synth_ms);
    m.gpu_ms.observe(t.gpu_ms);
    m.b_g2_ms.observe(t.b_g2_ms);
    m.epilogue_ms.observe(t.epilogue_ms);
    p_.timeline(*task, done);
    p_.log(LogLevel::kInfo, "partition_done",
           {{"job", job.id},
            {"partition", std::to_string(task->index)},
            {"circuit", job.circuit_id},
            {"device", t.device},
            {"queue_ms", fmt_ms(t.queue_ms)},
            {"synth_ms", fmt_ms(t.synth_ms)},
            {"gpu_ms", fmt_ms(t.gpu_ms)},
            {"b_g2_ms", fmt_ms(t.b_g2_ms)},
            {"epilogue_ms", fmt_ms(t.epilogue_ms)}});
    // Where the partition's time went, stage by stage as its backend timed it (ms; debug level: the GPU
    // backend's stages are about 25 a partition).
    std::vector<std::pair<std::string, std::string>> stages{{"job", job.id},
                                                            {"partition", std::to_string(task->index)}};
    for (const auto& [name, ms] : res.stages) stages.emplace_back(name, fmt_ms(ms));
    p_.log(LogLevel::kDebug, "partition_stages", std::move(stages));
    const uint32_t index = task->index;
    task.reset();  // free the partition's memory before the job completes
    p_.tracker.partition_done(job, index, std::move(res), t);
  }
}

}  // namespace cuzk::engine
