// The circuit builder (src/circuits/cs.hpp) and the native SHA-256 (src/hash/sha256.hpp).
#include <gtest/gtest.h>
#include <openssl/sha.h>

#include <random>

#include "circuits/cs.hpp"
#include "hash/sha256.hpp"
#include "random.hpp"

namespace cuzk::circuits {
namespace {

TEST(CircuitSha256, MatchesOpenSslOnRandomLengths) {
  std::mt19937_64 rng(7);
  for (size_t len : {0, 1, 55, 56, 63, 64, 65, 119, 120, 128, 1000, 4096}) {
    std::vector<uint8_t> msg(len);
    for (auto& b : msg) b = (uint8_t)rng();
    uint8_t want[32];
    SHA256(msg.data(), msg.size(), want);
    auto got = Sha256::hash(msg);
    EXPECT_EQ(0, memcmp(want, got.data(), 32)) << "length " << len;
    // The same message in uneven pieces.
    Sha256 h;
    for (size_t i = 0; i < len;) {
      size_t n = std::min<size_t>(len - i, 1 + rng() % 70);
      h.update(msg.data() + i, n);
      i += n;
    }
    auto got2 = h.finish();
    EXPECT_EQ(0, memcmp(want, got2.data(), 32)) << "length " << len << " in pieces";
  }
}

// x·y = z with x, y private, z public; and a linear row with duplicated terms.
template <class CS>
void small_circuit(CS& cs, const Fr& x, const Fr& y) {
  Var vx = cs.alloc(x);
  Var vy = cs.alloc([&] { return y; });
  Var vz = cs.alloc_input([&] { return x * y; });
  cs.enforce([&](Lc& a, Lc& b, Lc& c) {
    a.add(vx);
    b.add(vy);
    c.add(vz);
  });
  // (x + x − x + 0·y)·1 = x: duplicates merge, the zero term drops.
  cs.enforce([&](Lc& a, Lc& b, Lc& c) {
    a.add(vx).add(vx).sub(vx).add(vy, Fr::zero());
    b.add(kOne);
    c.add(vx);
  });
}

TEST(CircuitBuilder, ModesAgreeAndRowsMerge) {
  std::mt19937_64 rng(1);
  Fr x = test::random_fe<Fr>(rng), y = test::random_fe<Fr>(rng);
  CountCs count;
  small_circuit(count, x, y);
  RecordCs rec;
  small_circuit(rec, x, y);
  WitnessCs wit;
  small_circuit(wit, x, y);
  EXPECT_EQ(count.num_inputs(), 2u);
  EXPECT_EQ(count.num_aux(), 3u - 1u);
  EXPECT_EQ(count.num_constraints(), 2u);
  Recording r = rec.take_recording();
  EXPECT_EQ(r.n_inputs, 2u);
  EXPECT_EQ(r.n_aux, 2u);
  ASSERT_EQ(r.n_constraints(), 2u);
  EXPECT_EQ(r.n_rows(), 4u);
  // Row 1's A is the single term 1·x.
  EXPECT_EQ(r.a.row_offsets[2] - r.a.row_offsets[1], 1u);
  EXPECT_EQ(r.describe_row(1), "A: 1*aux0; B: 1*in0; C: 1*aux0");
  EXPECT_EQ(r.describe_row(2), "A: 1*in0; B:; C:");
  Witness w = wit.take_witness();
  EXPECT_FALSE(r.first_unsatisfied(w).has_value());
  w.aux[1] += Fr::one();
  EXPECT_EQ(r.first_unsatisfied(w), std::optional<size_t>(0));
  w.aux.pop_back();
  EXPECT_THROW(r.first_unsatisfied(w), Error);
}

TEST(CircuitBuilder, ConstraintSystemHasInputRowsAndDensities) {
  std::mt19937_64 rng(2);
  RecordCs rec;
  small_circuit(rec, Fr::zero(), Fr::zero());
  ConstraintSystem cs = rec.take_recording().to_constraint_system();
  EXPECT_EQ(cs.n_inputs, 2u);
  EXPECT_EQ(cs.n_aux, 2u);
  EXPECT_EQ(cs.log_n, 2);
  ASSERT_EQ(cs.a.rows(), 4u);
  ASSERT_EQ(cs.b.rows(), 4u);
  ASSERT_EQ(cs.c.rows(), 4u);
  // Columns: inputs first (ONE = 0, z = 1), then aux (x = 2, y = 3).
  EXPECT_EQ(cs.a.cols[0], 2u);
  EXPECT_EQ(cs.b.cols[0], 3u);
  EXPECT_EQ(cs.c.cols[0], 1u);
  EXPECT_EQ(cs.a.cols[cs.a.row_offsets[2]], 0u);
  EXPECT_EQ(cs.a.cols[cs.a.row_offsets[3]], 1u);
  EXPECT_TRUE(cs.a_aux.test(0));
  EXPECT_FALSE(cs.a_aux.test(1));
  EXPECT_TRUE(cs.b_aux.test(1));
  EXPECT_TRUE(cs.b_inp.test(0));
  EXPECT_FALSE(cs.b_inp.test(1));
}

TEST(CircuitBuilder, CanonicalDigestOfKnownBytes) {
  // The canonical form of the small circuit written out by hand, hashed with OpenSSL.
  RecordCs rec;
  small_circuit(rec, Fr::zero(), Fr::zero());
  Recording r = rec.take_recording();
  std::vector<uint8_t> bytes;
  auto u32 = [&](uint32_t v) {
    for (int i = 0; i < 4; i++) bytes.push_back((uint8_t)(v >> (8 * i)));
  };
  auto term = [&](uint32_t col) {
    u32(col);
    bytes.push_back(1);
    bytes.insert(bytes.end(), 31, 0);
  };
  u32(2), u32(2), u32(4);
  u32(1), term(2), u32(1), term(3), u32(1), term(1);  // x·y = z
  u32(1), term(2), u32(1), term(0), u32(1), term(2);  // x·1 = x
  u32(1), term(0), u32(0), u32(0);                    // input rows
  u32(1), term(1), u32(0), u32(0);
  uint8_t want[32];
  SHA256(bytes.data(), bytes.size(), want);
  auto got = r.canonical_digest();
  EXPECT_EQ(0, memcmp(want, got.data(), 32));
}

TEST(CircuitBuilder, TestCsFindsTheBrokenRow) {
  TestCs t;
  small_circuit(t, Fr::from_u64(3), Fr::from_u64(5));
  EXPECT_FALSE(t.first_unsatisfied().has_value());
  EXPECT_EQ(t.value(Var::input(1)), Fr::from_u64(15));
  t.set_value(Var::aux(0), Fr::from_u64(4));
  EXPECT_EQ(t.first_unsatisfied(), std::optional<size_t>(0));
}

}  // namespace
}  // namespace cuzk::circuits
