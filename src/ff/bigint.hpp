// Small helpers on little-endian 64-bit limb integers, used to derive exponents ((p − 1)/6, (p + 1)/4,
// …) from the moduli at start-up instead of hard-coding more constants.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace cuzk::bigint {

/// x / d for a small divisor, truncating; returns the quotient, `rem` receives the remainder.
template <std::size_t N>
std::array<uint64_t, N> div_small(const std::array<uint64_t, N>& x, uint64_t d, uint64_t* rem = nullptr) {
  std::array<uint64_t, N> q{};
  unsigned __int128 r = 0;
  for (int i = (int)N - 1; i >= 0; i--) {
    unsigned __int128 cur = (r << 64) | x[i];
    q[i] = (uint64_t)(cur / d);
    r = cur % d;
  }
  if (rem) *rem = (uint64_t)r;
  return q;
}

/// x + v for a small signed v (wraps modulo 2^(64N)).
template <std::size_t N>
std::array<uint64_t, N> add_small(std::array<uint64_t, N> x, int64_t v) {
  uint64_t add = (uint64_t)v, fill = v < 0 ? ~0ULL : 0;
  unsigned __int128 c = 0;
  for (size_t i = 0; i < N; i++) {
    c += (unsigned __int128)x[i] + (i == 0 ? add : fill);
    x[i] = (uint64_t)c;
    c >>= 64;
  }
  return x;
}

/// The modulus of a Montgomery field as a limb array.
template <class F>
std::array<uint64_t, F::N> modulus() {
  std::array<uint64_t, F::N> m{};
  for (int i = 0; i < F::N; i++) m[i] = F::Params::mod(i);
  return m;
}

}  // namespace cuzk::bigint
