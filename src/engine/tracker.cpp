#include "engine/tracker.hpp"

#include <algorithm>

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

Tracker::Tracker(Metrics& metrics, LogSink log, MemoryBudget& memory, size_t retained,
                 uint64_t retained_bytes, uint64_t max_input_bytes)
    : metrics_(metrics),
      log_(std::move(log)),
      memory_(memory),
      retained_(retained),
      retained_bytes_max_(retained_bytes),
      input_bytes_max_(max_input_bytes) {}

std::string Tracker::new_id() {
  static const char kHex[] = "0123456789abcdef";
  for (;;) {
    std::string id = "job-";
    for (int w = 0; w < 4; w++) {  // 4 × 32 random bits
      const uint32_t r = random_();
      for (int i = 28; i >= 0; i -= 4) id += kHex[(r >> i) & 15];
    }
    if (!jobs_.count(id)) return id;
  }
}

std::pair<std::shared_ptr<Job>, bool> Tracker::create(const JobRequest& req, uint64_t input_bytes,
                                                      Clock::duration deadline_lead) {
  std::lock_guard lk(mu_);
  if (!req.request_id.empty()) {
    auto it = by_request_.find(req.request_id);
    if (it != by_request_.end()) {
      auto j = jobs_.find(it->second);
      // A failed or cancelled job does not hold its request_id: the new request is a retry.
      if (j != jobs_.end() && j->second->state != JobState::kFailed &&
          j->second->state != JobState::kCancelled) {
        const Job& old = *j->second;
        if (old.circuit_id != req.circuit_id || old.kind != req.kind ||
            old.n_partitions != req.partitions.size() || old.fingerprint != req.fingerprint)
          throw SubmitRefused(SubmitRefused::Reason::kRequestIdInUse,
                              "request_id \"" + printable(req.request_id) + "\" is taken by job " + old.id +
                                  " (" + to_string(old.state) +
                                  "), which asked for a different proof: use another request_id");
        return {j->second, true};
      }
    }
  }
  if (input_bytes_max_ && input_bytes_ + input_bytes > input_bytes_max_)
    throw SubmitRefused(SubmitRefused::Reason::kOverLimit,
                        "the job's input (" + std::to_string(input_bytes) +
                            " bytes) does not fit: jobs not "
                            "finished hold " +
                            std::to_string(input_bytes_) + " of the " + std::to_string(input_bytes_max_) +
                            " bytes allowed for queued input; retry when some have finished");
  auto job = std::make_shared<Job>();
  job->seq = next_seq_++;
  job->id = new_id();
  job->request_id = req.request_id;
  job->circuit_id = req.circuit_id;
  job->kind = req.kind;
  job->fingerprint = req.fingerprint;
  job->priority = req.priority;
  if (req.deadline) {
    job->deadline = req.deadline;
    job->urgent_from = *req.deadline - deadline_lead;
  }
  job->n_partitions = req.partitions.size();
  job->submitted = Clock::now();
  job->proofs.resize(job->n_partitions);
  job->public_inputs.resize(job->n_partitions);
  job->timings.resize(job->n_partitions);
  job->input_bytes = input_bytes;
  job->input_charge = memory_.charge(input_bytes);
  input_bytes_ += input_bytes;
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

void Tracker::add_times(Job& job, double srs_load_ms, double synth_ms, Clock::time_point gpu_start,
                        Clock::time_point gpu_end) {
  std::lock_guard lk(mu_);
  job.srs_load_ms += srs_load_ms;
  job.synth_ms += synth_ms;
  job.gpu_spans.emplace_back(gpu_start, gpu_end);
}

void Tracker::partition_done(Job& job, uint32_t index, ProveResult&& res, const PartitionTiming& t) {
  std::lock_guard lk(mu_);
  metrics_.partitions_completed++;
  // Cancelled or failed meanwhile: the result is dropped; an index the job does not have is never stored.
  if (is_final(job.state) || index >= job.n_partitions) return;
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
  // The input is gone (or going: partitions still running are discarded); a job that did not complete
  // keeps no per-partition data.
  input_bytes_ -= job.input_bytes;
  job.input_charge.reset();
  if (s != JobState::kCompleted) {
    job.proofs = {};
    job.public_inputs = {};
    job.timings = {};
  }
  uint64_t bytes = sizeof(Job) + job.id.size() + job.request_id.size() + job.circuit_id.size() +
                   job.kind.size() + job.fingerprint.size() + job.error.size() +
                   job.gpu_spans.size() * sizeof(job.gpu_spans[0]) +
                   job.proofs.size() * (sizeof(Groth16Proof) + sizeof(PartitionTiming));
  for (const auto& p : job.public_inputs) bytes += sizeof(p) + p.size() * sizeof(Fr);
  for (const auto& t : job.timings) bytes += t.device.size();
  job.retained_bytes = bytes;
  job.retained_charge = memory_.charge(bytes);
  retained_bytes_ += bytes;
  finished_.push_back(job.id);
  while (finished_.size() > retained_ || (finished_.size() > 1 && retained_bytes_ > retained_bytes_max_)) {
    auto it = jobs_.find(finished_.front());
    if (it != jobs_.end()) {
      Job& old = *it->second;
      auto r = by_request_.find(old.request_id);
      if (r != by_request_.end() && r->second == old.id) by_request_.erase(r);
      retained_bytes_ -= old.retained_bytes;
      old.retained_charge.reset();
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
  // The union of the start() calls' spans (they overlap when several workers prove the job).
  auto spans = job.gpu_spans;
  std::sort(spans.begin(), spans.end());
  Clock::time_point covered{};
  for (const auto& [b, e] : spans) {
    const Clock::time_point from = std::max(b, covered);
    if (e > from) r.gpu_ms += ms_between(from, e);
    covered = std::max(covered, e);
  }
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

Tracker::Held Tracker::held() const {
  std::lock_guard lk(mu_);
  return {finished_.size(), retained_bytes_, input_bytes_};
}

void Tracker::wait_idle() {
  std::unique_lock lk(mu_);
  cv_.wait(lk, [&] { return active_ == 0; });
}

}  // namespace cuzk::engine
