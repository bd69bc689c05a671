// Test timing on a busy machine: CUZK_TEST_TIMEOUT_SCALE (a number ≥ 1, default 1; scripts/test.sh sets
// it from the load it finds, see tests/timeout_scale.cmake) stretches every wall-clock allowance a test
// makes: how long it waits for an event, how long it gives another thread to get somewhere, and the
// bounds of its timing checks. At 1 the tests keep the limits they were written with.
#pragma once

#include <chrono>
#include <cstdlib>
#include <thread>

namespace cuzk::test {

/// CUZK_TEST_TIMEOUT_SCALE, or 1 when unset, unparsable or below 1.
inline double timeout_scale() {
  static const double s = [] {
    const char* e = std::getenv("CUZK_TEST_TIMEOUT_SCALE");
    if (!e || !*e) return 1.0;
    char* end = nullptr;
    const double v = std::strtod(e, &end);
    return (end != e && v >= 1.0 && v <= 1000.0) ? v : 1.0;
  }();
  return s;
}

/// ms milliseconds times the scale.
inline std::chrono::milliseconds scaled_ms(double ms) {
  return std::chrono::milliseconds((long long)(ms * timeout_scale() + 0.5));
}

/// Calls done() every step until it returns true or timeout_ms (scaled) have passed; returns its last answer.
template <class Done>
bool wait_until(Done done, double timeout_ms, std::chrono::milliseconds step = std::chrono::milliseconds(10)) {
  const auto end = std::chrono::steady_clock::now() + scaled_ms(timeout_ms);
  while (!done()) {
    if (std::chrono::steady_clock::now() >= end) return done();
    std::this_thread::sleep_for(step);
  }
  return true;
}

}  // namespace cuzk::test
