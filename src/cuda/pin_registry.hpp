// Which host ranges this process has page-locked, shared by every holder of the same range
// (cuda::HostRegistration). Each GPU backend of a multi-GPU host page-locks the same streamed key vectors
// and rows; the driver refuses a second registration of a range (cudaErrorHostMemoryAlreadyRegistered,
// an API error compute-sanitizer reports), and the first holder's cudaHostUnregister would unpin the range
// under the others, whose copies would then be staged at the pageable rate and block the host thread.
// Plain C++ (no CUDA), tested on the CPU.
#pragma once

#include <cstddef>
#include <map>
#include <mutex>

namespace cuzk::cuda {

/// Holders counted per registered range, keyed by the range's start. Thread-safe.
class PinRegistry {
 public:
  /// Takes a hold of [p, p + bytes): shares a held range from p of at least `bytes`, else registers it
  /// through `register_range()` (returns whether the driver locked it; called with the registry's lock
  /// held). Returns whether the caller now holds the range; a range from p shorter than `bytes` is
  /// neither shared nor registered again (false).
  template <class Register>
  bool acquire(const void* p, size_t bytes, Register&& register_range) {
    std::lock_guard lock(mu_);
    const auto it = held_.find(p);
    if (it != held_.end()) {
      if (it->second.bytes < bytes) return false;
      it->second.holders++;
      return true;
    }
    if (!register_range()) return false;
    held_.emplace(p, Held{bytes, 1});
    return true;
  }

  /// Drops a hold taken by acquire(p, ...); the last one calls `unregister_range()` and forgets the
  /// range. A range not held is ignored.
  template <class Unregister>
  void release(const void* p, Unregister&& unregister_range) {
    std::lock_guard lock(mu_);
    const auto it = held_.find(p);
    if (it == held_.end()) return;
    if (--it->second.holders > 0) return;
    unregister_range();
    held_.erase(it);
  }

  /// The holds on the range that starts at p (0 when none).
  size_t holders(const void* p) const {
    std::lock_guard lock(mu_);
    const auto it = held_.find(p);
    return it == held_.end() ? 0 : it->second.holders;
  }

 private:
  struct Held {
    size_t bytes;
    size_t holders;
  };
  mutable std::mutex mu_;
  std::map<const void*, Held> held_;
};

}  // namespace cuzk::cuda
