// The host-memory budget (cuzk's memory.total_budget): resident circuits (proving keys and constraint
// systems) and the working set of every partition in flight (witness, a, b, c, backend scratch) are
// counted against one number. Synthesis reserves a partition's working set before it starts and waits
// while the budget is spent, so the daemon slows down instead of exceeding it.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>

namespace cuzk::engine {

/// A byte budget shared by threads. Two kinds of charges: `acquire` (working set; blocks while it
/// would exceed the budget) and `charge` (resident data whose size is known only once loaded; never
/// blocks, may exceed the budget: the registry then evicts idle circuits). So that work always
/// progresses, an acquire() larger than what is free is granted when no other acquire() reservation is
/// outstanding: a budget smaller than two partitions proves one partition at a time.
class MemoryBudget {
 public:
  /// `total` bytes; 0 = unlimited.
  explicit MemoryBudget(uint64_t total = 0) : total_(total) {}

  /// A granted amount; releases it when destroyed or reset.
  class Reservation {
   public:
    Reservation() = default;
    Reservation(Reservation&& o) noexcept { *this = std::move(o); }
    Reservation& operator=(Reservation&& o) noexcept;
    ~Reservation() { reset(); }
    void reset();
    uint64_t bytes() const { return bytes_; }

   private:
    friend class MemoryBudget;
    MemoryBudget* budget_ = nullptr;
    uint64_t bytes_ = 0;
    bool working_ = false;
  };

  /// Reserves `bytes` of working set, waiting until they fit (or nothing else is reserved). Returns an
  /// empty reservation, without waiting further, once `abandon()` returns true (checked on every wake-up
  /// and every 50 ms).
  Reservation acquire(uint64_t bytes, const std::function<bool()>& abandon);
  /// Charges `bytes` of resident data at once, over the budget if need be.
  Reservation charge(uint64_t bytes);

  uint64_t total() const { return total_; }
  uint64_t used() const;
  /// The largest used() seen.
  uint64_t peak() const;
  /// Working-set reservations outstanding now, and the most at once.
  unsigned working_now() const;
  unsigned working_peak() const;
  /// acquire() calls waiting for room now.
  unsigned waiting() const;

 private:
  void release(uint64_t bytes, bool working);
  const uint64_t total_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  uint64_t used_ = 0, peak_ = 0;
  unsigned working_ = 0, working_peak_ = 0, waiting_ = 0;
};

/// Parses a size: "auto", a plain number of bytes, or a number with a unit B, KB/KiB, MB/MiB, GB/GiB,
/// TB/TiB (decimal powers for KB…, binary for KiB…; case-insensitive; e.g. "256GiB", "1.5 GB"). "auto"
/// gives `auto_fraction` of physical RAM (or of the cgroup's memory limit when lower: a systemd
/// MemoryMax) minus `safety_margin` (at least 1 GiB). Throws
/// Error(kInvalidArgument) describing what was expected.
uint64_t parse_size(const std::string& text, double auto_fraction = 0.9, uint64_t safety_margin = 0);

/// Physical RAM in bytes (sysconf), 0 when unknown.
uint64_t physical_ram_bytes();

/// The lowest cgroup v2 memory.max of this process's cgroup and its ancestors (/proc/self/cgroup,
/// /sys/fs/cgroup), bytes; 0 when there is none or it cannot be read.
uint64_t cgroup_memory_limit();

}  // namespace cuzk::engine
