// The tracker: every job's state. Partition proofs arrive from the finalizers in any order and are
// stored at their partition index, so a job's proofs come back in partition order. A failed partition
// fails its job with the reason (the job's other partitions are dropped, other jobs go on); a cancel
// marks the job so the stages drop its queued partitions and discard results still running. Finished
// jobs are remembered (up to a count and a byte total) so that AwaitProof after the fact and idempotent
// resubmission work; past the limits, failed and cancelled jobs are forgotten before completed ones, those
// of the owner holding the most of them first (JobRequest::owner). Job ids are random (128 bits), so an id
// never names another job, not even after a restart.
#pragma once

#include <atomic>
#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/job.hpp"
#include "engine/log.hpp"
#include "engine/memory.hpp"
#include "engine/metrics.hpp"
#include "groth16/prover.hpp"

namespace cuzk::engine {

/// One job. The immutable part is set at creation; the rest is guarded by the tracker's mutex, except
/// `dropped`, which the stages read without locking.
struct Job {
  std::string id, request_id, circuit_id, kind, fingerprint;
  std::string owner;  ///< JobRequest::owner
  Priority priority = Priority::kNormal;
  /// JobRequest::deadline, and the moment from which the job is urgent: deadline − the engine's
  /// EngineConfig::deadline_lead_s.
  std::optional<Clock::time_point> deadline, urgent_from;
  uint64_t seq = 0;  ///< submission order
  size_t n_partitions = 0;
  Clock::time_point submitted;
  /// Whether the job's deadline is near at `now`: it then runs before jobs of any priority.
  bool urgent(Clock::time_point now) const { return urgent_from && now >= *urgent_from; }
  /// Set once the job is cancelled or failed: the stages discard its partitions.
  std::atomic<bool> dropped{false};

  JobState state = JobState::kQueued;
  std::string error;
  size_t done = 0;  ///< partitions proved
  /// One partition's proof and times.
  struct PartitionResult {
    Groth16Proof proof;
    PartitionTiming timing;
  };
  /// Per partition, in partition order (one allocation); emptied when the job fails or is cancelled.
  std::vector<PartitionResult> results;
  /// The partitions' public inputs (without ONE), `n_inputs` each, back to back in partition order (one
  /// allocation, made when the first partition is stored: every partition of a circuit has as many).
  std::vector<Fr> inputs;
  size_t n_inputs = 0;
  double srs_load_ms = 0, synth_ms = 0;
  /// The partitions' start() calls, [begin, end) each: their union is the job's GPU time, kept in
  /// `gpu_ms` (and the spans freed) once the job is final.
  std::vector<std::pair<Clock::time_point, Clock::time_point>> gpu_spans;
  double gpu_ms = 0;
  Clock::time_point first_synth{}, finished{};
  uint64_t input_bytes = 0;                ///< the request's input (Tracker::create), until final
  MemoryBudget::Reservation input_charge;  ///< input_bytes in the budget, until final
  /// What the finished job holds on the heap, as Tracker::finish counts it (retained_footprint).
  uint64_t retained_bytes = 0;
  MemoryBudget::Reservation retained_charge;
  /// A retained failed or cancelled job's neighbours in its owner's list of them (oldest first).
  Job *older = nullptr, *newer = nullptr;
};

/// The heap bytes that a finished `job` holds while the tracker retains it: the Job (with its
/// shared_ptr control block), its strings' and vectors' heap blocks and the tracker's index entries for
/// it (a failed or cancelled job: also an entry of the table of owners, as if it were its owner's only
/// one), each block rounded as glibc's malloc rounds it (8 bytes of header, 16-byte granules, 32 at
/// least). A job that did not complete holds no per-partition data. This is what a retained job is
/// charged to the memory budget and counted against EngineConfig::retained_bytes.
uint64_t retained_footprint(const Job& job);

/// The job table. Thread-safe.
class Tracker {
 public:
  /// Keeps at most `retained` finished jobs holding at most `retained_bytes` (the job finished last is
  /// always kept). Past either, jobs are forgotten in this order: the oldest failed or cancelled job of
  /// the owner that has the most of them retained (JobRequest::owner), until no other is left; then the
  /// oldest completed job. Jobs' inputs (at most `max_input_bytes` at once, 0 = no limit) and retained
  /// results are charged to `memory`.
  Tracker(Metrics& metrics, LogSink log, MemoryBudget& memory, size_t retained, uint64_t retained_bytes,
          uint64_t max_input_bytes);

  /// A new job for `req`, whose input holds `input_bytes` (its partitions are queued by the caller), or
  /// the job already created for the same non-empty request_id (second = true; see
  /// JobRequest::request_id for when it is a retry instead). Throws SubmitRefused (kRequestIdInUse) for
  /// a request_id taken by a different request, (kOverLimit) when the input does not fit. A job with a
  /// deadline is urgent from `deadline_lead` before it (Job::urgent_from).
  std::pair<std::shared_ptr<Job>, bool> create(const JobRequest& req, uint64_t input_bytes,
                                               Clock::duration deadline_lead = {});
  std::shared_ptr<Job> find(const std::string& job_id) const;

