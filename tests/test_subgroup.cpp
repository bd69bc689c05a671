// The endomorphism subgroup tests of ec/subgroup.hpp against the reference r·P check (is_in_subgroup):
// multiples of the generators, random curve points (almost surely outside the subgroup), and subgroup
// points plus a torsion point of each prime order dividing the G1 cofactor.
#include <gtest/gtest.h>

#include <array>

#include "ec/subgroup.hpp"
#include "ff/bigint.hpp"
#include "ff/sqrt.hpp"
#include "random.hpp"

namespace cuzk::test {
namespace {

/// A uniformly random point of E(Fp) or E'(Fp2) (not cofactor-cleared).
template <class F>
Affine<F> random_curve_point(std::mt19937_64& rng) {
  for (;;) {
    F x;
    if constexpr (std::is_same_v<F, Fp>)
      x = random_fe<Fp>(rng);
    else
      x = random_fp2(rng);
    if (auto y = sqrt(x.sqr() * x + Curve<F>::b())) return {x, *y};
  }
}

template <class F>
void check_agrees(uint64_t seed) {
  std::mt19937_64 rng(seed);
  EXPECT_TRUE(in_subgroup_fast(Affine<F>::infinity()));
  EXPECT_TRUE(in_subgroup_fast(Curve<F>::generator()));
  for (int i = 0; i < 8; i++) {
    const Affine<F> p = random_point<F>(rng);
    EXPECT_TRUE(in_subgroup_fast(p));
    EXPECT_TRUE(in_subgroup_fast(-p));
    const Affine<F> q = random_curve_point<F>(rng);
    ASSERT_TRUE(is_on_curve(q));
    EXPECT_EQ(in_subgroup_fast(q), is_in_subgroup(q));
    EXPECT_FALSE(in_subgroup_fast(q));  // a random point is in the subgroup with probability 1/cofactor
    // Clearing the r-part leaves a pure torsion point, not in the subgroup unless it is ∞.
    uint64_t r[Fr::N];
    for (int j = 0; j < Fr::N; j++) r[j] = FrParams::mod(j);
    const Affine<F> t = scalar_mul(Jacobian<F>::from_affine(q), r, Fr::N).to_affine();
    EXPECT_EQ(in_subgroup_fast(t), t.is_inf());
    EXPECT_EQ(in_subgroup_fast(t), is_in_subgroup(t));
  }
}

TEST(GroupSubgroup, G1FastAgreesWithSlow) { check_agrees<Fp>(31); }
TEST(GroupSubgroup, G2FastAgreesWithSlow) { check_agrees<Fp2>(32); }

TEST(GroupSubgroup, G1TorsionOfEachCofactorPrime) {
  // h₁ = 3 · 11² · 10177² · 859267² · 52437899², and E(Fp) ≅ Z/r × Z/3 × (Z/11)² × … (the squared primes
  // have full torsion), so its exponent is e = r · 3 · 11 · 10177 · 859267 · 52437899 and (e/q)·R is a
  // point of order q (or ∞) for a random R.
  std::array<uint64_t, 6> e{};  // < 2^383
  for (int j = 0; j < Fr::N; j++) e[j] = FrParams::mod(j);
  for (uint64_t q : {3ULL, 11ULL, 10177ULL, 859267ULL, 52437899ULL}) {
    unsigned __int128 carry = 0;
    for (auto& limb : e) {
      carry += (unsigned __int128)limb * q;
      limb = (uint64_t)carry;
      carry >>= 64;
    }
  }
  std::mt19937_64 rng(33);
  const G1Affine g = random_point<Fp>(rng);
  for (uint64_t q : {3ULL, 11ULL, 10177ULL, 859267ULL, 52437899ULL}) {
    uint64_t rem = 1;
    const auto k = bigint::div_small(e, q, &rem);
    ASSERT_EQ(rem, 0u);
    G1 t;
    do t = scalar_mul(G1::from_affine(random_curve_point<Fp>(rng)), k.data(), 6);
    while (t.is_inf());
    const G1Affine tq = t.to_affine(), p = (G1::from_affine(g) + t).to_affine();
    EXPECT_FALSE(in_subgroup_fast(tq)) << q;
    EXPECT_FALSE(in_subgroup_fast(p)) << q;
    EXPECT_FALSE(is_in_subgroup(p)) << q;
  }
  // (0, ±2) has order 3.
  EXPECT_FALSE(in_subgroup_fast(G1Affine{Fp::zero(), Fp::from_u64(2)}));
  EXPECT_FALSE(in_subgroup_fast(G1Affine{Fp::zero(), -Fp::from_u64(2)}));
}

}  // namespace
}  // namespace cuzk::test
