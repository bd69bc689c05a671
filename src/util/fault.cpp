#include "util/fault.hpp"

#include <atomic>
#include <cstdlib>
#include <string>

#include "util/error.hpp"

namespace cuzk {
namespace {

constexpr int kPoints = 4;
constexpr const char* kEnv[kPoints] = {"CUZK_FAIL_BACKEND_START", "CUZK_FAIL_SYNTHESIS", "CUZK_FAIL_FINALIZE",
                                       "CUZK_GPU_FAIL_LAUNCH"};

/// Checks left before each point fails (0 = disarmed), armed from the environment on first use.
std::atomic<uint64_t>* countdowns() {
  static std::atomic<uint64_t> left[kPoints] = {0, 0, 0, 0};
  static const bool armed = [] {
    for (int i = 0; i < kPoints; i++)
      if (const char* e = std::getenv(kEnv[i])) left[i] = std::strtoull(e, nullptr, 10);
    return true;
  }();
  (void)armed;
  return left;
}

}  // namespace

void inject_fault(FaultPoint point, uint64_t n) { countdowns()[(int)point].store(n); }

void check_fault(FaultPoint point, const char* what) {
  std::atomic<uint64_t>& left = countdowns()[(int)point];
  uint64_t v = left.load();
  while (v != 0)
    if (left.compare_exchange_weak(v, v - 1)) {
      if (v == 1)
        throw Error(point == FaultPoint::kBackendStart || point == FaultPoint::kKernelLaunch
                        ? ErrorCode::kCuda
                        : ErrorCode::kInternal,
                    std::string(what) + ": failure injected by " + kEnv[(int)point]);
      return;
    }
}

}  // namespace cuzk
