// Filecoin's PoR circuits, column hash, create_label and the StackedCircuit (src/circuits): upstream's
// constraint counts (POREP_CIRCUIT.md §4) and canonical digests (§6b).
#include <gtest/gtest.h>

#include <cstring>
#include <random>

#include "circuits/stacked.hpp"
#include "gadgets/modes.hpp"
#include "hash/fr32.hpp"
#include "hash/poseidon.hpp"
#include "random.hpp"
#include "support.hpp"
#include "util/thread_pool.hpp"

namespace cuzk::circuits {
namespace {

using test::run_modes;

// ---- PoR circuits (rust-fil-proofs storage-proofs-core tests/por_circuit.rs) --------------------------

template <class Hasher>
size_t por_count(const TreeShape& shape, bool private_root) {
  CountCs cs;
  por_circuit<Hasher>(cs, shape, {}, Fr::zero(), Fr::zero(), private_root);
  return cs.num_constraints();
}
// 64 leaves per base tree (64 × the number of base trees in all): SHA-256 and Poseidon of arity 2 / 4 / 8.
TEST(PorCircuit, Sha256Base2) { EXPECT_EQ(por_count<Sha256Hasher>({2, 6, 0, 0}, false), 272295u); }
TEST(PorCircuit, Sha256Base4) { EXPECT_EQ(por_count<Sha256Hasher>({4, 3, 0, 0}, false), 216258u); }
TEST(PorCircuit, Sha256Base8) { EXPECT_EQ(por_count<Sha256Hasher>({8, 2, 0, 0}, false), 250987u); }
TEST(PorCircuit, PoseidonBase2) { EXPECT_EQ(por_count<PoseidonHasher>({2, 6, 0, 0}, false), 1887u); }
TEST(PorCircuit, PoseidonBase4) { EXPECT_EQ(por_count<PoseidonHasher>({4, 3, 0, 0}, false), 1164u); }
TEST(PorCircuit, PoseidonBase8) { EXPECT_EQ(por_count<PoseidonHasher>({8, 2, 0, 0}, false), 1063u); }
TEST(PorCircuit, PoseidonSub8_2) { EXPECT_EQ(por_count<PoseidonHasher>({8, 2, 2, 0}, false), 1377u); }
TEST(PorCircuit, PoseidonTop8_4_2) { EXPECT_EQ(por_count<PoseidonHasher>({8, 2, 4, 2}, false), 1764u); }
TEST(PorCircuit, PoseidonSub8_8) { EXPECT_EQ(por_count<PoseidonHasher>({8, 2, 8, 0}, false), 1593u); }
TEST(PorCircuit, PoseidonTop8_8_2) { EXPECT_EQ(por_count<PoseidonHasher>({8, 2, 8, 2}, false), 1907u); }
TEST(PorCircuit, PoseidonTop8_2_4) { EXPECT_EQ(por_count<PoseidonHasher>({8, 2, 2, 4}, false), 1764u); }
TEST(PorCircuit, PrivateRootIsOneLess) {
  EXPECT_EQ(por_count<PoseidonHasher>({2, 6, 0, 0}, true), 1886u);
  EXPECT_EQ(por_count<PoseidonHasher>({4, 3, 0, 0}, true), 1163u);
  EXPECT_EQ(por_count<PoseidonHasher>({8, 2, 0, 0}, true), 1062u);
}

// A random opening of `shape` and its root computed natively.
struct Opening {
  Fr leaf, root;
  std::vector<PathLevel> path;
  uint64_t index = 0;
};
Opening random_opening(const TreeShape& shape, std::mt19937_64& rng, bool sha) {
  Opening o;
  o.leaf = cuzk::test::random_fe<Fr>(rng);
  Fr cur = o.leaf;
  uint64_t mult = 1;
  for (size_t i = 0; i < shape.levels(); i++) {
    const uint32_t arity = shape.arity(i);
    PathLevel pl;
    pl.index = (uint32_t)(rng() % arity);
    for (uint32_t k = 0; k + 1 < arity; k++) pl.siblings.push_back(cuzk::test::random_fe<Fr>(rng));
    std::vector<Fr> children(pl.siblings);
    children.insert(children.begin() + pl.index, cur);
    cur = sha ? sha256_of_nodes(children) : poseidon_hash(children, poseidon_constants((int)arity));
    o.index += pl.index * mult;
    mult *= arity;
    o.path.push_back(pl);
  }
  o.root = cur;
  return o;
}

template <class Hasher>
void check_por_witness(const TreeShape& shape, bool sha, uint64_t seed) {
  std::mt19937_64 rng(seed);
  Opening o = random_opening(shape, rng, sha);
  auto run = run_modes([&](auto& cs) { por_circuit<Hasher>(cs, shape, o.path, o.leaf, o.root, false); });
  ASSERT_EQ(run.witness.inputs.size(), 3u);
  EXPECT_EQ(run.witness.inputs[1], Fr::from_u64(o.index));  // the packed path bits
  EXPECT_EQ(run.witness.inputs[2], o.root);
  // A wrong root fails the equality.
  Opening bad = o;
  bad.root += Fr::one();
  TestCs t;
  por_circuit<Hasher>(t, shape, bad.path, bad.leaf, bad.root, false);
  EXPECT_TRUE(t.first_unsatisfied().has_value());
}
TEST(PorCircuit, PoseidonWitnessesSatisfy) {
  check_por_witness<PoseidonHasher>({2, 6, 0, 0}, false, 1);
  check_por_witness<PoseidonHasher>({8, 2, 0, 0}, false, 2);
  check_por_witness<PoseidonHasher>({8, 1, 4, 2}, false, 3);
  check_por_witness<PoseidonHasher>({8, 3, 8, 2}, false, 4);
}
TEST(PorCircuit, Sha256WitnessSatisfies) { check_por_witness<Sha256Hasher>({2, 3, 0, 0}, true, 5); }

// ---- create_label (stacked/circuit/create_label.rs) ----------------------------------------------------

// The upstream test's pattern: 256 allocated id bits, constant layer and node, 37 fully allocated
// parents of 256 bits each: 532,025 constraints.
TEST(CreateLabel, UpstreamTestPattern) {
  CountCs cs;
  std::vector<Boolean> id;
  for (int i = 0; i < 256; i++) id.push_back(Boolean::is(AllocatedBit::alloc(cs, false)));
  std::vector<std::vector<Boolean>> parents(kLabelParents);
  for (auto& p : parents)
    for (int i = 0; i < 256; i++) p.push_back(Boolean::is(AllocatedBit::alloc(cs, false)));
  EXPECT_EQ(cs.num_constraints(), 256u + 37 * 256);
  create_label(cs, std::span<const Boolean>(id), parents, 3, UInt64::constant(22));
  EXPECT_EQ(cs.num_constraints(), 532025u);  // as upstream counts it: the bit allocations included
}

}  // namespace
}  // namespace cuzk::circuits

