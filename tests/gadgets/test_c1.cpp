// The C1 (SealCommitPhase1Output) reader and writer, src/formats/c1.hpp. No real C1 exists offline, so
// the tests build C1s programmatically: random values with consistent roots, path indices that spell
// the challenge / column index, and labeling parents taken from the columns as upstream's are.
#include <gtest/gtest.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <random>

#include "formats/c1.hpp"
#include "random.hpp"
#include "util/error.hpp"

extern char** environ;

namespace cuzk {
namespace {

using circuits::PathLevel;
using circuits::TreeShape;
using ojson = nlohmann::ordered_json;

// ---- a generator of consistent random C1s --------------------------------------------------------

struct Gen {
  std::mt19937_64 rng;
  explicit Gen(uint64_t seed) : rng(seed) {}

  Fr fr() { return test::random_fe<Fr>(rng); }
  static Bytes32 bytes_of(const Fr& f) {
    Bytes32 b;
    to_bytes_le(f, b.data());
    return b;
  }
  C1MerkleProof merkle(const TreeShape& t, const Fr& root, uint64_t node) {
    C1MerkleProof m;
    m.kind = merkle_proof_kind(t);
    m.root = root;
    m.leaf = fr();
    for (size_t i = 0; i < t.levels(); i++) {
      const uint32_t a = t.arity(i);
      PathLevel l;
      l.index = (uint32_t)(node % a);
      node /= a;
      for (uint32_t k = 0; k + 1 < a; k++) l.siblings.push_back(fr());
      m.path.push_back(std::move(l));
    }
    return m;
  }
  C1ColumnProof column(const circuits::StackedShape& s, uint64_t node, const Fr& comm_c) {
    C1ColumnProof c;
    c.index = (uint32_t)node;
    for (uint32_t l = 0; l < s.layers; l++) c.rows.push_back(fr());
    c.inclusion_proof = merkle(s.tree_rc, comm_c, node);
    return c;
  }

