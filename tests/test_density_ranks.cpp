// The host side of cuda::DensityRanks (src/cuda/density_ranks.hpp): word ranks and the words that hold a
// range of compacted ranks, against a naive select over the bits, on random bitmaps of a fixed seed and
// the edges (no word, all clear, all set, one bit, ranges at either end and of one element).
#include <gtest/gtest.h>

#include <random>

#include "cuda/density_ranks.hpp"

namespace cuzk::cuda {
namespace {

/// The positions of the set bits, in order: position[r] is the bit of compacted rank r.
std::vector<uint64_t> positions(const std::vector<uint64_t>& words) {
  std::vector<uint64_t> p;
  for (size_t w = 0; w < words.size(); w++)
    for (int b = 0; b < 64; b++)
      if (words[w] >> b & 1) p.push_back(w * 64 + (uint64_t)b);
  return p;
}

/// What the gather kernel does over words [first, last): each set bit whose rank lies in [q0, q1) writes
/// its position to out[rank − q0]; positions never written stay UINT64_MAX.
std::vector<uint64_t> gather_range(const std::vector<uint64_t>& words, const std::vector<uint64_t>& ranks,
                                   uint64_t q0, uint64_t q1) {
  std::vector<uint64_t> out(q1 - q0, UINT64_MAX);
  const auto [first, last] = words_of_ranks(ranks, q0, q1);
  for (size_t w = first; w < last; w++) {
    uint64_t word = words[w], r = ranks[w];
    while (word && r < q1) {
      const int b = std::countr_zero(word);
      if (r >= q0) out[r - q0] = w * 64 + (uint64_t)b;
      r++;
      word &= word - 1;
    }
  }
  return out;
}

void check_bitmap(const std::vector<uint64_t>& words, std::mt19937_64& rng) {
  const std::vector<uint64_t> ranks = word_ranks(words), pos = positions(words);
  ASSERT_EQ(ranks.size(), words.size() + 1);
  ASSERT_EQ(ranks.back(), pos.size());
  for (size_t w = 0; w < words.size(); w++)  // ranks[w]: the set bits before word w
    EXPECT_EQ(ranks[w], (uint64_t)(std::lower_bound(pos.begin(), pos.end(), w * 64) - pos.begin()));
  const uint64_t n = pos.size();
  std::vector<std::pair<uint64_t, uint64_t>> ranges = {
      {0, n}, {0, 1}, {n ? n - 1 : 0, n}, {n / 2, n / 2 + 1}};
  for (int i = 0; i < 40 && n; i++) {
    uint64_t a = rng() % (n + 1), b = rng() % (n + 1);
    if (a > b) std::swap(a, b);
    ranges.push_back({a, b});
  }
  for (const auto& [q0, q1] : ranges) {
    if (q1 > n || q0 > q1) continue;
    SCOPED_TRACE(testing::Message() << "ranks [" << q0 << ", " << q1 << ") of " << n);
    const auto [first, last] = words_of_ranks(ranks, q0, q1);
    for (size_t w = 0; w < words.size(); w++) {  // exactly the words holding a bit of the range
      const bool holds = q0 < q1 && ranks[w] < q1 && ranks[w + 1] > q0;
      EXPECT_EQ(holds, w >= first && w < last) << "word " << w;
    }
    const std::vector<uint64_t> want(pos.begin() + (std::ptrdiff_t)q0, pos.begin() + (std::ptrdiff_t)q1);
    EXPECT_EQ(gather_range(words, ranks, q0, q1), want);
  }
}

TEST(DensityRanks, RangesOfRandomBitmapsGatherWhatASelectGives) {
  std::mt19937_64 rng(35);
  for (const double p : {0.003, 0.25, 0.5, 0.997}) {  // B's quarter, A's 99.7 % (PoRep's densities)
    for (const size_t words : {1, 2, 3, 65, 1000}) {
      std::vector<uint64_t> w(words);
      std::bernoulli_distribution bit(p);
      for (auto& x : w)
        for (int b = 0; b < 64; b++) x |= (uint64_t)bit(rng) << b;
      SCOPED_TRACE(testing::Message() << words << " words, density " << p);
      check_bitmap(w, rng);
    }
  }
}

TEST(DensityRanks, Edges) {
  std::mt19937_64 rng(36);
  check_bitmap({}, rng);
  check_bitmap({0, 0, 0}, rng);
  check_bitmap({~uint64_t{0}, ~uint64_t{0}}, rng);
  check_bitmap({0, uint64_t{1} << 63, 0}, rng);
  check_bitmap({1, 0, 0, uint64_t{1} << 5}, rng);
  const std::vector<uint64_t> none = word_ranks({});
  EXPECT_EQ(none, std::vector<uint64_t>{0});
  EXPECT_EQ(words_of_ranks(none, 0, 0), (std::pair<size_t, size_t>{0, 0}));
  const std::vector<uint64_t> ranks = word_ranks(std::vector<uint64_t>{~uint64_t{0}});
  EXPECT_EQ(words_of_ranks(ranks, 5, 5), (std::pair<size_t, size_t>{0, 0}));  // empty range
  EXPECT_EQ(words_of_ranks(ranks, 7, 3), (std::pair<size_t, size_t>{0, 0}));
}

}  // namespace
}  // namespace cuzk::cuda