namespace cuzk::circuits {
namespace {

// ---- the StackedCircuit: counts (POREP_CIRCUIT.md §1, §4) and canonical digests (§6b) ---------------

struct Counts {
  size_t inputs, aux, constraints;
};
Counts count_stacked(const StackedShape& shape) {
  CountCs cs;
  synthesize_stacked(cs, shape, nullptr);
  return {cs.num_inputs(), cs.num_aux(), cs.num_constraints()};
}
std::string digest_hex(const StackedShape& shape) {
  RecordCs cs;
  synthesize_stacked(cs, shape, nullptr);
  auto d = cs.take_recording().canonical_digest();
  return cuzk::test::hex(d.data(), d.size());
}

// Upstream's stacked-circuit tests (storage-proofs-porep tests/stacked_circuit.rs) count the
// synthesized constraints with 22 inputs (ONE included).
TEST(StackedCircuit, TestShapeBase2Count) {
  EXPECT_EQ(count_stacked(stacked_test_shape("base-2")).constraints, 1206212u);
}
TEST(StackedCircuit, TestShapeBase8Count) {
  EXPECT_EQ(count_stacked(stacked_test_shape("base-8")).constraints, 1199620u);
}
TEST(StackedCircuit, TestShapeSub8_4Count) {
  EXPECT_EQ(count_stacked(stacked_test_shape("sub-8-4")).constraints, 1296576u);
}
TEST(StackedCircuit, TestShapeTop8_4_2Count) {
  Counts c = count_stacked(stacked_test_shape("top-8-4-2"));
  EXPECT_EQ(c.constraints, 1346982u);
  EXPECT_EQ(c.inputs, 22u);
}

// Rows = synthesized constraints + one appended row per input.
void expect_production(const char* size, size_t inputs, size_t aux, size_t rows) {
  Counts c = count_stacked(stacked_shape(size));
  EXPECT_EQ(c.inputs, inputs) << size;
  EXPECT_EQ(c.aux, aux) << size;
  EXPECT_EQ(c.constraints + c.inputs, rows) << size;
  EXPECT_EQ(stacked_shape(size).num_inputs(), inputs);
}
TEST(StackedCircuit, Production2KiBCount) { expect_production("2KiB", 40, 2685673, 2687961); }
TEST(StackedCircuit, Production8MiBCount) { expect_production("8MiB", 40, 3842449, 3844969); }
TEST(StackedCircuit, Production512MiBCount) { expect_production("512MiB", 40, 4420837, 4423473); }
TEST(StackedCircuit, Production32GiBCount) { expect_production("32GiB", 328, 130169893, 130278869); }
TEST(StackedCircuit, Production64GiBCount) { expect_production("64GiB", 328, 131076643, 131186177); }

// The SHA-256 of the canonical form of upstream's own circuit code, recorded blank (§6b).
TEST(StackedCircuitDigest, TestShapeBase2) {
  EXPECT_EQ(digest_hex(stacked_test_shape("base-2")),
            "b2b92a56833489d170d5e1beb3421768553cadfd8eb6e78b02ee2f7c77a674e8");
}
TEST(StackedCircuitDigest, TestShapeBase8) {
  EXPECT_EQ(digest_hex(stacked_test_shape("base-8")),
            "1ddedaf162f9dd2f3e471b7895eb7bbe955eb3084f9549066b537ff3c244c8ff");
}
TEST(StackedCircuitDigest, TestShapeSub8_4) {
  EXPECT_EQ(digest_hex(stacked_test_shape("sub-8-4")),
            "610ea06ea52f77f1c96a57adff325e73798cd4076c08f3dbf8164f7e4df96ec1");
}
TEST(StackedCircuitDigest, TestShapeTop8_4_2) {
  EXPECT_EQ(digest_hex(stacked_test_shape("top-8-4-2")),
            "ed1c308ebc2d4c496ef25c33badfa8907f2dabfd6b7b26e09d34b17e29b1bd7d");
}
TEST(StackedCircuitDigest, Production2KiB) {
  EXPECT_EQ(digest_hex(stacked_shape("2KiB")),
            "9b950dedd3ac0a450599f220c138cdbdcf669db9dc39150d3720087a5b3d1554");
}

TEST(StackedCircuit, UnknownShapesAreRefused) {
  EXPECT_THROW(stacked_shape("16KiB"), Error);
  EXPECT_THROW(stacked_test_shape("base-4"), Error);
}

}  // namespace
}  // namespace cuzk::circuits