  // A C1 of `rp` with its partition count, or `partitions` of them when given (the writer does not
  // mind; the reader refuses).
  C1Output make(const RegisteredSealProof& rp, uint32_t partitions = 0) {
    const circuits::StackedShape s = circuits::stacked_shape(std::string(rp.size));
    C1Output c1;
    c1.registered_proof = rp;
    c1.shape_key = rp.shape_key();
    const Fr comm_d = fr(), comm_r_last = fr(), comm_c = fr();
    c1.comm_d = bytes_of(comm_d);
    c1.comm_r = bytes_of(fr());
    c1.replica_id = bytes_of(fr());
    for (auto* b : {&c1.seed, &c1.ticket})
      for (auto& x : *b) x = (uint8_t)rng();
    c1.seed[0] |= 1;
    for (uint32_t k = 0; k < (partitions ? partitions : rp.partitions); k++) {
      auto& part = c1.vanilla_proofs.emplace_back();
      for (uint32_t i = 0; i < rp.challenges_per_partition; i++) {
        const uint64_t challenge = rng() % s.nodes;
        C1VanillaProof v;
        v.comm_d_proofs = merkle(s.tree_d, comm_d, challenge);
        v.comm_r_last_proof = merkle(s.tree_rc, comm_r_last, challenge);
        auto& rc = v.replica_column_proofs;
        rc.c_x = column(s, challenge, comm_c);
        for (size_t p = 0; p < 6; p++) rc.drg_parents.push_back(column(s, rng() % s.nodes, comm_c));
        for (size_t p = 0; p < 8; p++) rc.exp_parents.push_back(column(s, rng() % s.nodes, comm_c));
        for (uint32_t layer = 1; layer <= s.layers; layer++) {
          // Upstream: DRG parents' labels of this layer, expander parents' of the previous one,
          // repeated to TOTAL_PARENTS.
          std::vector<Fr> base;
          for (const auto& c : rc.drg_parents) base.push_back(c.rows[layer - 1]);
          if (layer > 1)
            for (const auto& c : rc.exp_parents) base.push_back(c.rows[layer - 2]);
          C1LabelingProof l;
          for (size_t j = 0; j < 37; j++) l.parents.push_back(base[j % base.size()]);
          l.layer_index = layer;
          l.node = challenge;
          v.labeling_proofs.push_back(std::move(l));
        }
        v.encoding_proof = v.labeling_proofs.back();
        part.push_back(std::move(v));
      }
    }
    return c1;
  }
};

std::span<const uint8_t> as_bytes(const std::string& s) {
  return {reinterpret_cast<const uint8_t*>(s.data()), s.size()};
}
C1Output read(const std::string& s) { return read_c1(as_bytes(s), "test.json"); }

// The error of reading `text`: kInvalidFile and a message containing `want`.
void expect_error(const std::string& text, const std::string& want, const std::string& what = "") {
  try {
    read(text);
    ADD_FAILURE() << what << ": no error; wanted '" << want << "'";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kInvalidFile) << e.what();
    EXPECT_NE(std::string(e.what()).find(want), std::string::npos)
        << what << ":\n  got:    " << e.what() << "\n  wanted: " << want;
  }
}

const RegisteredSealProof& rp(std::string_view name) { return registered_seal_proof(name); }

// ---- registry ---------------------------------------------------------------------------------

TEST(C1Registry, MatchesUpstreamTable) {
  auto all = registered_seal_proofs();
  ASSERT_EQ(all.size(), 20u);
  for (uint32_t i = 0; i < 20; i++) {
    EXPECT_EQ(all[i].id, i);
    EXPECT_EQ(&registered_seal_proof(all[i].name), &all[i]);
    EXPECT_EQ(&registered_seal_proof_by_id(i), &all[i]);
    auto id = all[i].porep_id();
    for (int b = 0; b < 32; b++) EXPECT_EQ(id[b], b == 0 ? i : 0u);
  }
  EXPECT_EQ(all[3].name, "StackedDrg32GiBV1");
  EXPECT_EQ(all[8].name, "StackedDrg32GiBV1_1");
  EXPECT_EQ(all[13].name, "StackedDrg32GiBV1_1_Feat_SyntheticPoRep");
  EXPECT_EQ(all[19].name, "StackedDrg64GiBV1_2_Feat_NonInteractivePoRep");
  struct Want {
    const char* name;
    uint64_t size;
    uint32_t minor, partitions, challenges;
    PoRepFeature f;
  };
  for (const Want& w :
       {Want{"StackedDrg2KiBV1", 2048, 0, 1, 2, PoRepFeature::kInteractive},
        Want{"StackedDrg8MiBV1_1", 8 << 20, 1, 1, 2, PoRepFeature::kInteractive},
        Want{"StackedDrg512MiBV1_1_Feat_SyntheticPoRep", 512 << 20, 2, 1, 2, PoRepFeature::kSyntheticPoRep},
        Want{"StackedDrg32GiBV1_1", uint64_t{32} << 30, 1, 10, 18, PoRepFeature::kInteractive},
        Want{"StackedDrg64GiBV1", uint64_t{64} << 30, 0, 10, 18, PoRepFeature::kInteractive},
        Want{"StackedDrg2KiBV1_2_Feat_NonInteractivePoRep", 2048, 2, 13, 2,
             PoRepFeature::kNonInteractivePoRep},
        Want{"StackedDrg32GiBV1_2_Feat_NonInteractivePoRep", uint64_t{32} << 30, 2, 126, 18,
             PoRepFeature::kNonInteractivePoRep}}) {
    const RegisteredSealProof& r = rp(w.name);
    EXPECT_EQ(r.sector_size, w.size) << w.name;
    EXPECT_EQ(r.api_version[0], 1u) << w.name;
    EXPECT_EQ(r.api_version[1], w.minor) << w.name;
    EXPECT_EQ(r.partitions, w.partitions) << w.name;
    EXPECT_EQ(r.challenges_per_partition, w.challenges) << w.name;
    EXPECT_EQ(r.feature, w.f) << w.name;
  }
  EXPECT_EQ(rp("StackedDrg64GiBV1_2_Feat_NonInteractivePoRep").shape_key(), "StackedDrg64GiBV1");
  EXPECT_THROW(registered_seal_proof("StackedDrg1GiBV1"), Error);
  EXPECT_THROW(registered_seal_proof_by_id(20), Error);
}

TEST(C1Base64, Rfc4648Vectors) {
  const std::pair<const char*, const char*> v[] = {{"", ""},
                                                   {"f", "Zg=="},
                                                   {"fo", "Zm8="},
                                                   {"foo", "Zm9v"},
                                                   {"foob", "Zm9vYg=="},
                                                   {"fooba", "Zm9vYmE="},
                                                   {"foobar", "Zm9vYmFy"}};
  for (auto [plain, enc] : v) {
    std::string p = plain;
    EXPECT_EQ(base64_encode(as_bytes(p)), enc);
    auto d = base64_decode(enc, "x");
    EXPECT_EQ(std::string(d.begin(), d.end()), p);
  }
  std::vector<uint8_t> all(256);
  for (size_t i = 0; i < 256; i++) all[i] = (uint8_t)i;
  EXPECT_EQ(base64_decode(base64_encode(all), "x"), all);
  for (const char* bad : {"Zg=", "Z===", "Zg=a", "Zm9v!A==", "=Zm9"})
    EXPECT_THROW(base64_decode(bad, "x"), Error);
}

// ---- round trips ------------------------------------------------------------------------------

TEST(C1RoundTrip, WriteReadWriteIsIdentityFor2KiBVariants) {
  for (const char* name : {"StackedDrg2KiBV1", "StackedDrg2KiBV1_1", "StackedDrg2KiBV1_1_Feat_SyntheticPoRep",
                           "StackedDrg2KiBV1_2_Feat_NonInteractivePoRep"}) {
    Gen g(11);
    C1Output c1 = g.make(rp(name));
    std::string s = write_c1_json(c1);
    C1Output r = read(s);
    EXPECT_EQ(write_c1_json(r), s) << name;
    EXPECT_EQ(r.registered_proof.name, name);
    EXPECT_EQ(r.registered_proof.id, rp(name).id);
    EXPECT_EQ(r.shape_key, "StackedDrg2KiBV1");
    EXPECT_EQ(r.comm_r, c1.comm_r);
    EXPECT_EQ(r.comm_d, c1.comm_d);
    EXPECT_EQ(r.replica_id, c1.replica_id);
    EXPECT_EQ(r.seed, c1.seed);
    EXPECT_EQ(r.ticket, c1.ticket);
    EXPECT_FALSE(r.envelope.has_value());
    ASSERT_EQ(r.vanilla_proofs.size(), rp(name).partitions);
    const C1VanillaProof &a = r.vanilla_proofs[0][1], &b = c1.vanilla_proofs[0][1];
    EXPECT_EQ(a.comm_d_proofs.leaf, b.comm_d_proofs.leaf);
    ASSERT_EQ(a.comm_r_last_proof.path.size(), 2u);
    EXPECT_EQ(a.comm_r_last_proof.path[1].siblings[6], b.comm_r_last_proof.path[1].siblings[6]);
    EXPECT_EQ(a.replica_column_proofs.exp_parents[7].rows[1], b.replica_column_proofs.exp_parents[7].rows[1]);
    EXPECT_EQ(a.labeling_proofs[1].parents[36], b.labeling_proofs[1].parents[36]);
    EXPECT_EQ(a.encoding_proof.node, b.encoding_proof.node);
  }
}

// The writer's output is compact JSON in Rust field order: a generic order-preserving JSON library
// re-serializes it to the same bytes, and the keys come in the order of the Rust structs.
TEST(C1RoundTrip, OutputIsCompactJsonInRustFieldOrder) {
  Gen g(5);
  std::string s = write_c1_json(g.make(rp("StackedDrg2KiBV1_1")));
  ojson j = ojson::parse(s);
  EXPECT_EQ(j.dump(), s);
  auto keys = [](const ojson& o) {
    std::vector<std::string> k;
    for (auto it = o.begin(); it != o.end(); ++it) k.push_back(it.key());
    return k;
  };
  using V = std::vector<std::string>;
  EXPECT_EQ(keys(j),
            (V{"registered_proof", "vanilla_proofs", "comm_r", "comm_d", "replica_id", "seed", "ticket"}));
  const ojson& p = j["vanilla_proofs"]["StackedDrg2KiBV1"][0][0];
  EXPECT_EQ(keys(p), (V{"comm_d_proofs", "comm_r_last_proof", "replica_column_proofs", "labeling_proofs",
                        "encoding_proof"}));
  EXPECT_EQ(keys(p["comm_d_proofs"]["data"]["Single"]), (V{"root", "leaf", "path"}));
  EXPECT_EQ(keys(p["comm_d_proofs"]["data"]["Single"]["path"]["path"][0]), (V{"hashes", "index"}));
  EXPECT_EQ(keys(p["replica_column_proofs"]), (V{"c_x", "drg_parents", "exp_parents"}));
  EXPECT_EQ(keys(p["replica_column_proofs"]["c_x"]), (V{"column", "inclusion_proof"}));
  EXPECT_EQ(keys(p["replica_column_proofs"]["c_x"]["column"]), (V{"index", "rows", "_h"}));
  EXPECT_TRUE(p["replica_column_proofs"]["c_x"]["column"]["_h"].is_null());
  EXPECT_EQ(keys(p["labeling_proofs"][0]), (V{"parents", "layer_index", "node"}));
  EXPECT_EQ(keys(p["encoding_proof"]), (V{"parents", "layer_index", "node"}));
  EXPECT_EQ(j["registered_proof"], "StackedDrg2KiBV1_1");
  EXPECT_EQ(j["comm_r"].size(), 32u);
}

TEST(C1RoundTrip, SubAndTopProofsOf32And64GiB) {
  for (const char* name : {"StackedDrg32GiBV1_1", "StackedDrg64GiBV1_1"}) {
    // The structure on one partition (the writer does not validate), the round trip on all 10.
    Gen g(9);
    C1Output c1 = g.make(rp(name), 1);
    ojson j = ojson::parse(write_c1_json(c1));
    const ojson& m = j["vanilla_proofs"][c1.shape_key][0][0]["comm_r_last_proof"]["data"];
    if (std::string(name) == "StackedDrg32GiBV1_1") {
      EXPECT_EQ(m["Sub"]["base_proof"]["path"].size(), 9u);
      EXPECT_EQ(m["Sub"]["sub_proof"]["path"].size(), 1u);
      EXPECT_EQ(m["Sub"]["sub_proof"]["path"][0]["hashes"].size(), 7u);
      std::vector<std::string> k;
      for (auto it = m["Sub"].begin(); it != m["Sub"].end(); ++it) k.push_back(it.key());
      EXPECT_EQ(k, (std::vector<std::string>{"base_proof", "sub_proof", "root", "leaf"}));
    } else {
      EXPECT_EQ(m["Top"]["base_proof"]["path"].size(), 9u);
      EXPECT_EQ(m["Top"]["top_proof"]["path"][0]["hashes"].size(), 1u);
      std::vector<std::string> k;
      for (auto it = m["Top"].begin(); it != m["Top"].end(); ++it) k.push_back(it.key());
      EXPECT_EQ(k, (std::vector<std::string>{"base_proof", "sub_proof", "top_proof", "root", "leaf"}));
      const std::string s = write_c1_json(g.make(rp(name)));
      EXPECT_EQ(write_c1_json(read(s)), s) << name;
    }
  }
}

TEST(C1Envelope, ReadsLikeTheRawJson) {
  Gen g(21);
  C1Output c1 = g.make(rp("StackedDrg2KiBV1_1"));
  std::string raw = write_c1_json(c1);
  std::string env = write_c1_envelope_json(c1, 1234);
  EXPECT_EQ(env.rfind("{\"SectorNum\":1234,\"Phase1Out\":\"", 0), 0u);
  EXPECT_NE(env.find("\",\"SectorSize\":2048}"), std::string::npos);
  C1Output r = read(env);
  EXPECT_EQ(write_c1_json(r), raw);
  ASSERT_TRUE(r.envelope.has_value());
  EXPECT_EQ(r.envelope->sector_num, 1234u);
  EXPECT_EQ(r.envelope->sector_size, 2048u);
  // Field order does not matter, whitespace neither.
  ojson j = ojson::parse(env);
  ojson k = {{"SectorSize", 2048}, {"Phase1Out", j["Phase1Out"]}, {"SectorNum", 7}};
  EXPECT_EQ(write_c1_json(read(k.dump(1))), raw);

  expect_error(ojson{{"SectorNum", 1}, {"Phase1Out", j["Phase1Out"]}, {"SectorSize", 4096}}.dump(),
               "test.json: SectorSize: 4096 differs from the sector size of StackedDrg2KiBV1_1 (2048)");
  expect_error(ojson{{"SectorNum", 1}, {"Phase1Out", "Zm9v!"}, {"SectorSize", 2048}}.dump(),
               "test.json: Phase1Out: base64 length 5");
  expect_error(ojson{{"SectorNum", 1}, {"Phase1Out", "Zm9v!A=="}, {"SectorSize", 2048}}.dump(),
               "test.json: Phase1Out: invalid base64 character at offset 4");
  expect_error(ojson{{"Phase1Out", j["Phase1Out"]}, {"SectorSize", 2048}}.dump(),
               "Curio envelope: missing field 'SectorNum'");
  expect_error(ojson{{"SectorNum", 1}, {"Phase1Out", 5}, {"SectorSize", 2048}}.dump(),
               "test.json: Phase1Out: expected a base64 string, found 5");
  expect_error(ojson{{"SectorNum", 1},
                     {"Phase1Out", j["Phase1Out"]},
                     {"SectorSize", 2048},
                     {"registered_proof", "StackedDrg2KiBV1"}}
                   .dump(),
               "test.json: registered_proof: a C1 field next to Phase1Out");
  // A Phase1Out with JSON escapes ("\u0065" for "e") takes the parser's unescaped copy instead.
  std::string escaped = env;
  const size_t at = escaped.find("\"Phase1Out\":\"") + 13;
  char hex[8];
  std::snprintf(hex, sizeof hex, "\\u%04x", (unsigned)escaped[at]);
  escaped.replace(at, 1, hex);
  EXPECT_EQ(write_c1_json(read(escaped)), raw);
  // Errors after the skipped Phase1Out string report the input's byte offset.
  std::string broken = env;
  broken.insert(broken.size() - 1, ",");
  expect_error(broken, "malformed JSON at byte " + std::to_string(broken.size()));
  // An error inside the envelope names both.
  ojson inner = ojson::parse(raw);
  inner["vanilla_proofs"]["StackedDrg2KiBV1"][0][1]["labeling_proofs"][1]["layer_index"] = 7;
  std::string bad = inner.dump();
  ojson e2 = {{"SectorNum", 1}, {"Phase1Out", base64_encode(as_bytes(bad))}, {"SectorSize", 2048}};
  expect_error(e2.dump(),
               "test.json: Phase1Out: vanilla_proofs.StackedDrg2KiBV1[0][1].labeling_proofs[1].layer_index: "
               "layer_index 7; expected 2");
}

// ---- validation -------------------------------------------------------------------------------

struct Case {
  const char* what;
  std::function<void(ojson&)> mutate;
  std::string want;
};

TEST(C1Validation, EveryErrorNamesItsJsonPath) {
  Gen g(33);
  const C1Output c1 = g.make(rp("StackedDrg2KiBV1"));
  const std::string good = write_c1_json(c1);
  const std::string V = "vanilla_proofs.StackedDrg2KiBV1";
  auto P = [](ojson& j, size_t k, size_t i) -> ojson& {
    return j["vanilla_proofs"]["StackedDrg2KiBV1"][k][i];
  };
  auto single = [](ojson& m) -> ojson& { return m["data"]["Single"]; };
  const uint32_t idx0 = c1.vanilla_proofs[0][1].comm_r_last_proof.path[0].index;
  ojson all255 = ojson::array();
  for (int i = 0; i < 32; i++) all255.push_back(255);
  ojson zero = ojson::array();
  for (int i = 0; i < 32; i++) zero.push_back(0);

  const std::vector<Case> cases = {
      {"unknown registered proof", [](ojson& j) { j["registered_proof"] = "StackedDrg3KiBV1"; },
       "test.json: registered_proof: unknown registered seal proof 'StackedDrg3KiBV1'"},
      {"registered proof not a string", [](ojson& j) { j["registered_proof"] = 3; },
       "test.json: registered_proof: expected a string, found 3"},
      {"registered proof of another size", [](ojson& j) { j["registered_proof"] = "StackedDrg8MiBV1_1"; },
       "test.json: " + V + ": the shape key does not match registered_proof StackedDrg8MiBV1_1"},
      {"unknown shape key",
       [](ojson& j) {
         ojson v = j["vanilla_proofs"]["StackedDrg2KiBV1"];
         j["vanilla_proofs"] = ojson{{"StackedDrg2KiBV1_1", v}};
       },
       "test.json: vanilla_proofs.StackedDrg2KiBV1_1: unknown shape key"},
      {"two shape keys", [](ojson& j) { j["vanilla_proofs"]["StackedDrg8MiBV1"] = ojson::array(); },
       "test.json: vanilla_proofs: more than one key"},
      {"no shape key", [](ojson& j) { j["vanilla_proofs"] = ojson::object(); },
       "test.json: vanilla_proofs: no key"},
      {"vanilla_proofs an array", [](ojson& j) { j["vanilla_proofs"] = ojson::array(); },
       "test.json: vanilla_proofs: expected an object"},
      {"partitions not an array", [](ojson& j) { j["vanilla_proofs"]["StackedDrg2KiBV1"] = 5; },
       "test.json: " + V + ": expected an array of partitions"},
      {"two partitions for V1",
       [&](ojson& j) {
         j["vanilla_proofs"]["StackedDrg2KiBV1"].push_back(j["vanilla_proofs"]["StackedDrg2KiBV1"][0]);
       },
       "test.json: " + V + ": 2 partitions; StackedDrg2KiBV1 has 1"},
      {"one partition for NI",
       [](ojson& j) { j["registered_proof"] = "StackedDrg2KiBV1_2_Feat_NonInteractivePoRep"; },
       "test.json: " + V + ": 1 partitions; StackedDrg2KiBV1_2_Feat_NonInteractivePoRep has 13"},
      {"one challenge", [](ojson& j) { j["vanilla_proofs"]["StackedDrg2KiBV1"][0].erase(1); },
       "test.json: " + V + "[0]: 1 challenges; a 2KiB partition has 2"},
      {"a proof that is not an object", [](ojson& j) { j["vanilla_proofs"]["StackedDrg2KiBV1"][0][1] = 1; },
       "test.json: " + V + "[0][1]: expected a vanilla proof object"},
      {"missing comm_d_proofs", [&](ojson& j) { P(j, 0, 0).erase("comm_d_proofs"); },
       "test.json: " + V + "[0][0]: missing field 'comm_d_proofs'"},
      {"missing ticket", [](ojson& j) { j.erase("ticket"); }, "test.json: missing field 'ticket'"},
      {"tree R path too short",
       [&](ojson& j) { single(P(j, 0, 1)["comm_r_last_proof"])["path"]["path"].erase(1); },
       "test.json: " + V +
           "[0][1].comm_r_last_proof.data.Single.path.path: 1 levels; this part of tree R of a 2KiB "
           "sector has 2"},
      {"tree D path too short",
       [&](ojson& j) { single(P(j, 0, 0)["comm_d_proofs"])["path"]["path"].erase(5); },
       "test.json: " + V + "[0][0].comm_d_proofs.data.Single.path.path: 5 levels; this part of tree D"},
      {"arity",
       [&](ojson& j) { single(P(j, 0, 1)["comm_r_last_proof"])["path"]["path"][0]["hashes"].erase(3); },
       "test.json: " + V +
           "[0][1].comm_r_last_proof.data.Single.path.path[0].hashes: 6 hashes (siblings at arity 8); "
           "expected 7"},
      {"tree D arity",
       [&](ojson& j) {
         auto& h = single(P(j, 0, 0)["comm_d_proofs"])["path"]["path"][2]["hashes"];
         h.push_back(h[0]);
       },
       "test.json: " + V +
           "[0][0].comm_d_proofs.data.Single.path.path[2].hashes: 2 hashes (siblings at arity 2)"},
      {"index ≥ arity",
       [&](ojson& j) { single(P(j, 0, 1)["comm_r_last_proof"])["path"]["path"][0]["index"] = 8; },
       "test.json: " + V +
           "[0][1].comm_r_last_proof.data.Single.path.path[0].index: index 8 is not below the arity 8"},
      {"negative index",
       [&](ojson& j) { single(P(j, 0, 1)["comm_r_last_proof"])["path"]["path"][0]["index"] = -1; },
       "test.json: " + V +
           "[0][1].comm_r_last_proof.data.Single.path.path[0].index: expected an unsigned integer, "
           "found -1"},
      {"float index",
       [&](ojson& j) { single(P(j, 0, 1)["comm_r_last_proof"])["path"]["path"][0]["index"] = 1.5; },
       "path.path[0].index: expected an unsigned integer, found the number 1.5"},
      {"path index ≠ challenge",
       [&](ojson& j) {
         single(P(j, 0, 1)["comm_r_last_proof"])["path"]["path"][0]["index"] = (idx0 + 1) % 8;
       },
       "test.json: " + V + "[0][1].comm_r_last_proof.data.Single: the path's index"},
      {"Sub where the tree takes Single",
       [&](ojson& j) {
         ojson body = single(P(j, 0, 1)["comm_r_last_proof"]);
         P(j, 0, 1)["comm_r_last_proof"]["data"] = ojson{{"Sub", body}};
       },
       "test.json: " + V +
           "[0][1].comm_r_last_proof.data.Sub: tree R of a 2KiB sector takes Single proofs, not Sub"},
      {"unknown variant",
       [&](ojson& j) {
         ojson body = single(P(j, 0, 1)["replica_column_proofs"]["c_x"]["inclusion_proof"]);
         P(j, 0, 1)["replica_column_proofs"]["c_x"]["inclusion_proof"]["data"] = ojson{{"Double", body}};
       },
       "test.json: " + V +
           "[0][1].replica_column_proofs.c_x.inclusion_proof.data: unknown MerkleProof variant 'Double'"},
      {"two variants",
       [&](ojson& j) {
         auto& d = P(j, 0, 0)["comm_d_proofs"]["data"];
         d["Sub"] = d["Single"];
       },
       "test.json: " + V + "[0][0].comm_d_proofs.data: expected one key (Single, Sub or Top), found 2"},
      {"column rows ≠ layers",
       [&](ojson& j) {
         P(j, 0, 1)["replica_column_proofs"]["drg_parents"][3]["column"]["rows"].erase(0);
       },
       "test.json: " + V +
           "[0][1].replica_column_proofs.drg_parents[3].column.rows: 1 rows (one per layer); expected 2"},
      {"five DRG parents",
       [&](ojson& j) {
         P(j, 0, 1)["replica_column_proofs"]["drg_parents"].erase(5);
       },
       "test.json: " + V + "[0][1].replica_column_proofs.drg_parents: 5 column proofs; expected 6"},
      {"nine expander parents",
       [&](ojson& j) {
         auto& e = P(j, 0, 1)["replica_column_proofs"]["exp_parents"];
         e.push_back(e[0]);
       },
       "test.json: " + V + "[0][1].replica_column_proofs.exp_parents: 9 column proofs; expected 8"},
      {"_h not null",
       [&](ojson& j) {
         P(j, 0, 0)["replica_column_proofs"]["c_x"]["column"]["_h"] = 0;
       },
       "test.json: " + V + "[0][0].replica_column_proofs.c_x.column._h: expected null"},
      {"c_x index ≠ challenge",
       [&](ojson& j) {
         auto& i = P(j, 0, 0)["replica_column_proofs"]["c_x"]["column"]["index"];
         i = (i.get<uint64_t>() + 1) % 64;
       },
       "test.json: " + V + "[0][0].replica_column_proofs.c_x.column.index: column index"},
      {"parent column index ≠ its path",
       [&](ojson& j) {
         auto& i = P(j, 0, 0)["replica_column_proofs"]["exp_parents"][2]["column"]["index"];
         i = (i.get<uint64_t>() + 1) % 64;
       },
       "test.json: " + V +
           "[0][0].replica_column_proofs.exp_parents[2].inclusion_proof.data.Single: the path's index"},
      {"column index ≥ nodes",
       [&](ojson& j) {
         P(j, 0, 0)["replica_column_proofs"]["drg_parents"][0]["column"]["index"] = 64;
       },
       "test.json: " + V +
           "[0][0].replica_column_proofs.drg_parents[0].column.index: column index 64 is not below"},
      {"one labeling proof",
       [&](ojson& j) {
         P(j, 0, 1)["labeling_proofs"].erase(1);
       },
       "test.json: " + V + "[0][1].labeling_proofs: 1 labeling proofs; a 2KiB sector has 2 layers"},
      {"36 labeling parents",
       [&](ojson& j) {
         P(j, 0, 1)["labeling_proofs"][1]["parents"].erase(0);
       },
       "test.json: " + V + "[0][1].labeling_proofs[1].parents: 36 parents; expected 37"},
      {"labeling layer_index",
       [&](ojson& j) {
         P(j, 0, 1)["labeling_proofs"][1]["layer_index"] = 1;
       },
       "test.json: " + V + "[0][1].labeling_proofs[1].layer_index: layer_index 1; expected 2"},
      {"labeling node",
       [&](ojson& j) {
         P(j, 0, 1)["labeling_proofs"][1]["node"] = 99;
       },
       "test.json: " + V + "[0][1].labeling_proofs[1].node: node 99 differs from the challenge"},
      {"challenge ≥ nodes",
       [&](ojson& j) {
         P(j, 0, 1)["labeling_proofs"][0]["node"] = 64;
       },
       "test.json: " + V + "[0][1].labeling_proofs[0].node: node 64 is not below the sector's 64 nodes"},
      {"encoding layer_index",
       [&](ojson& j) {
         P(j, 0, 0)["encoding_proof"]["layer_index"] = 1;
       },
       "test.json: " + V + "[0][0].encoding_proof.layer_index: layer_index 1; expected 2"},
      {"encoding node",
       [&](ojson& j) {
         P(j, 0, 0)["encoding_proof"]["node"] = 65;
       },
       "test.json: " + V + "[0][0].encoding_proof.node: node 65 differs from the challenge"},
      {"zero comm_r", [&](ojson& j) { j["comm_r"] = zero; }, "test.json: comm_r: is zero"},
      {"zero comm_d", [&](ojson& j) { j["comm_d"] = zero; }, "test.json: comm_d: is zero"},
      {"zero seed", [&](ojson& j) { j["seed"] = zero; }, "test.json: seed: is zero"},
      {"comm_r ≥ r", [&](ojson& j) { j["comm_r"] = all255; }, "test.json: comm_r: not a field element"},
      {"replica_id ≥ r", [&](ojson& j) { j["replica_id"] = all255; },
       "test.json: replica_id: not a field element"},
      {"sibling ≥ r",
       [&](ojson& j) { single(P(j, 0, 1)["comm_r_last_proof"])["path"]["path"][1]["hashes"][4] = all255; },
       "test.json: " + V +
           "[0][1].comm_r_last_proof.data.Single.path.path[1].hashes[4]: not a field element"},
      {"byte 256", [&](ojson& j) { single(P(j, 0, 0)["comm_d_proofs"])["leaf"][5] = 256; },
       "test.json: " + V + "[0][0].comm_d_proofs.data.Single.leaf[5]: expected a byte 0..255, found 256"},
      {"31 bytes", [&](ojson& j) { j["ticket"].erase(0); },
       "test.json: ticket: expected an array of 32 integers 0..255, found an array of 31"},
      {"a byte string", [&](ojson& j) { j["seed"] = "abc"; },
       "test.json: seed: expected an array of 32 integers 0..255, found a string"},
      {"comm_d root differs between challenges",
       [&](ojson& j) {
         single(P(j, 0, 1)["comm_d_proofs"])["root"][0] =
             1 ^ single(P(j, 0, 1)["comm_d_proofs"])["root"][0].get<int>();
       },
       "test.json: " + V +
           "[0][1].comm_d_proofs.data.Single.root: root differs from comm_d (the comm_d proofs' root) of " +
           V + "[0][0]"},
      {"comm_r_last root differs",
       [&](ojson& j) {
         single(P(j, 0, 1)["comm_r_last_proof"])["root"][0] =
             1 ^ single(P(j, 0, 1)["comm_r_last_proof"])["root"][0].get<int>();
       },
       "test.json: " + V + "[0][1].comm_r_last_proof.data.Single.root: root differs from comm_r_last"},
      {"comm_c root differs in a parent column",
       [&](ojson& j) {
         auto& r = single(P(j, 0, 1)["replica_column_proofs"]["exp_parents"][7]["inclusion_proof"])["root"];
         r[0] = 1 ^ r[0].get<int>();
       },
       "test.json: " + V +
           "[0][1].replica_column_proofs.exp_parents[7].inclusion_proof.data.Single.root: root differs "
           "from comm_c"},
      {"comm_d differs from the proofs' root",
       [&](ojson& j) { j["comm_d"][0] = 1 ^ j["comm_d"][0].get<int>(); },
       "test.json: comm_d: differs from the root of the comm_d proofs (" + V +
           "[0][0].comm_d_proofs.data.Single.root)"},
      {"top level an array", [](ojson& j) { j = ojson::array(); },
       "test.json: expected a JSON object, found an array"},
  };
  for (const Case& c : cases) {
    ojson j = ojson::parse(good);
    c.mutate(j);
    expect_error(j.dump(), c.want, c.what);
  }
}

TEST(C1Validation, DuplicateFieldsAndMalformedJson) {
  Gen g(34);
  const std::string good = write_c1_json(g.make(rp("StackedDrg2KiBV1")));
  auto replace_first = [&](const std::string& from, const std::string& to) {
    std::string s = good;
    size_t at = s.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    return s.replace(at, from.size(), to);
  };
  expect_error(
      replace_first("\"layer_index\":1,", "\"layer_index\":1,\"layer_index\":1,"),
      "test.json: vanilla_proofs.StackedDrg2KiBV1[0][0].labeling_proofs[0].layer_index: duplicate field");
  expect_error(replace_first("{\"registered_proof\"", "{\"seed\":[],\"registered_proof\""),
               "test.json: seed: expected an array of 32 integers");
  std::string dup_top = good;
  dup_top.insert(dup_top.size() - 1, ",\"registered_proof\":\"StackedDrg2KiBV1\"");
  expect_error(dup_top, "test.json: registered_proof: duplicate field");
  expect_error(good + "x", "malformed JSON");
  expect_error(good + "{}", "malformed JSON");
  expect_error("", "malformed JSON at byte");
  expect_error(replace_first("\"node\":", "\"node\";"),
               "test.json: vanilla_proofs.StackedDrg2KiBV1[0][0].labeling_proofs[0].node: malformed JSON");
  // Truncated anywhere: always an error naming the input, never a crash.
  std::mt19937_64 rng(2);
  for (int t = 0; t < 40; t++) {
    size_t n = rng() % good.size();
    expect_error(good.substr(0, n), "test.json: ", "truncated at " + std::to_string(n));
  }
  expect_error(good.substr(0, good.size() - 1), "test.json: malformed JSON");
  // Unknown fields are ignored, as serde does.
  std::string extra = good;
  extra.insert(extra.size() - 1, ",\"extra\":{\"a\":[1,2,{}]}");
  EXPECT_EQ(write_c1_json(read(extra)), good);
}

// Random byte changes: every input either reads or throws cuzk::Error (never another exception).
TEST(C1Validation, RandomCorruptionsThrowOnlyCuzkErrors) {
  Gen g(35);
  const C1Output c1 = g.make(rp("StackedDrg2KiBV1"));
  const std::string raw = write_c1_json(c1), env = write_c1_envelope_json(c1, 3);
  std::mt19937_64 rng(8);
  const char alphabet[] = "0123456789,[]{}\":-.e ntfA=/+";
  int errors = 0;
  for (int t = 0; t < 400; t++) {
    std::string s = t % 4 == 3 ? env : raw;
    for (int k = 0, n = 1 + (int)(rng() % 3); k < n; k++) {
      size_t at = rng() % s.size();
      if (rng() % 2)
        s[at] = alphabet[rng() % (sizeof alphabet - 1)];
      else
        s.erase(at, 1 + rng() % 8);
    }
    try {
      read(s);
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::kInvalidFile) << e.what();
      EXPECT_EQ(std::string(e.what()).rfind("test.json: ", 0), 0u) << e.what();
      errors++;
    } catch (const std::exception& e) {
      ADD_FAILURE() << "not a cuzk::Error: " << e.what();
    }
  }
  EXPECT_GT(errors, 350);
}

