#include "service/await_hub.hpp"

#include <algorithm>
#include <map>

namespace cuzk::service {

namespace {

/// How often the farm's waited-for jobs are looked at (PgStore::await's period too).
constexpr auto kFarmPoll = std::chrono::milliseconds(250);

}  // namespace

AwaitHub::AwaitHub(engine::Engine& engine, engine::JobStore* farm) : engine_(engine), farm_(farm) {
  if (!farm_) engine_.set_final_listener([this] { wake(); });
  thread_ = std::thread([this] { loop(); });
}

AwaitHub::~AwaitHub() {
  {
    std::lock_guard lk(tasks_mu_);
    for (Task& t : tasks_) t.thread.join();  // a Prove's submit, which then parks its call
    tasks_.clear();
  }
  if (!farm_) engine_.set_final_listener({});
  {
    std::lock_guard lk(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  thread_.join();
}

void AwaitHub::wake() {
  {
    std::lock_guard lk(mu_);
    dirty_ = true;
  }
  cv_.notify_all();
}

std::shared_ptr<AwaitHub::Waiter> AwaitHub::waiter(std::string job_id, uint64_t timeout_ms, Done done) {
  auto w = std::make_shared<Waiter>();
  w->job_id_ = std::move(job_id);
  if (timeout_ms) w->deadline_ = engine::Clock::now() + std::chrono::milliseconds(timeout_ms);
  w->done_ = std::move(done);
  return w;
}

void AwaitHub::park(std::shared_ptr<Waiter> w) {
  {
    std::lock_guard lk(mu_);
    if (!stop_) {
      parked_.push_back(w);
      w->at_ = std::prev(parked_.end());
      dirty_ = true;
      cv_.notify_all();
      return;
    }
  }
  Done d = std::move(w->done_);
  d(Outcome{End::kStopped, std::nullopt, ""});
}

void AwaitHub::cancel(const std::shared_ptr<Waiter>& w) {
  if (!w || w->cancelled_.exchange(true)) return;
  wake();
}

void AwaitHub::run(std::function<void()> f) {
  std::lock_guard lk(tasks_mu_);
  for (auto it = tasks_.begin(); it != tasks_.end();) {
    if (it->done) {
      it->thread.join();
      it = tasks_.erase(it);
    } else {
      ++it;
    }
  }
  Task& t = tasks_.emplace_back();
  t.thread = std::thread([&t, f = std::move(f)] {
    f();
    t.done = true;
  });
}

std::vector<std::optional<AwaitHub::Outcome>> AwaitHub::look(const std::vector<std::shared_ptr<Waiter>>& ws) {
  const engine::Clock::time_point now = engine::Clock::now();
  auto due = [&](const Waiter& w) { return w.deadline_ && now >= *w.deadline_; };
  std::vector<std::optional<Outcome>> out(ws.size());
  if (!farm_) {
    for (size_t i = 0; i < ws.size(); i++) {
      const Waiter& w = *ws[i];
      if (w.cancelled_) {
        out[i] = Outcome{End::kCancelled, std::nullopt, ""};
        continue;
      }
      std::optional<engine::JobResult> r = engine_.peek(w.job_id_);
      if (!r)
        out[i] = Outcome{End::kNotFound, std::nullopt, ""};
      else if (engine::is_final(r->state))
        out[i] = Outcome{End::kFinal, std::move(r), ""};
      else if (due(w))
        out[i] = Outcome{End::kTimeout, std::move(r), ""};
    }
    return out;
  }
  // The farm: one look at each job waited for, shared by the calls waiting for it.
  std::map<std::string, Outcome> looks;
  for (size_t i = 0; i < ws.size(); i++) {
    const Waiter& w = *ws[i];
    if (w.cancelled_) {
      out[i] = Outcome{End::kCancelled, std::nullopt, ""};
      continue;
    }
    auto a = looks.find(w.job_id_);
    if (a == looks.end()) {
      Outcome o;
      try {
        o.result = farm_->await(w.job_id_, 0);
        o.end = !o.result ? End::kNotFound : engine::is_final(o.result->state) ? End::kFinal : End::kTimeout;
      } catch (const engine::StoreUnavailable&) {
        o.end = End::kUnavailable;
      } catch (const std::exception& e) {
        o.end = End::kError;
        o.error = e.what();
      }
      a = looks.emplace(w.job_id_, std::move(o)).first;
    }
    // While the database is away the call keeps waiting (the job is safe there) until its timeout.
    if ((a->second.end == End::kTimeout || a->second.end == End::kUnavailable) && !due(w)) continue;
    out[i] = a->second;
  }
  return out;
}

void AwaitHub::loop() {
  std::unique_lock lk(mu_);
  for (;;) {
    // Sleep until a job becomes final, a call is parked or cancelled, the nearest timeout, or (a farm,
    // with calls waiting) the next poll.
    std::optional<engine::Clock::time_point> until;
    for (const auto& w : parked_)
      if (w->deadline_ && (!until || *w->deadline_ < *until)) until = w->deadline_;
    if (farm_ && !parked_.empty()) {
      const auto poll = engine::Clock::now() + kFarmPoll;
      if (!until || poll < *until) until = poll;
    }
    if (until)
      cv_.wait_until(lk, *until, [&] { return stop_ || dirty_; });
    else
      cv_.wait(lk, [&] { return stop_ || dirty_; });
    if (stop_) break;
    dirty_ = false;
    const std::vector<std::shared_ptr<Waiter>> ws(parked_.begin(), parked_.end());
    lk.unlock();
    std::vector<std::optional<Outcome>> outcomes = look(ws);  // the engine's or store's locks, not ours
    lk.lock();
    std::vector<std::pair<Done, Outcome>> ended;
    for (size_t i = 0; i < ws.size(); i++) {
      if (!outcomes[i]) continue;
      parked_.erase(ws[i]->at_);
      ended.emplace_back(std::move(ws[i]->done_), std::move(*outcomes[i]));
    }
    lk.unlock();
    for (auto& [done, o] : ended) done(std::move(o));
    lk.lock();
  }
  std::vector<Done> left;
  for (const auto& w : parked_) left.push_back(std::move(w->done_));
  parked_.clear();
  lk.unlock();
  for (Done& d : left) d(Outcome{End::kStopped, std::nullopt, ""});
}

CallWorkers::CallWorkers(unsigned threads, size_t max_queued) : max_queued_(max_queued) {
  for (unsigned i = 0; i < std::max(1u, threads); i++)
    threads_.emplace_back([this] {
      std::unique_lock lk(mu_);
      for (;;) {
        cv_.wait(lk, [&] { return stop_ || !queue_.empty(); });
        if (queue_.empty()) return;  // stopping, nothing left
        std::function<void()> f = std::move(queue_.front());
        queue_.pop_front();
        lk.unlock();
        f();
        lk.lock();
      }
    });
}

CallWorkers::~CallWorkers() {
  {
    std::lock_guard lk(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  for (std::thread& t : threads_) t.join();
}

bool CallWorkers::post(std::function<void()> f) {
  {
    std::lock_guard lk(mu_);
    if (queue_.size() >= max_queued_) return false;
    queue_.push_back(std::move(f));
  }
  cv_.notify_one();
  return true;
}

}  // namespace cuzk::service
