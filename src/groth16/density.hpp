// Density bitmaps: which variables of a circuit have a point in a proving-key vector. bellperson
// (src/groth16/generator.rs) stores A, B_G1 and B_G2 points only for the variables that occur in the A
// (respectively B) column of the constraint system; the prover walks the bitmap to pair each stored
// point with its scalar. SupraSeal C2 (c2/groth16_srs / groth16_cuda.cu) takes the same bitmaps as
// u64 words, least significant bit first: bit i of word i/64 is variable i.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace cuzk {

/// A bitmap over `size()` variables, u64 words, LSB first (SupraSeal's layout). Bits past size() in the
/// last word are always zero.
class Density {
 public:
  Density() = default;
  /// `bits` bits, all clear (or all set when `value`).
  explicit Density(size_t bits, bool value = false)
      : bits_(bits), words_((bits + 63) / 64, value ? ~uint64_t{0} : 0) {
    if (value && bits % 64) words_.back() = (uint64_t{1} << (bits % 64)) - 1;
  }

  size_t size() const { return bits_; }
  bool test(size_t i) const { return (words_[i / 64] >> (i % 64)) & 1; }
  void set(size_t i) { words_[i / 64] |= uint64_t{1} << (i % 64); }
  /// Number of set bits.
  size_t popcount() const {
    size_t n = 0;
    for (uint64_t w : words_) n += (size_t)std::popcount(w);
    return n;
  }
  /// The words (LSB first), ⌈size()/64⌉ of them.
  std::span<const uint64_t> words() const { return words_; }
  std::span<uint64_t> words() { return words_; }
  friend bool operator==(const Density&, const Density&) = default;

 private:
  size_t bits_ = 0;
  std::vector<uint64_t> words_;
};

}  // namespace cuzk
