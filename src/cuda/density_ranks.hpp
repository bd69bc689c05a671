// The host side of gathering a density-compacted vector a range at a time (cuda::DensityRanks): each
// bitmap word's rank and the words that hold a range of ranks. Plain C++ (no CUDA), tested on the CPU.
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

namespace cuzk::cuda {

/// The set bits before each of `words` (u64, LSB first, groth16/density.hpp's layout), then their total:
/// words.size() + 1 entries. A set bit b of word w is element ranks[w] + popcount(w's bits below b) of the
/// vector compacted by the bitmap.
inline std::vector<uint64_t> word_ranks(std::span<const uint64_t> words) {
  std::vector<uint64_t> ranks(words.size() + 1);
  uint64_t r = 0;
  for (size_t w = 0; w < words.size(); w++) {
    ranks[w] = r;
    r += (uint64_t)std::popcount(words[w]);
  }
  ranks[words.size()] = r;
  return ranks;
}

/// The words [first, last) that hold the set bits of compacted ranks [q0, q1), from word_ranks' result:
/// exactly the w with ranks[w] < q1 and ranks[w + 1] > q0 (empty when q0 ≥ q1).
inline std::pair<size_t, size_t> words_of_ranks(std::span<const uint64_t> ranks, uint64_t q0, uint64_t q1) {
  if (ranks.size() < 2 || q0 >= q1) return {0, 0};
  const size_t words = ranks.size() - 1;
  const size_t first = (size_t)(std::upper_bound(ranks.begin() + 1, ranks.end(), q0) - ranks.begin()) - 1;
  const size_t last =
      (size_t)(std::lower_bound(ranks.begin(), ranks.begin() + (std::ptrdiff_t)words, q1) - ranks.begin());
  return {first, std::max(first, last)};
}

}  // namespace cuzk::cuda
