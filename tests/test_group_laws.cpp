// Group laws of G1 and G2 in all coordinate systems, edge cases (∞, P + P, P − P, 0·P, (r−1)·P),
// subgroup checks, batch affine conversion and pairing bilinearity.
#include <gtest/gtest.h>

#include "ec/pairing.hpp"
#include "ff/bigint.hpp"
#include "random.hpp"

namespace cuzk::test {
namespace {

template <class F>
void group_laws(uint64_t seed) {
  std::mt19937_64 rng(seed);
  using J = Jacobian<F>;
  using X = XYZZ<F>;
  const Affine<F> g = Curve<F>::generator();
  for (int i = 0; i < 6; i++) {
    Affine<F> P = random_point<F>(rng), Q = random_point<F>(rng), R = random_point<F>(rng);
    J p = J::from_affine(P), q = J::from_affine(Q), r = J::from_affine(R);
    EXPECT_EQ(p + q, q + p);
    EXPECT_EQ((p + q) + r, p + (q + r));
    EXPECT_EQ(p + J::infinity(), p);
    EXPECT_TRUE((p - p).is_inf());
    EXPECT_EQ(p + p, p.dbl());
    EXPECT_EQ(p.add_affine(P), p.dbl());
    EXPECT_TRUE(p.add_affine(-P).is_inf());
    EXPECT_TRUE(X::from_affine(P).add_affine(-P).is_inf());
    EXPECT_EQ(X::from_affine(P).add_affine(P).to_affine(), p.dbl().to_affine());
    EXPECT_EQ((X::from_affine(P) + X::from_affine(P)).to_affine(), p.dbl().to_affine());
    EXPECT_TRUE((X::from_affine(P) + (-X::from_affine(P))).is_inf());
    // scalar multiplication: (a + b)P = aP + bP, 0P = ∞, 1P = P, (r − 1)P = −P, rP = ∞
    Fr a = random_fe<Fr>(rng), b = random_fe<Fr>(rng);
    EXPECT_EQ(scalar_mul(p, a + b), scalar_mul(p, a) + scalar_mul(p, b));
    EXPECT_EQ(scalar_mul(scalar_mul(p, a), b), scalar_mul(p, a * b));
    EXPECT_TRUE(scalar_mul(p, Fr::zero()).is_inf());
    EXPECT_EQ(scalar_mul(p, Fr::one()), p);
    EXPECT_EQ(scalar_mul(p, -Fr::one()).to_affine(), -P);
    EXPECT_TRUE(is_on_curve(P));
    EXPECT_TRUE(is_in_subgroup(P));
  }
  EXPECT_TRUE(is_on_curve(Affine<F>::infinity()));
  EXPECT_TRUE(scalar_mul(J::infinity(), Fr::from_u64(5)).is_inf());
  EXPECT_EQ(J::infinity().to_affine(), Affine<F>::infinity());
  EXPECT_EQ(J::from_affine(g).dbl().to_affine(), scalar_mul(g, Fr::from_u64(2)).to_affine());
  // batch conversion with ∞ in the middle
  std::vector<J> pts = {J::from_affine(g), J::infinity(), J::from_affine(g).dbl(), scalar_mul(g, Fr::from_u64(9))};
  auto aff = batch_to_affine(pts);
  for (size_t i = 0; i < pts.size(); i++) EXPECT_EQ(aff[i], pts[i].to_affine());
}

TEST(GroupLaws, G1) { group_laws<Fp>(11); }
TEST(GroupLaws, G2) { group_laws<Fp2>(12); }

TEST(GroupLaws, NotOnCurveNotInSubgroup) {
  // (0, 2) is on y² = x³ + 4 but not in G1 (cofactor > 1)
  G1Affine p{Fp::zero(), Fp::from_u64(2)};
  EXPECT_TRUE(is_on_curve(p));
  EXPECT_FALSE(is_in_subgroup(p));
  G1Affine q{Fp::one(), Fp::from_u64(2)};
  EXPECT_FALSE(is_on_curve(q));
}

TEST(Pairing, Bilinearity) {
  std::mt19937_64 rng(21);
  G1Affine g1 = Curve<Fp>::generator();
  G2Affine g2 = Curve<Fp2>::generator();
  Fr a = random_fe<Fr>(rng), b = random_fe<Fr>(rng);
  Fp12 e = pairing(g1, g2);
  EXPECT_FALSE(e.is_one());
  auto r = bigint::modulus<Fr>();
  EXPECT_TRUE(e.pow(r.data(), Fr::N).is_one());  // e lands in the r-torsion of Fp12*
  Fp12 eab = pairing(scalar_mul(g1, a).to_affine(), scalar_mul(g2, b).to_affine());
  uint64_t ab[4];
  (a * b).to_canonical(ab);
  EXPECT_EQ(eab, e.pow(ab, 4));
  // e(aP, Q)·e(−P, aQ) = 1 as a product
  EXPECT_TRUE(pairing_product_is_one({{scalar_mul(g1, a).to_affine(), g2}, {-g1, scalar_mul(g2, a).to_affine()}}));
  EXPECT_FALSE(pairing_product_is_one({{scalar_mul(g1, a).to_affine(), g2}, {-g1, scalar_mul(g2, b).to_affine()}}));
  EXPECT_TRUE(pairing(G1Affine::infinity(), g2).is_one());
  EXPECT_TRUE(pairing(g1, G2Affine::infinity()).is_one());
}

}  // namespace
}  // namespace cuzk::test
