#include "engine/tracker.hpp"

#include <algorithm>

namespace cuzk::engine {

namespace {

/// The block glibc's malloc takes for a request of `n` bytes on a 64-bit system (0 for none).
constexpr uint64_t heap_block(uint64_t n) {
  return n == 0 ? 0 : std::max<uint64_t>(32, (n + 8 + 15) & ~uint64_t{15});
}
uint64_t heap_of(const std::string& s) {
  static const size_t kInline = std::string().capacity();  // short strings live inside the object
  return s.capacity() > kInline ? heap_block(s.capacity() + 1) : 0;
}
template <class T>
uint64_t heap_of(const std::vector<T>& v) {
  return heap_block(v.capacity() * sizeof(T));
}
constexpr uint64_t kMapNode = 32;  // a std::map node's links and colour, before its value
/// An entry of the tracker's table of owners of retained failures (Tracker::failures_: the owner, three
/// words) and of its rank (failure_rank_: a count and a view), without the owner's text.
constexpr uint64_t kOwnerEntry = heap_block(kMapNode + sizeof(std::string) + 3 * sizeof(void*)) +
                                 heap_block(kMapNode + sizeof(std::pair<size_t, std::string_view>));

}  // namespace

double union_ms(std::vector<std::pair<Clock::time_point, Clock::time_point>> spans) {
  std::sort(spans.begin(), spans.end());
  double ms = 0;
  Clock::time_point covered = spans.empty() ? Clock::time_point{} : spans.front().first;
  for (const auto& [b, e] : spans) {
    const Clock::time_point from = std::max(b, covered);
    if (e > from) ms += ms_between(from, e);
    covered = std::max(covered, e);
  }
  return ms;
}

uint64_t retained_footprint(const Job& job) {
  // make_shared: one block with the control block (vtable pointer, two counts) and the Job.
  uint64_t bytes = heap_block(16 + sizeof(Job));
  for (const std::string* s :
       {&job.id, &job.request_id, &job.circuit_id, &job.kind, &job.fingerprint, &job.error, &job.owner})
    bytes += heap_of(*s);
  bytes += heap_of(job.results) + heap_of(job.inputs) + heap_of(job.gpu_spans);
  for (const auto& r : job.results) bytes += heap_of(r.timing.device);
  // Its jobs_ node, its by_request_ node, and its place among the retained jobs.
  bytes += heap_block(kMapNode + sizeof(std::pair<const std::string_view, std::shared_ptr<Job>>));
  if (!job.request_id.empty())
    bytes += heap_block(kMapNode + sizeof(std::pair<const std::string_view, Job*>));
  if (job.state == JobState::kCompleted)
    bytes += heap_block(512) / 64 + 1;  // its completed_ slot (deque blocks of 512 bytes: 64 slots)
  else
    bytes += kOwnerEntry + heap_of(job.owner);  // its owner's entry, as if it were the owner's only one
  return bytes;
}

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
      const Job& old = *it->second;
      // A failed or cancelled job does not hold its request_id: the new request is a retry.
      if (old.state != JobState::kFailed && old.state != JobState::kCancelled) {
        if (old.circuit_id != req.circuit_id || old.kind != req.kind ||
            old.n_partitions != req.partitions.size() || old.fingerprint != req.fingerprint)
          throw SubmitRefused(SubmitRefused::Reason::kRequestIdInUse,
                              "request_id \"" + printable(req.request_id) + "\" is taken by job " + old.id +
                                  " (" + to_string(old.state) +
                                  "), which asked for a different proof: use another request_id");
        return {jobs_.at(old.id), true};
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
  job->owner = req.owner;
  job->priority = req.priority;
  if (req.deadline) {
    job->deadline = req.deadline;
    job->urgent_from = *req.deadline - deadline_lead;
  }
  job->n_partitions = req.partitions.size();
  job->submitted = Clock::now();
  job->results.resize(job->n_partitions);
  job->input_bytes = input_bytes;
  job->input_charge = memory_.charge(input_bytes);
  input_bytes_ += input_bytes;
  jobs_.emplace(job->id, job);
  if (!req.request_id.empty()) {
    // A retry: the key must view the new job's string, which outlives the entry.
    by_request_.erase(req.request_id);
    by_request_.emplace(job->request_id, job.get());
  }
  active_++;
  kinds_[job->kind].first++;
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
    auto& k = kinds_[job.kind];
    k.first--;
    k.second++;
  }
  return true;
}

void Tracker::add_times(Job& job, double srs_load_ms, double synth_ms, Clock::time_point gpu_start,
                        Clock::time_point gpu_end) {
  std::lock_guard lk(mu_);
  if (is_final(job.state)) return;  // a discarded partition's times: the record is final
  job.srs_load_ms += srs_load_ms;
  job.synth_ms += synth_ms;
  job.gpu_spans.emplace_back(gpu_start, gpu_end);
}

