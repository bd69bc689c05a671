// Helpers of the GPU tests: the no-GPU policy and fast random data.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "cuda/gpu.hpp"

namespace cuzk::test {

/// True when CUZK_ALLOW_NO_GPU=1: without a GPU the device tests then skip instead of failing.
inline bool allow_no_gpu() {
  const char* e = std::getenv("CUZK_ALLOW_NO_GPU");
  return e && std::string(e) == "1";
}

/// Device tests call this first: with no GPU they fail loudly, or skip under CUZK_ALLOW_NO_GPU=1.
#define CUZK_REQUIRE_GPU()                                                                       \
  do {                                                                                           \
    if (::cuzk::cuda::device_count() == 0) {                                                     \
      if (::cuzk::test::allow_no_gpu()) GTEST_SKIP() << "no CUDA device (CUZK_ALLOW_NO_GPU=1)";   \
      FAIL() << "no CUDA device visible: the GPU tests need one (set CUZK_ALLOW_NO_GPU=1 to skip)"; \
    }                                                                                            \
  } while (0)

/// Uniform-ish field elements below the modulus, fast (top limb masked below the modulus's top limb).
template <class F>
std::vector<F> fast_random(size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<F> v(n);
  const uint64_t top = F::Params::mod(F::N - 1);
  uint64_t mask = 1;
  while (mask < top) mask = (mask << 1) | 1;
  mask >>= 1;  // largest 2^k − 1 below the top limb
  for (auto& e : v) {
    for (int i = 0; i < F::N; i++) e.l[i] = rng();
    e.l[F::N - 1] &= mask;
  }
  return v;
}

}  // namespace cuzk::test
