// Test helpers: hex ⇄ field elements and points in the layout of tests/vectors/noble.json
// (big-endian canonical hex; Fp2 = [c0, c1]; Fp6 = [c0, c1, c2]; Fp12 = [c0, c1]; points {x, y} or "inf").
#pragma once

#include <cstdint>
#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "ec/curves.hpp"
#include "ff/bytes.hpp"
#include "ff/fp6.hpp"

namespace cuzk::test {

using json = nlohmann::json;

inline std::vector<uint8_t> unhex(const std::string& h) {
  if (h.size() % 2) throw std::invalid_argument("odd hex length");
  std::vector<uint8_t> out(h.size() / 2);
  auto nib = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    throw std::invalid_argument("bad hex digit");
  };
  for (size_t i = 0; i < out.size(); i++) out[i] = (uint8_t)(nib(h[2 * i]) << 4 | nib(h[2 * i + 1]));
  return out;
}
inline std::string hex(const uint8_t* p, size_t n) {
  static const char* d = "0123456789abcdef";
  std::string s;
  for (size_t i = 0; i < n; i++) {
    s += d[p[i] >> 4];
    s += d[p[i] & 15];
  }
  return s;
}

/// Canonical big-endian hex (fixed width) to a field element; throws if not canonical.
template <class F>
F fe(const std::string& h) {
  auto b = unhex(h);
  if (b.size() != (size_t)F::kBytes) throw std::invalid_argument("wrong field hex width: " + h);
  F r;
  if (!from_bytes_be(b.data(), r)) throw std::invalid_argument("non-canonical: " + h);
  return r;
}
template <class F>
std::string to_hex(const F& a) {
  uint8_t b[F::kBytes];
  to_bytes_be(a, b);
  return hex(b, sizeof b);
}
/// Limbs (little-endian) of a big-endian hex integer of any width ≤ 64·N bits.
template <int N>
std::array<uint64_t, N> limbs(const std::string& h) {
  std::array<uint64_t, N> l{};
  auto b = unhex(h);
  for (size_t i = 0; i < b.size(); i++) {
    size_t bit = 8 * (b.size() - 1 - i);
    if (bit / 64 >= (size_t)N) {
      if (b[i]) throw std::invalid_argument("integer too wide");
      continue;
    }
    l[bit / 64] |= (uint64_t)b[i] << (bit % 64);
  }
  return l;
}

inline Fp2 fp2(const json& j) { return {fe<Fp>(j[0]), fe<Fp>(j[1])}; }
inline Fp6 fp6(const json& j) { return {fp2(j[0]), fp2(j[1]), fp2(j[2])}; }
inline Fp12 fp12(const json& j) { return {fp6(j[0]), fp6(j[1])}; }
inline G1Affine g1(const json& j) {
  if (j.is_string() && j == "inf") return G1Affine::infinity();
  return {fe<Fp>(j["x"]), fe<Fp>(j["y"])};
}
inline G2Affine g2(const json& j) {
  if (j.is_string() && j == "inf") return G2Affine::infinity();
  return {fp2(j["x"]), fp2(j["y"])};
}

/// The oracle's vectors (tests/vectors/noble.json), loaded once. CUZK_VECTORS overrides the path.
inline const json& noble() {
  static const json j = [] {
    const char* env = std::getenv("CUZK_VECTORS");
    std::string path = env ? env : std::string(CUZK_SOURCE_DIR) + "/tests/vectors/noble.json";
    std::ifstream f(path);
    if (!f) throw std::runtime_error("cannot open " + path);
    return json::parse(f);
  }();
  return j;
}

}  // namespace cuzk::test