void Tracker::partition_done(Job& job, uint32_t index, ProveResult&& res, const PartitionTiming& t) {
  std::lock_guard lk(mu_);
  metrics_.partitions_completed++;
  // Cancelled or failed meanwhile: the result is dropped; an index the job does not have is never stored.
  if (is_final(job.state) || index >= job.n_partitions) return;
  if (job.done == 0) {
    job.n_inputs = res.public_inputs.size();
    job.inputs.resize(job.n_partitions * job.n_inputs);
  } else if (res.public_inputs.size() != job.n_inputs) {
    finish(job, JobState::kFailed,
           "partition " + std::to_string(index) + ": the backend returned " +
               std::to_string(res.public_inputs.size()) +
               " public inputs where the job's other partitions have " + std::to_string(job.n_inputs));
    return;
  }
  job.results[index] = {res.proof, t};
  std::copy(res.public_inputs.begin(), res.public_inputs.end(),
            job.inputs.begin() + (ptrdiff_t)(index * job.n_inputs));
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
  if (auto k = kinds_.find(job.kind); k != kinds_.end()) {
    (job.state == JobState::kQueued ? k->second.first : k->second.second)--;
    if (k->second.first == 0 && k->second.second == 0) kinds_.erase(k);
  }
  job.state = s;
  job.error = error;
  job.error.shrink_to_fit();
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
  // The input is gone (or going: partitions still running are discarded). What stays is the compact
  // record: a job that did not complete keeps no per-partition data, the GPU spans become their union.
  input_bytes_ -= job.input_bytes;
  job.input_charge.reset();
  // Freed, not cleared: `v = {}` picks vector's initializer_list assignment, which keeps the capacity (a
  // failed job of 1,024 partitions kept ~480 KiB that way, issue 36 N3).
  if (s != JobState::kCompleted) {
    job.results = std::vector<Job::PartitionResult>();
    job.inputs = std::vector<Fr>();
  }
  job.gpu_ms = union_ms(std::move(job.gpu_spans));
  job.gpu_spans = std::vector<std::pair<Clock::time_point, Clock::time_point>>();
  job.retained_bytes = retained_footprint(job);
  job.retained_charge = memory_.charge(job.retained_bytes);
  retained_bytes_ += job.retained_bytes;
  if (s == JobState::kCompleted) {
    completed_.push_back(&job);
  } else {
    auto it = failures_.find(job.owner);
    if (it == failures_.end())
      it = failures_.emplace(job.owner, Failures{}).first;
    else
      failure_rank_.erase({it->second.count, it->first});
    Failures& f = it->second;
    job.older = f.newest;
    job.newer = nullptr;
    (f.newest ? f.newest->newer : f.oldest) = &job;
    f.newest = &job;
    failure_rank_.insert({++f.count, it->first});
  }
  retained_count_++;
  while (retained_count_ > retained_ || (retained_count_ > 1 && retained_bytes_ > retained_bytes_max_)) {
    Job* victim = eviction_victim(job);
    if (!victim) break;
    forget(*victim);
  }
  if (on_final_) on_final_();
  cv_.notify_all();
}

Job* Tracker::eviction_victim(const Job& keep) const {
  // Failures first, the owner with the most of them first (only one owner holds `keep`: at most two
  // owners are looked at), then completed jobs, the oldest first.
  for (auto r = failure_rank_.rbegin(); r != failure_rank_.rend(); ++r)
    for (Job* j = failures_.find(r->second)->second.oldest; j; j = j->newer)
      if (j != &keep) return j;
  for (Job* j : completed_)
    if (j != &keep) return j;
  return nullptr;
}

void Tracker::forget(Job& job) {
  if (job.state == JobState::kCompleted) {
    completed_.erase(std::find(completed_.begin(), completed_.end(), &job));  // the first or second
  } else {
    auto it = failures_.find(job.owner);
    Failures& f = it->second;
    failure_rank_.erase({f.count, it->first});
    (job.older ? job.older->newer : f.oldest) = job.newer;
    (job.newer ? job.newer->older : f.newest) = job.older;
    job.older = job.newer = nullptr;
    if (--f.count == 0)
      failures_.erase(it);
    else
      failure_rank_.insert({f.count, it->first});
  }
  retained_count_--;
  auto r = by_request_.find(job.request_id);
  if (r != by_request_.end() && r->second == &job) by_request_.erase(r);
  retained_bytes_ -= job.retained_bytes;
  job.retained_charge.reset();
  jobs_.erase(jobs_.find(job.id));  // may destroy `job`: last
}

void Tracker::set_final_listener(std::function<void()> f) {
  std::lock_guard lk(mu_);
  on_final_ = std::move(f);
}

JobResult Tracker::result(const Job& job) const {
  JobResult r;
  r.job_id = job.id;
  r.circuit_id = job.circuit_id;
  r.state = job.state;
  r.error = job.error;
  if (job.state == JobState::kCompleted) {
    r.proofs.reserve(job.n_partitions);
    r.public_inputs.reserve(job.n_partitions);
    r.partitions.reserve(job.n_partitions);
    for (size_t i = 0; i < job.n_partitions; i++) {
      r.proofs.push_back(job.results[i].proof);
      const auto first = job.inputs.begin() + (ptrdiff_t)(i * job.n_inputs);
      r.public_inputs.emplace_back(first, first + (ptrdiff_t)job.n_inputs);
      r.partitions.push_back(job.results[i].timing);
    }
  }
  const Clock::time_point now = Clock::now();
  r.queue_wait_ms = ms_between(job.submitted, job.first_synth == Clock::time_point{} ? now : job.first_synth);
  r.srs_load_ms = job.srs_load_ms;
  r.synthesis_ms = job.synth_ms;
  // The union of the start() calls' spans (they overlap when several workers prove the job).
  r.gpu_ms = is_final(job.state) ? job.gpu_ms : union_ms(job.gpu_spans);
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

std::optional<JobResult> Tracker::peek(const std::string& job_id) const {
  std::lock_guard lk(mu_);
  auto it = jobs_.find(job_id);
  if (it == jobs_.end()) return std::nullopt;
  return result(*it->second);
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
  return kinds_;
}

Tracker::Held Tracker::held() const {
  std::lock_guard lk(mu_);
  return {retained_count_, retained_bytes_, input_bytes_};
}

void Tracker::wait_idle() {
  std::unique_lock lk(mu_);
  cv_.wait(lk, [&] { return active_ == 0; });
}

}  // namespace cuzk::engine