// ---- the circuit's view -----------------------------------------------------------------------

TEST(C1Witness, PartitionWitnessIsWhatTheCircuitReads) {
  Gen g(44);
  const C1Output c1 = read(write_c1_json(g.make(rp("StackedDrg2KiBV1_2_Feat_NonInteractivePoRep"))));
  const circuits::StackedShape s = shape_of(c1);
  EXPECT_EQ(s.name, "2KiB");
  ASSERT_EQ(c1.vanilla_proofs.size(), 13u);
  for (size_t k : {0, 12}) {
    circuits::StackedWitness w = partition_witness(c1, k, s);
    const auto& vp = c1.vanilla_proofs[k];
    Fr f;
    from_bytes_le(c1.replica_id.data(), f);
    EXPECT_EQ(w.replica_id, f);
    from_bytes_le(c1.comm_d.data(), f);
    EXPECT_EQ(w.comm_d, f);
    from_bytes_le(c1.comm_r.data(), f);
    EXPECT_EQ(w.comm_r, f);
    EXPECT_EQ(w.comm_r_last, vp[0].comm_r_last_proof.root);
    EXPECT_EQ(w.comm_c, vp[0].replica_column_proofs.c_x.inclusion_proof.root);
    ASSERT_EQ(w.challenges.size(), s.challenges);
    auto chal = partition_challenges(c1, k);
    auto parents = partition_parents(c1, k);
    for (size_t i = 0; i < w.challenges.size(); i++) {
      const circuits::ChallengeWitness& c = w.challenges[i];
      const C1VanillaProof& v = vp[i];
      EXPECT_EQ(c.challenge, v.labeling_proofs[0].node);
      EXPECT_EQ(c.challenge, chal[i]);
      EXPECT_EQ(c.data_leaf, v.comm_d_proofs.leaf);
      circuits::check_path(s.tree_d, c.comm_d_path);
      circuits::check_path(s.tree_rc, c.comm_r_last_path);
      circuits::check_path(s.tree_rc, c.comm_c_path);
      ASSERT_EQ(c.drg_parents.size(), 6u);
      ASSERT_EQ(c.exp_parents.size(), 8u);
      for (size_t p = 0; p < 14; p++) {
        const circuits::ColumnOpening& o = p < 6 ? c.drg_parents[p] : c.exp_parents[p - 6];
        const C1ColumnProof& cp =
            p < 6 ? v.replica_column_proofs.drg_parents[p] : v.replica_column_proofs.exp_parents[p - 6];
        EXPECT_EQ(o.rows.size(), s.layers);
        EXPECT_EQ(o.rows[1], cp.rows[1]);
        circuits::check_path(s.tree_rc, o.path);
        EXPECT_EQ(o.path[1].index, cp.inclusion_proof.path[1].index);
        EXPECT_EQ(parents[i][p], cp.index);
      }
      EXPECT_EQ(c.comm_c_path[0].siblings[3],
                v.replica_column_proofs.c_x.inclusion_proof.path[0].siblings[3]);
    }
    auto inputs = circuits::stacked_public_inputs(w.replica_id, w.comm_d, w.comm_r, chal, parents);
    EXPECT_EQ(inputs.size(), 3u + 18 * s.challenges);
  }
  EXPECT_THROW(partition_witness(c1, 13, s), Error);
  EXPECT_THROW(partition_witness(c1, 0, circuits::stacked_shape("8MiB")), Error);
  EXPECT_THROW(partition_witness(c1, 0, circuits::stacked_test_shape("base-8")), Error);
}

