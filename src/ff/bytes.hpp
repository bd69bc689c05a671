// Byte encodings of field elements. Big-endian canonical (zcash/blst serialization), little-endian
// canonical (.r1cs/.wtns coefficients) and little-endian Montgomery (snarkjs .zkey points: x·R mod m
// with R = 2^384 for Fp and 2^256 for Fr, which is this library's own internal form). Every decoder
// rejects values ≥ m.
#pragma once

#include <cstdint>
#include <cstring>

#include "ff/fp2.hpp"

namespace cuzk {

/// Decodes a canonical big-endian integer of F::kBytes bytes; false if it is ≥ the modulus.
template <class F>
bool from_bytes_be(const uint8_t* in, F& out) {
  uint64_t l[F::N];
  for (int i = 0; i < F::N; i++) {
    uint64_t v = 0;
    for (int j = 0; j < 8; j++) v = (v << 8) | in[(F::N - 1 - i) * 8 + j];
    l[i] = v;
  }
  return F::from_canonical(l, out);
}
/// Encodes the canonical value big-endian into F::kBytes bytes.
template <class F>
void to_bytes_be(const F& a, uint8_t* out) {
  uint64_t l[F::N];
  a.to_canonical(l);
  for (int i = 0; i < F::N; i++)
    for (int j = 0; j < 8; j++) out[(F::N - 1 - i) * 8 + j] = (uint8_t)(l[i] >> (56 - 8 * j));
}
/// Decodes a canonical little-endian integer of F::kBytes bytes; false if it is ≥ the modulus.
template <class F>
bool from_bytes_le(const uint8_t* in, F& out) {
  uint64_t l[F::N];
  std::memcpy(l, in, sizeof l);  // x86-64 and CUDA devices are little-endian
  return F::from_canonical(l, out);
}
/// Encodes the canonical value little-endian into F::kBytes bytes.
template <class F>
void to_bytes_le(const F& a, uint8_t* out) {
  uint64_t l[F::N];
  a.to_canonical(l);
  std::memcpy(out, l, sizeof l);
}
/// Decodes little-endian Montgomery bytes (snarkjs binary form); false if the raw value is ≥ m.
template <class F>
bool from_bytes_le_mont(const uint8_t* in, F& out) {
  uint64_t l[F::N];
  std::memcpy(l, in, sizeof l);
  if (!F::less_than_mod(l)) return false;
  std::memcpy(out.l, l, sizeof l);
  return true;
}
/// Encodes little-endian Montgomery bytes (snarkjs binary form).
template <class F>
void to_bytes_le_mont(const F& a, uint8_t* out) {
  std::memcpy(out, a.l, sizeof a.l);
}

/// Reduces an arbitrary little-endian byte string (any length) modulo m: Σ bytes[i]·256^i mod m.
/// Used to turn hash output or wide random bytes into field elements.
template <class F>
F reduce_bytes_le(const uint8_t* in, size_t n) {
  F r = F::zero(), base = F::from_u64(256);
  for (size_t i = n; i-- > 0;) r = r * base + F::from_u64(in[i]);
  return r;
}

}  // namespace cuzk
