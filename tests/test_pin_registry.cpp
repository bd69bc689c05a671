// cuda::PinRegistry (src/cuda/pin_registry.hpp), the sharing of page-locked host ranges between the GPU
// backends of one process: one registration per range however many hold it, the unregistration with the
// last hold, a failed registration holding nothing, a longer range from a held start refused, and
// concurrent holders from several threads.
#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

#include "cuda/pin_registry.hpp"

namespace cuzk::cuda {
namespace {

/// Counts the driver calls a registry makes.
struct Driver {
  int registered = 0, unregistered = 0;
  bool succeed = true;
  auto reg() {
    return [this] {
      registered++;
      return succeed;
    };
  }
  auto unreg() {
    return [this] { unregistered++; };
  }
};

TEST(PinRegistry, OneRegistrationPerRangeUnregisteredWithTheLastHold) {
  PinRegistry r;
  Driver d;
  std::vector<char> key(4096), rows(1024);
  EXPECT_TRUE(r.acquire(key.data(), key.size(), d.reg()));
  EXPECT_TRUE(r.acquire(key.data(), key.size(), d.reg()));  // a second backend: shared
  EXPECT_TRUE(r.acquire(key.data(), 100, d.reg()));         // a shorter range from the start: covered
  EXPECT_TRUE(r.acquire(rows.data(), rows.size(), d.reg()));
  EXPECT_EQ(d.registered, 2);
  EXPECT_EQ(r.holders(key.data()), 3u);
  r.release(key.data(), d.unreg());
  r.release(key.data(), d.unreg());
  EXPECT_EQ(d.unregistered, 0);
  EXPECT_EQ(r.holders(key.data()), 1u);
  r.release(key.data(), d.unreg());
  EXPECT_EQ(d.unregistered, 1);
  EXPECT_EQ(r.holders(key.data()), 0u);
  EXPECT_EQ(r.holders(rows.data()), 1u);  // the other range untouched
  r.release(rows.data(), d.unreg());
  EXPECT_EQ(d.unregistered, 2);
  // registered again after the last hold went
  EXPECT_TRUE(r.acquire(key.data(), key.size(), d.reg()));
  EXPECT_EQ(d.registered, 3);
}

TEST(PinRegistry, FailedLongerAndUnknownRanges) {
  PinRegistry r;
  Driver d;
  std::vector<char> key(4096);
  d.succeed = false;
  EXPECT_FALSE(r.acquire(key.data(), key.size(), d.reg()));  // the driver refused: nothing held
  EXPECT_EQ(r.holders(key.data()), 0u);
  r.release(key.data(), d.unreg());  // not held: ignored
  EXPECT_EQ(d.unregistered, 0);
  d.succeed = true;
  EXPECT_TRUE(r.acquire(key.data(), 1000, d.reg()));  // tried again
  EXPECT_EQ(d.registered, 2);
  EXPECT_FALSE(r.acquire(key.data(), key.size(), d.reg()));  // longer than the held range: not covered
  EXPECT_EQ(d.registered, 2);                                // and not registered over it
  EXPECT_EQ(r.holders(key.data()), 1u);
  r.release(key.data(), d.unreg());
  EXPECT_EQ(d.unregistered, 1);
}

TEST(PinRegistry, ConcurrentHoldersRegisterAndUnregisterInPairs) {
  PinRegistry r;
  std::vector<char> ranges(8 * 64);
  std::atomic<int> registered{0}, unregistered{0}, live{0}, bad{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; t++)
    threads.emplace_back([&, t] {
      for (int i = 0; i < 2000; i++) {
        const void* p = ranges.data() + 64 * ((t + i) % 8);
        const bool held = r.acquire(p, 64, [&] {
          registered++;
          if (live.fetch_add(1) >= 8) bad++;  // more live registrations than ranges
          return true;
        });
        if (!held) bad++;
        r.release(p, [&] {
          unregistered++;
          live--;
        });
      }
    });
  for (auto& th : threads) th.join();
  EXPECT_EQ(bad.load(), 0);
  EXPECT_EQ(registered.load(), unregistered.load());
  EXPECT_GE(registered.load(), 8);
  EXPECT_EQ(live.load(), 0);
  for (int k = 0; k < 8; k++) EXPECT_EQ(r.holders(ranges.data() + 64 * k), 0u);
}

}  // namespace
}  // namespace cuzk::cuda