// ---- a 32 GiB-shaped C1: size, time and peak memory of the read -------------------------------

long status_kb(const char* field) {
  std::ifstream f("/proc/self/status");
  std::string line;
  while (std::getline(f, line))
    if (line.rfind(field, 0) == 0) return std::stol(line.substr(std::strlen(field) + 1));
  return -1;
}

// Run by C1Large in a fresh process (the test binary re-executed), so that its peak RSS is the
// reader's: reads $CUZK_C1_FILE into memory, then read_c1, and prints VmHWM at each step.
TEST(C1Measure, ReadFile) {
  const char* path = std::getenv("CUZK_C1_FILE");
  if (!path) GTEST_SKIP() << "run by C1Large.Read32GiBShaped";
  const long base = status_kb("VmHWM:");
  std::vector<uint8_t> bytes(std::filesystem::file_size(path));
  std::ifstream(path, std::ios::binary)
      .read(reinterpret_cast<char*>(bytes.data()), (std::streamsize)bytes.size());
  const long loaded = status_kb("VmHWM:");
  auto t0 = std::chrono::steady_clock::now();
  C1Output c1 = read_c1(bytes, path);
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const long peak = status_kb("VmHWM:");
  std::vector<uint8_t>().swap(bytes);
  std::printf(
      "C1 read of %s: %.1f MB in %.2f s; VmHWM: %.1f MB at start, %.1f MB with the file loaded, %.1f MB "
      "after "
      "read_c1 (reader's own peak ≈ %.1f MB above the loaded file); result %zu partitions\n",
      path, (double)std::filesystem::file_size(path) / 1e6, secs, base / 1024.0, loaded / 1024.0,
      peak / 1024.0, (peak - loaded) / 1024.0, c1.vanilla_proofs.size());
  EXPECT_EQ(c1.vanilla_proofs.size(), 10u);
}

