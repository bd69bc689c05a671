#include "engine/tracker.hpp"

#include <cstdio>

namespace cuzk::engine {

const char* to_string(Priority p) {
  switch (p) {
    case Priority::kLow:
      return "low";
    case Priority::kNormal:
      return "normal";
    case Priority::kHigh:
      return "high";
    case Priority::kCritical:
      return "critical";
  }
  return "normal";
}

const char* to_string(JobState s) {
  switch (s) {
    case JobState::kQueued:
      return "queued";
    case JobState::kRunning:
      return "running";
    case JobState::kCompleted:
      return "completed";
    case JobState::kFailed:
      return "failed";
    case JobState::kCancelled:
      return "cancelled";
  }
  return "unknown";
}

Tracker::Tracker(Metrics& metrics, LogSink log, size_t retained)
    : metrics_(metrics), log_(std::move(log)), retained_(retained) {}

std::pair<std::shared_ptr<Job>, bool> Tracker::create(const JobRequest& req) {
  std::lock_guard lk(mu_);
  if (!req.request_id.empty()) {
    auto it = by_request_.find(req.request_id);
    if (it != by_request_.end()) {
      auto j = jobs_.find(it->second);
      if (j != jobs_.end()) return {j->second, true};
    }
  }
  auto job = std::make_shared<Job>();
  job->seq = next_seq_++;
  char id[32];
  std::snprintf(id, sizeof id, "job-%08llu", (unsigned long long)job->seq);
  job->id = id;
  job->request_id = req.request_id;
  job->circuit_id = req.circuit_id;
  job->kind = req.kind;
  job->priority = req.priority;
  job->n_partitions = req.partitions.size();
  job->submitted = Clock::now();
  job->proofs.resize(job->n_partitions);
  job->public_inputs.resize(job->n_partitions);
  job->timings.resize(job->n_partitions);
  jobs_[job->id] = job;
  if (!req.request_id.empty()) by_request_[req.request_id] = job->id;
  active_++;
  metrics_.jobs_submitted++;
  return {job, false};
}

std::shared_ptr<Job> Tracker::find(const std::string& job_id) const {
  std::lock_guard lk(mu_);
  auto it = jobs_.find(job_id);
  return it == jobs_.end() ? nullptr : it->second;
}

bool Tracker::start(Job& job, Clock::time_point t) {
  std::lock_guard lk(mu_);
  if (job.dropped || is_final(job.state)) return false;
  if (job.state == JobState::kQueued) {
    job.state = JobState::kRunning;
    job.first_synth = t;
  }
  return true;
}

void Tracker::add_times(Job& job, double srs_load_ms, double synth_ms, double gpu_ms) {
  std::lock_guard lk(mu_);
  job.srs_load_ms += srs_load_ms;
  job.synth_ms += synth_ms;
  job.gpu_ms += gpu_ms;
}

void Tracker::partition_done(Job& job, uint32_t index, ProveResult&& res, const PartitionTiming& t) {
  std::lock_guard lk(mu_);
  metrics_.partitions_completed++;
  if (is_final(job.state)) return;  // cancelled or failed meanwhile: the result is dropped
  job.proofs[index] = res.proof;
  job.public_inputs[index] = std::move(res.public_inputs);
  job.timings[index] = t;
  if (++job.done == job.n_partitions) finish(job, JobState::kCompleted, "");
}

bool Tracker::partition_failed(Job& job, uint32_t index, const std::string& reason) {
  std::lock_guard lk(mu_);
  metrics_.partitions_failed++;
  if (is_final(job.state)) return false;
  finish(job, JobState::kFailed,
         job.n_partitions > 1 ? "partition " + std::to_string(index) + ": " + reason : reason);
  return true;
}

void Tracker::fail(Job& job, const std::string& reason) {
  std::lock_guard lk(mu_);
  if (!is_final(job.state)) finish(job, JobState::kFailed, reason);
}

std::optional<bool> Tracker::cancel(const std::string& job_id, const std::string& reason, bool only_queued) {
  std::lock_guard lk(mu_);
  auto it = jobs_.find(job_id);
  if (it == jobs_.end()) return std::nullopt;
  Job& job = *it->second;
  const bool running = job.state == JobState::kRunning;
  if (is_final(job.state) || (only_queued && running)) return running;
  finish(job, JobState::kCancelled, reason);
  return running;
}

void Tracker::finish(Job& job, JobState s, const std::string& error) {
  job.state = s;
  job.error = error;
  job.finished = Clock::now();
  job.dropped = s != JobState::kCompleted;
  active_--;
  const double total = ms_between(job.submitted, job.finished);
  switch (s) {
    case JobState::kCompleted:
      metrics_.jobs_completed++;
      metrics_.job_total_ms.observe(total);
      break;
    case JobState::kFailed:
      metrics_.jobs_failed++;
      break;
    default:
      metrics_.jobs_cancelled++;
      break;
  }
  if (log_) {
    LogEvent ev{s == JobState::kFailed ? LogLevel::kWarn : LogLevel::kInfo,
                "job_" + std::string(to_string(s)),
                {{"job", job.id},
                 {"circuit", job.circuit_id},
                 {"partitions", std::to_string(job.n_partitions)},
                 {"total_ms", std::to_string((long)total)}}};
    if (!error.empty()) ev.fields.emplace_back("error", error);
    log_(ev);
  }
  finished_.push_back(job.id);
  while (finished_.size() > retained_) {
    auto it = jobs_.find(finished_.front());
    if (it != jobs_.end()) {
      if (!it->second->request_id.empty()) by_request_.erase(it->second->request_id);
      jobs_.erase(it);
    }
    finished_.pop_front();
  }
  cv_.notify_all();
}

JobResult Tracker::result(const Job& job) const {
  JobResult r;
  r.job_id = job.id;
  r.circuit_id = job.circuit_id;
  r.state = job.state;
  r.error = job.error;
  if (job.state == JobState::kCompleted) {
    r.proofs = job.proofs;
    r.public_inputs = job.public_inputs;
    r.partitions = job.timings;
  }
  const Clock::time_point now = Clock::now();
  r.queue_wait_ms = ms_between(job.submitted, job.first_synth == Clock::time_point{} ? now : job.first_synth);
  r.srs_load_ms = job.srs_load_ms;
  r.synthesis_ms = job.synth_ms;
  r.gpu_ms = job.gpu_ms;
  r.total_ms = ms_between(job.submitted, is_final(job.state) ? job.finished : now);
  return r;
}

std::optional<JobResult> Tracker::await(const std::string& job_id, uint64_t timeout_ms) {
  std::unique_lock lk(mu_);
  auto it = jobs_.find(job_id);
  if (it == jobs_.end()) return std::nullopt;
  std::shared_ptr<Job> job = it->second;
  auto done = [&] { return is_final(job->state); };
  if (timeout_ms == 0)
    cv_.wait(lk, done);
  else
    cv_.wait_for(lk, std::chrono::milliseconds(timeout_ms), done);
  return result(*job);
}

std::vector<std::shared_ptr<Job>> Tracker::active() const {
  std::lock_guard lk(mu_);
  std::vector<std::shared_ptr<Job>> out;
  for (const auto& [id, j] : jobs_)
    if (!is_final(j->state)) out.push_back(j);
  return out;
}

std::map<std::string, std::pair<unsigned, unsigned>> Tracker::kind_counts() const {
  std::lock_guard lk(mu_);
  std::map<std::string, std::pair<unsigned, unsigned>> out;
  for (const auto& [id, j] : jobs_) {
    if (j->state == JobState::kQueued) out[j->kind].first++;
    if (j->state == JobState::kRunning) out[j->kind].second++;
  }
  return out;
}

void Tracker::wait_idle() {
  std::unique_lock lk(mu_);
  cv_.wait(lk, [&] { return active_ == 0; });
}

}  // namespace cuzk::engine
