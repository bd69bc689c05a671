#include "hash/fr32.hpp"

#include <cstring>
#include <vector>

#include "ff/bytes.hpp"

namespace cuzk {

std::array<uint8_t, 32> fr_to_bytes(const Fr& x) {
  std::array<uint8_t, 32> b;
  to_bytes_le(x, b.data());
  return b;
}

bool fr_from_bytes(const uint8_t b[32], Fr& out) { return from_bytes_le(b, out); }

Fr digest_to_fr(const Sha256::Digest& d) {
  uint8_t b[32];
  std::memcpy(b, d.data(), 32);
  b[31] &= 0x3f;
  Fr r;
  from_bytes_le(b, r);  // < 2^254 < r
  return r;
}

Fr sha256_of_nodes(std::span<const Fr> nodes) {
  Sha256 h;
  for (const Fr& n : nodes) h.update(fr_to_bytes(n));
  return digest_to_fr(h.finish());
}

}  // namespace cuzk