TEST(C1Large, Read32GiBShaped) {
  Gen g(55);
  std::string raw, env;
  {
    C1Output c1 = g.make(rp("StackedDrg32GiBV1_1"));
    ASSERT_EQ(c1.vanilla_proofs.size(), 10u);
    ASSERT_EQ(c1.vanilla_proofs[0].size(), 18u);
    auto t0 = std::chrono::steady_clock::now();
    raw = write_c1_json(c1);
    double w = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    env = write_c1_envelope_json(c1, 1);
    std::printf(
        "32 GiB-shaped C1 (10 × 18 challenges, 11 layers): %.1f MB JSON (written in %.2f s), envelope %.1f "
        "MB\n",
        raw.size() / 1e6, w, env.size() / 1e6);
  }
  auto t0 = std::chrono::steady_clock::now();
  C1Output r = read(raw);
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("read_c1 in-process: %.2f s\n", secs);
  EXPECT_EQ(write_c1_json(r), raw);
  const circuits::StackedShape s = shape_of(r);
  circuits::StackedWitness w = partition_witness(r, 9, s);
  EXPECT_EQ(w.challenges.size(), 18u);
  EXPECT_EQ(w.challenges[17].comm_r_last_path.size(), 10u);
  EXPECT_EQ(w.challenges[17].comm_d_path.size(), 30u);
  EXPECT_EQ(w.challenges[17].drg_parents[5].rows.size(), 11u);

  // Peak RSS of the reader alone, in a fresh process, for the raw JSON and the envelope.
  const auto dir = std::filesystem::temp_directory_path();
  for (auto [name, text] : {std::pair{"cuzk_c1_32gib.json", &raw}, {"cuzk_c1_32gib_envelope.json", &env}}) {
    const std::string file = (dir / (std::to_string(::getpid()) + "_" + name)).string();
    std::ofstream(file, std::ios::binary).write(text->data(), (std::streamsize)text->size());
    std::string var = "CUZK_C1_FILE=" + file;
    std::vector<char*> envp;
    for (char** e = environ; *e; e++) envp.push_back(*e);
    envp.push_back(var.data());
    envp.push_back(nullptr);
    std::string self = std::filesystem::read_symlink("/proc/self/exe").string();
    std::string filter = "--gtest_filter=C1Measure.ReadFile";
    char* argv[] = {self.data(), filter.data(), nullptr};
    pid_t pid;
    ASSERT_EQ(posix_spawn(&pid, self.c_str(), nullptr, nullptr, argv, envp.data()), 0);
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << name;
    std::filesystem::remove(file);
  }
}

}  // namespace
}  // namespace cuzk
