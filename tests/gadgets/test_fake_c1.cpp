// Fake sectors (src/formats/fake_c1.hpp): the C1 reads back, its witness satisfies the StackedCircuit
// and its public inputs equal both the circuit's and verify_seal's (computed from the chain data alone);
// one with its comm_r changed is refused by engine::check_c1_comm_r (and would not satisfy the circuit).
#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "circuits/stacked.hpp"
#include "engine/porep.hpp"
#include "formats/fake_c1.hpp"
#include "hash/fr32.hpp"
#include "util/error.hpp"
#include "util/thread_pool.hpp"

namespace cuzk {
namespace {

void check_fake_sector(const std::string& proof, uint64_t seed, bool full_check) {
  const FakeSector fs = make_fake_sector(proof, seed);
  const std::string json = write_c1_json(fs.c1);
  const C1Output c1 = read_c1({reinterpret_cast<const uint8_t*>(json.data()), json.size()}, proof + ".json");
  EXPECT_EQ(write_c1_json(c1), json);
  const circuits::StackedShape shape = shape_of(c1);
  const sdr::PoRepConfig cfg = sdr::porep_config(*sdr::registered_seal_proof_from_name(proof));
  const sdr::SdrGraph graph(cfg.nodes(), cfg.porep_id, cfg.api_version);
  ThreadPool pool(2);
  const circuits::StackedLayout layout = circuits::stacked_layout(shape);
  for (size_t k = 0; k < c1.vanilla_proofs.size(); k++) {
    const circuits::StackedWitness w = partition_witness(c1, k, shape);
    const std::vector<Fr> full = circuits::stacked_witness(shape, w, layout, pool);
    const std::vector<Fr> chain = sdr::partition_public_inputs(cfg, graph, fs.seal, (uint32_t)k);
    ASSERT_EQ(chain.size() + 1, layout.n_inputs);
    EXPECT_TRUE(std::equal(chain.begin(), chain.end(), full.begin() + 1)) << proof << " partition " << k;
    Fr rid, cd, cr;
    ASSERT_TRUE(fr_from_bytes(c1.replica_id.data(), rid) && fr_from_bytes(c1.comm_d.data(), cd) &&
                fr_from_bytes(c1.comm_r.data(), cr));
    const std::vector<Fr> from_c1 =
        circuits::stacked_public_inputs(rid, cd, cr, partition_challenges(c1, k), partition_parents(c1, k));
    EXPECT_EQ(from_c1, chain);
    EXPECT_EQ(partition_public_inputs(c1, k), chain);
    if (full_check) {
      circuits::TestCs cs;
      circuits::synthesize_stacked(cs, shape, &w);
      auto bad = cs.first_unsatisfied();
      EXPECT_FALSE(bad.has_value()) << proof << ": row " << *bad;
      EXPECT_TRUE(
          std::equal(cs.witness().aux.begin(), cs.witness().aux.end(), full.begin() + layout.n_inputs));
    }
  }
}

TEST(FakeC1, TwoKiBSatisfiesAndInputsMatchTheChain) { check_fake_sector("StackedDrg2KiBV1_1", 1, true); }
TEST(FakeC1, TwoKiBV1) { check_fake_sector("StackedDrg2KiBV1", 2, true); }

TEST(FakeC1, AnOpeningThatLeadsElsewhereIsNamedBeforeProving) {
  // Each kind of opening of challenge 1 corrupted in turn (a leaf, a column row, a path sibling):
  // stacked_witness names the first opening that does not lead to its root, and
  // engine::porep_partition_witness refuses the partition with it (before any proving); the sound C1
  // has none.
  const C1Output good = make_fake_sector("StackedDrg2KiBV1_1", 3).c1;
  const circuits::StackedShape shape = shape_of(good);
  const circuits::StackedLayout layout = circuits::stacked_layout(shape);
  ThreadPool pool(2);
  std::string bad = "not cleared";
  circuits::stacked_witness(shape, partition_witness(good, 0, shape), layout, pool, nullptr, &bad);
  EXPECT_EQ(bad, "");
  const std::shared_ptr<const engine::PorepCircuit> circuit = engine::porep_circuit("2KiB", pool);
  EXPECT_NO_THROW(engine::porep_partition_witness(good, 0, *circuit, pool));
  const std::string node = std::to_string(good.vanilla_proofs[0][1].labeling_proofs[0].node);
  auto bump = [](Fr& x) { x = x + Fr::one(); };
  struct Case {
    std::function<void(C1VanillaProof&)> corrupt;
    std::string says;
  };
  const std::vector<Case> cases = {
      {[&](C1VanillaProof& v) { bump(v.comm_d_proofs.leaf); },
       "the data leaf's path in tree D does not lead to comm_d"},
      {[&](C1VanillaProof& v) { bump(v.comm_d_proofs.path[2].siblings[0]); },
       "the data leaf's path in tree D does not lead to comm_d"},
      {[&](C1VanillaProof& v) { bump(v.replica_column_proofs.drg_parents[2].rows[0]); },
       "the column of DRG parent 2 does not lead to comm_c"},
      {[&](C1VanillaProof& v) {
         bump(v.replica_column_proofs.exp_parents[5].inclusion_proof.path[0].siblings[1]);
       },
       "the column of expander parent 5 does not lead to comm_c"},
      {[&](C1VanillaProof& v) { bump(v.comm_r_last_proof.path[1].siblings[3]); },
       "the replica leaf's path in tree R does not lead to comm_r_last"},
      {[&](C1VanillaProof& v) { bump(v.replica_column_proofs.c_x.inclusion_proof.path[0].siblings[0]); },
       "the challenged column (its labels) does not lead to comm_c"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.says);
    C1Output c1 = good;
    c.corrupt(c1.vanilla_proofs[0][1]);
    circuits::stacked_witness(shape, partition_witness(c1, 0, shape), layout, pool, nullptr, &bad);
    EXPECT_EQ(bad, "challenge 1 (node " + node + "): " + c.says);
    try {
      engine::porep_partition_witness(c1, 0, *circuit, pool);
      ADD_FAILURE() << "no error";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::kInvalidArgument);
      EXPECT_NE(std::string(e.what()).find("vanilla_proof: partition 0: challenge 1 (node " + node +
                                           "): " + c.says),
                std::string::npos)
          << e.what();
    }
  }
}

TEST(FakeC1, DeterministicFromTheSeed) {
  EXPECT_EQ(write_c1_json(make_fake_sector("StackedDrg2KiBV1_1", 7).c1),
            write_c1_json(make_fake_sector("StackedDrg2KiBV1_1", 7).c1));
  EXPECT_NE(write_c1_json(make_fake_sector("StackedDrg2KiBV1_1", 7).c1),
            write_c1_json(make_fake_sector("StackedDrg2KiBV1_1", 8).c1));
}

// A C1 whose comm_r was changed (byte 0 ^ 1: still < r, so read_c1 takes it) is refused by
// check_c1_comm_r naming comm_r; its witness does not satisfy the circuit, which is what the check saves
// a prover from finding out after synthesis (issue 36 item N4).
TEST(FakeC1, ACommRNotPoseidonOfCommCAndCommRLastIsRefused) {
  FakeSector fs = make_fake_sector("StackedDrg2KiBV1_1", 3);
  EXPECT_NO_THROW(engine::check_c1_comm_r(fs.c1, "c1.json"));
  fs.c1.comm_r[0] ^= 1;
  const std::string json = write_c1_json(fs.c1);
  const C1Output c1 = read_c1({reinterpret_cast<const uint8_t*>(json.data()), json.size()}, "c1.json");
  try {
    engine::check_c1_comm_r(c1, "c1.json");
    ADD_FAILURE() << "a changed comm_r was accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kInvalidFile);
    EXPECT_EQ(std::string(e.what()).rfind("c1.json: comm_r ", 0), 0u) << e.what();
    EXPECT_NE(std::string(e.what()).find("is not Poseidon(comm_c, comm_r_last)"), std::string::npos)
        << e.what();
  }
  const circuits::StackedShape shape = shape_of(c1);
  const circuits::StackedWitness w = partition_witness(c1, 0, shape);
  circuits::TestCs cs;
  circuits::synthesize_stacked(cs, shape, &w);
  EXPECT_TRUE(cs.first_unsatisfied().has_value());
}

TEST(FakeC1, NonInteractiveProofsAreRefused) {
  EXPECT_THROW(make_fake_sector("StackedDrg2KiBV1_2_Feat_NonInteractivePoRep", 1), Error);
  EXPECT_THROW(make_fake_sector("StackedDrg2KiBV1_1_Feat_SyntheticPoRep", 1), Error);
  EXPECT_THROW(make_fake_sector("StackedDrg3KiBV1", 1), Error);
}

}  // namespace
}  // namespace cuzk

namespace cuzk {
namespace {

// Every production shape: the fake sector's first challenge (of its last partition) satisfies the
// StackedCircuit, checked row by row on a one-challenge circuit of that shape (the full 8 MiB and 2 KiB
// circuits are proved end to end by tests/cli/porep.sh, 32 GiB on the H200: docs/PERFORMANCE.md §11).
TEST(FakeC1, EveryShapeSatisfiesTheCircuit) {
  for (const char* size : {"2KiB", "8MiB", "512MiB", "32GiB", "64GiB"}) {
    const FakeSector fs = make_fake_sector(std::string("StackedDrg") + size + "V1_1", 5);
    circuits::StackedShape shape = shape_of(fs.c1);
    circuits::StackedWitness w = partition_witness(fs.c1, fs.c1.vanilla_proofs.size() - 1, shape);
    shape.challenges = 1;
    w.challenges.resize(1);
    circuits::TestCs cs;
    circuits::synthesize_stacked(cs, shape, &w);
    auto bad = cs.first_unsatisfied();
    EXPECT_FALSE(bad.has_value()) << size << ": row " << *bad;
  }
}

}  // namespace
}  // namespace cuzk
