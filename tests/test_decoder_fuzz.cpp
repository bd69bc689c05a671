// Decoder fuzzing: random and mutated byte strings fed to every point decoder must either decode to
// a valid point or throw cuzk::Error — never crash or read out of bounds (run under ASan/UBSan in CI).
#include <gtest/gtest.h>

#include "ec/encoding.hpp"
#include "util/error.hpp"
#include "random.hpp"

namespace cuzk::test {
namespace {

template <class Decode, class Valid>
int fuzz(std::mt19937_64& rng, std::vector<std::vector<uint8_t>> seeds, Decode decode, Valid valid) {
  int accepted = 0;
  for (int iter = 0; iter < 3000; iter++) {
    std::vector<uint8_t> b = seeds[iter % seeds.size()];
    int mode = iter % 4;
    if (mode == 0) {
      for (auto& x : b) x = (uint8_t)rng();
    } else if (mode == 1) {
      b[rng() % b.size()] ^= (uint8_t)(1u << (rng() % 8));
    } else if (mode == 2) {
      b[0] = (uint8_t)((b[0] & 0x1f) | ((rng() % 8) << 5));  // every flag combination
    } else {
      b.resize(rng() % (b.size() + 2));  // truncated or one byte long
    }
    std::vector<uint8_t> exact(b);  // exact-size heap copy: ASan catches any over-read
    try {
      if (valid(decode(exact))) accepted++;
      else ADD_FAILURE() << "decoder returned an invalid point";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::kInvalidEncoding);
    }
  }
  return accepted;
}

TEST(DecoderFuzz, Zcash) {
  std::mt19937_64 rng(31);
  G1Affine p1 = random_point<Fp>(rng);
  G2Affine p2 = random_point<Fp2>(rng);
  std::vector<uint8_t> c1(48), u1(96), c2(96), u2(192);
  g1_to_zcash(p1, true, c1.data());
  g1_to_zcash(p1, false, u1.data());
  g2_to_zcash(p2, true, c2.data());
  g2_to_zcash(p2, false, u2.data());
  int ok1 = fuzz(
      rng, {c1, u1},
      [](const std::vector<uint8_t>& b) { return g1_from_zcash(b.data(), b.size(), SubgroupCheck::kYes); },
      [](const G1Affine& p) { return is_on_curve(p) && is_in_subgroup(p); });
  int ok2 = fuzz(
      rng, {c2, u2},
      [](const std::vector<uint8_t>& b) { return g2_from_zcash(b.data(), b.size(), SubgroupCheck::kNo); },
      [](const G2Affine& p) { return is_on_curve(p); });
  // the unmodified flag mutations of valid inputs decode sometimes, random bytes almost never
  EXPECT_GT(ok1, 0);
  EXPECT_GT(ok2, 0);
}

TEST(DecoderFuzz, Snarkjs) {
  std::mt19937_64 rng(32);
  for (int i = 0; i < 2000; i++) {
    std::vector<uint8_t> b(192);
    for (auto& x : b) x = (uint8_t)rng();
    if (i % 3 == 0) b[47] &= 0x0f, b[95] &= 0x0f;  // canonical-looking coordinates
    EXPECT_THROW(g1_from_snarkjs(b.data()), Error);
    EXPECT_THROW(g2_from_snarkjs(b.data()), Error);
  }
  std::vector<uint8_t> z(192, 0);
  EXPECT_TRUE(g1_from_snarkjs(z.data()).is_inf());
  EXPECT_TRUE(g2_from_snarkjs(z.data()).is_inf());
  G1Affine p = random_point<Fp>(rng);
  uint8_t buf[96];
  g1_to_snarkjs(p, buf);
  EXPECT_EQ(g1_from_snarkjs(buf), p);
}

}  // namespace
}  // namespace cuzk::test
