// A farm node's worker (docs/CLUSTER.md): `slots` threads each claim one partition at a time from the
// farm's JobStore, prove it as a one-partition job on the local Engine and write the proof back under
// the partition's lease (a partition of a job stored with one input, a Filecoin kind's C1 or vanilla
// proofs, is made from that input: fetched and expanded once per job on the node, FarmWorkerConfig::expand);
// a heartbeat thread renews the node's leases and cancels the local work of leases it no longer holds (the
// job was cancelled or failed, or another node took the partition over).
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "engine/engine.hpp"
#include "engine/job_store.hpp"
#include "engine/log.hpp"

namespace cuzk::engine {

/// Makes the whole job (circuit, kind and every partition, as Engine::submit takes them) from a job's
/// stored input (StoredJobRequest::job_input) of proof kind `kind`: what a single daemon builds from the
/// request at submit (e.g. a PoRep job from its C1). Throws cuzk::Error naming the problem for an input it
/// cannot use: the job then fails for good.
using FarmExpander = std::function<JobRequest(const std::string& kind, std::span<const uint8_t> input)>;

/// Settings of a FarmWorker.
struct FarmWorkerConfig {
  std::string node_id;           ///< this node's id in the farm (cluster.node_id)
  std::string address;           ///< its gRPC address, reported in the heartbeat
  unsigned slots = 1;            ///< partitions claimed and proved at once (≥ 1)
  uint64_t heartbeat_ms = 1000;  ///< heartbeat period (cluster.heartbeat); must be well below the lease
  /// Makes the partitions of jobs stored with one input (the Filecoin kinds); unset: the node claims only
  /// circuit_id + witness jobs (circuits of registry kind "circom" or "bellperson").
  FarmExpander expand;
  /// Jobs whose expanded input the node keeps (most recently used), so that a node claiming several
  /// partitions of one job fetches and parses its input once (≥ 1).
  unsigned input_cache_jobs = 4;
  LogSink log;  ///< receives the worker's events (may be empty)
};

/// Claims and proves partitions for the farm until stop(). Fault knob for tests:
/// CUZK_FAIL_FARM_EXIT_AFTER_CLAIM=MS in the environment makes the process exit (status 137, as after
/// kill -9) MS milliseconds after its first claim, holding the lease, before proving anything.
class FarmWorker {
 public:
  /// Takes the node id in the store (JobStore::join: waits while a previous process of this node id may
  /// still be alive, at most a lease) and starts the threads; `engine` and `store` must outlive the
  /// worker. Throws NodeIdInUse when another running process has the node id (no thread started).
  FarmWorker(Engine& engine, JobStore& store, FarmWorkerConfig cfg);
  ~FarmWorker();
  FarmWorker(const FarmWorker&) = delete;
  FarmWorker& operator=(const FarmWorker&) = delete;

  /// Stops claiming, lets the partitions being proved finish and be written back, joins the threads.
  /// The engine must still run (its shutdown comes after). Idempotent.
  void stop();

 private:
  /// One job's expanded input in the cache: made once, by the first slot that needs it.
  struct Expanded {
    std::mutex mu;
    bool done = false;
    std::shared_ptr<const JobRequest> job;  ///< set when the input could be used
    std::string error;                      ///< else why not ("" with no job: the job is over)
  };
  /// The expanded input of the claim's job (cached), or the reason it cannot be used.
  std::shared_ptr<Expanded> expanded(const PartitionClaim& c);
  /// Fails the claim's job for good with `reason` (if the lease is still held) and logs it.
  void fail_claim(const PartitionClaim& c, const std::string& reason);
  struct Running {
    std::string local_job;
    uint64_t since_beat = 0;  ///< heartbeat generation when it was claimed
  };
  /// One slot's thread: slot_iteration until stop(). An exception out of an iteration (a statement the
  /// store refused, any fault of one claim) is logged as farm_slot_error and the slot goes on after a
  /// back-off: the claimed partition's lease lapses and it is claimed again; the process never ends on it.
  void slot_loop();
  /// Claims one partition, proves it and stores its proof (or fails its job); `backoff` (ms) grows while
  /// the store is away or nothing can start.
  void slot_iteration(uint64_t& backoff, long exit_after_claim_ms);
  /// What the heartbeat reports of this node, `running` left 0.
  NodeReport report() const;
  void heartbeat_loop();
  /// Runs `what` until it succeeds or the worker stops, retrying with back-off while the store is away.
  template <class F>
  bool retry(const char* what, F&& f);
  void log(LogLevel level, std::string event, std::vector<std::pair<std::string, std::string>> fields) const;
  bool sleep_for(uint64_t ms);  ///< false when stop() began

  Engine& engine_;
  JobStore& store_;
  FarmWorkerConfig cfg_;
  std::string owner_;  ///< this process's lease owner id (NodeReport::incarnation)
  std::atomic<bool> stopping_{false};
  std::mutex mu_;
  std::condition_variable cv_;
  std::map<std::pair<std::string, uint32_t>, Running> running_;
  uint64_t beat_ = 0;
  std::vector<std::thread> threads_;
  std::mutex cache_mu_;
  std::list<std::pair<std::string, std::shared_ptr<Expanded>>> cache_;  ///< by job id, most recent first
};

}  // namespace cuzk::engine
