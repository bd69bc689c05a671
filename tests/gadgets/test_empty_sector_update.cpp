// Filecoin's SnapDeals circuit (src/circuits/empty_sector_update.hpp, update_gadgets.hpp): upstream's
// constraint counts (rust-fil-proofs storage-proofs-update tests/circuit.rs and src/gadgets.rs tests),
// the shapes and public inputs, and a fake 2 KiB update (src/formats/update_vanilla.hpp) that passes the
// vanilla verifier, satisfies the circuit in every builder mode and survives its bincode round trip.
// The Groth16 round trip at 2 KiB (setup, prove, verify; ~2 min on two cores) is tests/cli/snap.sh.
#include <gtest/gtest.h>

#include "circuits/empty_sector_update.hpp"
#include "engine/update.hpp"
#include "formats/update_vanilla.hpp"
#include "gadgets/modes.hpp"
#include "hash/poseidon.hpp"
#include "util/thread_pool.hpp"

namespace cuzk::circuits {
namespace {

size_t count_update(const std::string& size) {
  CountCs cs;
  synthesize_empty_sector_update(cs, update_shape(size), nullptr);
  EXPECT_EQ(cs.num_inputs(), 5u) << size;  // ONE, k_and_h_select, comm_r_old, comm_d_new, comm_r_new
  return cs.num_constraints();
}

// storage-proofs-update tests/circuit.rs test_empty_sector_update_circuit_{1,2,4,8,16,32}kib and
// test_empty_sector_update_constraints_32gib.
TEST(EmptySectorUpdate, ConstraintCounts1KiB) { EXPECT_EQ(count_update("1KiB"), 1248389u); }
TEST(EmptySectorUpdate, ConstraintCounts2KiB) { EXPECT_EQ(count_update("2KiB"), 1705039u); }
TEST(EmptySectorUpdate, ConstraintCounts4KiB) { EXPECT_EQ(count_update("4KiB"), 2165109u); }
TEST(EmptySectorUpdate, ConstraintCounts8KiB) { EXPECT_EQ(count_update("8KiB"), 2620359u); }
TEST(EmptySectorUpdate, ConstraintCounts16KiB) { EXPECT_EQ(count_update("16KiB"), 6300021u); }
TEST(EmptySectorUpdate, ConstraintCounts32KiB) { EXPECT_EQ(count_update("32KiB"), 6760091u); }
TEST(EmptySectorUpdate, ConstraintCounts32GiB) { EXPECT_EQ(count_update("32GiB"), 81049499u); }

// gadgets.rs test_gen_challenge_bits_gadget: the gadget's constraints per allowed sector size.
TEST(EmptySectorUpdate, GenChallengeBitsCounts) {
  const char* sizes[] = {"1KiB", "2KiB",  "4KiB",   "8KiB",  "16KiB", "32KiB",
                         "8MiB", "16MiB", "512MiB", "32GiB", "64GiB"};
  const size_t expected[] = {568, 568, 568, 568, 568, 568, 568, 568, 4544, 5680, 5680};
  for (size_t i = 0; i < std::size(sizes); i++) {
    const UpdateShape s = update_shape(sizes[i]);
    CountCs cs;
    AllocatedNum comm_r_new = AllocatedNum::alloc(cs, Fr::zero());
    AllocatedNum k = AllocatedNum::alloc(cs, Fr::zero());
    const size_t before = cs.num_constraints();
    auto bits = gen_challenge_bits(cs, comm_r_new, k, s.challenge_count, s.random_bits_per_challenge());
    EXPECT_EQ(cs.num_constraints() - before, expected[i]) << sizes[i];
    EXPECT_EQ(bits.size(), s.challenge_count) << sizes[i];
  }
}

// gadgets.rs test_apex_por_gadget_small_sector_sizes and _16kib_4_8_partitions: apex_por's constraints
// for (partition bits, apex leaves).
size_t count_apex_por(uint32_t partition_bits, uint32_t leafs) {
  CountCs cs;
  AllocatedNum comm_d = AllocatedNum::alloc(cs, Fr::zero());
  std::vector<Boolean> bits;
  for (uint32_t i = 0; i < partition_bits; i++) bits.push_back(Boolean::is(AllocatedBit::alloc(cs, false)));
  std::vector<AllocatedNum> apex;
  for (uint32_t i = 0; i < leafs; i++) apex.push_back(AllocatedNum::alloc(cs, Fr::zero()));
  std::vector<std::vector<AllocatedNum>> path(partition_bits);
  for (auto& p : path) p.push_back(AllocatedNum::alloc(cs, Fr::zero()));
  const size_t before = cs.num_constraints();
  apex_por(cs, apex, bits, path, comm_d);
  return cs.num_constraints() - before;
}
TEST(EmptySectorUpdate, ApexPorCounts) {
  EXPECT_EQ(count_apex_por(0, 8), 317654u);     // 1 … 8 KiB: one partition, 8 apex leaves
  EXPECT_EQ(count_apex_por(1, 128), 5808515u);  // 16, 32 KiB: two partitions, 128 apex leaves
  EXPECT_EQ(count_apex_por(2, 16), 771448u);    // 16 KiB as 4 partitions × 16
  EXPECT_EQ(count_apex_por(3, 8), 453797u);     // 16 KiB as 8 partitions × 8
}

TEST(EmptySectorUpdate, Shapes) {
  const UpdateShape s32 = update_shape("32GiB");
  EXPECT_EQ(s32.sector_nodes, 1ull << 30);
  EXPECT_EQ(s32.partition_count, 16u);
  EXPECT_EQ(s32.challenge_count, 86u);
  EXPECT_EQ(s32.apex_leaf_count, 128u);
  EXPECT_EQ(s32.h_default(), 10u);
  EXPECT_EQ(s32.tree_r.base_levels, 9u);
  EXPECT_EQ(s32.tree_r.sub_arity, 8u);
  EXPECT_EQ(s32.tree_r.top_arity, 0u);
  EXPECT_EQ(s32.tree_r.leaves(), s32.sector_nodes);
  EXPECT_EQ(s32.challenges_per_digest(), 9u);  // ⌊254 / 26⌋
  EXPECT_EQ(s32.digests_per_partition(), 10u);
  for (const char* name : update_sector_sizes()) {
    const UpdateShape s = update_shape(name);
    EXPECT_EQ(s.tree_r.leaves(), s.sector_nodes) << name;
    EXPECT_EQ(s.tree_d.leaves(), s.sector_nodes) << name;
    EXPECT_EQ(update_shape_of_nodes(s.sector_nodes).name, s.name);
  }
  EXPECT_EQ(update_shape("2KiB").h_default(), 1u);
  EXPECT_THROW(update_shape("3KiB"), Error);
  EXPECT_THROW(update_shape_of_nodes(1u << 11), Error);
}

// rust-fil-proofs parameters.json: the five production SnapDeals keys.
TEST(EmptySectorUpdate, ParameterFileNames) {
  const std::string p = "v28-empty-sector-update-merkletree-poseidon_hasher-";
  EXPECT_EQ(engine::update_param_stem("2KiB"),
            p + "8-0-0-fb9e095bebdd77511c0269b967b4d87ba8b8a525edaa0e165de23ba454510194");
  EXPECT_EQ(engine::update_param_stem("8MiB"),
            p + "8-0-0-92180959e1918d26350b8e6cfe217bbdd0a2d8de51ebec269078b364b715ad63");
  EXPECT_EQ(engine::update_param_stem("512MiB"),
            p + "8-0-0-61fa69f38b9cc771ba27b670124714b4ea77fbeae05e377fb859c4a43b73a30c");
  EXPECT_EQ(engine::update_param_stem("32GiB"),
            p + "8-8-0-3b7f44a9362e3985369454947bc94022e118211e49fd672d52bec1cbfd599d18");
  EXPECT_EQ(engine::update_param_stem("64GiB"),
            p + "8-8-2-102e1444a7e9a97ebf1e3d6855dcc77e66c011ea66f936d9b2c508f87f2f83a7");
}

TEST(EmptySectorUpdate, GenRandomnessConstantsDifferOnlyByTag) {
  const PoseidonConstants& g = poseidon_constants_gen_randomness();
  const PoseidonConstants& m = poseidon_constants(2);
  EXPECT_EQ(g.domain_tag, Fr::from_u64(uint64_t{1} << 40));
  EXPECT_EQ(m.domain_tag, Fr::from_u64(3));
  EXPECT_EQ(g.compressed_round_constants, m.compressed_round_constants);
  const Fr pre[2] = {Fr::from_u64(1), Fr::from_u64(2)};
  EXPECT_NE(poseidon_hash(pre, g), poseidon_hash(pre, m));
  // The optimised and the textbook schedules agree with the custom tag too.
  EXPECT_EQ(poseidon_hash(pre, g), poseidon_hash_reference(pre, g));
}

TEST(EmptySectorUpdate, PublicInputsAndChallenges) {
  const UpdateShape s = update_shape("32GiB");
  // k = 5, h = 10 = hs[3]: 5 | 2^3 << 4.
  const Fr a = Fr::from_u64(11), b = Fr::from_u64(12), c = Fr::from_u64(13);
  const std::vector<Fr> pi = update_public_inputs(s, 5, 10, a, b, c);
  ASSERT_EQ(pi.size(), 4u);
  EXPECT_EQ(pi[0], Fr::from_u64(5 | (8 << 4)));
  EXPECT_EQ(pi[1], a);
  EXPECT_EQ(pi[2], b);
  EXPECT_EQ(pi[3], c);
  EXPECT_THROW(update_public_inputs(s, 16, 10, a, b, c), Error);
  EXPECT_THROW(update_public_inputs(s, 0, 6, a, b, c), Error);
  // Every challenge of partition k lies in the k-th sixteenth of the sector.
  for (uint32_t k : {0u, 7u, 15u}) {
    const std::vector<uint64_t> ch = update_challenges(s, c, k);
    ASSERT_EQ(ch.size(), 86u);
    for (uint64_t x : ch) EXPECT_EQ(x >> 26, k);
  }
  EXPECT_NE(update_challenges(s, c, 1)[0] & ((1u << 26) - 1),
            update_challenges(s, c, 2)[0] & ((1u << 26) - 1));
}

// The circuit's challenge bits equal update_challenges (gadgets.rs test_gen_challenge_bits_gadget).
// 16 MiB: 4 partitions of 10 challenges from one digest each; 32 GiB: 86 challenges from 10 digests.
TEST(EmptySectorUpdate, CircuitChallengesMatchNative) {
  const Fr comm_r_new = Fr::from_u64(987654321);
  for (auto [size, k] :
       {std::pair{"16MiB", 0u}, {"16MiB", 1u}, {"16MiB", 3u}, {"32GiB", 0u}, {"32GiB", 15u}}) {
    const UpdateShape s = update_shape(size);
    WitnessCs cs;
    AllocatedNum r = AllocatedNum::alloc(cs, comm_r_new);
    AllocatedNum kn = AllocatedNum::alloc(cs, Fr::from_u64(k));
    auto bits = gen_challenge_bits(cs, r, kn, s.challenge_count, s.random_bits_per_challenge());
    const std::vector<uint64_t> native = update_challenges(s, comm_r_new, k);
    for (size_t i = 0; i < native.size(); i++) {
      uint64_t v = uint64_t{k} << s.random_bits_per_challenge();
      for (size_t j = 0; j < bits[i].size(); j++) v |= uint64_t(bits[i][j].value) << j;
      EXPECT_EQ(v, native[i]) << size << " partition " << k << " challenge " << i;
    }
  }
}

TEST(EmptySectorUpdate, Fake2KiBSatisfiesCircuitInEveryMode) {
  const FakeUpdate f = make_fake_update("2KiB", 7);
  ASSERT_EQ(f.partitions.size(), 1u);
  verify_update_partition(f.shape, 0, f.h, f.comms, f.partitions[0], "fake");
  const UpdateWitness w = update_partition_witness(0, f.h, f.comms, f.partitions[0]);
  auto run = test::run_modes([&](auto& cs) { synthesize_empty_sector_update(cs, f.shape, &w); });
  EXPECT_EQ(run.constraints, 1705039u);
  ASSERT_EQ(run.witness.inputs.size(), 5u);
  const std::vector<Fr> pi =
      update_public_inputs(f.shape, 0, f.h, f.comms.comm_r_old, f.comms.comm_d_new, f.comms.comm_r_new);
  EXPECT_EQ(std::vector<Fr>(run.witness.inputs.begin() + 1, run.witness.inputs.end()), pi);
  // The parallel witness is the same.
  ThreadPool pool(3);
  std::vector<Fr> full = run.witness.inputs;
  full.insert(full.end(), run.witness.aux.begin(), run.witness.aux.end());
  EXPECT_EQ(update_witness(f.shape, w, pool), full);
  // A wrong public input makes a row fail.
  run.witness.inputs[2] += Fr::one();
  EXPECT_TRUE(run.recording.first_unsatisfied(run.witness).has_value());
}

// Two partitions: both pass the vanilla verifier; partition 1 (whose partition bits and path are not
// zero) satisfies the circuit (one partition only: 6.3 M recorded rows take ~13 s on one core).
TEST(EmptySectorUpdate, Fake16KiBTwoPartitionsSatisfyCircuit) {
  const FakeUpdate f = make_fake_update("16KiB", 3);
  ASSERT_EQ(f.partitions.size(), 2u);
  for (uint32_t k = 0; k < 2; k++) verify_update_partition(f.shape, k, f.h, f.comms, f.partitions[k], "fake");
  const UpdateWitness w = update_partition_witness(1, f.h, f.comms, f.partitions[1]);
  TestCs cs;
  synthesize_empty_sector_update(cs, f.shape, &w);
  EXPECT_EQ(cs.num_constraints(), 6300021u);
  EXPECT_FALSE(cs.first_unsatisfied().has_value());
  EXPECT_EQ(cs.witness().inputs[1], update_k_and_h_select(f.shape, 1, f.h));
  ThreadPool pool(2);
  std::vector<Fr> full = cs.witness().inputs;
  full.insert(full.end(), cs.witness().aux.begin(), cs.witness().aux.end());
  EXPECT_EQ(update_witness(f.shape, w, pool), full);
  // Partition 1's proof is not partition 0's.
  EXPECT_THROW(verify_update_partition(f.shape, 0, f.h, f.comms, f.partitions[1], "fake"), Error);
}

// Uniform data: trees of any size in little memory. A 32 GiB update's first and last partitions pass the
// vanilla verifier; a 2 KiB one satisfies the circuit.
TEST(EmptySectorUpdate, FakeUniformAnySize) {
  const FakeUpdate big = make_fake_update("32GiB", 2, 0, FakeUpdateData::kUniform);
  ASSERT_EQ(big.partitions.size(), 16u);
  EXPECT_EQ(big.h, 10u);
  for (uint32_t k : {0u, 15u})
    verify_update_partition(big.shape, k, big.h, big.comms, big.partitions[k], "fake");
  EXPECT_NE(big.comms.comm_r_new, big.comms.comm_r_old);
  EXPECT_THROW(make_fake_update("32GiB", 2), Error);  // random data: too large
  const FakeUpdate f = make_fake_update("2KiB", 2, 0, FakeUpdateData::kUniform);
  const UpdateWitness w = update_partition_witness(0, f.h, f.comms, f.partitions[0]);
  TestCs cs;
  synthesize_empty_sector_update(cs, f.shape, &w);
  EXPECT_FALSE(cs.first_unsatisfied().has_value());
}

TEST(EmptySectorUpdate, VanillaVerifierNamesTheBadPart) {
  const FakeUpdate f = make_fake_update("2KiB", 11);
  auto expect_fail = [&](UpdatePartitionProof p, UpdateCommitments c, const std::string& needle) {
    try {
      verify_update_partition(f.shape, 0, f.h, c, p, "vp");
      ADD_FAILURE() << "accepted; expected: " << needle;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
    }
  };
  UpdatePartitionProof p = f.partitions[0];
  p.challenge_proofs[3].proof_r_new.leaf += Fr::one();
  expect_fail(p, f.comms, "challenge 3");
  p = f.partitions[0];
  p.apex_leafs[2] += Fr::one();
  expect_fail(p, f.comms, "apex");
  p = f.partitions[0];
  p.comm_c += Fr::one();
  expect_fail(p, f.comms, "comm_r_old");
  UpdateCommitments c = f.comms;
  c.comm_d_new += Fr::one();
  expect_fail(f.partitions[0], c, "challenge 0");
  // A witness whose new label is wrong is refused before synthesis.
  UpdateWitness w = update_partition_witness(0, f.h, f.comms, f.partitions[0]);
  w.challenges[1].leaf_r_new += Fr::one();
  WitnessCs cs;
  EXPECT_THROW(synthesize_empty_sector_update(cs, f.shape, &w), Error);
}

TEST(EmptySectorUpdate, BincodeRoundTripAndErrors) {
  const FakeUpdate f = make_fake_update("4KiB", 5);  // tree R 8-2: Sub proofs
  const std::vector<uint8_t> b = write_update_partition_proof(f.partitions[0]);
  // comm_c, apex length + 8 leaves, challenge length, 10 × (Sub variant + base path of 2 levels × 7 +
  // sub path of 1 level × 1 + root + leaf; Single + 7 levels × 1 + root + leaf; Sub again).
  const size_t sub = 4 + 8 + 2 * (8 + 7 * 32 + 8) + 8 + (8 + 32 + 8) + 64;
  const size_t single = 4 + 64 + 8 + 7 * (8 + 32 + 8);
  EXPECT_EQ(b.size(), 32 + 8 + 8 * 32 + 8 + 10 * (2 * sub + single));
  const UpdatePartitionProof r = read_update_partition_proof(b, f.shape, "p0");
  EXPECT_EQ(write_update_partition_proof(r), b);
  verify_update_partition(f.shape, 0, f.h, f.comms, r, "p0");

  auto expect_err = [&](std::vector<uint8_t> bytes, const UpdateShape& s, const std::string& needle) {
    try {
      read_update_partition_proof(bytes, s, "p0.bin");
      ADD_FAILURE() << "accepted; expected: " << needle;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("p0.bin"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
    }
  };
  expect_err(std::vector<uint8_t>(b.begin(), b.end() - 1), f.shape, "truncated");
  std::vector<uint8_t> extra = b;
  extra.push_back(0);
  expect_err(extra, f.shape, "after the partition proof");
  expect_err(b, update_shape("2KiB"), "proof_r_old");  // a Sub proof where 2 KiB needs Single
  std::vector<uint8_t> big = b;
  for (int i = 0; i < 32; i++) big[i] = 0xff;
  expect_err(big, f.shape, "comm_c");
}

}  // namespace
}  // namespace cuzk::circuits
