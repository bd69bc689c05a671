// Standard padded base64 (formats/c1.hpp base64_encode, base64_decode), as Go's encoding/base64.
#include "formats/c1/base64.hpp"

#include "formats/c1.hpp"

namespace cuzk {

using c1_detail::Base64Iter;
using c1_detail::kB64;

std::string base64_encode(std::span<const uint8_t> b) {
  std::string s;
  s.reserve((b.size() + 2) / 3 * 4);
  size_t i = 0;
  for (; i + 3 <= b.size(); i += 3) {
    uint32_t w = (uint32_t)b[i] << 16 | (uint32_t)b[i + 1] << 8 | b[i + 2];
    s += kB64[w >> 18];
    s += kB64[(w >> 12) & 63];
    s += kB64[(w >> 6) & 63];
    s += kB64[w & 63];
  }
  if (size_t r = b.size() - i) {
    uint32_t w = (uint32_t)b[i] << 16 | (r == 2 ? (uint32_t)b[i + 1] << 8 : 0);
    s += kB64[w >> 18];
    s += kB64[(w >> 12) & 63];
    s += r == 2 ? kB64[(w >> 6) & 63] : '=';
    s += '=';
  }
  return s;
}

std::vector<uint8_t> base64_decode(std::string_view text, const std::string& what) {
  std::vector<uint8_t> out;
  out.reserve(text.size() / 4 * 3);
  for (Base64Iter it(text.data(), text.data() + text.size(), &what), end; it != end; ++it)
    out.push_back((uint8_t)*it);
  return out;
}

}  // namespace cuzk
