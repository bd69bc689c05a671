// Every operation of the arithmetic core against vectors produced by @noble/curves
// (tests/oracle/gen_vectors.mjs → tests/vectors/noble.json). Exact equality everywhere; square roots
// are compared up to sign since the two libraries may pick different roots.
#include <gtest/gtest.h>

#include "ec/encoding.hpp"
#include "util/error.hpp"
#include "ec/pairing.hpp"
#include "ff/roots.hpp"
#include "ff/sqrt.hpp"
#include "support.hpp"

namespace cuzk::test {
namespace {

template <class F>
void check_prime_field(const char* key) {
  const auto& cases = noble()[key];
  ASSERT_GT(cases.size(), 20u);
  for (const auto& c : cases) {
    SCOPED_TRACE(c.dump());
    F a = fe<F>(c["a"]), b = fe<F>(c["b"]);
    EXPECT_EQ(to_hex(a + b), c["add"]);
    EXPECT_EQ(to_hex(a - b), c["sub"]);
    EXPECT_EQ(to_hex(a * b), c["mul"]);
    EXPECT_EQ(to_hex(a.sqr()), c["sqr"]);
    EXPECT_EQ(to_hex(-a), c["neg"]);
    if (c["inv"].is_null()) {
      EXPECT_TRUE(a.is_zero());
    } else {
      EXPECT_EQ(to_hex(a.inverse()), c["inv"]);
    }
    EXPECT_EQ(a.legendre(), c["legendre"].get<int>());
    auto root = sqrt(a);
    if (c["sqrt"].is_null()) {
      EXPECT_FALSE(root.has_value());
    } else {
      ASSERT_TRUE(root.has_value());
      F expect = fe<F>(c["sqrt"]);
      EXPECT_TRUE(*root == expect || *root == -expect);
    }
    auto e = limbs<4>(c["e"]);
    EXPECT_EQ(to_hex(a.pow(e.data(), 4)), c["pow"]);
  }
}

TEST(Noble, Fp) { check_prime_field<Fp>("fp"); }
TEST(Noble, Fr) { check_prime_field<Fr>("fr"); }

TEST(Noble, Fp2) {
  for (const auto& c : noble()["fp2"]) {
    SCOPED_TRACE(c.dump());
    Fp2 a = fp2(c["a"]), b = fp2(c["b"]);
    EXPECT_EQ(a + b, fp2(c["add"]));
    EXPECT_EQ(a - b, fp2(c["sub"]));
    EXPECT_EQ(a * b, fp2(c["mul"]));
    EXPECT_EQ(a.sqr(), fp2(c["sqr"]));
    EXPECT_EQ(-a, fp2(c["neg"]));
    EXPECT_EQ(a.conj(), fp2(c["conj"]));
    EXPECT_EQ(a.conj(), fp2(c["frob1"]));
    if (!c["inv"].is_null()) {
      EXPECT_EQ(a.inverse(), fp2(c["inv"]));
    }
    auto root = sqrt(a);
    if (c["sqrt"].is_null()) {
      EXPECT_FALSE(root.has_value());
    } else {
      ASSERT_TRUE(root.has_value());
      Fp2 expect = fp2(c["sqrt"]);
      EXPECT_TRUE(*root == expect || *root == -expect);
    }
  }
}

TEST(Noble, Fp6) {
  for (const auto& c : noble()["fp6"]) {
    Fp6 a = fp6(c["a"]), b = fp6(c["b"]);
    EXPECT_EQ(a + b, fp6(c["add"]));
    EXPECT_EQ(a - b, fp6(c["sub"]));
    EXPECT_EQ(a * b, fp6(c["mul"]));
    EXPECT_EQ(a.sqr(), fp6(c["sqr"]));
    EXPECT_EQ(a.inverse(), fp6(c["inv"]));
    EXPECT_EQ(a.frobenius(1), fp6(c["frob1"]));
    EXPECT_EQ(a.frobenius(2), fp6(c["frob2"]));
    EXPECT_EQ(a.frobenius(3), fp6(c["frob3"]));
  }
}

TEST(Noble, Fp12) {
  for (const auto& c : noble()["fp12"]) {
    Fp12 a = fp12(c["a"]), b = fp12(c["b"]);
    EXPECT_EQ(a + b, fp12(c["add"]));
    EXPECT_EQ(a - b, fp12(c["sub"]));
    EXPECT_EQ(a * b, fp12(c["mul"]));
    EXPECT_EQ(a.sqr(), fp12(c["sqr"]));
    EXPECT_EQ(a.inverse(), fp12(c["inv"]));
    EXPECT_EQ(a.conj(), fp12(c["conj"]));
    EXPECT_EQ(a.frobenius(1), fp12(c["frob1"]));
    EXPECT_EQ(a.frobenius(2), fp12(c["frob2"]));
    EXPECT_EQ(a.frobenius(3), fp12(c["frob3"]));
    EXPECT_EQ(a.frobenius(6), fp12(c["frob6"]));
  }
  for (const auto& c : noble()["fp12_final_exp"])
    EXPECT_EQ(final_exponentiation(fp12(c["a"])), fp12(c["fe"]));
}

TEST(Noble, RootsOfUnity) {
  const auto& r = noble()["fr_roots"];
  for (int k = 1; k <= 32; k++) {
    EXPECT_EQ(to_hex(root_of_unity(k, RootConvention::kGenerator7)), r["gen7"][k - 1]) << k;
    EXPECT_EQ(to_hex(root_of_unity(k, RootConvention::kSnarkjs5)), r["gen5"][k - 1]) << k;
  }
  EXPECT_TRUE(root_of_unity(0, RootConvention::kSnarkjs5).is_one());
  EXPECT_THROW(root_of_unity(33, RootConvention::kGenerator7), std::out_of_range);
}

template <class F, class FromJson, class Encode>
void check_group(const char* key, FromJson pt, Encode encode) {
  const auto& cases = noble()[key];
  ASSERT_GE(cases.size(), 10u);
  for (const auto& c : cases) {
    SCOPED_TRACE(c.dump().substr(0, 200));
    Fr k = fe<Fr>(c["k"]);
    Affine<F> P = pt(c["P"]), Q = pt(c["Q"]);
    EXPECT_TRUE(is_on_curve(P));
    EXPECT_TRUE(is_in_subgroup(P));
    Jacobian<F> g = Jacobian<F>::from_affine(Curve<F>::generator());
    EXPECT_EQ(scalar_mul(g, k).to_affine(), P);
    Jacobian<F> jp = Jacobian<F>::from_affine(P), jq = Jacobian<F>::from_affine(Q);
    EXPECT_EQ((jp + jq).to_affine(), pt(c["add"]));
    EXPECT_EQ(jp.add_affine(Q).to_affine(), pt(c["add"]));
    EXPECT_EQ((jp - jq).to_affine(), pt(c["sub"]));
    EXPECT_EQ(jp.dbl().to_affine(), pt(c["dbl"]));
    EXPECT_EQ((-P), pt(c["neg"]));
    // XYZZ agrees with Jacobian
    XYZZ<F> xp = XYZZ<F>::from_affine(P);
    EXPECT_EQ(xp.add_affine(Q).to_affine(), pt(c["add"]));
    EXPECT_EQ((xp + XYZZ<F>::from_affine(Q)).to_affine(), pt(c["add"]));
    EXPECT_EQ(xp.dbl().to_affine(), pt(c["dbl"]));
    EXPECT_EQ(XYZZ<F>::dbl_affine(P).to_affine(), pt(c["dbl"]));
    EXPECT_EQ(xp.add_affine(Q).to_jacobian().to_affine(), pt(c["add"]));
    // encodings both ways
    encode(P, c);
  }
}

TEST(Noble, G1) {
  check_group<Fp>("g1", g1, [](const G1Affine& P, const json& c) {
    uint8_t b[96];
    g1_to_zcash(P, true, b);
    EXPECT_EQ(hex(b, 48), c["Pc"]);
    g1_to_zcash(P, false, b);
    EXPECT_EQ(hex(b, 96), c["Pu"]);
    auto pc = unhex(c["Pc"]), pu = unhex(c["Pu"]);
    EXPECT_EQ(g1_from_zcash(pc.data(), pc.size()), P);
    EXPECT_EQ(g1_from_zcash(pu.data(), pu.size()), P);
  });
}

TEST(Noble, G2) {
  check_group<Fp2>("g2", g2, [](const G2Affine& P, const json& c) {
    uint8_t b[192];
    g2_to_zcash(P, true, b);
    EXPECT_EQ(hex(b, 96), c["Pc"]);
    g2_to_zcash(P, false, b);
    EXPECT_EQ(hex(b, 192), c["Pu"]);
    auto pc = unhex(c["Pc"]), pu = unhex(c["Pu"]);
    EXPECT_EQ(g2_from_zcash(pc.data(), pc.size()), P);
    EXPECT_EQ(g2_from_zcash(pu.data(), pu.size()), P);
  });
}

TEST(Noble, Generators) {
  const auto& j1 = noble()["g1_gen"];
  const auto& j2 = noble()["g2_gen"];
  EXPECT_EQ(Curve<Fp>::generator(), g1(j1));
  EXPECT_EQ(Curve<Fp2>::generator(), g2(j2));
  uint8_t b[96];
  g1_to_zcash(Curve<Fp>::generator(), true, b);
  EXPECT_EQ(hex(b, 48), j1["c"]);
  g2_to_zcash(Curve<Fp2>::generator(), true, b);
  EXPECT_EQ(hex(b, 96), j2["c"]);
}

TEST(Noble, BadEncodingsRejected) {
  int n = 0;
  for (const auto& c : noble()["bad_encodings"]) {
    SCOPED_TRACE(c.dump());
    auto b = unhex(c["hex"]);
    if (c["group"] == "g1")
      EXPECT_THROW(g1_from_zcash(b.data(), b.size()), Error);
    else
      EXPECT_THROW(g2_from_zcash(b.data(), b.size()), Error);
    // off-subgroup points decode when the subgroup check is skipped
    if (c.value("on_curve", false)) {
      if (c["group"] == "g1")
        EXPECT_NO_THROW(g1_from_zcash(b.data(), b.size(), SubgroupCheck::kNo));
      else
        EXPECT_NO_THROW(g2_from_zcash(b.data(), b.size(), SubgroupCheck::kNo));
    }
    n++;
  }
  EXPECT_GT(n, 20);
}

TEST(Noble, Pairing) {
  for (const auto& c : noble()["pairing"]) {
    G1Affine P = g1(c["P"]);
    G2Affine Q = g2(c["Q"]);
    Fp12 e = fp12(c["e"]);
    EXPECT_EQ(pairing(P, Q), e);
    // the oracle's Miller loop differs from ours by subfield factors only
    EXPECT_EQ(final_exponentiation(fp12(c["ml"])), e);
  }
}

}  // namespace
}  // namespace cuzk::test
