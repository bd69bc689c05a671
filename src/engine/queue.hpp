// The queues between the pipeline's stages: a blocking priority queue, optionally bounded. Between
// synthesis and the GPU it is bounded (pipeline.synthesis_lookahead): a synthesis worker that finds it
// full waits, which is the back-pressure that keeps synthesized partitions (GiBs each for PoRep) from
// piling up in host memory. The order may change with time (a job whose deadline nears moves ahead),
// so the queue is not a heap: pop() takes the first item under a comparator made at that moment.
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

/// A thread-safe priority queue of unique_ptr<T>. `Before{}(x, y)` is true when x must run before y
/// (for partitions: TaskOrder, pipeline.hpp). A Before is constructed afresh for every pop() and
/// count_before(), so it may capture the time (an order that changes as deadlines near). pop() is a
/// linear scan: O(queued items), a few µs for thousands, against partitions that take seconds.
/// capacity 0 = unbounded.
template <class T, class Before>
class WorkQueue {
 public:
  explicit WorkQueue(size_t capacity = 0) : capacity_(capacity) {}

  /// Adds an item, waiting while the queue is full. Returns false (and drops nothing: `item` is left
  /// untouched) once the queue is closed.
  bool push(std::unique_ptr<T>& item) {
    std::unique_lock lk(mu_);
    not_full_.wait(lk, [&] { return closed_ || capacity_ == 0 || items_.size() < capacity_; });
    if (closed_) return false;
    items_.push_back(std::move(item));
    not_empty_.notify_one();
    return true;
  }

  /// Takes the first item, waiting while the queue is empty; nullptr once it is closed and empty.
  std::unique_ptr<T> pop() {
    std::unique_lock lk(mu_);
    not_empty_.wait(lk, [&] { return closed_ || !items_.empty(); });
    if (items_.empty()) return nullptr;
    const Before before{};
    auto first = std::min_element(items_.begin(), items_.end(),
                                  [&](const auto& x, const auto& y) { return before(*x, *y); });
    std::unique_ptr<T> item = std::move(*first);
    items_.erase(first);
    not_full_.notify_one();
    return item;
  }

  /// Removes and returns every item for which pred is true (e.g. a cancelled job's partitions).
  std::vector<std::unique_ptr<T>> remove_if(const std::function<bool(const T&)>& pred) {
    std::vector<std::unique_ptr<T>> out;
    {
      std::lock_guard lk(mu_);
      auto mid =
          std::stable_partition(items_.begin(), items_.end(), [&](const auto& p) { return !pred(*p); });
      for (auto it = mid; it != items_.end(); ++it) out.push_back(std::move(*it));
      items_.erase(mid, items_.end());
    }
    if (!out.empty()) not_full_.notify_all();
    return out;
  }

  /// Number of queued items that run before `x` (a submit's queue position).
  size_t count_before(const T& x) const {
    std::lock_guard lk(mu_);
    const Before before{};
    return (size_t)std::count_if(items_.begin(), items_.end(), [&](const auto& p) { return before(*p, x); });
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
    return items_.size();
  }

 private:
  const size_t capacity_;
  mutable std::mutex mu_;
  std::condition_variable not_empty_, not_full_;
  std::vector<std::unique_ptr<T>> items_;  ///< in arrival order
  bool closed_ = false;
};

}  // namespace cuzk::engine
