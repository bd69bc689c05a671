#include "engine/farm_worker.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <set>

namespace cuzk::engine {

FarmWorker::FarmWorker(Engine& engine, JobStore& store, FarmWorkerConfig cfg)
    : engine_(engine), store_(store), cfg_(std::move(cfg)) {
  std::random_device rd;
  char suffix[20];
  std::snprintf(suffix, sizeof suffix, "@%08x%08x", rd(), rd());
  owner_ = cfg_.node_id + suffix;
  // The node id is taken (or refused: NodeIdInUse) before anything is claimed.
  retry("join", [&] { store_.join(report()); });
  const unsigned slots = std::max(1u, cfg_.slots);
  for (unsigned i = 0; i < slots; i++) threads_.emplace_back([this] { slot_loop(); });
  threads_.emplace_back([this] { heartbeat_loop(); });
  log(LogLevel::kInfo, "farm_worker_started",
      {{"node", cfg_.node_id},
       {"owner", owner_},
       {"slots", std::to_string(slots)},
       {"heartbeat_ms", std::to_string(cfg_.heartbeat_ms)}});
}

FarmWorker::~FarmWorker() { stop(); }

void FarmWorker::stop() {
  if (stopping_.exchange(true)) return;
  cv_.notify_all();
  for (std::thread& t : threads_) t.join();
  threads_.clear();
}

void FarmWorker::log(LogLevel level, std::string event,
                     std::vector<std::pair<std::string, std::string>> fields) const {
  if (cfg_.log) cfg_.log(LogEvent{level, std::move(event), std::move(fields)});
}

bool FarmWorker::sleep_for(uint64_t ms) {
  std::unique_lock lk(mu_);
  cv_.wait_for(lk, std::chrono::milliseconds(ms), [&] { return stopping_.load(); });
  return !stopping_;
}

template <class F>
bool FarmWorker::retry(const char* what, F&& f) {
  uint64_t backoff = 50;
  for (;;) {
    try {
      f();
      return true;
    } catch (const StoreUnavailable& e) {
      log(LogLevel::kWarn, "farm_store_unavailable",
          {{"during", what}, {"retry_ms", std::to_string(backoff)}, {"error", e.what()}});
      if (!sleep_for(backoff)) return false;
      backoff = std::min<uint64_t>(backoff * 2, 2000);
    }
  }
}

void FarmWorker::slot_loop() {
  const long exit_after_claim = [] {  // ms, -1: off
    const char* v = std::getenv("CUZK_FAIL_FARM_EXIT_AFTER_CLAIM");
    return v && *v ? std::strtol(v, nullptr, 10) : -1L;
  }();
  uint64_t backoff = 50;
  while (!stopping_) {
    try {
      slot_iteration(backoff, exit_after_claim);
    } catch (const std::exception& e) {
      log(LogLevel::kError, "farm_slot_error", {{"error", e.what()}, {"retry_ms", std::to_string(backoff)}});
      sleep_for(backoff);
      backoff = std::min<uint64_t>(backoff * 2, 2000);
    }
  }
}

void FarmWorker::slot_iteration(uint64_t& backoff, long exit_after_claim_ms) {
  // The circuits this node proves for the farm (the circuit_id + witness kinds, and the Filecoin kinds
  // when it can expand their inputs), resident ones first.
  std::vector<std::string> circuits, resident;
  for (const CircuitInfo& c : engine_.circuits().list()) {
    const bool witness_kind = c.kind == "circom" || c.kind == "bellperson";
    const bool input_kind = c.kind == "porep" || c.kind == "snap" || c.kind == "post";
    if (!witness_kind && !(input_kind && cfg_.expand)) continue;
    circuits.push_back(c.id);
    if (c.resident) resident.push_back(c.id);
  }
  std::optional<PartitionClaim> claim;
  const Clock::time_point t_claim = Clock::now();
  double claim_ms = 0;
  try {
    claim = store_.claim(owner_, circuits, resident);
    claim_ms = ms_between(t_claim, Clock::now());
    backoff = 50;
    if (!claim) {
      store_.wait_for_work(250);
      return;
    }
  } catch (const StoreUnavailable& e) {
    log(LogLevel::kWarn, "farm_store_unavailable",
        {{"during", "claim"}, {"retry_ms", std::to_string(backoff)}, {"error", e.what()}});
    sleep_for(backoff);
    backoff = std::min<uint64_t>(backoff * 2, 2000);
    return;
  }
  const auto key = std::make_pair(claim->job_id, claim->index);
  log(LogLevel::kInfo, "partition_claimed",
      {{"job", claim->job_id},
       {"partition", std::to_string(claim->index)},
       {"epoch", std::to_string(claim->epoch)},
       {"attempt", std::to_string(claim->attempt)}});
  if (exit_after_claim_ms >= 0) {
    std::this_thread::sleep_for(std::chrono::milliseconds(exit_after_claim_ms));
    log(LogLevel::kWarn, "farm_fault_exit", {{"fault", "CUZK_FAIL_FARM_EXIT_AFTER_CLAIM"}});
    _exit(137);
  }
  JobRequest jr;
  jr.circuit_id = claim->circuit_id;
  jr.kind = claim->kind;
  jr.priority = claim->priority;
  if (claim->job_input) {
    const std::shared_ptr<Expanded> ex = expanded(*claim);
    if (!ex->job) {
      if (!ex->error.empty()) fail_claim(*claim, ex->error);
      return;  // else the job is over (its input was dropped) or the worker is stopping
    }
    jr.partitions.push_back(ex->job->partitions[claim->index]);
  } else {
    jr.partitions.push_back({{}, nullptr, std::move(claim->input), {}});
  }
  std::optional<JobResult> r;
  try {
    SubmitResult local = engine_.submit(std::move(jr));
    {
      std::lock_guard lk(mu_);
      running_[key] = Running{local.job_id, beat_};
    }
    r = engine_.await(local.job_id, 0);
    std::lock_guard lk(mu_);
    running_.erase(key);
  } catch (const SubmitRefused& e) {  // shutting down or full: the lease lapses, another node runs it
    log(LogLevel::kWarn, "partition_not_started", {{"job", claim->job_id}, {"error", e.what()}});
    sleep_for(backoff);
    return;
  } catch (...) {  // slot_loop logs it and goes on: the heartbeat must not count this partition as running
    std::lock_guard lk(mu_);
    running_.erase(key);
    throw;
  }
  if (!r) return;
  if (r->state == JobState::kCompleted && !r->proofs.empty()) {
    PartitionTiming t = r->partitions.empty() ? PartitionTiming{} : r->partitions[0];
    t.device = cfg_.node_id + "/" + t.device;
    bool stored = false;
    const Clock::time_point t_store = Clock::now();
    retry("complete",
          [&] { stored = store_.complete(*claim, owner_, r->proofs[0], r->public_inputs[0], t); });
    const double store_ms = ms_between(t_store, Clock::now());
    log(stored ? LogLevel::kInfo : LogLevel::kWarn, stored ? "partition_stored" : "partition_lease_lost",
        {{"job", claim->job_id},
         {"partition", std::to_string(claim->index)},
         {"epoch", std::to_string(claim->epoch)},
         {"total_ms", std::to_string((long)r->total_ms)},
         {"claim_ms", std::to_string(claim_ms)},
         {"store_ms", std::to_string(store_ms)}});
  } else if (r->state == JobState::kFailed) {
    // The partition failed on its own terms (its input, its proof): running it again would fail again.
    fail_claim(*claim, r->error);
  }
  // Cancelled locally: the lease was lost (the job was cancelled, or the partition taken over), or the
  // engine is shutting down (the lease lapses and another node runs the partition).
}

void FarmWorker::fail_claim(const PartitionClaim& c, const std::string& reason) {
  bool failed = false;
  retry("fail", [&] { failed = store_.fail(c, owner_, reason); });
  log(LogLevel::kWarn, failed ? "partition_failed" : "partition_lease_lost",
      {{"job", c.job_id}, {"partition", std::to_string(c.index)}, {"error", reason}});
}

std::shared_ptr<FarmWorker::Expanded> FarmWorker::expanded(const PartitionClaim& c) {
  std::shared_ptr<Expanded> ex;
  {
    std::lock_guard lk(cache_mu_);
    auto it = std::find_if(cache_.begin(), cache_.end(), [&](const auto& e) { return e.first == c.job_id; });
    if (it != cache_.end()) {
      cache_.splice(cache_.begin(), cache_, it);
    } else {
      cache_.emplace_front(c.job_id, std::make_shared<Expanded>());
      while (cache_.size() > std::max(1u, cfg_.input_cache_jobs)) cache_.pop_back();
    }
    ex = cache_.front().second;
  }
  std::lock_guard lk(ex->mu);  // the other slots wanting this job's input wait for the first
  if (ex->done) return ex;
  std::optional<std::vector<uint8_t>> input;
  try {
    if (!retry("job_input", [&] { input = store_.job_input(c.job_id); })) return ex;  // stopping
  } catch (const Error& e) {  // a corrupt row, or a statement the server refused
    ex->error = e.what();
    ex->done = true;
    return ex;
  }
  ex->done = true;
  if (!input) return ex;  // the job is over
  const Clock::time_point t0 = Clock::now();
  try {
    JobRequest jr = cfg_.expand(c.kind, *input);
    if (jr.partitions.size() != c.partitions)
      throw Error(ErrorCode::kInvalidArgument, "it makes " + std::to_string(jr.partitions.size()) +
                                                   " partitions, the job has " +
                                                   std::to_string(c.partitions));
    if (jr.circuit_id != c.circuit_id)
      throw Error(ErrorCode::kInvalidArgument,
                  "it is for circuit " + jr.circuit_id + ", the job for " + c.circuit_id);
    ex->job = std::make_shared<const JobRequest>(std::move(jr));
  } catch (const std::exception& e) {
    ex->error = std::string("the job's stored input: ") + e.what();
  }
  log(ex->job ? LogLevel::kInfo : LogLevel::kWarn, "farm_input_expanded",
      {{"job", c.job_id},
       {"bytes", std::to_string(input->size())},
       {"ms", std::to_string((long)ms_between(t0, Clock::now()))},
       {"error", ex->error}});
  return ex;
}

NodeReport FarmWorker::report() const {
  NodeReport rep;
  rep.node_id = cfg_.node_id;
  rep.incarnation = owner_;
  rep.address = cfg_.address;
  const EngineStatus st = engine_.status();
  rep.gpus = (unsigned)st.devices.size();
  for (const CircuitInfo& c : st.circuits)
    if (c.resident) rep.resident.push_back(c.id);
  return rep;
}

void FarmWorker::heartbeat_loop() {
  do {
    NodeReport rep = report();
    uint64_t beat;
    {
      std::lock_guard lk(mu_);
      beat = ++beat_;
      rep.running = (unsigned)running_.size();
    }
    std::vector<std::pair<std::string, uint32_t>> held;
    try {
      held = store_.heartbeat(rep);
    } catch (const StoreUnavailable& e) {
      log(LogLevel::kWarn, "farm_store_unavailable", {{"during", "heartbeat"}, {"error", e.what()}});
      continue;
    } catch (const std::exception& e) {  // a statement the store refused: logged; the next beat tries again
      log(LogLevel::kError, "farm_slot_error", {{"during", "heartbeat"}, {"error", e.what()}});
      continue;
    }
    // Work claimed before this heartbeat began whose lease is not held any more: stop proving it.
    const std::set<std::pair<std::string, uint32_t>> held_set(held.begin(), held.end());
    std::vector<std::pair<std::pair<std::string, uint32_t>, std::string>> lost;
    {
      std::lock_guard lk(mu_);
      for (const auto& [key, run] : running_)
        if (run.since_beat < beat && !held_set.count(key)) lost.emplace_back(key, run.local_job);
    }
    for (const auto& [key, local] : lost) {
      log(LogLevel::kWarn, "partition_lease_gone",
          {{"job", key.first}, {"partition", std::to_string(key.second)}, {"local_job", local}});
      engine_.cancel(local);
    }
  } while (sleep_for(cfg_.heartbeat_ms));
}

}  // namespace cuzk::engine
