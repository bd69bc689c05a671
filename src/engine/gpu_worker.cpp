#include "engine/gpu_worker.hpp"

namespace cuzk::engine {

void DeviceState::busy(bool entering, const std::string& job_id, const std::string& kind) {
  std::lock_guard lk(mu_);
  const Clock::time_point now = Clock::now();
  if (entering) {
    if (active_++ == 0) since_ = now;
    job_ = job_id;
    kind_ = kind;
  } else if (--active_ == 0) {
    busy_s_ += ms_between(since_, now) / 1000;
    job_.clear();
    kind_.clear();
  }
}

double DeviceState::busy_seconds() const {
  std::lock_guard lk(mu_);
  return busy_s_ + (active_ ? ms_between(since_, Clock::now()) / 1000 : 0);
}

std::pair<std::string, std::string> DeviceState::current() const {
  std::lock_guard lk(mu_);
  return {job_, kind_};
}

GpuWorkers::GpuWorkers(Pipeline& p, std::vector<DeviceState>& devices, unsigned per_device) : p_(p) {
  for (DeviceState& d : devices)
    for (unsigned i = 0; i < std::max(1u, per_device); i++) threads_.emplace_back([this, &d] { run(d); });
}

GpuWorkers::~GpuWorkers() {
  for (auto& t : threads_) t.join();
}

void GpuWorkers::run(DeviceState& dev) {
  ProveOptions opt;
  opt.verify = p_.cfg.verify_proofs;
  while (std::unique_ptr<PartitionTask> task = p_.gpu_queue.pop()) {
    Job& job = *task->job;
    if (job.dropped) {
      p_.discard(std::move(task));
      continue;
    }
    task->device = dev.name;
    task->gpu_start = Clock::now();
    dev.busy(true, job.id, job.kind);
    try {
      auto asg = std::make_shared<Assignment>(std::move(task->asg));
      ProveOptions o = opt;
      // While other partitions wait for host memory, this one's witness and reservation go as soon as
      // the device has read it for the last time (the GPU backend: after the H MSM), so that the next
      // synthesis runs beside the rest of this proof. Values the assignment borrows are not its to free.
      o.aux_read = [&](size_t) {
        if (p_.memory.waiting() == 0 || asg->aux.borrowed()) return;
        asg->aux = Scalars();
        task->memory.reset();
        p_.metrics.early_releases++;
      };
      task->pending = prove_start(task->circuit.key(), {asg}, *dev.backend, o);
    } catch (const std::exception& e) {
      dev.busy(false, "", "");
      p_.fail(*task, dev.name + ": " + e.what());
      continue;
    }
    dev.busy(false, "", "");
    task->gpu_end = Clock::now();
    p_.tracker.add_times(job, task->srs_load_ms, ms_between(task->synth_start, task->synth_end),
                         task->gpu_start, task->gpu_end);
    if (!p_.final_queue.push(task)) p_.discard(std::move(task));
  }
}

}  // namespace cuzk::engine
