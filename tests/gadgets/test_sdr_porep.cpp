// PoRep configuration, replica_id, challenges and partition public inputs (src/circuits/sdr/porep.hpp),
// against upstream's own test vectors where they exist (registry.rs test_porep_id, challenges.rs
// test_synth_challenges_against_hardcoded) and structural checks on the public data of real seal
// regression records (rust-fil-proofs filecoin-proofs/tests/seal_regression_records-v16/v18.json, proofs
// removed: tests/data/sdr/seal_regression_public.jsonl).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "circuits/sdr/porep.hpp"
#include "ff/bytes.hpp"
#include "hash/sha256.hpp"
#include "util/error.hpp"

namespace cuzk::sdr {
namespace {

Domain fr_repr(uint64_t v) {
  Domain d{};
  for (int i = 0; i < 8; i++) d[i] = uint8_t(v >> (8 * i));
  return d;
}

TEST(SdrPorep, PorepIdsOfRegisteredProofs) {
  // registry.rs test_porep_id: LE64(id) ‖ LE64(0) ‖ 0^16.
  for (unsigned i = 0; i < 20; i++) {
    auto p = RegisteredSealProof(i);
    auto id = porep_id(p);
    char want[65];
    std::snprintf(want, sizeof want, "%02x%062d", i, 0);
    EXPECT_EQ(to_hex(id.data(), 32), want);
    EXPECT_EQ(registered_seal_proof_from_name(registered_seal_proof_name(p)), p);
  }
  EXPECT_EQ(registered_seal_proof_name(RegisteredSealProof::kStackedDrg32GiBV1_1), "StackedDrg32GiBV1_1");
  EXPECT_FALSE(registered_seal_proof_from_name("StackedDrg32GiBV2").has_value());
}

TEST(SdrPorep, ConfigsOfRegisteredProofs) {
  struct Want {
    RegisteredSealProof p;
    uint64_t size;
    uint32_t partitions, per_partition;
    unsigned layers;
    ApiVersion api;
    ChallengeKind kind;
  };
  const Want wants[] = {
      {RegisteredSealProof::kStackedDrg2KiBV1, 2048, 1, 2, 2, ApiVersion::kV1_0_0,
       ChallengeKind::kInteractive},
      {RegisteredSealProof::kStackedDrg32GiBV1, 32ull << 30, 10, 18, 11, ApiVersion::kV1_0_0,
       ChallengeKind::kInteractive},
      {RegisteredSealProof::kStackedDrg32GiBV1_1, 32ull << 30, 10, 18, 11, ApiVersion::kV1_1_0,
       ChallengeKind::kInteractive},
      {RegisteredSealProof::kStackedDrg64GiBV1_1_Feat_SyntheticPoRep, 64ull << 30, 10, 18, 11,
       ApiVersion::kV1_2_0, ChallengeKind::kSynthetic},
      {RegisteredSealProof::kStackedDrg2KiBV1_2_Feat_NonInteractivePoRep, 2048, 13, 2, 2, ApiVersion::kV1_2_0,
       ChallengeKind::kNonInteractive},
      {RegisteredSealProof::kStackedDrg512MiBV1_2_Feat_NonInteractivePoRep, 512ull << 20, 13, 2, 2,
       ApiVersion::kV1_2_0, ChallengeKind::kNonInteractive},
      // NI 32 GiB: ceil(2253 / 126) = 18.
      {RegisteredSealProof::kStackedDrg32GiBV1_2_Feat_NonInteractivePoRep, 32ull << 30, 126, 18, 11,
       ApiVersion::kV1_2_0, ChallengeKind::kNonInteractive},
  };
  for (const auto& w : wants) {
    auto c = porep_config(w.p);
    EXPECT_EQ(c.sector_size, w.size);
    EXPECT_EQ(c.partitions, w.partitions);
    EXPECT_EQ(c.challenges_per_partition(), w.per_partition);
    EXPECT_EQ(c.layers(), w.layers);
    EXPECT_EQ(c.api_version, w.api);
    EXPECT_EQ(c.challenges, w.kind);
    EXPECT_NO_THROW(c.validate());
  }
  PoRepConfig bad = porep_config(RegisteredSealProof::kStackedDrg32GiBV1_1);
  bad.partitions = 9;  // ceil(176 / 9) = 20 > 18
  EXPECT_THROW(bad.validate(), Error);
  bad.partitions = 10;
  bad.sector_size = 4 << 20;
  EXPECT_THROW(bad.validate(), Error);
}

TEST(SdrPorep, ReplicaIdLayout) {
  // SHA-256(prover_id ‖ BE64(sector_id) ‖ ticket ‖ comm_d ‖ porep_id), top two bits cleared.
  Domain prover{}, ticket{}, comm_d{};
  for (int i = 0; i < 32; i++)
    prover[i] = uint8_t(i), ticket[i] = uint8_t(100 + i), comm_d[i] = uint8_t(200 + i);
  auto pid = porep_id(RegisteredSealProof::kStackedDrg32GiBV1_1);
  std::vector<uint8_t> msg(prover.begin(), prover.end());
  for (int i = 0; i < 8; i++) msg.push_back(uint8_t(0x0102030405060708ull >> (56 - 8 * i)));
  msg.insert(msg.end(), ticket.begin(), ticket.end());
  msg.insert(msg.end(), comm_d.begin(), comm_d.end());
  msg.insert(msg.end(), pid.begin(), pid.end());
  auto want = Sha256::hash(msg);
  want[31] &= 0x3f;
  EXPECT_EQ(replica_id(prover, 0x0102030405060708ull, ticket, comm_d, pid), want);
}

TEST(SdrPorep, BytesToChallenge) {
  uint8_t b[32] = {};
  EXPECT_EQ(bytes_to_challenge(b, 64), 1u);
  b[0] = 62;
  EXPECT_EQ(bytes_to_challenge(b, 64), 63u);
  b[0] = 63;
  EXPECT_EQ(bytes_to_challenge(b, 64), 1u);
  // 2^248 mod 63 = 2^(248 mod 6) = 2^2 = 4 (2^6 ≡ 1 mod 63).
  uint8_t c[32] = {};
  c[31] = 1;
  EXPECT_EQ(bytes_to_challenge(c, 64), 5u);
  // All ones: (2^256 − 1) mod (2^30 − 1) = 2^(256 mod 30) − 1 = 2^16 − 1.
  uint8_t f[32];
  std::memset(f, 0xff, 32);
  EXPECT_EQ(bytes_to_challenge(f, uint64_t(1) << 30), (uint64_t(1) << 16));
}

TEST(SdrChallenges, SyntheticAgainstUpstreamHardcoded) {
  // challenges.rs test_synth_challenges_against_hardcoded.
  SynthChallenges s(1 << 10, fr_repr(55), fr_repr(101), 21);
  const std::vector<uint64_t> synth = {178, 297, 869, 211, 875, 477, 94,  781, 124, 332, 856,
                                       801, 176, 692, 429, 691, 290, 204, 986, 210, 973};
  EXPECT_EQ(s.all(), synth);
  for (uint64_t i = 0; i < 21; i++) EXPECT_EQ(s.synth_challenge(i), synth[i]);
  EXPECT_THROW(s.synth_challenge(21), Error);
  Domain rand;
  rand.fill(1);
  const std::vector<uint64_t> porep = {176, 781, 801, 986, 290, 211, 692, 856, 986, 332};
  EXPECT_EQ(s.partition_challenges(rand, 0, 10), porep);
  // Partitions are consecutive slices of the selection stream (test_synth_challenges_32gib).
  auto all = s.partition_challenges(rand, 0, 12);
  for (uint32_t k = 0; k < 4; k++) {
    auto part = s.partition_challenges(rand, k, 3);
    EXPECT_TRUE(std::equal(part.begin(), part.end(), all.begin() + 3 * k)) << k;
  }
}

TEST(SdrChallenges, InteractivePartitionEquivalence) {
  // challenges.rs challenge_partition_equivalence: partitions are slices of one long sequence.
  Domain rid{}, seed{};
  for (int i = 0; i < 32; i++) rid[i] = uint8_t(7 * i), seed[i] = uint8_t(13 * i + 5);
  rid[31] &= 0x3f;
  const uint64_t nodes = uint64_t(1) << 30;
  auto one = interactive_challenges(nodes, rid, seed, 0, 200);
  std::vector<uint64_t> many;
  for (uint32_t k = 0; k < 5; k++) {
    auto p = interactive_challenges(nodes, rid, seed, k, 40);
    many.insert(many.end(), p.begin(), p.end());
  }
  EXPECT_EQ(one, many);
  EXPECT_EQ(std::set<uint64_t>(one.begin(), one.end()).size(), one.size());  // no collision at 2^30
  for (auto c : one) EXPECT_TRUE(c >= 1 && c < nodes);
  // The first one by hand: SHA-256(replica_id ‖ seed ‖ LE32(0)).
  std::vector<uint8_t> msg(rid.begin(), rid.end());
  msg.insert(msg.end(), seed.begin(), seed.end());
  msg.insert(msg.end(), {0, 0, 0, 0});
  auto d = Sha256::hash(msg);
  EXPECT_EQ(one[0], bytes_to_challenge(d.data(), nodes));
  // NI likewise.
  auto ni = ni_challenges(nodes, rid, seed, 0, 30);
  auto ni2 = ni_challenges(nodes, rid, seed, 2, 10);
  EXPECT_TRUE(std::equal(ni2.begin(), ni2.end(), ni.begin() + 20));
  EXPECT_NE(ni, std::vector<uint64_t>(one.begin(), one.begin() + 30));
}

// ---- regression records ----------------------------------------------------------------------------------

Domain domain(const nlohmann::json& j) {
  Domain d{};
  EXPECT_EQ(j.size(), 32u);
  for (size_t i = 0; i < 32; i++) d[i] = j.at(i).get<uint8_t>();
  return d;
}

struct Record {
  PoRepConfig cfg;
  SealPublicData seal;
  std::string source;
};

std::vector<Record> load_records() {
  std::ifstream f(std::string(CUZK_SOURCE_DIR) + "/tests/data/sdr/seal_regression_public.jsonl");
  EXPECT_TRUE(f.good());
  std::vector<Record> out;
  std::string line;
  while (std::getline(f, line)) {
    auto j = nlohmann::json::parse(line);
    Record r;
    const auto& c = j.at("porep_config");
    r.cfg.sector_size = c.at("sector_size").get<uint64_t>();
    r.cfg.partitions = c.at("partitions").get<uint32_t>();
    r.cfg.porep_id = domain(c.at("porep_id"));
    auto v = c.at("api_version").get<std::string>();
    r.cfg.api_version = v == "V1_0_0"   ? ApiVersion::kV1_0_0
                        : v == "V1_1_0" ? ApiVersion::kV1_1_0
                                        : ApiVersion::kV1_2_0;
    r.cfg.challenges = ChallengeKind::kInteractive;
    for (const auto& feat : c.at("api_features")) {
      if (feat == "SyntheticPoRep") r.cfg.challenges = ChallengeKind::kSynthetic;
      if (feat == "NonInteractivePoRep") r.cfg.challenges = ChallengeKind::kNonInteractive;
    }
    r.seal.comm_r = domain(j.at("comm_r"));
    r.seal.comm_d = domain(j.at("comm_d"));
    r.seal.prover_id = domain(j.at("prover_id"));
    r.seal.sector_id = j.at("sector_id").get<uint64_t>();
    r.seal.ticket = domain(j.at("ticket"));
    r.seal.seed = domain(j.at("seed"));
    r.source = j.at("source").get<std::string>();
    out.push_back(r);
  }
  return out;
}

uint64_t fr_u64(const Fr& x) {
  uint64_t l[4];
  x.to_canonical(l);
  EXPECT_EQ(l[1] | l[2] | l[3], 0u);
  return l[0];
}

TEST(SdrPublicInputs, RegressionRecords) {
  auto records = load_records();
  ASSERT_EQ(records.size(), 26u);
  for (const auto& r : records) {
    SCOPED_TRACE(r.source + " size " + std::to_string(r.cfg.sector_size) + " partitions " +
                 std::to_string(r.cfg.partitions));
    ASSERT_NO_THROW(r.cfg.validate());
    SdrGraph g(r.cfg.nodes(), r.cfg.porep_id, r.cfg.api_version);
    const uint32_t c = r.cfg.challenges_per_partition();
    const Domain rid =
        replica_id(r.seal.prover_id, r.seal.sector_id, r.seal.ticket, r.seal.comm_d, r.cfg.porep_id);
    // Large NI configs have 126 partitions: check a few.
    std::vector<uint32_t> ks;
    for (uint32_t k = 0; k < r.cfg.partitions; k++)
      if (r.cfg.partitions <= 13 || k < 3 || k + 1 == r.cfg.partitions) ks.push_back(k);
    std::vector<uint64_t> all_challenges;
    for (uint32_t k : ks) {
      auto in = partition_public_inputs(r.cfg, g, r.seal, k);
      ASSERT_EQ(in.size(), 3 + 18 * size_t(c));
      Domain b;
      to_bytes_le(in[0], b.data());
      EXPECT_EQ(b, rid);
      to_bytes_le(in[1], b.data());
      EXPECT_EQ(b, r.seal.comm_d);
      to_bytes_le(in[2], b.data());
      EXPECT_EQ(b, r.seal.comm_r);
      auto parents = partition_challenge_parents(r.cfg, g, rid, r.seal.comm_r, r.seal.seed, k);
      ASSERT_EQ(parents.size(), c);
      for (uint32_t i = 0; i < c; i++) {
        const Fr* q = &in[3 + 18 * i];
        const uint64_t ch = fr_u64(q[0]);
        EXPECT_EQ(ch, parents[i].challenge);
        EXPECT_TRUE(ch >= 1 && ch < r.cfg.nodes()) << ch;
        EXPECT_EQ(fr_u64(q[15]), ch);
        EXPECT_EQ(fr_u64(q[16]), ch);
        EXPECT_EQ(fr_u64(q[17]), ch);
        for (unsigned j = 0; j < kBaseDegree; j++) {
          EXPECT_EQ(fr_u64(q[1 + j]), parents[i].drg[j]);
          if (ch >= 2) {
            EXPECT_LT(parents[i].drg[j], ch);
          }
        }
        EXPECT_EQ(parents[i].drg[r.cfg.api_version == ApiVersion::kV1_0_0 ? 5 : 0], ch - 1);
        for (unsigned j = 0; j < kExpDegree; j++) {
          EXPECT_EQ(fr_u64(q[7 + j]), parents[i].exp[j]);
          EXPECT_LT(parents[i].exp[j], r.cfg.nodes());
        }
        all_challenges.push_back(ch);
      }
    }
    // The challenge kind decides the sequence: recompute it independently.
    if (r.cfg.challenges == ChallengeKind::kInteractive) {
      auto want = interactive_challenges(r.cfg.nodes(), rid, r.seal.seed, 0, c * r.cfg.partitions);
      EXPECT_EQ(all_challenges, want);
    } else if (r.cfg.challenges == ChallengeKind::kSynthetic) {
      SynthChallenges s(r.cfg.nodes(), rid, r.seal.comm_r);
      EXPECT_EQ(s.num_synth(), std::min<uint64_t>(r.cfg.nodes(), 1 << 18));
      EXPECT_EQ(all_challenges, s.partition_challenges(r.seal.seed, 0, c * r.cfg.partitions));
    } else {
      auto want = ni_challenges(r.cfg.nodes(), rid, r.seal.comm_r, 0, 3 * c);
      EXPECT_TRUE(std::equal(want.begin(), want.end(), all_challenges.begin()));
    }
    EXPECT_THROW(partition_public_inputs(r.cfg, g, r.seal, r.cfg.partitions), Error);
  }
}

TEST(SdrPublicInputs, RejectsBadCommitmentsAndGraphs) {
  auto records = load_records();
  const auto& r = records.at(0);  // 2 KiB V1_0
  SdrGraph g(r.cfg.nodes(), r.cfg.porep_id, r.cfg.api_version);
  auto seal = r.seal;
  seal.comm_d = Domain{};
  EXPECT_THROW(partition_public_inputs(r.cfg, g, seal, 0), Error);
  seal = r.seal;
  seal.comm_r.fill(0xff);  // ≥ r
  EXPECT_THROW(partition_public_inputs(r.cfg, g, seal, 0), Error);
  SdrGraph wrong_api(r.cfg.nodes(), r.cfg.porep_id, ApiVersion::kV1_1_0);
  EXPECT_THROW(partition_public_inputs(r.cfg, wrong_api, r.seal, 0), Error);
  SdrGraph wrong_size(128, r.cfg.porep_id, r.cfg.api_version);
  EXPECT_THROW(partition_public_inputs(r.cfg, wrong_size, r.seal, 0), Error);
}

}  // namespace
}  // namespace cuzk::sdr