namespace cuzk::circuits {
namespace {

// ---- Filecoin's SHA-256 hasher and the per-level / per-block costs of POREP_CIRCUIT.md §2-§3 ----------

// storage-proofs-core src/util.rs `hash_leaf_bits_circuit`: 512 allocated bits (LSB first in each byte),
// the hash and the packing: 45,387 constraints, the value Filecoin's native SHA-256 node hash.
TEST(FilecoinSha256, HashLeafBitsCountAndValue) {
  std::mt19937_64 rng(21);
  const Fr l = cuzk::test::random_fe<Fr>(rng), r = cuzk::test::random_fe<Fr>(rng);
  Fr got;
  auto run = run_modes([&](auto& cs) {
    std::vector<Boolean> lb, rb;
    for (auto [x, out] : {std::pair{&l, &lb}, {&r, &rb}}) {
      auto bytes = fr_to_bytes(*x);
      for (int i = 0; i < 256; i++)
        out->push_back(Boolean::is(AllocatedBit::alloc(cs, (bytes[i / 8] >> (i % 8)) & 1)));
    }
    got = sha256_hash_leaf_bits(cs, std::span<const Boolean>(lb), std::span<const Boolean>(rb)).value;
  });
  EXPECT_EQ(run.constraints, 45387u);
  const Fr pair[2] = {l, r};
  EXPECT_EQ(got, sha256_of_nodes(pair));
  EXPECT_TRUE(test::flip_fails(run, 100));
}

template <class F>
size_t cost(F&& f) {
  CountCs cs;
  f(cs);
  return cs.num_constraints();
}

TEST(FilecoinCosts, MerkleLevels) {
  // One level: index bits, siblings, insert and the hash (§2 "Costs per level").
  auto level = [](auto hasher, TreeShape shape) {
    return cost([&](CountCs& cs) {
      std::vector<Boolean> bits;
      merkle_root<decltype(hasher)>(cs, shape, {}, AllocatedNum::alloc(cs, Fr::zero()), bits);
    });
  };
  EXPECT_EQ(level(Sha256Hasher{}, {2, 1, 0, 0}), 45382u);
  EXPECT_EQ(level(PoseidonHasher{}, {8, 1, 0, 0}), 530u);
  EXPECT_EQ(level(PoseidonHasher{}, {2, 1, 0, 0}), 314u);
}

TEST(FilecoinCosts, Inclusions) {
  // levels + 2 (pack_into_inputs, root equality).
  auto inclusion = [](auto hasher, TreeShape shape) {
    return cost([&](CountCs& cs) {
      AllocatedNum leaf = AllocatedNum::alloc(cs, Fr::zero()), root = AllocatedNum::alloc(cs, Fr::zero());
      enforce_inclusion<decltype(hasher)>(cs, shape, {}, leaf, root);
    });
  };
  EXPECT_EQ(inclusion(PoseidonHasher{}, stacked_shape("32GiB").tree_rc), 5302u);
  EXPECT_EQ(inclusion(PoseidonHasher{}, stacked_shape("2KiB").tree_rc), 1062u);
  EXPECT_EQ(inclusion(PoseidonHasher{}, stacked_shape("64GiB").tree_rc), 5616u);
  EXPECT_EQ(inclusion(Sha256Hasher{}, stacked_shape("32GiB").tree_d), 1361462u);
}

// create_label as the StackedCircuit calls it: allocated node bits and parents of 255 allocated bits
// (bit 255 constant): 522,269 constraints; the value is the native SDR label.
TEST(CreateLabel, CircuitCostAndNativeValue) {
  std::mt19937_64 rng(22);
  const Fr id = cuzk::test::random_fe<Fr>(rng);
  std::vector<Fr> parent_vals(14);
  for (auto& p : parent_vals) p = cuzk::test::random_fe<Fr>(rng);
  const uint64_t node = 0x1234567;
  const uint32_t layer = 5;
  size_t label_cost = 0;
  Fr got;
  auto run = run_modes([&](auto& cs) {
    AllocatedNum idn = AllocatedNum::alloc(cs, id);
    auto id_bits = reverse_bit_numbering(to_bits_le(cs, idn));
    UInt64 nd = UInt64::alloc(cs, node);
    std::vector<std::vector<Boolean>> parents;
    for (const Fr& p : parent_vals)
      parents.push_back(reverse_bit_numbering(to_bits_le(cs, AllocatedNum::alloc(cs, p))));
    std::vector<std::vector<Boolean>> expanded = parents;
    expanded.insert(expanded.end(), parents.begin(), parents.end());
    expanded.insert(expanded.end(), parents.begin(), parents.begin() + 9);
    const size_t before = cs.num_constraints();
    got = create_label(cs, std::span<const Boolean>(id_bits), expanded, layer, nd).value;
    label_cost = cs.num_constraints() - before;
  });
  EXPECT_EQ(label_cost, 522269u);
  // Native: SHA-256(replica_id ‖ layer BE ‖ node BE ‖ 20 zero bytes ‖ 37 parents), trimmed.
  std::vector<uint8_t> msg;
  auto idb = fr_to_bytes(id);
  msg.insert(msg.end(), idb.begin(), idb.end());
  for (int i = 3; i >= 0; i--) msg.push_back((uint8_t)(layer >> (8 * i)));
  for (int i = 7; i >= 0; i--) msg.push_back((uint8_t)(node >> (8 * i)));
  msg.resize(64, 0);
  for (int k = 0; k < 37; k++) {
    auto pb = fr_to_bytes(parent_vals[k < 28 ? k % 14 : k - 28]);
    msg.insert(msg.end(), pb.begin(), pb.end());
  }
  EXPECT_EQ(got, digest_to_fr(Sha256::hash(msg)));
  EXPECT_TRUE(test::flip_fails(run, 2));        // a replica-id bit
  EXPECT_TRUE(test::flip_fails(run, 256 + 5));  // a node bit
}

TEST(FilecoinCosts, StackedTopLevelAndChallenges) {
  // Top level 571 (replica id, commitments, comm_r = H(comm_c, comm_r_last)); per challenge 7,237,665 at
  // 32 GiB and 1,343,675 at 2 KiB (§2 "Per-challenge totals").
  auto total = [](const char* size) {
    CountCs cs;
    synthesize_stacked(cs, stacked_shape(size), nullptr);
    return cs.num_constraints();
  };
  EXPECT_EQ(total("32GiB"), 571u + 18u * 7237665u);
  EXPECT_EQ(total("2KiB"), 571u + 2u * 1343675u);
}

}  // namespace
}  // namespace cuzk::circuits

