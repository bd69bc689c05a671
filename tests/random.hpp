// Deterministic random field elements and points for tests (fixed seeds, std::mt19937_64).
#pragma once

#include <random>

#include "ec/curves.hpp"
#include "ff/bytes.hpp"

namespace cuzk::test {

/// Uniform element of F from 64 random bytes reduced mod m (bias negligible).
template <class F>
F random_fe(std::mt19937_64& rng) {
  uint8_t b[64];
  for (int i = 0; i < 64; i += 8) {
    uint64_t v = rng();
    for (int j = 0; j < 8; j++) b[i + j] = (uint8_t)(v >> (8 * j));
  }
  return reduce_bytes_le<F>(b, sizeof b);
}
inline Fp2 random_fp2(std::mt19937_64& rng) { return {random_fe<Fp>(rng), random_fe<Fp>(rng)}; }

/// Random multiple of the generator.
template <class F>
Affine<F> random_point(std::mt19937_64& rng) {
  return scalar_mul(Curve<F>::generator(), random_fe<Fr>(rng)).to_affine();
}

}  // namespace cuzk::test
