// Algebraic laws of Fp, Fr, Fp2, Fp6, Fp12 on random inputs (fixed seed) and edge cases, plus
// byte-conversion round trips and known constants.
#include <gtest/gtest.h>

#include "ff/bigint.hpp"
#include "ff/fp6.hpp"
#include "ff/sqrt.hpp"
#include "random.hpp"
#include "support.hpp"

namespace cuzk::test {
namespace {

template <class F>
std::vector<F> samples(uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<F> v = {F::zero(), F::one(), -F::one(), F::from_u64(2), F::one().dbl().inverse()};
  for (int i = 0; i < 40; i++) v.push_back(random_fe<F>(rng));
  return v;
}

template <class F>
void ring_laws(const std::vector<F>& v) {
  for (size_t i = 0; i < v.size(); i++) {
    const F& a = v[i];
    const F& b = v[(i * 7 + 3) % v.size()];
    const F& c = v[(i * 13 + 5) % v.size()];
    EXPECT_EQ(a + b, b + a);
    EXPECT_EQ(a * b, b * a);
    EXPECT_EQ((a + b) + c, a + (b + c));
    EXPECT_EQ((a * b) * c, a * (b * c));
    EXPECT_EQ(a * (b + c), a * b + a * c);
    EXPECT_EQ(a - a, F::zero());
    EXPECT_EQ(a + (-a), F::zero());
    EXPECT_EQ(a - b, a + (-b));
    EXPECT_EQ(a * F::one(), a);
    EXPECT_EQ(a * F::zero(), F::zero());
    EXPECT_EQ(a.sqr(), a * a);
    EXPECT_EQ(a.dbl(), a + a);
    if (!a.is_zero()) {
      EXPECT_EQ(a * a.inverse(), F::one());
    }
  }
}

TEST(FieldLaws, Fp) { ring_laws(samples<Fp>(1)); }

// The assembly multiplier (picked at run time on BMI2/ADX CPUs) and the portable one agree.
TEST(FieldLaws, PortableMultiplierMatches) {
  auto check = [](const auto& v) {
    for (size_t i = 0; i < v.size(); i++)
      for (size_t j = 0; j < v.size(); j += 7) {
        using F = std::decay_t<decltype(v[0])>;
        EXPECT_EQ(F::mul_portable(v[i], v[j]), v[i] * v[j]);
      }
  };
  check(samples<Fp>(41));
  check(samples<Fr>(42));
}
TEST(FieldLaws, Fr) { ring_laws(samples<Fr>(2)); }
TEST(FieldLaws, Fp2) {
  std::mt19937_64 rng(3);
  std::vector<Fp2> v = {Fp2::zero(), Fp2::one(), {Fp::zero(), Fp::one()}, -Fp2::one()};
  for (int i = 0; i < 30; i++) v.push_back(random_fp2(rng));
  ring_laws(v);
  Fp2 u{Fp::zero(), Fp::one()};
  EXPECT_EQ(u.sqr(), -Fp2::one());  // u² = −1
}

TEST(FieldLaws, TowerInversesAndFrobenius) {
  std::mt19937_64 rng(4);
  for (int i = 0; i < 5; i++) {
    Fp6 a{random_fp2(rng), random_fp2(rng), random_fp2(rng)};
    EXPECT_EQ(a * a.inverse(), Fp6::one());
    Fp12 f{a, {random_fp2(rng), random_fp2(rng), random_fp2(rng)}};
    EXPECT_EQ(f * f.inverse(), Fp12::one());
    EXPECT_EQ(f.sqr(), f * f);
    // Frobenius is the p-th power map: check against exponentiation by p
    auto p = bigint::modulus<Fp>();
    EXPECT_EQ(f.frobenius(1), f.pow(p.data(), Fp::N));
    EXPECT_EQ(f.frobenius(1).frobenius(1), f.frobenius(2));
    EXPECT_EQ(f.frobenius(12), f);
    // the easy part of the final exponentiation lands in the cyclotomic subgroup
    Fp12 g = f.conj() * f.inverse();
    g = g.frobenius(2) * g;
    EXPECT_EQ(g.cyclotomic_sqr(), g.sqr());
    EXPECT_EQ(g.cyclotomic_sqr().cyclotomic_sqr(), g.sqr().sqr());
  }
}

TEST(FieldLaws, EdgeValues) {
  // r − 1 = −1, (r − 1)² = 1
  auto rm1 = bigint::add_small(bigint::modulus<Fr>(), -1);
  Fr a;
  ASSERT_TRUE(Fr::from_canonical(rm1.data(), a));
  EXPECT_EQ(a, -Fr::one());
  EXPECT_EQ(a.sqr(), Fr::one());
  // the modulus itself is not canonical
  auto m = bigint::modulus<Fr>();
  EXPECT_FALSE(Fr::from_canonical(m.data(), a));
  // 1/2 is (p + 1)/2
  auto half = bigint::div_small(bigint::add_small(bigint::modulus<Fp>(), 1), 2);
  uint64_t got[Fp::N];
  Fp::from_u64(2).inverse().to_canonical(got);
  for (int i = 0; i < Fp::N; i++) EXPECT_EQ(got[i], half[i]);
  EXPECT_TRUE(Fp::zero().inverse().is_zero());
  EXPECT_EQ(Fp::zero().legendre(), 0);
  EXPECT_EQ(Fp::from_u64(4).legendre(), 1);
  EXPECT_FALSE(sqrt(Fr::from_u64(7)).has_value());  // 7 generates Fr*: a non-residue
  EXPECT_EQ(sqrt(Fr::from_u64(49))->sqr(), Fr::from_u64(49));
}

TEST(FieldBytes, RoundTripsAndValidation) {
  std::mt19937_64 rng(5);
  for (int i = 0; i < 20; i++) {
    Fp a = random_fe<Fp>(rng);
    uint8_t be[48], le[48], lm[48];
    to_bytes_be(a, be);
    to_bytes_le(a, le);
    to_bytes_le_mont(a, lm);
    for (int j = 0; j < 48; j++) EXPECT_EQ(be[j], le[47 - j]);
    Fp b, c, d;
    ASSERT_TRUE(from_bytes_be(be, b));
    ASSERT_TRUE(from_bytes_le(le, c));
    ASSERT_TRUE(from_bytes_le_mont(lm, d));
    EXPECT_EQ(a, b);
    EXPECT_EQ(a, c);
    EXPECT_EQ(a, d);
  }
  // p itself, big-endian, is rejected; p − 1 accepted
  auto p = unhex(
      "1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab");
  Fp x;
  EXPECT_FALSE(from_bytes_be(p.data(), x));
  p[47]--;
  EXPECT_TRUE(from_bytes_be(p.data(), x));
  EXPECT_EQ(x, -Fp::one());
  std::vector<uint8_t> ff(48, 0xff);
  EXPECT_FALSE(from_bytes_le_mont(ff.data(), x));
  // Montgomery form of 1 is R mod p (= 2^384 mod p)
  uint8_t one[48];
  to_bytes_le_mont(Fp::one(), one);
  EXPECT_EQ(hex(one, 8), "fdff020000000976");
}

}  // namespace
}  // namespace cuzk::test
