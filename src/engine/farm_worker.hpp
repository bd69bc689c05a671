// A farm node's worker (docs/CLUSTER.md): `slots` threads each claim one partition at a time from the
// farm's JobStore, prove it as a one-partition job on the local Engine and write the proof back under
// the partition's lease; a heartbeat thread renews the node's leases and cancels the local work of
// leases it no longer holds (the job was cancelled or failed, or another node took the partition over).
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "engine/engine.hpp"
#include "engine/job_store.hpp"
#include "engine/log.hpp"

namespace cuzk::engine {

/// Settings of a FarmWorker.
struct FarmWorkerConfig {
  std::string node_id;           ///< this node's id in the farm (cluster.node_id)
  std::string address;           ///< its gRPC address, reported in the heartbeat
  unsigned slots = 1;            ///< partitions claimed and proved at once (≥ 1)
  uint64_t heartbeat_ms = 1000;  ///< heartbeat period (cluster.heartbeat); must be well below the lease
  LogSink log;                   ///< receives the worker's events (may be empty)
};

/// Claims and proves partitions for the farm until stop(). Fault knob for tests:
/// CUZK_FAIL_FARM_EXIT_AFTER_CLAIM=MS in the environment makes the process exit (status 137, as after
/// kill -9) MS milliseconds after its first claim, holding the lease, before proving anything.
class FarmWorker {
 public:
  /// Starts the threads; `engine` and `store` must outlive the worker.
  FarmWorker(Engine& engine, JobStore& store, FarmWorkerConfig cfg);
  ~FarmWorker();
  FarmWorker(const FarmWorker&) = delete;
  FarmWorker& operator=(const FarmWorker&) = delete;

  /// Stops claiming, lets the partitions being proved finish and be written back, joins the threads.
  /// The engine must still run (its shutdown comes after). Idempotent.
  void stop();

 private:
  struct Running {
    std::string local_job;
    uint64_t since_beat = 0;  ///< heartbeat generation when it was claimed
  };
  void slot_loop();
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
};

}  // namespace cuzk::engine
