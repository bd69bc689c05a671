#include "formats/decimal.hpp"

#include <algorithm>
#include <vector>

namespace cuzk {
namespace {

constexpr uint64_t kTen19 = 10000000000000000000ULL;  // the largest power of ten below 2^64

}  // namespace

std::string decimal_from_limbs(const uint64_t* limbs, size_t n) {
  std::vector<uint64_t> x(limbs, limbs + n);
  std::vector<uint64_t> chunks;  // base-10^19 digits, least significant first
  size_t top = n;
  while (top > 0 && x[top - 1] == 0) top--;
  while (top > 0) {
    unsigned __int128 r = 0;
    for (size_t i = top; i-- > 0;) {
      unsigned __int128 cur = (r << 64) | x[i];
      x[i] = (uint64_t)(cur / kTen19);
      r = cur % kTen19;
    }
    chunks.push_back((uint64_t)r);
    while (top > 0 && x[top - 1] == 0) top--;
  }
  if (chunks.empty()) return "0";
  std::string s = std::to_string(chunks.back());
  for (size_t i = chunks.size() - 1; i-- > 0;) {
    std::string d = std::to_string(chunks[i]);
    s.append(19 - d.size(), '0');
    s += d;
  }
  return s;
}

bool decimal_to_limbs(std::string_view dec, uint64_t* limbs, size_t n) {
  if (dec.empty()) return false;
  std::fill(limbs, limbs + n, 0);
  size_t i = 0;
  while (i < dec.size()) {
    // Take up to 19 digits at once: x = x·10^k + chunk.
    size_t k = std::min<size_t>(19, dec.size() - i);
    uint64_t chunk = 0, mul = 1;
    for (size_t j = 0; j < k; j++) {
      char c = dec[i + j];
      if (c < '0' || c > '9') return false;
      chunk = chunk * 10 + (uint64_t)(c - '0');
      mul *= 10;
    }
    unsigned __int128 carry = chunk;
    for (size_t l = 0; l < n; l++) {
      unsigned __int128 cur = (unsigned __int128)limbs[l] * mul + carry;
      limbs[l] = (uint64_t)cur;
      carry = cur >> 64;
    }
    if (carry) return false;
    i += k;
  }
  return true;
}

std::string decimal_from_be_bytes(std::span<const uint8_t> be) {
  std::vector<uint64_t> l((be.size() + 7) / 8, 0);
  for (size_t i = 0; i < be.size(); i++) {
    size_t bit = 8 * (be.size() - 1 - i);
    l[bit / 64] |= (uint64_t)be[i] << (bit % 64);
  }
  return decimal_from_limbs(l.data(), l.size());
}

bool decimal_to_be_bytes(std::string_view dec, std::span<uint8_t> out) {
  std::vector<uint64_t> l((out.size() + 7) / 8 + 1, 0);
  if (!decimal_to_limbs(dec, l.data(), l.size())) return false;
  // Everything above out.size() bytes must be zero.
  for (size_t byte = out.size(); byte < 8 * l.size(); byte++)
    if ((l[byte / 8] >> (8 * (byte % 8))) & 0xff) return false;
  for (size_t i = 0; i < out.size(); i++) {
    size_t byte = out.size() - 1 - i;
    out[i] = (uint8_t)(l[byte / 8] >> (8 * (byte % 8)));
  }
  return true;
}

}  // namespace cuzk
