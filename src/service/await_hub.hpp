// Where the daemon's AwaitProof and Prove calls wait (issue 36 N2): one thread watches every waiting call
// instead of a gRPC server thread each, so that clients parked in AwaitProof(timeout_ms = 0) hold no
// thread that GetStatus, SubmitProof or CancelProof need. The engine tells the hub when a job becomes
// final (Engine::set_final_listener); a farm's jobs are looked at every 250 ms (one JobStore::await(id, 0)
// per job waited for, however many calls wait for it).
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <list>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "engine/engine.hpp"
#include "engine/job_store.hpp"

namespace cuzk::service {

/// Waits for many jobs on one thread. Thread-safe.
class AwaitHub {
 public:
  /// How a wait ended.
  enum class End {
    kFinal,        ///< the job is final: `result` holds it
    kTimeout,      ///< the wait's timeout passed first: `result` holds the job as it is
    kNotFound,     ///< no such job (never was, or forgotten)
    kCancelled,    ///< cancel() (the client went away)
    kUnavailable,  ///< the farm's database was away when the timeout passed
    kError,        ///< the store failed otherwise: `error` says how
    kStopped,      ///< the hub is being destroyed
  };
  /// How a wait ended, with the job when End::kFinal or kTimeout, the store's error when kError.
  struct Outcome {
    End end = End::kFinal;
    std::optional<engine::JobResult> result;
    std::string error;
  };
  /// Called once per waiter, on the hub's thread (or park's caller when the hub is stopping), with no
  /// lock of the hub's held.
  using Done = std::function<void(Outcome)>;

  /// One waiting call (waiter(), then park()).
  class Waiter {
   private:
    friend class AwaitHub;
    std::string job_id_;
    std::optional<engine::Clock::time_point> deadline_;
    Done done_;
    std::atomic<bool> cancelled_{false};
    std::list<std::shared_ptr<Waiter>>::iterator at_;  ///< its place in parked_ (under mu_)
  };

  /// Watches jobs of `engine`, or of `farm` when set (a [cluster] daemon); both must outlive the hub.
  AwaitHub(engine::Engine& engine, engine::JobStore* farm);
  /// Answers every call still waiting (End::kStopped) after the threads of run() have ended.
  ~AwaitHub();
  AwaitHub(const AwaitHub&) = delete;
  AwaitHub& operator=(const AwaitHub&) = delete;

  /// A wait for `job_id` to be final or for `timeout_ms` (0 = no limit, counted from now); `done` will
  /// receive the outcome. Made apart from park() so that the caller can keep it (for cancel) before the
  /// hub may end it and the caller's call be gone.
  static std::shared_ptr<Waiter> waiter(std::string job_id, uint64_t timeout_ms, Done done);
  /// Starts `w`'s wait (once per waiter). `done` may run before this returns.
  void park(std::shared_ptr<Waiter> w);
  /// Ends `w`'s wait with End::kCancelled soon, also when it is not parked yet (nothing when it has
  /// ended already).
  void cancel(const std::shared_ptr<Waiter>& w);
  /// Runs `f` on a thread of its own (Prove's submit, which may parse a C1 for seconds: not on gRPC's
  /// callback threads); the destructor waits for it.
  void run(std::function<void()> f);

 private:
  void loop();
  /// The outcome of each waiter of `ws` whose wait is over (in order; nullopt: not over yet), looked up
  /// without the lock.
  std::vector<std::optional<Outcome>> look(const std::vector<std::shared_ptr<Waiter>>& ws);
  void wake();

  engine::Engine& engine_;
  engine::JobStore* farm_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::list<std::shared_ptr<Waiter>> parked_;
  bool dirty_ = false;  ///< a job became final, a call was parked or cancelled: look again
  bool stop_ = false;
  std::thread thread_;
  /// run()'s threads; a finished one is joined by the next run() or the destructor.
  struct Task {
    std::thread thread;
    std::atomic<bool> done{false};
  };
  std::mutex tasks_mu_;
  std::list<Task> tasks_;
};

/// A few threads running queued calls' work in order (the farm's GetStatus, whose statements may wait
/// for the database: not on gRPC's callback threads), with a bounded queue. Thread-safe.
class CallWorkers {
 public:
  /// `threads` threads (≥ 1), at most `max_queued` tasks waiting.
  CallWorkers(unsigned threads, size_t max_queued);
  /// Runs what is queued, then joins.
  ~CallWorkers();
  CallWorkers(const CallWorkers&) = delete;
  CallWorkers& operator=(const CallWorkers&) = delete;
  /// Queues `f`; false (nothing queued) when max_queued tasks are waiting already.
  bool post(std::function<void()> f);

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  std::list<std::function<void()>> queue_;
  const size_t max_queued_;
  bool stop_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace cuzk::service