  /// The first partition of `job` starts synthesis at `t`: the job becomes kRunning (cancel() after
  /// this reports was_running). Returns false when the job was already dropped.
  bool start(Job& job, Clock::time_point t);
  /// Adds one partition's times to the job's totals (circuit load, synthesis, its start() call); the
  /// times of a partition that ends after its job is final are not counted.
  void add_times(Job& job, double srs_load_ms, double synth_ms, Clock::time_point gpu_start,
                 Clock::time_point gpu_end);
  /// Stores a proved partition; the job completes when all are in.
  void partition_done(Job& job, uint32_t index, ProveResult&& res, const PartitionTiming& t);
  /// Fails the job (when it is not final yet) with "partition i: reason". Returns true when this call
  /// failed it: the caller then drops its queued partitions.
  bool partition_failed(Job& job, uint32_t index, const std::string& reason);
  /// Fails a job before any partition ran (e.g. an unknown circuit).
  void fail(Job& job, const std::string& reason);
  /// Cancels a job that is not final. `only_queued`: only when no partition started (shutdown).
  /// Returns nullopt for an unknown id; else whether it was running (a partition had started); a job
  /// already final is left as it is.
  std::optional<bool> cancel(const std::string& job_id, const std::string& reason, bool only_queued = false);

  /// Waits until the job is final or `timeout_ms` passes (0 = no limit). nullopt for an unknown id;
  /// a job still queued or running after the timeout comes back in that state.
  std::optional<JobResult> await(const std::string& job_id, uint64_t timeout_ms);
  /// The job as it is now, without waiting; nullopt for an unknown id.
  std::optional<JobResult> peek(const std::string& job_id) const;
  /// Calls `f` each time a job becomes final (replacing the previous listener; empty: none). `f` runs
  /// with the job table locked: it must only signal (no call back into the tracker or engine). After
  /// set_final_listener returns, the previous listener is not called any more.
  void set_final_listener(std::function<void()> f);

  /// Jobs not final yet, in submission order.
  std::vector<std::shared_ptr<Job>> active() const;
  /// Per job kind: jobs queued (no partition started) and running (kept as jobs change state: no walk
  /// over the retained jobs, so that GetStatus stays cheap however many are remembered).
  std::map<std::string, std::pair<unsigned, unsigned>> kind_counts() const;
  /// Waits until no job is active.
  void wait_idle();

  /// Finished jobs remembered now and the bytes they hold; input bytes of the jobs not final.
  struct Held {
    size_t retained_jobs = 0;
    uint64_t retained_bytes = 0, input_bytes = 0;
  };
  Held held() const;

 private:
  void finish(Job& job, JobState s, const std::string& error);  // caller holds mu_
  JobResult result(const Job& job) const;                       // caller holds mu_
  std::string new_id();                                         // caller holds mu_
  /// The next retained job to forget (the order of the constructor's comment), never `keep`; nullptr
  /// when only `keep` is left. Caller holds mu_.
  Job* eviction_victim(const Job& keep) const;
  void forget(Job& job);  ///< drops a retained job (caller holds mu_; may destroy it)
  Metrics& metrics_;
  LogSink log_;
  MemoryBudget& memory_;
  const size_t retained_;
  const uint64_t retained_bytes_max_, input_bytes_max_;
  uint64_t retained_bytes_ = 0, input_bytes_ = 0;
  std::random_device random_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  // Keyed by views of the jobs' own id and request_id strings (no copies): an entry lives no longer
  // than its job's entry in jobs_, which owns the job.
  std::map<std::string_view, std::shared_ptr<Job>> jobs_;
  std::map<std::string_view, Job*> by_request_;  ///< request_id → the latest job created under it
  std::deque<Job*> completed_;                   ///< the retained completed jobs, oldest first
  /// One owner's retained failed and cancelled jobs: a list through Job::older / newer.
  struct Failures {
    Job *oldest = nullptr, *newest = nullptr;
    size_t count = 0;
  };
  std::map<std::string, Failures, std::less<>> failures_;  ///< by owner; no empty entry
  /// (count, owner) of every entry of failures_, so that the owner with the most is found at once.
  std::set<std::pair<size_t, std::string_view>> failure_rank_;
  size_t retained_count_ = 0;                                   ///< completed_ and every owner's failures
  std::map<std::string, std::pair<unsigned, unsigned>> kinds_;  ///< kind_counts(), kept up to date
  std::function<void()> on_final_;                              ///< set_final_listener
  uint64_t next_seq_ = 1;
  size_t active_ = 0;
};

}  // namespace cuzk::engine
