// The AVX-512 IFMA form of Fp (src/ff/fp52x8.hpp) against the scalar Fp: conversions, products of
// canonical and lazily reduced (up to 2p) inputs, subtraction with reduction, and the transpose, on
// random lanes (fixed seed) and edge values 0, 1, −1. Skipped on CPUs without AVX-512 IFMA.
#include <gtest/gtest.h>

#include <array>

#include "ff/fp52x8.hpp"
#include "random.hpp"

namespace cuzk::test {
namespace {

using ifma::Fp52;
using ifma::FpX8;

std::vector<Fp> samples(uint64_t seed, size_t n) {
  std::mt19937_64 rng(seed);
  std::vector<Fp> v = {Fp::zero(), Fp::one(), -Fp::one(), Fp::from_u64(2), -Fp::from_u64(2)};
  while (v.size() < n) v.push_back(random_fe<Fp>(rng));
  return v;
}

/// x + p in 52-bit limbs (the same residue, not reduced: exercises the lazy input range).
Fp52 plus_p(const Fp52& x) {
  Fp52 r;
  uint64_t c = 0;
  for (int i = 0; i < 8; i++) {
    const uint64_t s = x.l[i] + ifma::kP.l[i] + c;
    r.l[i] = s & ifma::kMask52;
    c = s >> 52;
  }
  return r;
}

CUZK_IFMA FpX8 load(const std::array<Fp52, 8>& rows) {
  const Fp52* src[8];
  for (int i = 0; i < 8; i++) src[i] = &rows[i];
  return ifma::gather(src);
}
CUZK_IFMA std::array<Fp52, 8> store(const FpX8& v) {
  std::array<Fp52, 8> rows;
  Fp52* dst[8];
  for (int i = 0; i < 8; i++) dst[i] = &rows[i];
  ifma::scatter(v, dst, 0xff);
  return rows;
}
CUZK_IFMA std::array<Fp52, 8> mul8(const std::array<Fp52, 8>& a, const std::array<Fp52, 8>& b) {
  return store(ifma::mul(load(a), load(b)));
}
CUZK_IFMA std::array<Fp52, 8> sub8(const std::array<Fp52, 8>& a, const std::array<Fp52, 8>& b) {
  return store(ifma::reduce4(ifma::sub(ifma::sub(load(a), load(b), ifma::kP), FpX8{}, ifma::k2P)));
}

class Fp52x8 : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!ifma::cpu_has_ifma()) GTEST_SKIP() << "this CPU has no AVX-512 IFMA";
  }
};

TEST_F(Fp52x8, ConversionRoundTrip) {
  for (const Fp& a : samples(1, 200)) {
    const Fp52 x = ifma::to_fp52(a);
    for (int i = 0; i < 8; i++) EXPECT_LE(x.l[i], ifma::kMask52);
    EXPECT_EQ(ifma::from_fp52(x), a);
    EXPECT_EQ(ifma::from_fp52(plus_p(x)), a);  // from_fp52 accepts values below 2p
  }
  EXPECT_EQ(ifma::repack52(Fp::modulus_limbs().l).l[7], ifma::kP.l[7]);
}

TEST_F(Fp52x8, ProductsMatchScalar) {
  const auto v = samples(2, 400);
  for (size_t s = 0; s + 16 <= v.size(); s += 16) {
    std::array<Fp52, 8> a, b, a2;
    for (int i = 0; i < 8; i++) {
      a[i] = ifma::to_fp52(v[s + i]);
      b[i] = ifma::to_fp52(v[s + 8 + i]);
      a2[i] = plus_p(a[i]);
    }
    const auto r = mul8(a, b), r2 = mul8(a2, b), sq = mul8(a2, a2);
    for (int i = 0; i < 8; i++) {
      EXPECT_EQ(ifma::from_fp52(r[i]), v[s + i] * v[s + 8 + i]) << s + i;
      EXPECT_EQ(ifma::from_fp52(r2[i]), v[s + i] * v[s + 8 + i]) << s + i;
      EXPECT_EQ(ifma::from_fp52(sq[i]), v[s + i].sqr()) << s + i;
    }
  }
}

TEST_F(Fp52x8, DifferencesReduceToCanonical) {
  const auto v = samples(3, 160);
  for (size_t s = 0; s + 16 <= v.size(); s += 16) {
    std::array<Fp52, 8> a, b;
    for (int i = 0; i < 8; i++) {
      a[i] = ifma::to_fp52(v[s + i]);
      b[i] = ifma::to_fp52(v[s + 15 - i]);
    }
    const auto d = sub8(a, b);  // a + p − b + 2p, reduced from below 4p
    for (int i = 0; i < 8; i++) {
      const Fp52 want = ifma::to_fp52(v[s + i] - v[s + 15 - i]);  // canonical: the limbs are unique
      for (int l = 0; l < 8; l++) EXPECT_EQ(d[i].l[l], want.l[l]) << s + i << " limb " << l;
    }
  }
}

}  // namespace
}  // namespace cuzk::test
