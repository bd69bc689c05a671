// Standard padded base64 (RFC 4648 §4) decoded one byte at a time: Curio's Phase1Out is parsed while
// it is decoded (formats/c1/envelope.cpp), never held decoded. Internal to src/formats/c1.
#pragma once

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <string>

#include "util/error.hpp"

namespace cuzk::c1_detail {

/// The base64 alphabet, value order.
inline constexpr char kB64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// The 6-bit value of a base64 character, or -1 if `c` is not in the alphabet (padding included).
inline int b64_value(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}

/// A forward pass over standard padded base64 text yielding the decoded bytes one at a time, so that
/// a large payload (Curio's Phase1Out) is parsed without ever being decoded into memory. The end
/// iterator is default-constructed; invalid characters throw Error(kInvalidFile, "<what>: …").
class Base64Iter {
 public:
  using iterator_category = std::input_iterator_tag;
  using value_type = char;
  using difference_type = std::ptrdiff_t;
  using pointer = const char*;
  using reference = const char&;

  Base64Iter() = default;
  Base64Iter(const char* begin, const char* end, const std::string* what)
      : begin_(begin), p_(begin), end_(end), what_(what) {
    if ((end - begin) % 4 != 0)
      throw Error(ErrorCode::kInvalidFile,
                  *what + ": base64 length " + std::to_string(end - begin) + " is not a multiple of 4");
    fill();
  }
  /// Throws as the iteration would, without decoding.
  static void check(const char* begin, const char* end, const std::string& what) {
    if ((end - begin) % 4 != 0)
      throw Error(ErrorCode::kInvalidFile,
                  what + ": base64 length " + std::to_string(end - begin) + " is not a multiple of 4");
    for (const char* p = begin; p < end; p++)
      if (b64_value(*p) < 0 && !(*p == '=' && end - p <= 2 && (p + 1 == end || p[1] == '=')))
        throw Error(ErrorCode::kInvalidFile,
                    what + ": invalid base64 character at offset " + std::to_string(p - begin));
  }
  reference operator*() const { return buf_[i_]; }
  Base64Iter& operator++() {
    if (++i_ == n_) fill();
    return *this;
  }
  Base64Iter operator++(int) {
    Base64Iter t = *this;
    ++*this;
    return t;
  }
  // Only comparisons with the end iterator are meaningful.
  bool operator==(const Base64Iter& o) const { return (i_ >= n_) == (o.i_ >= o.n_); }

 private:
  void fill() {
    i_ = n_ = 0;
    if (p_ == end_) return;
    int v[4], pad = 0;
    const bool last = p_ + 4 == end_;
    for (int k = 0; k < 4; k++) {
      const char c = p_[k];
      if (c == '=' && last && k >= 2) {
        v[k] = 0;
        pad++;
        continue;
      }
      v[k] = b64_value(c);
      if (v[k] < 0 || pad)
        throw Error(ErrorCode::kInvalidFile,
                    *what_ + ": invalid base64 character at offset " + std::to_string(p_ - begin_ + k));
    }
    const uint32_t w = (uint32_t)v[0] << 18 | (uint32_t)v[1] << 12 | (uint32_t)v[2] << 6 | (uint32_t)v[3];
    buf_[0] = (char)(w >> 16);
    buf_[1] = (char)(w >> 8);
    buf_[2] = (char)w;
    n_ = 3 - pad;
    p_ += 4;
  }
  const char *begin_ = nullptr, *p_ = nullptr, *end_ = nullptr;
  const std::string* what_ = nullptr;
  char buf_[3]{};
  int i_ = 0, n_ = 0;
};

}  // namespace cuzk::c1_detail
