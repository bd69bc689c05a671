// The SHA-256 gadget chain: Boolean folding (src/circuits/boolean.hpp), MultiEq (multieq.hpp), UInt32
// (uint32.hpp) and SHA-256 (sha256.hpp), against upstream's counts (bellpepper/bellperson
// src/gadgets/{uint32,sha256}.rs tests), OpenSSL's SHA-256 and the native one in src/hash.
#include <gtest/gtest.h>
#include <openssl/sha.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <random>
#include <vector>

#include "circuits/boolean.hpp"
#include "circuits/cs.hpp"
#include "circuits/multieq.hpp"
#include "circuits/sha256.hpp"
#include "circuits/uint32.hpp"
#include "hash/sha256.hpp"

namespace cuzk::circuits {
namespace {

// ---- helpers --------------------------------------------------------------------------------------

// The bits of `bytes`, each byte MSB first: allocated bits, or constants.
template <class CS>
std::vector<Boolean> message_bits(CS& cs, const std::vector<uint8_t>& bytes, bool allocate) {
  std::vector<Boolean> bits;
  for (uint8_t byte : bytes)
    for (int i = 7; i >= 0; i--) {
      bool v = (byte >> i) & 1;
      bits.push_back(allocate ? Boolean::is(AllocatedBit::alloc(cs, v)) : Boolean::constant(v));
    }
  return bits;
}

// Bytes from bits MSB first (value modes).
std::vector<uint8_t> bits_to_bytes(const std::vector<Boolean>& bits) {
  std::vector<uint8_t> out(bits.size() / 8, 0);
  for (size_t i = 0; i < bits.size(); i++)
    if (bits[i].value) out[i / 8] |= uint8_t(0x80 >> (i % 8));
  return out;
}

std::vector<uint8_t> openssl_sha256(const std::vector<uint8_t>& msg) {
  std::vector<uint8_t> d(32);
  SHA256(msg.data(), msg.size(), d.data());
  return d;
}

std::vector<uint8_t> random_bytes(std::mt19937_64& rng, size_t n) {
  std::vector<uint8_t> v(n);
  for (auto& b : v) b = uint8_t(rng());
  return v;
}

// Checks that `word` has the value `expected` bit by bit (Is / Not / Constant as upstream's tests do).
void expect_word(const UInt32& word, uint32_t expected) {
  ASSERT_TRUE(word.get_value().has_value());
  EXPECT_EQ(*word.get_value(), expected);
  for (int i = 0; i < 32; i++) EXPECT_EQ(word.bits[i].value, bool((expected >> i) & 1)) << "bit " << i;
}

// ---- Boolean folding ------------------------------------------------------------------------------

// An operand kind: a constant, or an allocated bit (Is) or its negation (Not), with the Boolean's value.
enum class Kind { kC0, kC1, kIs0, kIs1, kNot0, kNot1 };
constexpr Kind kKinds[] = {Kind::kC0, Kind::kC1, Kind::kIs0, Kind::kIs1, Kind::kNot0, Kind::kNot1};

bool kind_value(Kind k) { return k == Kind::kC1 || k == Kind::kIs1 || k == Kind::kNot1; }
bool kind_const(Kind k) { return k == Kind::kC0 || k == Kind::kC1; }

Boolean make(TestCs& cs, Kind k) {
  switch (k) {
    case Kind::kC0:
      return Boolean::constant(false);
    case Kind::kC1:
      return Boolean::constant(true);
    case Kind::kIs0:
    case Kind::kIs1:
      return Boolean::is(AllocatedBit::alloc(cs, kind_value(k)));
    case Kind::kNot0:
    case Kind::kNot1:
      break;
  }
  return Boolean::is(AllocatedBit::alloc(cs, !kind_value(k))).negate();
}

// Constraints that upstream's folding implies (boolean.rs): and/xor cost one unless an operand is
// constant; ch and maj follow their case lists (negation keeps an operand's constness).
size_t cost_and(Kind a, Kind b) { return kind_const(a) || kind_const(b) ? 0 : 1; }
size_t cost_ch(Kind a, Kind b, Kind c) {
  if (kind_const(a) && kind_const(b) && kind_const(c)) return 0;
  if (a == Kind::kC0) return 0;
  if (b == Kind::kC0) return cost_and(a, c);
  if (c == Kind::kC0) return cost_and(a, b);
  if (c == Kind::kC1) return cost_and(a, b);
  if (b == Kind::kC1) return cost_and(a, c);
  return 1;
}
size_t cost_maj(Kind a, Kind b, Kind c) {
  if (kind_const(a) && kind_const(b) && kind_const(c)) return 0;
  if (a == Kind::kC0) return cost_and(b, c);
  if (b == Kind::kC0) return cost_and(a, c);
  if (c == Kind::kC0) return cost_and(a, b);
  if (c == Kind::kC1) return cost_and(a, b);
  if (b == Kind::kC1) return cost_and(a, c);
  if (a == Kind::kC1) return cost_and(b, c);
  return 2;  // alloc maj, and(b, c), the maj row
}

// Runs `op` on fresh operands of the given kinds and checks value, cost, aux count and satisfiability.
template <size_t N, class Op>
void check_op(const std::array<Kind, N>& kinds, bool want, size_t want_cost, Op&& op) {
  TestCs cs;
  std::array<Boolean, N> x;
  for (size_t i = 0; i < N; i++) x[i] = make(cs, kinds[i]);
  const size_t c0 = cs.num_constraints(), a0 = cs.num_aux();
  Boolean r = op(cs, x);
  EXPECT_EQ(r.value, want);
  EXPECT_EQ(cs.num_constraints() - c0, want_cost);
  EXPECT_EQ(cs.num_aux() - a0, want_cost);  // every folded gadget allocates one variable per row
  if (std::all_of(kinds.begin(), kinds.end(), kind_const)) {
    EXPECT_TRUE(r.is_constant());
  }
  EXPECT_FALSE(cs.first_unsatisfied().has_value());
  // A non-constant result is tied to its operands: flipping its bit breaks a row (when one was made).
  if (!r.is_constant() && want_cost > 0) {
    cs.set_value(r.var, r.bit().value ? Fr::zero() : Fr::one());
    EXPECT_TRUE(cs.first_unsatisfied().has_value());
  }
}

TEST(BooleanFolding, XorAndAllOperandKinds) {
  for (Kind a : kKinds)
    for (Kind b : kKinds) {
      SCOPED_TRACE(testing::Message() << "kinds " << int(a) << "," << int(b));
      const bool va = kind_value(a), vb = kind_value(b);
      const size_t cost = kind_const(a) || kind_const(b) ? 0 : 1;
      check_op<2>({a, b}, va != vb, cost, [](TestCs& cs, auto& x) { return boolean_xor(cs, x[0], x[1]); });
      check_op<2>({a, b}, va && vb, cost, [](TestCs& cs, auto& x) { return boolean_and(cs, x[0], x[1]); });
    }
}

TEST(BooleanFolding, ChMajAllOperandKinds) {
  for (Kind a : kKinds)
    for (Kind b : kKinds)
      for (Kind c : kKinds) {
        SCOPED_TRACE(testing::Message() << "kinds " << int(a) << "," << int(b) << "," << int(c));
        const bool va = kind_value(a), vb = kind_value(b), vc = kind_value(c);
        check_op<3>({a, b, c}, (va && vb) != (!va && vc), cost_ch(a, b, c),
                    [](TestCs& cs, auto& x) { return sha256_ch(cs, x[0], x[1], x[2]); });
        check_op<3>({a, b, c}, int(va) + int(vb) + int(vc) >= 2, cost_maj(a, b, c),
                    [](TestCs& cs, auto& x) { return sha256_maj(cs, x[0], x[1], x[2]); });
      }
}

// The rows of the general gadgets, term by term (boolean.rs): aux0, aux1, aux2 are the operands.
TEST(BooleanFolding, GeneralRowsAreUpstreams) {
  auto rows = [](auto&& build) {
    RecordCs cs;
    build(cs);
    Recording r = cs.take_recording();
    std::vector<std::string> out;
    for (size_t i = 0; i < r.n_constraints(); i++) out.push_back(r.describe_row(i));
    return out;
  };
  auto bit = [](RecordCs& cs) { return Boolean::is(AllocatedBit::alloc(cs, false)); };
  // Is ⊕ Not = ¬(Is ⊕ underlying): (2a)·b = a + b − r.
  auto x = rows([&](RecordCs& cs) {
    Boolean a = bit(cs), b = bit(cs).negate();
    Boolean r = boolean_xor(cs, a, b);
    EXPECT_EQ(r.kind, Boolean::Kind::kNot);
  });
  ASSERT_EQ(x.size(), 3u);
  EXPECT_EQ(x[0], "A: 1*in0 -1*aux0; B: 1*aux0; C:");
  EXPECT_EQ(x[2], "A: 2*aux0; B: 1*aux1; C: 1*aux0 1*aux1 -1*aux2");
  // Not ∧ Is = and_not(is, not): is·(ONE − not) = r.
  x = rows([&](RecordCs& cs) {
    Boolean a = bit(cs).negate(), b = bit(cs);
    boolean_and(cs, a, b);
  });
  EXPECT_EQ(x[2], "A: 1*aux1; B: 1*in0 -1*aux0; C: 1*aux2");
  // Not ∧ Not = nor.
  x = rows([&](RecordCs& cs) {
    Boolean a = bit(cs).negate(), b = bit(cs).negate();
    boolean_and(cs, a, b);
  });
  EXPECT_EQ(x[2], "A: 1*in0 -1*aux0; B: 1*in0 -1*aux1; C: 1*aux2");
  // ch general with a Not operand: (b − c)·a = ch − c, Not(c) = ONE − c.
  x = rows([&](RecordCs& cs) {
    Boolean a = bit(cs), b = bit(cs), c = bit(cs).negate();
    sha256_ch(cs, a, b, c);
  });
  ASSERT_EQ(x.size(), 4u);
  EXPECT_EQ(x[3], "A: -1*in0 1*aux1 1*aux2; B: 1*aux0; C: -1*in0 1*aux2 1*aux3");
  // ch with a = 1 is the general gadget: B = ONE.
  x = rows([&](RecordCs& cs) {
    Boolean b = bit(cs), c = bit(cs);
    sha256_ch(cs, Boolean::constant(true), b, c);
  });
  ASSERT_EQ(x.size(), 3u);
  EXPECT_EQ(x[2], "A: 1*aux0 -1*aux1; B: 1*in0; C: -1*aux1 1*aux2");
  // maj general: alloc maj (aux3), then bc = b ∧ c (aux4, its row), then (2bc − b − c)·a = bc − maj.
  x = rows([&](RecordCs& cs) {
    Boolean a = bit(cs), b = bit(cs), c = bit(cs);
    Boolean m = sha256_maj(cs, a, b, c);
    EXPECT_EQ(m.var, Var::aux(3));
  });
  ASSERT_EQ(x.size(), 5u);
  EXPECT_EQ(x[3], "A: 1*aux1; B: 1*aux2; C: 1*aux4");
  EXPECT_EQ(x[4], "A: -1*aux1 -1*aux2 2*aux4; B: 1*aux0; C: -1*aux3 1*aux4");
}

// ---- MultiEq --------------------------------------------------------------------------------------

// k additions of two allocated words: 33 bits each, so 7 share a row (7·33 = 231; the 8th would reach
// 264 ≥ 254), and the flush row comes right after the result bits of the addition that triggers it.
TEST(MultiEqPacking, SevenAdditionsOfTwoWordsPerRow) {
  for (int k : {1, 6, 7, 8, 14, 15, 20}) {
    SCOPED_TRACE(k);
    RecordCs cs;
    std::vector<size_t> flush_rows;
    {
      MultiEq<RecordCs> m(cs);
      UInt32 x = UInt32::alloc(cs, 0), y = UInt32::alloc(cs, 0);
      for (int i = 0; i < k; i++) {
        size_t before = m.rows_emitted();
        UInt32::addmany(m, {x, y});
        if (m.rows_emitted() != before) flush_rows.push_back(cs.num_constraints() - 1);
      }
      EXPECT_EQ(m.rows_emitted(), size_t((k - 1) / 7));
    }  // the destructor flushes the rest, as upstream's Drop
    flush_rows.push_back(cs.num_constraints() - 1);
    EXPECT_EQ(flush_rows.size(), size_t((k + 6) / 7));
    Recording r = cs.take_recording();
    EXPECT_EQ(r.n_constraints(), 64u + 33u * k + flush_rows.size());
    // Flush j comes with addition 7(j + 1) (0-based), right after its 33 result bits.
    for (size_t j = 0; j + 1 < flush_rows.size(); j++)
      EXPECT_EQ(flush_rows[j], 64u + 33u * (7 * (j + 1) + 1) + j) << "flush " << j;
    for (size_t row : flush_rows) EXPECT_NE(r.describe_row(row).find("; B: 1*in0; C:"), std::string::npos);
  }
}

// A row holds Σ 2^shift·lhs_k = Σ 2^shift·rhs_k: the second equality is shifted by the first's bits.
TEST(MultiEqPacking, ShiftsAndFinish) {
  TestCs cs;
  Var a = cs.alloc(Fr::from_u64(5)), b = cs.alloc(Fr::from_u64(5));
  Var c = cs.alloc(Fr::from_u64(9)), d = cs.alloc(Fr::from_u64(9));
  MultiEq<TestCs> m(cs);
  m.enforce_equal(4, Lc(a), Lc(b));
  m.enforce_equal(4, Lc(c), Lc(d));
  EXPECT_EQ(m.bits_used(), 8u);
  EXPECT_EQ(cs.num_constraints(), 0u);
  m.finish();
  m.finish();  // idempotent
  EXPECT_EQ(cs.num_constraints(), 1u);
  EXPECT_FALSE(cs.first_unsatisfied().has_value());
  Recording r = cs.take_recording();
  EXPECT_EQ(r.describe_row(0), "A: 1*aux0 16*aux2; B: 1*in0; C: 1*aux1 16*aux3");
  CountCs other;
  MultiEq<CountCs> m2(other);
  EXPECT_THROW(m2.enforce_equal(254, Lc(a), Lc(b)), Error);
}

// A 253-bit equality fits alone; the next one forces a flush first.
TEST(MultiEqPacking, CapacityBoundary) {
  CountCs cs;
  MultiEq<CountCs> m(cs);
  Lc none;
  m.enforce_equal(253, none, none);
  EXPECT_EQ(m.rows_emitted(), 0u);
  m.enforce_equal(1, none, none);
  EXPECT_EQ(m.rows_emitted(), 1u);
  EXPECT_EQ(m.bits_used(), 1u);
  m.finish();
  EXPECT_EQ(cs.num_constraints(), 2u);
}

// ---- UInt32 ---------------------------------------------------------------------------------------

TEST(UInt32Bits, FromBitsBeAndLeRoundTrip) {
  std::mt19937_64 rng(11);
  CountCs blank;
  TestCs cs;
  for (int t = 0; t < 200; t++) {
    uint32_t v = uint32_t(rng());
    std::vector<Boolean> be, le;
    for (int i = 31; i >= 0; i--) be.push_back(Boolean::constant((v >> i) & 1));
    for (int i = 0; i < 32; i++) le.push_back(Boolean::constant((v >> i) & 1));
    UInt32 a = UInt32::from_bits_be(blank, be), b = UInt32::from_bits(blank, le);
    expect_word(a, v);
    expect_word(b, v);
    auto back = a.into_bits_be();
    for (int i = 0; i < 32; i++) EXPECT_EQ(back[i].value, be[i].value);
    // Allocated bits: known in the value modes, unknown in the blank ones (upstream's None).
    UInt32 w = UInt32::alloc(cs, v);
    auto wbe = w.into_bits_be();
    expect_word(UInt32::from_bits_be(cs, wbe), v);
    EXPECT_FALSE(UInt32::from_bits_be(blank, wbe).get_value().has_value());
    EXPECT_EQ(UInt32::from_bits(cs, w.into_bits()).bits[5].var, w.bits[5].var);
  }
  std::vector<Boolean> short_bits(31);
  EXPECT_THROW(UInt32::from_bits_be(blank, short_bits), Error);
}

TEST(UInt32Bits, RotrShr) {
  std::mt19937_64 rng(12);
  uint32_t num = uint32_t(rng());
  UInt32 a = UInt32::constant(num);
  for (unsigned i = 0; i < 64; i++) {
    expect_word(a.rotr(i), std::rotr(num, int(i % 32)));
    expect_word(a.shr(i), num >> (i % 32));  // upstream reduces the amount mod 32 (as wrapping_shr)
  }
  TestCs cs;
  UInt32 w = UInt32::alloc(cs, num);
  const size_t n = cs.num_constraints();
  UInt32 r = w.rotr(7), s = w.shr(3);
  EXPECT_EQ(cs.num_constraints(), n);
  EXPECT_EQ(r.bits[0].var, w.bits[7].var);
  EXPECT_EQ(r.bits[31].var, w.bits[6].var);
  EXPECT_EQ(s.bits[28].var, w.bits[31].var);
  EXPECT_TRUE(s.bits[29].is_const(false));
  expect_word(r, std::rotr(num, 7));
  expect_word(s, num >> 3);
}

// uint32.rs test_uint32_xor: alloc ⊕ constant (free) ⊕ alloc (32 rows).
TEST(UInt32Ops, Xor) {
  std::mt19937_64 rng(13);
  for (int t = 0; t < 100; t++) {
    TestCs cs;
    uint32_t a = uint32_t(rng()), b = uint32_t(rng()), c = uint32_t(rng());
    UInt32 av = UInt32::alloc(cs, a), bv = UInt32::constant(b), cv = UInt32::alloc(cs, c);
    UInt32 r = av.xor_(cs, bv);
    EXPECT_EQ(cs.num_constraints(), 64u);
    r = r.xor_(cs, cv);
    EXPECT_EQ(cs.num_constraints(), 96u);
    EXPECT_FALSE(cs.first_unsatisfied().has_value());
    expect_word(r, a ^ b ^ c);
  }
}

// uint32.rs test_uint32_sha256_maj / _ch: allocated a, constant b, allocated c.
TEST(UInt32Ops, ShaChMaj) {
  std::mt19937_64 rng(14);
  for (int t = 0; t < 100; t++) {
    uint32_t a = uint32_t(rng()), b = uint32_t(rng()), c = uint32_t(rng());
    for (int which = 0; which < 2; which++) {
      TestCs cs;
      UInt32 av = UInt32::alloc(cs, a), bv = UInt32::constant(b), cv = UInt32::alloc(cs, c);
      UInt32 r = which ? UInt32::sha256_maj(cs, av, bv, cv) : UInt32::sha256_ch(cs, av, bv, cv);
      // With b constant every bit folds to one and/and_not/nor: one row per bit.
      EXPECT_EQ(cs.num_constraints(), 64u + 32u);
      EXPECT_FALSE(cs.first_unsatisfied().has_value());
      expect_word(r, which ? (a & b) ^ (a & c) ^ (b & c) : (a & b) ^ (~a & c));
    }
  }
}

// uint32.rs test_uint32_addmany_constants: constants fold to a constant, no constraint.
TEST(UInt32Addmany, ConstantsFold) {
  std::mt19937_64 rng(15);
  for (int t = 0; t < 100; t++) {
    CountCs cs;
    uint32_t a = uint32_t(rng()), b = uint32_t(rng()), c = uint32_t(rng());
    UInt32 r;
    {
      MultiEq<CountCs> m(cs);
      r = UInt32::addmany(m, {UInt32::constant(a), UInt32::constant(b), UInt32::constant(c)});
    }
    EXPECT_EQ(cs.num_constraints(), 0u);
    EXPECT_EQ(cs.num_aux(), 0u);
    for (const Boolean& bit : r.bits) EXPECT_TRUE(bit.is_constant());
    expect_word(r, a + b + c);
  }
}

// uint32.rs test_uint32_addmany: (a ⊕ b) + c + d with b, c constant; flipping result bit 0 fails.
TEST(UInt32Addmany, UpstreamMixedTest) {
  std::mt19937_64 rng(16);
  for (int t = 0; t < 100; t++) {
    TestCs cs;
    uint32_t a = uint32_t(rng()), b = uint32_t(rng()), c = uint32_t(rng()), d = uint32_t(rng());
    UInt32 av = UInt32::alloc(cs, a), bv = UInt32::constant(b), cv = UInt32::constant(c);
    UInt32 dv = UInt32::alloc(cs, d);
    UInt32 x = av.xor_(cs, bv);
    UInt32 r;
    {
      MultiEq<TestCs> m(cs);
      r = UInt32::addmany(m, {x, cv, dv});
    }
    // 64 allocated bits, 34 result bits, one MultiEq row.
    EXPECT_EQ(cs.num_constraints(), 64u + 34u + 1u);
    EXPECT_EQ(cs.num_aux(), 64u + 34u);
    EXPECT_FALSE(cs.first_unsatisfied().has_value());
    expect_word(r, (a ^ b) + c + d);
    Var bit0 = r.bits[0].var;
    cs.set_value(bit0, cs.value(bit0).is_zero() ? Fr::one() : Fr::zero());
    EXPECT_EQ(cs.first_unsatisfied(), std::optional<size_t>(64 + 34));
  }
}

// 2..10 operands, each allocated or constant, against native sums; the number of result bits is
// bitlen(n·(2^32 − 1)): 33 for 2, 34 for 3-4, 35 for 5-8, 36 for 9-10.
TEST(UInt32Addmany, OperandCountsAndMixedConstants) {
  std::mt19937_64 rng(17);
  const size_t bits_for[11] = {0, 0, 33, 34, 34, 35, 35, 35, 35, 36, 36};
  for (size_t n = 2; n <= 10; n++)
    for (int t = 0; t < 20; t++) {
      SCOPED_TRACE(testing::Message() << n << " operands, trial " << t);
      TestCs cs;
      std::vector<UInt32> ops;
      uint32_t want = 0;
      bool any_alloc = false;
      for (size_t i = 0; i < n; i++) {
        uint32_t v = t < 2 ? (t == 0 ? 0u : 0xffffffffu) : uint32_t(rng());
        bool alloc = t >= 18 ? false : (t < 2 || i == 0 || (rng() & 1));
        any_alloc |= alloc;
        ops.push_back(alloc ? UInt32::alloc(cs, v) : UInt32::constant(v));
        want += v;
      }
      const size_t c0 = cs.num_constraints();
      UInt32 r;
      {
        MultiEq<TestCs> m(cs);
        r = UInt32::addmany(m, ops);
      }
      expect_word(r, want);
      EXPECT_EQ(cs.num_constraints() - c0, any_alloc ? bits_for[n] + 1 : 0u);
      EXPECT_FALSE(cs.first_unsatisfied().has_value());
    }
  CountCs cs;
  MultiEq<CountCs> m(cs);
  std::vector<UInt32> one{UInt32::constant(1)}, eleven(11, UInt32::constant(1));
  EXPECT_THROW(UInt32::addmany(m, one), Error);
  EXPECT_THROW(UInt32::addmany(m, eleven), Error);
}

// Upstream folds only when the sum is also known: in the blank modes, operands whose bits all folded
// to constants but whose value came from an allocated word are not folded (value None upstream).
TEST(UInt32Addmany, FoldingNeedsAKnownValueAsUpstream) {
  auto run = [](auto& cs) {
    UInt32 e = UInt32::alloc(cs, 0x12345678);
    // ch(e, f, f) has constant bits only (b = c per bit), its value is unknown when e's is.
    UInt32 f = UInt32::constant(0xdeadbeef);
    UInt32 ch = UInt32::sha256_ch(cs, e, f, f);
    for (const Boolean& b : ch.bits) EXPECT_TRUE(b.is_constant());
    MultiEq<std::remove_reference_t<decltype(cs)>> m(cs);
    UInt32::addmany(m, {ch, f});
    m.finish();
    return cs.num_constraints();
  };
  CountCs blank;
  WitnessCs wit;
  EXPECT_EQ(run(blank), 32u + 33u + 1u);
  EXPECT_EQ(run(wit), 32u);
}

// ---- SHA-256 counts (bellperson/bellpepper src/gadgets/sha256.rs tests) ------------------------------

// test_blank_hash: the padded empty message as a constant block: no constraints, the empty digest.
TEST(Sha256Counts, ConstantBlockHasNoConstraints) {
  TestCs cs;
  std::vector<Boolean> input(512, Boolean::constant(false));
  input[0] = Boolean::constant(true);
  auto out = sha256_words_to_bits_be(sha256_compression_function(cs, input, sha256_iv()));
  EXPECT_EQ(cs.num_constraints(), 0u);
  EXPECT_EQ(cs.num_aux(), 0u);
  for (const Boolean& b : out) EXPECT_TRUE(b.is_constant());
  const uint8_t want[32] = {0xe3, 0xb0, 0xc4, 0x42, 0x98, 0xfc, 0x1c, 0x14, 0x9a, 0xfb, 0xf4,
                            0xc8, 0x99, 0x6f, 0xb9, 0x24, 0x27, 0xae, 0x41, 0xe4, 0x64, 0x9b,
                            0x93, 0x4c, 0xa4, 0x95, 0x99, 0x1b, 0x78, 0x52, 0xb8, 0x55};
  EXPECT_EQ(bits_to_bytes(out), std::vector<uint8_t>(want, want + 32));
}

// test_full_block: 512 allocated bits from the IV: 25,840 constraints past the 512 allocations.
TEST(Sha256Counts, AllocatedBlockFromIv) {
  std::mt19937_64 rng(21);
  TestCs cs;
  auto input = message_bits(cs, random_bytes(rng, 64), true);
  sha256_compression_function(cs, input, sha256_iv());
  EXPECT_EQ(cs.num_constraints() - 512, 25840u);
  EXPECT_FALSE(cs.first_unsatisfied().has_value());
}

// test_full_hash: sha256 of 512 allocated bits (two compressions): 44,874 past the allocations.
TEST(Sha256Counts, FullHashOf512AllocatedBits) {
  std::mt19937_64 rng(22);
  TestCs cs;
  auto msg = random_bytes(rng, 64);
  auto input = message_bits(cs, msg, true);
  auto out = sha256(cs, input);
  EXPECT_EQ(cs.num_constraints() - 512, 44874u);
  EXPECT_FALSE(cs.first_unsatisfied().has_value());
  EXPECT_EQ(bits_to_bytes(out), openssl_sha256(msg));
}

// Allocated state and allocated message (the chained blocks of a long message): 26,192.
TEST(Sha256Counts, AllocatedStateAndMessage) {
  std::mt19937_64 rng(23);
  TestCs cs;
  std::array<UInt32, 8> state;
  uint32_t native[8];
  for (int i = 0; i < 8; i++) state[i] = UInt32::alloc(cs, native[i] = uint32_t(rng()));
  auto block = random_bytes(rng, 64);
  auto input = message_bits(cs, block, true);
  const size_t before = cs.num_constraints();
  EXPECT_EQ(before, 256u + 512u);
  auto out = sha256_compression_function(cs, input, state);
  EXPECT_EQ(cs.num_constraints() - before, 26192u);
  EXPECT_FALSE(cs.first_unsatisfied().has_value());
  Sha256::compress(native, block.data());
  for (int i = 0; i < 8; i++) expect_word(out[i], native[i]);
}

// Filecoin's tree-D node: two 256-bit leaves whose bit 255 (after the per-byte reversal, message bits
// 248 and 504) is a constant 0: 25,832 + 19,034 = 44,866 (POREP_CIRCUIT.md §3; the model's numbers,
// upstream asserts only the all-allocated 44,874).
TEST(Sha256Counts, TreeDNodeWithTwoConstantBits) {
  std::mt19937_64 rng(24);
  CountCs cs;
  auto msg = random_bytes(rng, 64);
  auto input = message_bits(cs, msg, true);
  input[248] = input[504] = Boolean::constant(false);
  const size_t before = cs.num_constraints();
  std::array<UInt32, 8> cur = sha256_iv();
  cur = sha256_compression_function(cs, std::span<const Boolean>(input), cur);
  EXPECT_EQ(cs.num_constraints() - before, 25832u);
  std::vector<Boolean> pad(512, Boolean::constant(false));
  pad[0] = Boolean::constant(true);
  pad[512 - 64 + 54] = Boolean::constant(true);  // length 512 = 2^9, big-endian 64-bit
  const size_t mid = cs.num_constraints();
  sha256_compression_function(cs, pad, cur);
  EXPECT_EQ(cs.num_constraints() - mid, 19034u);
  // The same through sha256().
  CountCs cs2;
  auto input2 = message_bits(cs2, msg, true);
  input2[248] = input2[504] = Boolean::constant(false);
  sha256(cs2, input2);
  EXPECT_EQ(cs2.num_constraints() - 512, 44866u);
}

// create_label's message (POREP_CIRCUIT.md §3 "create_label"; the model's numbers): replica_id (256
// allocated bits, bit 248 constant), the layer as a constant UInt32, the node's 64 allocated bits, 20
// constant zero bytes, then 37 parents of 256 allocated bits with bit 248 constant: 20 blocks costing
// 25,363, 18 × 26,184 and 25,593.
TEST(Sha256Counts, CreateLabelBlocks) {
  CountCs cs;
  auto alloc_bits = [&](size_t n) {
    std::vector<Boolean> v;
    for (size_t i = 0; i < n; i++) v.push_back(Boolean::is(AllocatedBit::alloc(cs, false)));
    return v;
  };
  std::vector<Boolean> msg = alloc_bits(256);
  msg[248] = Boolean::constant(false);
  for (int i = 31; i >= 0; i--) msg.push_back(Boolean::constant((3u >> i) & 1));
  for (const Boolean& b : alloc_bits(64)) msg.push_back(b);
  msg.insert(msg.end(), 160, Boolean::constant(false));
  for (int p = 0; p < 37; p++) {
    auto parent = alloc_bits(256);
    parent[248] = Boolean::constant(false);
    msg.insert(msg.end(), parent.begin(), parent.end());
  }
  ASSERT_EQ(msg.size(), 39u * 256u);
  // sha256's padding, block by block.
  std::vector<Boolean> padded = msg;
  padded.push_back(Boolean::constant(true));
  while ((padded.size() + 64) % 512 != 0) padded.push_back(Boolean::constant(false));
  for (int i = 63; i >= 0; i--) padded.push_back(Boolean::constant((uint64_t(msg.size()) >> i) & 1));
  ASSERT_EQ(padded.size(), 20u * 512u);
  std::array<UInt32, 8> cur = sha256_iv();
  std::vector<size_t> costs;
  for (size_t off = 0; off < padded.size(); off += 512) {
    const size_t before = cs.num_constraints();
    cur = sha256_compression_function(cs, std::span<const Boolean>(padded).subspan(off, 512), cur);
    costs.push_back(cs.num_constraints() - before);
  }
  std::vector<size_t> want(20, 26184);
  want.front() = 25363;
  want.back() = 25593;
  EXPECT_EQ(costs, want);
  // sha256() itself gives the same total.
  CountCs cs2;
  std::vector<Boolean> msg2;
  for (const Boolean& b : msg)
    msg2.push_back(b.is_constant() ? b : Boolean::is(AllocatedBit::alloc(cs2, false)));
  const size_t before = cs2.num_constraints();
  sha256(cs2, msg2);
  EXPECT_EQ(cs2.num_constraints() - before, 25363u + 18u * 26184u + 25593u);
}

// ---- SHA-256 outputs ------------------------------------------------------------------------------

// sha256.rs test_against_vectors: byte lengths 0..31 and 32..255 in steps of 8, allocated bits,
// against OpenSSL (upstream uses the sha2 crate); constant outputs only for the empty message.
TEST(Sha256Outputs, UpstreamVectorLengths) {
  std::mt19937_64 rng(31);
  std::vector<size_t> lens;
  for (size_t l = 0; l < 32; l++) lens.push_back(l);
  for (size_t l = 32; l < 256; l += 8) lens.push_back(l);
  for (size_t len : lens) {
    SCOPED_TRACE(len);
    auto msg = random_bytes(rng, len);
    TestCs cs;
    auto out = sha256(cs, message_bits(cs, msg, true));
    ASSERT_EQ(out.size(), 256u);
    EXPECT_FALSE(cs.first_unsatisfied().has_value());
    EXPECT_EQ(bits_to_bytes(out), openssl_sha256(msg));
    for (const Boolean& b : out) EXPECT_EQ(b.is_constant(), len == 0);
  }
}

// Random messages of 0..4 blocks and lengths around the padding boundaries, with allocated and with
// constant bits, against OpenSSL and src/hash; constant messages cost nothing.
TEST(Sha256Outputs, RandomMessagesAllocatedAndConstant) {
  std::mt19937_64 rng(32);
  for (size_t len : {0, 1, 3, 31, 32, 55, 56, 63, 64, 65, 100, 119, 120, 127, 128, 183, 192, 200, 255, 256}) {
    SCOPED_TRACE(len);
    auto msg = random_bytes(rng, len);
    auto want = openssl_sha256(msg);
    auto native = Sha256::hash(msg);
    EXPECT_EQ(std::vector<uint8_t>(native.begin(), native.end()), want);
    {
      WitnessCs cs;
      EXPECT_EQ(bits_to_bytes(sha256(cs, message_bits(cs, msg, true))), want);
    }
    {
      TestCs cs;
      auto out = sha256(cs, message_bits(cs, msg, false));
      EXPECT_EQ(cs.num_constraints(), 0u);
      for (const Boolean& b : out) EXPECT_TRUE(b.is_constant());
      EXPECT_EQ(bits_to_bytes(out), want);
    }
  }
  TestCs cs;
  std::vector<Boolean> odd(12, Boolean::constant(false));
  EXPECT_THROW(sha256(cs, odd), Error);
  EXPECT_THROW(sha256_block_no_padding(cs, odd), Error);
}

// sha256_block_no_padding is one compression from the IV, as Sha256::compress.
TEST(Sha256Outputs, BlockNoPaddingMatchesCompress) {
  std::mt19937_64 rng(33);
  for (int t = 0; t < 4; t++) {
    auto block = random_bytes(rng, 64);
    uint32_t state[8];
    std::memcpy(state, Sha256::kIv, sizeof state);
    Sha256::compress(state, block.data());
    std::vector<uint8_t> want;
    for (uint32_t s : state)
      for (int k = 3; k >= 0; k--) want.push_back(uint8_t(s >> (8 * k)));
    TestCs cs;
    auto out = sha256_block_no_padding(cs, message_bits(cs, block, true));
    EXPECT_EQ(bits_to_bytes(out), want);
    EXPECT_EQ(cs.num_constraints() - 512, 25840u);
    EXPECT_FALSE(cs.first_unsatisfied().has_value());
  }
}

// ---- satisfiability -------------------------------------------------------------------------------

// Random and edge messages (all 0, all 1 bits, alternating) satisfy every row; flipping any one
// allocated bit (every aux of SHA is a bit) violates some row.
TEST(Sha256Satisfiability, EdgeWordsAndFlippedBits) {
  std::mt19937_64 rng(41);
  std::vector<std::vector<uint8_t>> msgs = {std::vector<uint8_t>(64, 0x00), std::vector<uint8_t>(64, 0xff),
                                            std::vector<uint8_t>(64, 0x55), random_bytes(rng, 64),
                                            random_bytes(rng, 64)};
  for (size_t k = 0; k < msgs.size(); k++) {
    SCOPED_TRACE(k);
    TestCs cs;
    std::array<UInt32, 8> state;
    for (int i = 0; i < 8; i++)
      state[i] = UInt32::alloc(cs, k == 0 ? 0u : k == 1 ? 0xffffffffu : uint32_t(rng()));
    auto out = sha256_compression_function(cs, message_bits(cs, msgs[k], true), state);
    ASSERT_FALSE(cs.first_unsatisfied().has_value());
    for (int t = 0; t < 6; t++) {
      // an input bit, a state bit, an output bit, and random internal ones
      Var v = t == 0   ? Var::aux(256 + uint32_t(rng() % 512))
              : t == 1 ? state[rng() % 8].bits[rng() % 32].var
              : t == 2 ? out[rng() % 8].bits[rng() % 32].var
                       : Var::aux(uint32_t(rng() % cs.num_aux()));
      const Fr old = cs.value(v);
      cs.set_value(v, old.is_zero() ? Fr::one() : Fr::zero());
      EXPECT_TRUE(cs.first_unsatisfied().has_value()) << "flipped aux" << v.index();
      cs.set_value(v, old);
    }
    EXPECT_FALSE(cs.first_unsatisfied().has_value());
  }
}

// ---- modes agree ----------------------------------------------------------------------------------

// Two chained compressions of an allocated state and message (a Not operand and a constant bit
// among them): the four modes count the same, record the same rows, and the witness mode's values
// satisfy the recording and equal the test mode's.
template <class CS>
std::vector<Boolean> mixed_circuit(CS& cs, const std::vector<uint8_t>& msg, const uint32_t st[8]) {
  std::array<UInt32, 8> state;
  for (int i = 0; i < 8; i++) state[i] = UInt32::alloc(cs, st[i]);
  auto bits = message_bits(cs, msg, true);
  bits[3] = bits[3].negate();
  bits[100] = Boolean::constant(true);
  auto mid = sha256_compression_function(cs, std::span<const Boolean>(bits).subspan(0, 512), state);
  auto out = sha256_compression_function(cs, std::span<const Boolean>(bits).subspan(512, 512), mid);
  auto tail = sha256(cs, std::span<const Boolean>(bits).subspan(0, 24));
  auto res = sha256_words_to_bits_be(out);
  res.insert(res.end(), tail.begin(), tail.end());
  return res;
}

TEST(Sha256Modes, CountRecordWitnessTestAgree) {
  std::mt19937_64 rng(51);
  auto msg = random_bytes(rng, 128);
  uint32_t st[8];
  for (auto& s : st) s = uint32_t(rng());
  CountCs count;
  RecordCs rec;
  WitnessCs wit;
  TestCs test;
  mixed_circuit(count, msg, st);
  mixed_circuit(rec, msg, st);
  auto wout = mixed_circuit(wit, msg, st);
  auto tout = mixed_circuit(test, msg, st);
  EXPECT_EQ(count.num_constraints(), rec.num_constraints());
  EXPECT_EQ(count.num_aux(), rec.num_aux());
  EXPECT_EQ(count.num_constraints(), test.num_constraints());
  EXPECT_EQ(count.num_aux(), wit.num_aux());
  EXPECT_EQ(count.num_aux(), test.num_aux());
  EXPECT_FALSE(test.first_unsatisfied().has_value());
  Recording r = rec.take_recording();
  Recording rt = test.take_recording();
  EXPECT_EQ(r.canonical_digest(), rt.canonical_digest());  // the blank and value circuits coincide
  Witness w = wit.take_witness();
  EXPECT_FALSE(r.first_unsatisfied(w).has_value());
  ASSERT_EQ(wout.size(), tout.size());
  for (size_t i = 0; i < wout.size(); i++) {
    EXPECT_EQ(wout[i].kind, tout[i].kind);
    EXPECT_EQ(wout[i].value, tout[i].value);
    EXPECT_EQ(wout[i].var, tout[i].var);
  }
  // The expected digest of the first two blocks: src/hash's compression with the Not and constant
  // bits applied to the message.
  auto m2 = msg;
  m2[0] ^= 0x10;   // bit 3 (MSB first) negated
  m2[12] |= 0x08;  // bit 100 = 1
  uint32_t s[8];
  std::memcpy(s, st, sizeof s);
  Sha256::compress(s, m2.data());
  Sha256::compress(s, m2.data() + 64);
  auto got = bits_to_bytes(std::vector<Boolean>(wout.begin(), wout.begin() + 256));
  for (int i = 0; i < 8; i++)
    EXPECT_EQ(uint32_t(got[4 * i]) << 24 | uint32_t(got[4 * i + 1]) << 16 | uint32_t(got[4 * i + 2]) << 8 |
                  got[4 * i + 3],
              s[i]);
  auto tail = bits_to_bytes(std::vector<Boolean>(wout.begin() + 256, wout.end()));
  EXPECT_EQ(tail, openssl_sha256(std::vector<uint8_t>(m2.begin(), m2.begin() + 3)));
}

}  // namespace
}  // namespace cuzk::circuits
