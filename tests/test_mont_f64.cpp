// The FP64 Montgomery product (src/ff/mont_f64.hpp) on the CPU, where std::fma rounds as the device's
// DFMA does (IEEE 754 binary64, round to nearest even): against Fp's product on edge values, on inputs
// in [p, 2p) (the lazily reduced range the product accepts and returns), on random pairs and along
// chains that feed each output back unreduced; and the XYZZ mixed addition with its products split between
// the two products (ec/xyzz_f64.hpp) against point.hpp's, on random and edge points.
#include <gtest/gtest.h>

#include <random>

#include "ec/curves.hpp"
#include "ec/xyzz_f64.hpp"
#include "ff/mont_f64.hpp"
#include "random.hpp"

namespace cuzk::test {
namespace {

using f64::Fp48;

/// Both orders of the product: CIOS (f64::mul) and column by column (f64::mul_by_columns).
using MulFn = Fp48 (*)(const Fp48&, const Fp48&);
const MulFn kMuls[] = {&f64::mul, &f64::mul_by_columns};

/// An Fp struct holding the raw integer x + p (x < p): a representative in [p, 2p), not canonical.
Fp plus_p(const Fp& x) {
  Fp r;
  unsigned __int128 c = 0;
  for (int i = 0; i < 6; i++) {
    c += (unsigned __int128)x.l[i] + FpParams::mod(i);
    r.l[i] = (uint64_t)c;
    c >>= 64;
  }
  return r;
}

bool limbs_below_2_48(const Fp48& a) {
  for (double d : a.l)
    if (!(d >= 0 && d < 0x1p48 && d == (double)(uint64_t)d)) return false;
  return true;
}

TEST(MontF64, RepackingRoundTrips) {
  std::mt19937_64 rng(71);
  for (int i = 0; i < 1000; i++) {
    const Fp a = random_fe<Fp>(rng);
    const Fp48 b = f64::to_f64(a);
    ASSERT_TRUE(limbs_below_2_48(b));
    ASSERT_EQ(f64::from_f64(b), a);
    ASSERT_EQ(f64::from_f64(f64::to_f64(plus_p(a))), a);  // from_f64 reduces [p, 2p) once
  }
  Fp m1 = Fp::modulus_limbs();
  m1.l[0] -= 1;
  EXPECT_EQ(f64::from_f64(f64::to_f64(m1)), m1);
  EXPECT_EQ(f64::from_f64(f64::to_f64(Fp::zero())), Fp::zero());
}

TEST(MontF64, ProductEqualsFpOnEdgeValues) {
  Fp m1 = Fp::modulus_limbs();
  m1.l[0] -= 1;  // the raw integer p − 1
  const Fp two = Fp::one() + Fp::one();
  std::vector<Fp> edge = {Fp::zero(), Fp::one(), -Fp::one(), two, -two, m1};
  // 48-bit limbs at their extremes: single limbs set to 2^48 − 1, and sparse values
  for (int k = 0; k < 8; k++) {
    uint64_t w[6] = {};
    const int bit = 48 * k;
    for (int b = bit; b < bit + 48 && b < 381; b++) w[b / 64] |= uint64_t{1} << (b % 64);
    Fp x;
    for (int i = 0; i < 6; i++) x.l[i] = w[i];
    if (x.l[5] >= FpParams::mod(5)) x.l[5] = FpParams::mod(5) - 1;
    edge.push_back(x);
  }
  for (MulFn mul : kMuls)
    for (const Fp& a : edge)
      for (const Fp& b : edge) {
        const Fp want = a * b;
        ASSERT_EQ(f64::from_f64(mul(f64::to_f64(a), f64::to_f64(b))), want);
        // the same values as representatives in [p, 2p)
        ASSERT_EQ(f64::from_f64(mul(f64::to_f64(plus_p(a)), f64::to_f64(b))), want);
        ASSERT_EQ(f64::from_f64(mul(f64::to_f64(plus_p(a)), f64::to_f64(plus_p(b)))), want);
      }
}

TEST(MontF64, ProductEqualsFpOnRandomPairs) {
  std::mt19937_64 rng(72);
  for (int i = 0; i < 20000; i++) {
    const Fp a = random_fe<Fp>(rng), b = random_fe<Fp>(rng);
    for (MulFn mul : kMuls) {
      const Fp48 c = mul(f64::to_f64(a), f64::to_f64(b));
      ASSERT_TRUE(limbs_below_2_48(c)) << i;
      ASSERT_EQ(f64::from_f64(c), a * b) << i;
    }
  }
}

TEST(MontF64, ChainsOfUnreducedOutputsStayExact) {
  std::mt19937_64 rng(73);
  for (int c = 0; c < 20; c++) {
    const MulFn mul = kMuls[c % 2];
    const Fp y = random_fe<Fp>(rng);
    Fp want = c == 0 ? -Fp::one() : random_fe<Fp>(rng);
    Fp48 v = f64::to_f64(want), m = f64::to_f64(c % 4 >= 2 ? plus_p(y) : y);
    for (int i = 0; i < 500; i++) {
      v = mul(v, m);
      v = i % 3 == 0 ? mul(v, v) : v;
      want = want * y;
      want = i % 3 == 0 ? want * want : want;
    }
    ASSERT_EQ(f64::from_f64(v), want) << c;
  }
}

/// a + q by MaddF64<Mask> must equal point.hpp's XYZZ::add_affine limb for limb (not only as a point).
template <unsigned Mask>
void expect_same_madd(const G1XYZZ& a, const G1Affine& q, int at) {
  const G1XYZZ want = a.add_affine(q), got = MaddF64<Mask>::add(a, q);
  EXPECT_TRUE(got.X == want.X && got.Y == want.Y && got.ZZ == want.ZZ && got.ZZZ == want.ZZZ)
      << "mask " << Mask << " at " << at;
}
template <unsigned... Masks>
void expect_same_madds(const G1XYZZ& a, const G1Affine& q, int at) {
  (expect_same_madd<Masks>(a, q, at), ...);
}

TEST(MontF64, MixedAdditionEqualsPointHpp) {
  std::mt19937_64 rng(74);
  const G1Affine g = Curve<Fp>::generator();
  for (int i = 0; i < 200; i++) {
    const G1 pj = scalar_mul(g, random_fe<Fr>(rng)), qj = scalar_mul(g, random_fe<Fr>(rng));
    // an accumulator with Z ≠ 1: the sum of two points, never normalised
    const G1XYZZ a = G1XYZZ::from_affine(pj.to_affine()).add_affine(qj.to_affine());
    const G1Affine q = scalar_mul(g, random_fe<Fr>(rng)).to_affine();
    expect_same_madds<0x000, 0x155, 0x2aa, 0x1a9, 0x3ff>(a, q, i);
  }
  // edge cases: infinity on either side, a + a (doubling), a + (−a) (infinity), a + a + a
  const G1Affine p = scalar_mul(g, random_fe<Fr>(rng)).to_affine();
  const G1XYZZ pa = G1XYZZ::from_affine(p), twice = pa.add_affine(p);
  expect_same_madds<0x155, 0x3ff>(G1XYZZ::infinity(), p, -1);
  expect_same_madds<0x155, 0x3ff>(pa, G1Affine::infinity(), -2);
  expect_same_madds<0x155, 0x3ff>(pa, p, -3);
  expect_same_madds<0x155, 0x3ff>(pa, -p, -4);
  expect_same_madds<0x155, 0x3ff>(twice, p, -5);
  EXPECT_TRUE(MaddF64<0x3ff>::add(pa, -p).is_inf());
  EXPECT_TRUE(MaddF64<0x3ff>::add(pa, p).to_jacobian() == G1::from_affine(p) + G1::from_affine(p));
}

}  // namespace
}  // namespace cuzk::test
