// The queues between the pipeline's stages: a blocking priority queue, optionally bounded. Between
// synthesis and the GPU it is bounded (pipeline.synthesis_lookahead): a synthesis worker that finds it
// full waits, which is the back-pressure that keeps synthesized partitions (GiBs each for PoRep) from
// piling up in host memory.
#pragma once

#include <algorithm>
#include <condition_variable>
#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

namespace cuzk::engine {

/// A thread-safe priority queue of unique_ptr<T>. `Before(x, y)` is true when x must run before y
/// (for partitions: higher priority, then older job, then lower partition index). capacity 0 = unbounded.
template <class T, class Before>
class WorkQueue {
 public:
  explicit WorkQueue(size_t capacity = 0) : capacity_(capacity) {}

  /// Adds an item, waiting while the queue is full. Returns false (and drops nothing: `item` is left
  /// untouched) once the queue is closed.
  bool push(std::unique_ptr<T>& item) {
    std::unique_lock lk(mu_);
    not_full_.wait(lk, [&] { return closed_ || capacity_ == 0 || heap_.size() < capacity_; });
    if (closed_) return false;
    heap_.push_back(std::move(item));
    std::push_heap(heap_.begin(), heap_.end(), after_);
    not_empty_.notify_one();
    return true;
  }

  /// Takes the first item, waiting while the queue is empty; nullptr once it is closed and empty.
  std::unique_ptr<T> pop() {
    std::unique_lock lk(mu_);
    not_empty_.wait(lk, [&] { return closed_ || !heap_.empty(); });
    if (heap_.empty()) return nullptr;
    std::pop_heap(heap_.begin(), heap_.end(), after_);
    std::unique_ptr<T> item = std::move(heap_.back());
    heap_.pop_back();
    not_full_.notify_one();
    return item;
  }

  /// Removes and returns every item for which pred is true (e.g. a cancelled job's partitions).
  std::vector<std::unique_ptr<T>> remove_if(const std::function<bool(const T&)>& pred) {
    std::vector<std::unique_ptr<T>> out;
    {
      std::lock_guard lk(mu_);
      auto mid = std::partition(heap_.begin(), heap_.end(), [&](const auto& p) { return !pred(*p); });
      for (auto it = mid; it != heap_.end(); ++it) out.push_back(std::move(*it));
      heap_.erase(mid, heap_.end());
      std::make_heap(heap_.begin(), heap_.end(), after_);
    }
    if (!out.empty()) not_full_.notify_all();
    return out;
  }

  /// Number of queued items that run before `x` (a submit's queue position).
  size_t count_before(const T& x) const {
    std::lock_guard lk(mu_);
    return (size_t)std::count_if(heap_.begin(), heap_.end(), [&](const auto& p) { return Before{}(*p, x); });
  }

  /// Wakes every waiter; later pushes fail, pops drain what is left and then return nullptr.
  void close() {
    std::lock_guard lk(mu_);
    closed_ = true;
    not_empty_.notify_all();
    not_full_.notify_all();
  }

  size_t size() const {
    std::lock_guard lk(mu_);
    return heap_.size();
  }

 private:
  // std heap functions keep the *largest* element first: "largest" = runs first.
  struct After {
    bool operator()(const std::unique_ptr<T>& x, const std::unique_ptr<T>& y) const {
      return Before{}(*y, *x);
    }
  };
  const size_t capacity_;
  mutable std::mutex mu_;
  std::condition_variable not_empty_, not_full_;
  std::vector<std::unique_ptr<T>> heap_;
  After after_;
  bool closed_ = false;
};

}  // namespace cuzk::engine
