// Filecoin's fallback PoSt circuit (src/circuits/fallback_post.*), its vanilla proofs
// (src/formats/post_vanilla.*, fake_post.*): upstream's constraint counts, satisfiability from fake
// inputs with the public inputs computed apart from the circuit, the bincode reader's errors, and a
// Groth16 round trip at 2 KiB.
#include <gtest/gtest.h>

#include <algorithm>

#include "circuits/fallback_post.hpp"
#include "formats/fake_c1.hpp"
#include "formats/fake_post.hpp"
#include "gadgets/modes.hpp"
#include "groth16/cpu_backend.hpp"
#include "groth16/prover.hpp"
#include "groth16/setup.hpp"
#include "groth16/synthesis.hpp"
#include "groth16/verifier.hpp"
#include "hash/fr32.hpp"
#include "util/thread_pool.hpp"

namespace cuzk::circuits {
namespace {

using test::run_modes;

struct Counts {
  size_t inputs, aux, constraints;
};
Counts count_post(const PostShape& shape) {
  CountCs cs;
  synthesize_fallback_post(cs, shape, nullptr);
  return {cs.num_inputs(), cs.num_aux(), cs.num_constraints()};
}

// ---- upstream's circuit tests (storage-proofs-post tests/fallback_circuit.rs) ------------------------
// test_fallback_post(total_sector_count, sector_count, partitions, expected_num_inputs,
// expected_constraints): 64 leaves per base tree, 5 challenges per sector; the counts are those of one
// partition (sector_count sectors), independent of how many sectors the proof has in all.
TEST(FallbackPostCircuit, UpstreamSinglePartitionBase8) {
  const Counts c = count_post(post_test_shape({8, 2, 0, 0}, 3, 5));
  EXPECT_EQ(c.inputs, 19u);
  EXPECT_EQ(c.constraints, 16869u);
}
TEST(FallbackPostCircuit, UpstreamSinglePartitionSub8_4) {
  const Counts c = count_post(post_test_shape({8, 2, 4, 0}, 3, 5));
  EXPECT_EQ(c.inputs, 19u);
  EXPECT_EQ(c.constraints, 22674u);
}
TEST(FallbackPostCircuit, UpstreamSinglePartitionTop8_4_2) {
  const Counts c = count_post(post_test_shape({8, 2, 4, 2}, 3, 5));
  EXPECT_EQ(c.inputs, 19u);
  EXPECT_EQ(c.constraints, 27384u);
}
TEST(FallbackPostCircuit, UpstreamTwoPartitionsBase8) {
  const Counts c = count_post(post_test_shape({8, 2, 0, 0}, 2, 5));
  EXPECT_EQ(c.inputs, 13u);
  EXPECT_EQ(c.constraints, 11246u);
}

// ---- production shapes, counted without recording ----------------------------------------------------
// WindowPoSt 32 GiB and 64 GiB: rust-fil-proofs filecoin-proofs src/constants.rs WINDOW_POST_SECTOR_COUNT
// ("this gives 125,279,217 constraints", "129,887,900 constraints"). The other totals follow from the
// per-part costs that upstream's PoR tests fix (tests/gadgets/test_porep_circuit.cpp FilecoinCosts):
// per sector 1 (inputize) + 311 (Poseidon2) + 1 (equality), per challenge the inclusion (530 per arity-8
// level, 314 per arity-2 level, + 2).
TEST(FallbackPostCircuit, ProductionWindow32GiBCount) {
  const Counts c = count_post(post_shape(PostType::kWindow, "32GiB"));
  EXPECT_EQ(c.constraints, 125279217u);
  EXPECT_EQ(c.inputs, 1u + 2349 * 11);
}
TEST(FallbackPostCircuit, ProductionWindow64GiBCount) {
  const Counts c = count_post(post_shape(PostType::kWindow, "64GiB"));
  EXPECT_EQ(c.constraints, 129887900u);
  EXPECT_EQ(c.inputs, 1u + 2300 * 11);
}
TEST(FallbackPostCircuit, ProductionSmallShapesCount) {
  struct Row {
    PostType type;
    const char* size;
    size_t sectors, challenges, inclusion;
  };
  const Row rows[] = {
      {PostType::kWindow, "2KiB", 2, 10, 2 * 530 + 2},
      {PostType::kWindow, "8MiB", 2, 10, 6 * 530 + 2},
      {PostType::kWindow, "512MiB", 2, 10, 8 * 530 + 2},
      {PostType::kWinning, "2KiB", 66, 1, 2 * 530 + 2},
      {PostType::kWinning, "8MiB", 66, 1, 6 * 530 + 2},
      {PostType::kWinning, "512MiB", 66, 1, 8 * 530 + 2},
      {PostType::kWinning, "32GiB", 66, 1, 10 * 530 + 2},
      {PostType::kWinning, "64GiB", 66, 1, 10 * 530 + 314 + 2},
  };
  for (const Row& r : rows) {
    const PostShape shape = post_shape(r.type, r.size);
    EXPECT_EQ(shape.sectors, r.sectors) << shape.name;
    EXPECT_EQ(shape.challenges, r.challenges) << shape.name;
    const Counts c = count_post(shape);
    EXPECT_EQ(c.constraints, r.sectors * (313 + r.challenges * r.inclusion)) << shape.name;
    EXPECT_EQ(c.inputs, 1 + r.sectors * (1 + r.challenges)) << shape.name;
    EXPECT_EQ(c.inputs, shape.num_inputs()) << shape.name;
  }
  EXPECT_EQ(count_post(post_shape(PostType::kWinning, "32GiB")).constraints, 370590u);
  EXPECT_THROW(post_shape(PostType::kWindow, "4KiB"), Error);
}

// The replicated rows equal recording the whole circuit (a test shape with a sub and top level, and the
// 2 KiB WindowPoSt and WinningPoSt circuits).
TEST(FallbackPostCircuit, ReplicationEqualsFullRecording) {
  ThreadPool pool(2);
  for (const PostShape& shape : {post_test_shape({8, 2, 4, 2}, 3, 5), post_shape(PostType::kWindow, "2KiB"),
                                 post_shape(PostType::kWinning, "2KiB")}) {
    RecordCs rec;
    synthesize_fallback_post(rec, shape, nullptr);
    const ConstraintSystem want = rec.take_recording().to_constraint_system();
    const ConstraintSystem got = expand(fallback_post_compact_cs(shape, pool), pool);
    EXPECT_EQ(got.log_n, want.log_n) << shape.name;
    EXPECT_EQ(got.n_inputs, want.n_inputs) << shape.name;
    EXPECT_EQ(got.n_aux, want.n_aux) << shape.name;
    EXPECT_TRUE(got.a == want.a) << shape.name;
    EXPECT_TRUE(got.b == want.b) << shape.name;
    EXPECT_TRUE(got.c == want.c) << shape.name;
    EXPECT_TRUE(got.a_aux == want.a_aux && got.b_aux == want.b_aux && got.b_inp == want.b_inp) << shape.name;
  }
}

// Filecoin's parameter files (rust-fil-proofs parameters.json): the SHA-256 of each shape's identifier.
TEST(FallbackPostCircuit, ParamStemsAreFilecoins) {
  struct Row {
    PostType type;
    const char* size;
    const char* stem;
  };
  const Row rows[] = {
      {PostType::kWinning, "2KiB", "8-0-0-3ea05428c9d11689f23529cde32fd30aabd50f7d2c93657c1d3650bca3e8ea9e"},
      {PostType::kWindow, "2KiB", "8-0-0-0170db1f394b35d995252228ee359194b13199d259380541dc529fb0099096b0"},
      {PostType::kWinning, "8MiB", "8-0-0-50c7368dea9593ed0989e70974d28024efa9d156d585b7eea1be22b2e753f331"},
      {PostType::kWindow, "8MiB", "8-0-0-5294475db5237a2e83c3e52fd6c2b03859a1831d45ed08c4f35dbf9a803165a9"},
      {PostType::kWinning, "512MiB",
       "8-0-0-7d739b8cf60f1b0709eeebee7730e297683552e4b69cab6984ec0285663c5781"},
      {PostType::kWindow, "512MiB", "8-0-0-0cfb4f178bbb71cf2ecfcd42accce558b27199ab4fb59cb78f2483fe21ef36d9"},
      {PostType::kWinning, "32GiB", "8-8-0-559e581f022bb4e4ec6e719e563bf0e026ad6de42e56c18714a2c692b1b88d7e"},
      {PostType::kWindow, "32GiB", "8-8-0-0377ded656c6f524f1618760bffe4e0a1c51d5a70c4509eedae8a27555733edc"},
      {PostType::kWinning, "64GiB", "8-8-2-b62098629d07946e9028127e70295ed996fe3ed25b0f9f88eb610a0ab4385a3c"},
      {PostType::kWindow, "64GiB", "8-8-2-2627e4006b67f99cef990c0a47d5426cb7ab0a0ad58fc1061547bf2d28b09def"},
  };
  for (const Row& r : rows)
    EXPECT_EQ(post_param_stem(post_shape(r.type, r.size)),
              std::string("v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-") + r.stem);
}

TEST(FallbackPostCircuit, RegisteredProofs) {
  ASSERT_EQ(registered_post_proofs().size(), 15u);
  for (size_t i = 0; i < 15; i++) EXPECT_EQ(registered_post_proofs()[i].id, i);
  EXPECT_EQ(registered_post_proof_by_id(3).name, "StackedDrgWinning32GiBV1");
  EXPECT_EQ(registered_post_proof_by_id(13).api, PostApiVersion::kV1_2_0);
  EXPECT_EQ(registered_post_proof("StackedDrgWindow32GiBV1_1").id, 13u);  // filecoin-ffi's name
  EXPECT_EQ(registered_post_proof("StackedDrgWindow2KiBV1").type, PostType::kWindow);
  EXPECT_THROW(registered_post_proof_by_id(15), Error);
  EXPECT_THROW(registered_post_proof("StackedDrgWinning2KiBV1_1"), Error);
}

TEST(FallbackPostCircuit, ProverIdIsLeb128) {
  auto id = post_prover_id(1000);  // 1000 = 0b111_1101000: 0xe8, 0x07
  EXPECT_EQ(id[0], 0xe8);
  EXPECT_EQ(id[1], 0x07);
  EXPECT_EQ(id[2], 0);
  EXPECT_EQ(post_prover_id(5)[0], 5);
  EXPECT_EQ(post_prover_id(5)[1], 0);
}

// Challenges: the SHA-256 layout, against a digest computed here.
TEST(FallbackPostCircuit, LeafChallengeLayout) {
  std::array<uint8_t, 32> randomness{};
  for (int i = 0; i < 32; i++) randomness[i] = uint8_t(7 * i);
  std::vector<uint8_t> msg(randomness.begin(), randomness.end());
  for (uint64_t v : {uint64_t{0x1122334455667788}, uint64_t{42}})
    for (int i = 0; i < 8; i++) msg.push_back(uint8_t(v >> (8 * i)));
  const auto d = Sha256::hash(msg);
  uint64_t want = 0;
  for (int i = 7; i >= 0; i--) want = (want << 8) | d[i];
  EXPECT_EQ(post_leaf_challenge(randomness, 0x1122334455667788, 42, uint64_t{1} << 30),
            want % (uint64_t{1} << 30));
  EXPECT_EQ(post_challenge_index(PostApiVersion::kV1_0_0, 3, 10, 4), 34u);
  EXPECT_EQ(post_challenge_index(PostApiVersion::kV1_2_0, 3, 10, 4), 4u);
}

// ---- fake inputs at 2 KiB: the circuit is satisfied and its inputs are the independent ones -----------

// Synthesizes `fake`'s partition in all four modes; returns the run (its witness's inputs checked).
test::ModeRun check_fake(const FakePost& fake) {
  const PostShape shape = fake.proof.shape();
  const PostPartition part = post_partition(fake.proof, fake.vanilla, fake.randomness, fake.partition);
  test::ModeRun r = run_modes([&](auto& cs) { synthesize_fallback_post(cs, shape, &part.witness); });
  EXPECT_EQ(r.inputs, shape.num_inputs());
  const std::vector<Fr> want = fallback_post_public_inputs(shape, fake.proof.api, fake.randomness,
                                                           part.public_sectors, part.partition);
  EXPECT_EQ(std::vector<Fr>(r.witness.inputs.begin() + 1, r.witness.inputs.end()), want);
  return r;
}

TEST(FallbackPostCircuit, FakeWindow2KiBSatisfies) {
  // Both api versions, a full partition and a padded one (1 sector of 2), partition 0 and 3.
  for (uint32_t id : {5u, 10u}) {
    check_fake(make_fake_post(registered_post_proof_by_id(id), 2, 0, 11 + id));
    test::ModeRun r = check_fake(make_fake_post(registered_post_proof_by_id(id), 1, 3, 12 + id));
    // Padding repeats the last sector: its inputs appear twice.
    const size_t per = 11;
    EXPECT_TRUE(std::equal(r.witness.inputs.begin() + 1, r.witness.inputs.begin() + 1 + per,
                           r.witness.inputs.begin() + 1 + per));
    // A changed comm_c (aux 1 of the first sector) breaks comm_r = Poseidon2(comm_c, comm_r_last).
    EXPECT_TRUE(test::change_fails(r, 1, r.witness.aux[1] + Fr::one()));
  }
}

TEST(FallbackPostCircuit, FakeWinning2KiBSatisfies) {
  const FakePost fake = make_fake_post(registered_post_proof_by_id(0), 1, 0, 5);
  test::ModeRun r = check_fake(fake);
  EXPECT_EQ(r.inputs, 1u + 66 * 2);
  // A changed leaf of circuit sector 65 no longer opens to comm_r_last.
  PostPartition part = post_partition(fake.proof, fake.vanilla, fake.randomness, 0);
  part.witness.sectors[65].leafs[0] += Fr::one();
  TestCs cs;
  synthesize_fallback_post(cs, fake.proof.shape(), &part.witness);
  EXPECT_TRUE(cs.first_unsatisfied().has_value());
}

// The witness made sector by sector on a pool equals the sequential synthesis.
TEST(FallbackPostCircuit, ParallelWitnessEqualsSequential) {
  ThreadPool pool(2);
  for (uint32_t id : {0u, 5u}) {
    const FakePost fake = make_fake_post(registered_post_proof_by_id(id), id ? 2 : 1, 0, 60 + id);
    const PostShape shape = fake.proof.shape();
    const PostPartition part = post_partition(fake.proof, fake.vanilla, fake.randomness, 0);
    WitnessCs cs;
    synthesize_fallback_post(cs, shape, &part.witness);
    const Witness want = cs.take_witness();
    std::vector<Fr> inputs(want.inputs.size()), aux(want.aux.size());
    fallback_post_witness_into(shape, part.witness, pool, inputs, aux);
    EXPECT_EQ(inputs, want.inputs) << shape.name;
    EXPECT_EQ(aux, want.aux) << shape.name;
    aux.pop_back();
    EXPECT_THROW(fallback_post_witness_into(shape, part.witness, pool, inputs, aux), Error);
  }
}

TEST(FallbackPostCircuit, WitnessOfWrongShapeIsRefused) {
  const FakePost fake = make_fake_post(registered_post_proof_by_id(5), 2, 0, 3);
  PostPartition part = post_partition(fake.proof, fake.vanilla, fake.randomness, 0);
  part.witness.sectors.pop_back();
  WitnessCs cs;
  EXPECT_THROW(synthesize_fallback_post(cs, fake.proof.shape(), &part.witness), Error);
}

// ---- vanilla proofs: bincode round trip, bad input named, vanilla verification ------------------------

std::string error_of(auto&& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(PostVanilla, BincodeRoundTripAndLayout) {
  for (uint32_t id : {0u, 8u, 14u}) {  // Single (2 KiB), Sub (32 GiB), Top (64 GiB) Merkle proofs
    const RegisteredPostProof& p = registered_post_proof_by_id(id);
    const FakePost fake = make_fake_post(p, 1, 0, id);
    const std::vector<uint8_t> bytes = write_post_vanilla_proof(fake.vanilla[0]);
    const PostVanillaProof back = read_post_vanilla_proof(bytes, p.shape().tree_r, "v");
    EXPECT_EQ(write_post_vanilla_proof(back), bytes);
    EXPECT_EQ(back.sector_id, fake.vanilla[0].sector_id);
    EXPECT_EQ(back.comm_r, fake.vanilla[0].comm_r);
    // bincode: sector_id u64, comm_r 32 bytes, 1 SectorProof, its inclusion-proof count, the first's
    // variant (u32), then for Single its root.
    uint64_t sid = 0;
    for (int i = 7; i >= 0; i--) sid = (sid << 8) | bytes[i];
    EXPECT_EQ(sid, fake.vanilla[0].sector_id);
    EXPECT_EQ(bytes[40], 1);
    EXPECT_EQ(bytes[48], id == 0 ? 66 : 10);
    EXPECT_EQ(bytes[56], id == 0 ? 0 : id == 8 ? 1 : 2);
  }
}

TEST(PostVanilla, BadBytesAreNamed) {
  const RegisteredPostProof& p = registered_post_proof_by_id(5);
  const TreeShape tree = p.shape().tree_r;
  const std::vector<uint8_t> good = write_post_vanilla_proof(make_fake_post(p, 1, 0, 9).vanilla[0]);
  auto read = [&](std::vector<uint8_t> b) {
    return error_of([&] { read_post_vanilla_proof(b, tree, "v.bin"); });
  };
  EXPECT_EQ(read(good), "");
  std::vector<uint8_t> b = good;
  b.resize(b.size() - 1);
  EXPECT_NE(read(b).find("truncated"), std::string::npos) << read(b);
  b = good;
  b.push_back(0);
  EXPECT_NE(read(b).find("1 trailing bytes"), std::string::npos) << read(b);
  b = good;
  b[56] = 7;  // the first MerkleProof's variant
  EXPECT_NE(read(b).find("inclusion_proofs[0].data: unknown MerkleProof variant 7"), std::string::npos)
      << read(b);
  b = good;
  b[56] = 1;  // Sub for a Single tree
  EXPECT_NE(read(b).find("a Sub proof for a tree that takes Single"), std::string::npos) << read(b);
  b = good;
  for (int i = 0; i < 32; i++) b[8 + i] = 0xff;  // comm_r ≥ r
  EXPECT_NE(read(b).find("byte 8: comm_r: not a field element"), std::string::npos) << read(b);
  // The first path level: after variant (4), root, leaf (64), levels (8), sibling count (8), 7 siblings.
  b = good;
  b[60 + 64 + 8 + 8 + 7 * 32] = 8;  // index 8 ≥ arity 8
  EXPECT_NE(read(b).find("path.path[0].index: 8 ≥ arity 8"), std::string::npos) << read(b);
  b = good;
  b[48] = 0xff;
  b[55] = 0x7f;  // an absurd inclusion-proof count
  EXPECT_NE(read(b).find("inclusion_proofs: length"), std::string::npos) << read(b);
}

TEST(PostVanilla, SerdeJsonRoundTrip) {
  for (uint32_t id : {0u, 8u, 14u}) {
    const RegisteredPostProof& p = registered_post_proof_by_id(id);
    const PostVanillaProof v = make_fake_post(p, 1, 0, 40 + id).vanilla[0];
    const std::string text = write_post_vanilla_proof_json(v);
    const PostVanillaProof back = read_post_vanilla_proof_json(
        {reinterpret_cast<const uint8_t*>(text.data()), text.size()}, p.shape().tree_r, "v.json");
    EXPECT_EQ(write_post_vanilla_proof(back), write_post_vanilla_proof(v)) << p.name;
    EXPECT_EQ(write_post_vanilla_proof_json(back), text);
    EXPECT_EQ(text.rfind("{\"sector_id\":" + std::to_string(v.sector_id) + ",\"comm_r\":[", 0), 0u);
  }
}

// A MerkleProof's JSON is the same text as in a C1 (formats/c1.hpp write_c1_json, serde's byte for byte).
TEST(PostVanilla, MerkleProofJsonIsTheC1Writers) {
  const FakeSector fs = make_fake_sector("StackedDrg2KiBV1_1", 3);
  const std::string c1 = write_c1_json(fs.c1);
  const std::string key = "\"comm_r_last_proof\":", next = ",\"replica_column_proofs\"";
  const size_t at = c1.find(key) + key.size();
  const std::string merkle = c1.substr(at, c1.find(next, at) - at);
  PostVanillaProof v;
  v.sector_id = 1;
  v.sectors.push_back({{fs.c1.vanilla_proofs[0][0].comm_r_last_proof}, Fr::one(), Fr::one()});
  EXPECT_NE(write_post_vanilla_proof_json(v).find("\"inclusion_proofs\":[" + merkle + "]"), std::string::npos)
      << merkle;
}

TEST(PostVanilla, BadJsonIsNamed) {
  const RegisteredPostProof& p = registered_post_proof_by_id(5);
  const std::string good = write_post_vanilla_proof_json(make_fake_post(p, 1, 0, 9).vanilla[0]);
  auto read = [&](const std::string& t) {
    return error_of([&] {
      read_post_vanilla_proof_json({reinterpret_cast<const uint8_t*>(t.data()), t.size()}, p.shape().tree_r,
                                   "v.json");
    });
  };
  EXPECT_EQ(read(good), "");
  EXPECT_NE(read(good.substr(0, 100)).find("v.json: (document): malformed or truncated JSON"),
            std::string::npos);
  auto edited = [&](const std::string& from, const std::string& to) {
    std::string t = good;
    const size_t at = t.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    return t.replace(at, from.size(), to);
  };
  EXPECT_NE(read(edited("\"sector_id\"", "\"sector\"")).find("v.json: sector_id: missing"),
            std::string::npos);
  EXPECT_NE(read(edited("\"Single\"", "\"Double\""))
                .find("inclusion_proofs[0].data: unknown MerkleProof variant 'Double'"),
            std::string::npos);
  EXPECT_NE(read(edited("\"comm_r\":[", "\"comm_r\":[300,")).find("comm_r: not an array of 32 bytes"),
            std::string::npos);
  EXPECT_NE(read(edited("\"index\":", "\"index\":1")).find(".path.path[0].index: "), std::string::npos);
}

TEST(PostVanilla, PartitionChecksTheVanillaProofs) {
  const RegisteredPostProof& p = registered_post_proof_by_id(10);
  const FakePost fake = make_fake_post(p, 2, 0, 21);
  ThreadPool pool(2);
  // Checked in order and on a pool (sectors in parallel): the same error, the first sector's.
  auto err = [&](const std::vector<PostVanillaProof>& v, const std::array<uint8_t, 32>& rnd, size_t k) {
    const std::string in_order = error_of([&] { post_partition(p, v, rnd, k); });
    EXPECT_EQ(error_of([&] { post_partition(p, v, rnd, k, &pool); }), in_order);
    return in_order;
  };
  EXPECT_EQ(err(fake.vanilla, fake.randomness, 0), "");
  std::array<uint8_t, 32> other = fake.randomness;
  other[0] ^= 1;
  EXPECT_NE(err(fake.vanilla, other, 0).find("challenge 0: opens leaf"), std::string::npos);
  std::vector<PostVanillaProof> v = fake.vanilla;
  v[1].sectors[0].inclusion_proofs[3].leaf += Fr::one();
  EXPECT_NE(err(v, fake.randomness, 0)
                .find("vanilla proof 1 (sector " + std::to_string(v[1].sector_id) +
                      "), challenge 3: the inclusion path does not hash"),
            std::string::npos)
      << err(v, fake.randomness, 0);
  v[0].sectors[0].inclusion_proofs[5].leaf += Fr::one();  // both sectors fail: the first is named
  EXPECT_NE(err(v, fake.randomness, 0)
                .find("vanilla proof 0 (sector " + std::to_string(v[0].sector_id) +
                      "), challenge 5: the inclusion path does not hash"),
            std::string::npos);
  v = fake.vanilla;
  v[0].comm_r += Fr::one();
  EXPECT_NE(err(v, fake.randomness, 0).find("comm_r is not Poseidon"), std::string::npos);
  v = fake.vanilla;
  v[1].sectors[0].comm_r_last += Fr::one();
  EXPECT_NE(err(v, fake.randomness, 0).find("comm_r_last is not the root"), std::string::npos);
  v = fake.vanilla;
  v[1].sector_id = v[0].sector_id;
  EXPECT_NE(err(v, fake.randomness, 0).find("appears twice"), std::string::npos);
  v = fake.vanilla;
  v.push_back(v[0]);
  v.back().sector_id += 1000;
  EXPECT_NE(err(v, fake.randomness, 0).find("3 vanilla proofs; a WindowPoSt partition takes at most 2"),
            std::string::npos);
  v = fake.vanilla;
  v[0].sectors[0].inclusion_proofs.pop_back();
  EXPECT_NE(err(v, fake.randomness, 0).find("9 inclusion proofs"), std::string::npos);
  // WinningPoSt: one sector.
  const FakePost win = make_fake_post(registered_post_proof_by_id(0), 1, 0, 2);
  EXPECT_EQ(error_of([&] { post_partition(win.proof, win.vanilla, win.randomness, 0); }), "");
  std::vector<PostVanillaProof> two = {win.vanilla[0], win.vanilla[0]};
  two[1].sector_id++;
  EXPECT_NE(error_of([&] { post_partition(win.proof, two, win.randomness, 0); }).find("WinningPoSt takes 1"),
            std::string::npos);
}

// ---- a Groth16 round trip at 2 KiB: setup, prove, verify ---------------------------------------------

TEST(FallbackPostGroth16, Window2KiBProvesAndVerifies) {
  const RegisteredPostProof& p = registered_post_proof_by_id(10);
  const PostShape shape = p.shape();
  RecordCs rec;
  synthesize_fallback_post(rec, shape, nullptr);
  const ConstraintSystem cs = rec.take_recording().to_constraint_system();

  const FakePost fake = make_fake_post(p, 2, 1, 77);
  const PostPartition part = post_partition(p, fake.vanilla, fake.randomness, fake.partition);
  WitnessCs wit;
  synthesize_fallback_post(wit, shape, &part.witness);
  const Witness w = wit.take_witness();
  std::vector<Fr> full(w.inputs);
  full.insert(full.end(), w.aux.begin(), w.aux.end());

  CpuBackend backend(2);
  const ProvingKey key = setup(cs, ToxicWaste::from_seed(9), backend.pool());
  ProveResult res = prove(key, synthesize(cs, full, backend.pool()), backend, ProveOptions{});
  const std::vector<Fr> want =
      fallback_post_public_inputs(shape, p.api, fake.randomness, part.public_sectors, 1);
  EXPECT_EQ(res.public_inputs, want);
  const VerifyingKey vk = key.verifying_key();
  EXPECT_TRUE(verify(vk, want, res.proof));
  // The challenges of the other api version (sector_index · 10 + n instead of n) do not verify.
  EXPECT_FALSE(verify(
      vk,
      fallback_post_public_inputs(shape, PostApiVersion::kV1_0_0, fake.randomness, part.public_sectors, 1),
      res.proof));
  std::vector<Fr> wrong = want;
  wrong[0] += Fr::one();
  EXPECT_FALSE(verify(vk, wrong, res.proof));
}

}  // namespace
}  // namespace cuzk::circuits
