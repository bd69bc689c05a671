// Counted nouns for messages, so that a count of one reads "1 public signal", not "1 public signals".
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace cuzk {

/// `n` and `noun`, the noun in the plural unless n == 1: counted(1, "value") is "1 value",
/// counted(0, "public signal") "0 public signals". `plural` replaces the default plural (noun + "s").
inline std::string counted(uint64_t n, std::string_view noun, std::string_view plural = {}) {
  std::string s = std::to_string(n) + " ";
  if (n == 1) return s.append(noun);
  if (!plural.empty()) return s.append(plural);
  return s.append(noun).append("s");
}

}  // namespace cuzk
