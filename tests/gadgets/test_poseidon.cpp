// Poseidon: the generated constants (src/hash/poseidon_constants.hpp) against SupraSeal's files and
// neptune's round-number table, the native hash (src/hash/poseidon.hpp) against neptune's known
// answers and the plain reference schedule, and the legacy-circuit gadget (src/circuits/poseidon.hpp):
// counts, satisfiability, a broken witness, agreement of the four builder modes, row shapes.
#include <gtest/gtest.h>

#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "circuits/cs.hpp"
#include "circuits/num.hpp"
#include "circuits/poseidon.hpp"
#include "ff/bytes.hpp"
#include "hash/poseidon.hpp"
#include "hash/poseidon_constants.hpp"
#include "random.hpp"
#include "util/error.hpp"

namespace cuzk::circuits {
namespace {

constexpr int kArities[] = {2, 4, 8, 11, 16, 24, 36};

Fr from_limbs(uint64_t l0, uint64_t l1, uint64_t l2, uint64_t l3) {
  uint64_t l[4] = {l0, l1, l2, l3};
  Fr f;
  EXPECT_TRUE(Fr::from_canonical(l, f));
  return f;
}

std::string hex(const Fr& f) {
  uint8_t b[32];
  to_bytes_be(f, b);
  static const char* d = "0123456789abcdef";
  std::string s = "0x";
  for (uint8_t x : b) s += d[x >> 4], s += d[x & 15];
  return s;
}

// neptune v11.0.0 src/poseidon.rs `hash_values_aux`, Strength::Standard: hash of [0, 1, …, A − 1].
Fr kat(int arity) {
  switch (arity) {
    case 2:
      return from_limbs(0x2e203c369a02e7ff, 0xa6fba9339d05a69d, 0x739e0fd902efe161, 0x396508d75e76a56b);
    case 4:
      return from_limbs(0x019814ff6662075d, 0xfb6b4605bf1327ec, 0x00db3c6579229399, 0x58a54b10a9e5848a);
    case 8:
      return from_limbs(0x2a9934f56d38a5e6, 0x4b682e9d9cc4aed9, 0x1201004211677077, 0x2394611da3a5de55);
    case 11:
      return from_limbs(0xcee3bbc32b693163, 0x09f3dcd8ccb08fc1, 0x6ca537e232ebe87a, 0x0c0fc1b2e5227f28);
    case 16:
      return from_limbs(0x1291c74060266d37, 0x5b8dbc6d30680a6f, 0xc1c2fb5a6f871e63, 0x2d3ae2663381ae8a);
    case 24:
      return from_limbs(0xd7ef3569f585b321, 0xc3e779f6468815b1, 0x066f39bf783f3d9f, 0x63beb8831f11ae15);
    case 36:
      return from_limbs(0x4473606dfa4e8140, 0x75cd368df8a8ac3c, 0x540a30e03c10bbaa, 0x699303082a6e5d5f);
  }
  ADD_FAILURE() << "no known answer for arity " << arity;
  return Fr::zero();
}

// neptune src/circuit.rs test_poseidon_hash (2/4/8/16/24/36) and rust-fil-proofs
// storage-proofs-porep src/stacked/circuit/hash.rs (11).
size_t expected_constraints(int arity) {
  switch (arity) {
    case 2:
      return 311;
    case 4:
      return 377;
    case 8:
      return 505;
    case 11:
      return 598;
    case 16:
      return 761;
    case 24:
      return 1009;
    case 36:
      return 1385;
  }
  return 0;
}

std::vector<Fr> iota_preimage(int arity) {
  std::vector<Fr> v;
  for (int i = 0; i < arity; i++) v.push_back(Fr::from_u64(i));
  return v;
}

std::vector<Fr> random_preimage(int arity, std::mt19937_64& rng) {
  std::vector<Fr> v;
  for (int i = 0; i < arity; i++) v.push_back(test::random_fe<Fr>(rng));
  return v;
}

// The preimages used for the circuit checks: random ones and the edge cases 0…0, 1…1, (r−1)…(r−1).
std::vector<std::vector<Fr>> test_preimages(int arity, uint64_t seed, int n_random) {
  std::mt19937_64 rng(seed);
  std::vector<std::vector<Fr>> out;
  for (int k = 0; k < n_random; k++) out.push_back(random_preimage(arity, rng));
  out.push_back(std::vector<Fr>(arity, Fr::zero()));
  out.push_back(std::vector<Fr>(arity, Fr::one()));
  out.push_back(std::vector<Fr>(arity, -Fr::one()));
  out.push_back(iota_preimage(arity));
  return out;
}

// Allocates the preimage (one aux each, no constraint, like neptune's test) and hashes it.
template <class CS>
AllocatedNum synth(CS& cs, const std::vector<Fr>& x, const PoseidonConstants& c) {
  std::vector<AllocatedNum> in;
  for (const Fr& v : x) in.push_back(AllocatedNum::alloc(cs, v));
  return poseidon_hash(cs, std::span<const AllocatedNum>(in), c);
}

// ---- constants ----------------------------------------------------------------------------------

TEST(PoseidonConstants, RoundNumbersMatchNeptuneTable) {
  // neptune src/round_numbers.rs test_round_numbers_against_known_values: (t, RP), RF = 8.
  const std::pair<int, int> cases[] = {{2, 55},  {3, 55},  {4, 56},  {5, 56},  {6, 56},  {7, 56},  {8, 57},
                                       {9, 57},  {10, 57}, {11, 57}, {12, 57}, {13, 57}, {14, 57}, {15, 57},
                                       {16, 59}, {17, 59}, {25, 59}, {37, 60}, {65, 61}};
  for (auto [t, rp] : cases) {
    auto [rf_got, rp_got] = poseidon_round_numbers(t);
    EXPECT_EQ(rf_got, 8) << "t = " << t;
    EXPECT_EQ(rp_got, rp) << "t = " << t;
  }
}

TEST(PoseidonConstants, ShapesAndTags) {
  for (int a : kArities) {
    const PoseidonConstants& c = poseidon_constants(a);
    const int t = a + 1;
    EXPECT_EQ(&c, &poseidon_constants(a)) << "cached";
    EXPECT_EQ(c.arity, a);
    EXPECT_EQ(c.width, t);
    EXPECT_EQ(c.full_rounds, 8);
    EXPECT_EQ(c.half_full_rounds, 4);
    EXPECT_EQ(c.domain_tag, Fr::from_u64((1ull << a) - 1));
    EXPECT_EQ(c.round_constants.size(), size_t(8 + c.partial_rounds) * t);
    EXPECT_EQ(c.compressed_round_constants.size(), size_t(8 * t + c.partial_rounds));
    EXPECT_EQ(c.sparse.size(), size_t(c.partial_rounds));
    // M is symmetric, M · M⁻¹ = I.
    for (int i = 0; i < t; i++)
      for (int j = 0; j < t; j++) EXPECT_EQ(c.mds(i, j), c.mds(j, i));
    EXPECT_EQ(poseidon_mat_mul(c.mds, c.mds_inv), PoseidonMatrix::identity(t));
  }
  EXPECT_EQ(poseidon_constants(2).partial_rounds, 55);
  EXPECT_EQ(poseidon_constants(4).partial_rounds, 56);
  EXPECT_EQ(poseidon_constants(8).partial_rounds, 57);
  EXPECT_EQ(poseidon_constants(11).partial_rounds, 57);
  EXPECT_EQ(poseidon_constants(16).partial_rounds, 59);
  EXPECT_EQ(poseidon_constants(24).partial_rounds, 59);
  EXPECT_EQ(poseidon_constants(36).partial_rounds, 60);
}

TEST(PoseidonConstants, UnsupportedAritiesThrow) {
  for (int a : {0, 1, 3, 5, 12, 37, -1}) EXPECT_THROW(poseidon_constants(a), Error) << a;
  EXPECT_THROW(PoseidonConstants::generate(0), Error);
  EXPECT_THROW(PoseidonConstants::generate(37), Error);
  EXPECT_NO_THROW(PoseidonConstants::generate(3));
}

// SupraSeal's extern/supraseal/poseidon/constants/constants_<A> (curio): 32-byte little-endian
// Montgomery elements, [compressed RC (8t + RP), M (t×t row-major), pre_sparse (t×t),
// RP × (w_hat[t], v_rest[t − 1])].
void check_supraseal_file(int arity) {
  const PoseidonConstants& c = poseidon_constants(arity);
  const int t = c.width, rp = c.partial_rounds;
  std::string path =
      std::string(CUZK_SOURCE_DIR) + "/tests/vectors/poseidon/constants_" + std::to_string(arity);
  std::ifstream f(path, std::ios::binary);
  ASSERT_TRUE(f) << path;
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  std::vector<Fr> want;
  want.insert(want.end(), c.compressed_round_constants.begin(), c.compressed_round_constants.end());
  want.insert(want.end(), c.mds.a.begin(), c.mds.a.end());
  want.insert(want.end(), c.pre_sparse.a.begin(), c.pre_sparse.a.end());
  for (const PoseidonSparseMatrix& s : c.sparse) {
    ASSERT_EQ(s.w_hat.size(), size_t(t));
    ASSERT_EQ(s.v_rest.size(), size_t(t - 1));
    want.insert(want.end(), s.w_hat.begin(), s.w_hat.end());
    want.insert(want.end(), s.v_rest.begin(), s.v_rest.end());
  }
  ASSERT_EQ(want.size(), size_t(8 * t + rp) + 2 * size_t(t) * t + size_t(rp) * (2 * t - 1));
  ASSERT_EQ(bytes.size(), 32 * want.size()) << path;
  size_t mismatches = 0;
  for (size_t k = 0; k < want.size(); k++) {
    Fr got;
    ASSERT_TRUE(from_bytes_le_mont(bytes.data() + 32 * k, got)) << "element " << k << " not reduced";
    if (got != want[k] && mismatches++ < 5)
      ADD_FAILURE() << "arity " << arity << " element " << k << ": file " << hex(got) << ", generated "
                    << hex(want[k]);
  }
  EXPECT_EQ(mismatches, 0u) << "arity " << arity;
}

#define POSEIDON_PER_ARITY(A)                                                      \
  TEST(PoseidonConstants, MatchSupraSealFile##A) { check_supraseal_file(A); }      \
  TEST(PoseidonNative, KnownAnswer##A) {                                           \
    const PoseidonConstants& c = poseidon_constants(A);                            \
    std::vector<Fr> x = iota_preimage(A);                                          \
    EXPECT_EQ(hex(poseidon_hash(x, c)), hex(kat(A)));                              \
    EXPECT_EQ(hex(poseidon_hash_reference(x, c)), hex(kat(A)));                    \
  }                                                                                \
  TEST(PoseidonCircuit, Count##A) {                                                \
    const PoseidonConstants& c = poseidon_constants(A);                            \
    CountCs cs;                                                                    \
    std::vector<AllocatedNum> in;                                                  \
    for (int i = 0; i < A; i++) in.push_back(AllocatedNum::alloc(cs, Fr::zero())); \
    uint32_t aux0 = cs.num_aux();                                                  \
    poseidon_hash(cs, std::span<const AllocatedNum>(in), c);                       \
    const size_t t = A + 1;                                                        \
    EXPECT_EQ(cs.num_constraints(), 4 * (8 * t + c.partial_rounds) - 3 - A);       \
    EXPECT_EQ(cs.num_constraints(), expected_constraints(A));                      \
    EXPECT_EQ(cs.num_aux() - aux0, cs.num_constraints());                          \
    EXPECT_EQ(cs.num_inputs(), 1u);                                                \
  }

POSEIDON_PER_ARITY(2)
POSEIDON_PER_ARITY(4)
POSEIDON_PER_ARITY(8)
POSEIDON_PER_ARITY(11)
POSEIDON_PER_ARITY(16)
POSEIDON_PER_ARITY(24)
POSEIDON_PER_ARITY(36)

// ---- native hash --------------------------------------------------------------------------------

TEST(PoseidonNative, OptimizedEqualsReference) {
  for (int a : kArities) {
    const PoseidonConstants& c = poseidon_constants(a);
    for (const auto& x : test_preimages(a, 100 + a, 20))
      EXPECT_EQ(poseidon_hash(x, c), poseidon_hash_reference(x, c)) << "arity " << a;
  }
}

TEST(PoseidonNative, WrongPreimageLengthThrows) {
  const PoseidonConstants& c = poseidon_constants(8);
  std::vector<Fr> x(7, Fr::one());
  EXPECT_THROW(poseidon_hash(x, c), Error);
  EXPECT_THROW(poseidon_hash_reference(x, c), Error);
  x.resize(9, Fr::one());
  EXPECT_THROW(poseidon_hash(x, c), Error);
  TestCs cs;
  std::vector<AllocatedNum> in(3, AllocatedNum::alloc(cs, Fr::one()));
  EXPECT_THROW(poseidon_hash(cs, std::span<const AllocatedNum>(in), c), Error);
}

// ---- circuit ------------------------------------------------------------------------------------

TEST(PoseidonCircuit, SatisfiedAndMatchesNative) {
  for (int a : kArities) {
    const PoseidonConstants& c = poseidon_constants(a);
    for (const auto& x : test_preimages(a, 200 + a, 3)) {
      TestCs cs;
      AllocatedNum out = synth(cs, x, c);
      EXPECT_FALSE(cs.first_unsatisfied().has_value()) << "arity " << a;
      EXPECT_EQ(out.value, poseidon_hash(x, c)) << "arity " << a;
      EXPECT_EQ(cs.value(out.var), out.value);
      EXPECT_EQ(cs.num_constraints(), expected_constraints(a));
    }
    TestCs cs;
    EXPECT_EQ(hex(synth(cs, iota_preimage(a), c).value), hex(kat(a))) << "circuit known answer, arity " << a;
  }
}

TEST(PoseidonCircuit, BrokenWitnessIsCaught) {
  std::mt19937_64 rng(9);
  for (int a : kArities) {
    const PoseidonConstants& c = poseidon_constants(a);
    std::vector<Fr> x = random_preimage(a, rng);
    TestCs cs;
    synth(cs, x, c);
    const uint32_t n_aux = cs.num_aux();
    // Every variable for arity 2; a spread of them (inputs, first, middle, last) otherwise.
    std::vector<uint32_t> which;
    if (a == 2) {
      for (uint32_t j = 0; j < n_aux; j++) which.push_back(j);
    } else {
      for (uint32_t j :
           {0u, uint32_t(a - 1), uint32_t(a), uint32_t(a + 1), n_aux / 3, n_aux / 2, n_aux - 2, n_aux - 1})
        which.push_back(j);
      for (int k = 0; k < 8; k++) which.push_back(uint32_t(rng() % n_aux));
    }
    for (uint32_t j : which) {
      Var v = Var::aux(j);
      Fr old = cs.value(v);
      cs.set_value(v, old + Fr::one());
      EXPECT_TRUE(cs.first_unsatisfied().has_value()) << "arity " << a << " aux " << j;
      cs.set_value(v, old);
    }
    EXPECT_FALSE(cs.first_unsatisfied().has_value());
  }
}

TEST(PoseidonCircuit, ModesAgree) {
  for (int a : kArities) {
    const PoseidonConstants& c = poseidon_constants(a);
    std::mt19937_64 rng(300 + a);
    std::vector<Fr> x = random_preimage(a, rng);
    CountCs count;
    synth(count, x, c);
    RecordCs rec;
    synth(rec, std::vector<Fr>(a, Fr::zero()), c);  // the blank circuit: values unused
    WitnessCs wit;
    AllocatedNum wout = synth(wit, x, c);
    TestCs test;
    AllocatedNum tout = synth(test, x, c);
    EXPECT_EQ(count.num_constraints(), rec.num_constraints());
    EXPECT_EQ(count.num_aux(), rec.num_aux());
    EXPECT_EQ(count.num_inputs(), rec.num_inputs());
    EXPECT_EQ(count.num_aux(), wit.num_aux());
    EXPECT_EQ(wout.value, poseidon_hash(x, c));
    EXPECT_EQ(wout.var, tout.var);
    Recording r = rec.take_recording();
    Recording rt = test.take_recording();
    ASSERT_EQ(r.n_constraints(), expected_constraints(a));
    EXPECT_EQ(r.canonical_digest(), rt.canonical_digest()) << "RecordCs and TestCs record the same rows";
    Witness w = wit.take_witness();
    EXPECT_EQ(w.aux, test.witness().aux);
    EXPECT_FALSE(r.first_unsatisfied(w).has_value()) << "arity " << a;
    EXPECT_EQ(w[wout.var], poseidon_hash(x, c));
  }
}

// The row shapes, for arity 2 (t = 3, RP = 55), derived from neptune's circuit.rs by hand: which
// slot holds which variables and constants. aux 0, 1 are the inputs; the gadget's aux start at 2.
TEST(PoseidonCircuit, RowShapesArity2) {
  const PoseidonConstants& c = poseidon_constants(2);
  const int t = 3, rp = c.partial_rounds;
  RecordCs rec;
  synth(rec, {Fr::zero(), Fr::zero()}, c);
  Recording r = rec.take_recording();
  struct Term {
    Var var;
    Fr coeff;
  };
  auto row = [&](const RecordedMatrix& m, size_t i) {
    std::vector<Term> out;
    for (uint64_t k = m.row_offsets[i]; k < m.row_offsets[i + 1]; k++)
      out.push_back({Var::from_raw(m.vars[k]), r.coeffs[m.coeffs[k]]});
    return out;
  };
  auto is = [](const std::vector<Term>& lc, std::vector<Term> want) {
    if (lc.size() != want.size()) return false;
    for (size_t k = 0; k < lc.size(); k++)
      if (!(lc[k].var == want[k].var) || lc[k].coeff != want[k].coeff) return false;
    return true;
  };
  const Fr one = Fr::one();
  const Fr* k = c.compressed_round_constants.data();
  size_t i = 0;
  uint32_t next = 2;  // next aux index
  // First round: per input x_j (aux j−1): (x + pre)² = l2; l2² = l4; (x + pre)·l4 = r − post·ONE.
  for (int j = 1; j < t; j++) {
    Var x = Var::aux(j - 1), l2 = Var::aux(next), l4 = Var::aux(next + 1), res = Var::aux(next + 2);
    next += 3;
    EXPECT_TRUE(is(row(r.a, i), {{kOne, k[j]}, {x, one}}));
    EXPECT_TRUE(is(row(r.b, i), {{kOne, k[j]}, {x, one}}));
    EXPECT_TRUE(is(row(r.c, i), {{l2, one}}));
    i++;
    EXPECT_TRUE(is(row(r.a, i), {{l2, one}}) && is(row(r.b, i), {{l2, one}}) && is(row(r.c, i), {{l4, one}}));
    i++;
    EXPECT_TRUE(is(row(r.a, i), {{kOne, k[j]}, {x, one}}));
    EXPECT_TRUE(is(row(r.b, i), {{l4, one}}));
    EXPECT_TRUE(is(row(r.c, i), {{kOne, -k[t + j]}, {res, one}}));
    i++;
  }
  // Round 1, element 0: ensure_allocated of Σ_i M(i, 0)·e_i: ONE (the tag's constant) and the two
  // first-round outputs; then l² , l⁴, l·l4 = r − post.
  {
    auto a = row(r.a, i);
    ASSERT_EQ(a.size(), 3u);
    EXPECT_EQ(a[0].var, kOne);
    Fr tag1 = poseidon_quintic(c.domain_tag + k[0]) + k[t];
    EXPECT_EQ(a[0].coeff, tag1 * c.mds(0, 0));
    EXPECT_EQ(a[1].var, Var::aux(4));
    EXPECT_EQ(a[1].coeff, c.mds(1, 0));
    EXPECT_EQ(a[2].var, Var::aux(7));
    EXPECT_EQ(a[2].coeff, c.mds(2, 0));
    EXPECT_TRUE(is(row(r.b, i), {{kOne, one}}));
    EXPECT_TRUE(is(row(r.c, i), {{Var::aux(next), one}}));
    Var l = Var::aux(next), l2 = Var::aux(next + 1), l4 = Var::aux(next + 2), res = Var::aux(next + 3);
    EXPECT_TRUE(is(row(r.a, i + 1), {{l, one}}) && is(row(r.b, i + 1), {{l, one}}) &&
                is(row(r.c, i + 1), {{l2, one}}));
    EXPECT_TRUE(is(row(r.a, i + 2), {{l2, one}}) && is(row(r.b, i + 2), {{l2, one}}) &&
                is(row(r.c, i + 2), {{l4, one}}));
    EXPECT_TRUE(is(row(r.a, i + 3), {{l, one}}) && is(row(r.b, i + 3), {{l4, one}}));
    EXPECT_TRUE(is(row(r.c, i + 3), {{kOne, -k[2 * t]}, {res, one}}));
  }
  // The S-box rows come in fours after the first round: the ensure_allocated row has B = ONE. The
  // partial rounds' element-1 and element-2 combinations grow by one term per round, so the first
  // final full round's ensure_allocated rows have t + RP terms (the round-3 outputs and each partial
  // round's output; no ONE term: the partial rounds' keys are post-keys). Element 0 = Σ w_hat_i·e_i
  // has the same variables.
  const size_t first_final = 3 * (t - 1) + 4 * (3 * t + rp);
  for (size_t q = 3 * (t - 1); q + 1 < r.n_constraints(); q += 4) {
    auto b = row(r.b, q);
    EXPECT_TRUE(is(b, {{kOne, one}})) << "row " << q;
  }
  EXPECT_EQ(row(r.a, first_final).size(), size_t(t + rp));
  EXPECT_EQ(row(r.a, first_final + 4).size(), size_t(t + rp));
  EXPECT_EQ(row(r.a, first_final + 8).size(), size_t(t + rp));
  // The terminal round's mul_sum rows have no key; the last row allocates element 1.
  const size_t last = r.n_constraints() - 1;
  for (int e = 0; e < t; e++) EXPECT_EQ(row(r.c, last - 1 - 4 * e).size(), 1u) << "terminal S-box " << e;
  EXPECT_TRUE(is(row(r.b, last), {{kOne, one}}));
  EXPECT_EQ(row(r.a, last).size(), size_t(t));
}

}  // namespace
}  // namespace cuzk::circuits