namespace cuzk::circuits {
namespace {

// A witness of the right shape with random values (not satisfying: the roots are random).
StackedWitness random_stacked_witness(const StackedShape& shape, std::mt19937_64& rng) {
  auto fe = [&] { return cuzk::test::random_fe<Fr>(rng); };
  auto path = [&](const TreeShape& t) {
    std::vector<PathLevel> p(t.levels());
    for (size_t i = 0; i < p.size(); i++) {
      p[i].index = (uint32_t)(rng() % t.arity(i));
      for (uint32_t k = 0; k + 1 < t.arity(i); k++) p[i].siblings.push_back(fe());
    }
    return p;
  };
  auto column = [&] {
    ColumnOpening c;
    for (uint32_t l = 0; l < shape.layers; l++) c.rows.push_back(fe());
    c.path = path(shape.tree_rc);
    return c;
  };
  StackedWitness w{fe(), fe(), fe(), fe(), fe(), {}};
  for (uint32_t i = 0; i < shape.challenges; i++) {
    ChallengeWitness c;
    c.challenge = 1 + rng() % (shape.nodes - 1);
    c.data_leaf = fe();
    c.comm_d_path = path(shape.tree_d);
    for (size_t k = 0; k < kDrgParents; k++) c.drg_parents.push_back(column());
    for (size_t k = 0; k < kExpParents; k++) c.exp_parents.push_back(column());
    c.comm_r_last_path = path(shape.tree_rc);
    c.comm_c_path = path(shape.tree_rc);
    w.challenges.push_back(std::move(c));
  }
  return w;
}

// The parallel witness (blocks in slices, on a pool) equals the sequential witness mode, value for value,
// for upstream's four test shapes and the 2 KiB and 8 MiB production shapes, on pools of 1 and 3
// threads; stacked_witness_into writes every value of storage that holds garbage.
TEST(StackedWitness, ParallelEqualsSequential) {
  for (const char* name : {"base-2", "base-8", "sub-8-4", "top-8-4-2", "2KiB", "8MiB"}) {
    const bool test_shape = name[0] != '2' && name[0] != '8';
    const StackedShape shape = test_shape ? stacked_test_shape(name) : stacked_shape(name);
    std::mt19937_64 rng(41);
    const StackedWitness w = random_stacked_witness(shape, rng);
    WitnessCs seq;
    synthesize_stacked(seq, shape, &w);
    const StackedLayout layout = stacked_layout(shape);
    EXPECT_EQ(layout.n_aux, seq.num_aux()) << name;
    EXPECT_EQ(layout.n_inputs, seq.num_inputs()) << name;
    const Witness& sw = seq.witness();
    for (unsigned threads : {1u, 3u}) {
      ThreadPool pool(threads);
      StackedWitnessTimes times;
      const std::vector<Fr> par = stacked_witness(shape, w, layout, pool, &times);
      ASSERT_EQ(par.size(), sw.inputs.size() + sw.aux.size());
      EXPECT_TRUE(std::equal(sw.inputs.begin(), sw.inputs.end(), par.begin())) << name << ": inputs";
      EXPECT_TRUE(std::equal(sw.aux.begin(), sw.aux.end(), par.begin() + sw.inputs.size()))
          << name << ": aux";
      EXPECT_EQ(times.tree_d.count, shape.challenges);
      EXPECT_EQ(times.column.count, 14u * shape.challenges);
      EXPECT_EQ(times.label1.count + times.label.count, size_t{shape.layers} * shape.challenges);
      EXPECT_EQ(times.encoding.count + times.c_x.count, 2u * shape.challenges);
      // Into storage of garbage (every limb all ones): every value must be written.
      std::vector<Fr> out(par.size());
      std::memset(out.data(), 0xff, out.size() * sizeof(Fr));
      stacked_witness_into(shape, w, layout, pool, out);
      EXPECT_TRUE(out == par) << name << ": into garbage storage";
      out.pop_back();
      EXPECT_THROW(stacked_witness_into(shape, w, layout, pool, out), Error);
    }
  }
}

// The blocks of a challenge add up to its phases.
TEST(StackedWitness, LayoutBlocksTileThePhases) {
  for (const char* name : {"2KiB", "32GiB"}) {
    const StackedShape shape = stacked_shape(name);
    const StackedLayout l = stacked_layout(shape);
    EXPECT_EQ(l.phase_a_aux, l.tree_d_aux + 14 * l.column_aux + l.challenge_bits_aux) << name;
    EXPECT_EQ(l.phase_a_inputs, l.tree_d_inputs + 14 * l.column_inputs + l.challenge_bits_inputs) << name;
    EXPECT_EQ(l.phase_c_aux, l.encoding_aux + l.c_x_aux) << name;
    EXPECT_EQ(l.phase_c_inputs, l.encoding_inputs + l.c_x_inputs) << name;
    // One public input per inclusion (the packed index bits) and one for the challenge.
    EXPECT_EQ(l.tree_d_inputs, 1u);
    EXPECT_EQ(l.column_inputs, 1u);
    EXPECT_EQ(l.challenge_bits_inputs, 1u);
    EXPECT_EQ(l.encoding_inputs, 1u);
    EXPECT_EQ(l.c_x_inputs, 1u);
    CountCs cs;
    synthesize_stacked(cs, shape, nullptr);
    EXPECT_EQ(l.n_aux, cs.num_aux());
    EXPECT_EQ(l.n_inputs, cs.num_inputs());
  }
}

TEST(StackedWitness, ProductionLayoutMatchesCounts) {
  const StackedShape shape = stacked_shape("32GiB");
  const StackedLayout l = stacked_layout(shape);
  EXPECT_EQ(l.n_aux, 130169893u);
  EXPECT_EQ(l.n_inputs, 328u);
  EXPECT_EQ(l.challenge_inputs, 18u);
}

TEST(StackedWitness, WrongShapesAreRefused) {
  const StackedShape shape = stacked_test_shape("base-8");
  std::mt19937_64 rng(42);
  StackedWitness w = random_stacked_witness(shape, rng);
  ThreadPool pool(2);
  const StackedLayout layout = stacked_layout(shape);
  StackedWitness bad = w;
  bad.challenges[0].exp_parents.pop_back();
  EXPECT_THROW(stacked_witness(shape, bad, layout, pool), Error);
  bad = w;
  bad.challenges[0].drg_parents[2].rows.push_back(Fr::one());
  EXPECT_THROW(stacked_witness(shape, bad, layout, pool), Error);
  bad = w;
  bad.challenges[0].comm_c_path.pop_back();
  EXPECT_THROW(stacked_witness(shape, bad, layout, pool), Error);
  bad = w;
  bad.challenges[0].challenge = shape.nodes;
  EXPECT_THROW(stacked_witness(shape, bad, layout, pool), Error);
  bad = w;
  bad.challenges.push_back(w.challenges[0]);
  EXPECT_THROW(stacked_witness(shape, bad, layout, pool), Error);
}

}  // namespace
}  // namespace cuzk::circuits

namespace cuzk::circuits {
namespace {

// The replicated constraint system equals recording the whole circuit.
TEST(StackedConstraintSystem, ReplicationEqualsFullRecording) {
  ThreadPool pool(2);
  for (const char* name : {"top-8-4-2", "2KiB"}) {
    const StackedShape shape = std::string(name) == "2KiB" ? stacked_shape(name) : stacked_test_shape(name);
    RecordCs rec;
    synthesize_stacked(rec, shape, nullptr);
    const ConstraintSystem want = rec.take_recording().to_constraint_system();
    const ConstraintSystem got = stacked_constraint_system(shape, pool);
    EXPECT_EQ(got.log_n, want.log_n) << name;
    EXPECT_EQ(got.n_inputs, want.n_inputs) << name;
    EXPECT_EQ(got.n_aux, want.n_aux) << name;
    EXPECT_TRUE(got.a == want.a) << name;
    EXPECT_TRUE(got.b == want.b) << name;
    EXPECT_TRUE(got.c == want.c) << name;
    EXPECT_TRUE(got.a_aux == want.a_aux && got.b_aux == want.b_aux && got.b_inp == want.b_inp) << name;
  }
}

}  // namespace
}  // namespace cuzk::circuits
