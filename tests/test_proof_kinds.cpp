// The proof kinds (src/engine/kinds): every built-in kind once, each serving its own circuits; a
// request's job goes through its kind's check, its job and then the registration of its circuit, whose
// missing parameters name the file.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "engine/kinds/proof_kinds.hpp"
#include "engine/memory.hpp"
#include "engine/registry.hpp"
#include "formats/c1.hpp"
#include "formats/fake_c1.hpp"
#include "util/error.hpp"

namespace cuzk::engine {
namespace {

ParamsReading plain_reading() {
  return [](const CompactCs*, const auto& read) { return read(ParamsReadOptions{}); };
}

/// The message of the Error `f` throws, after checking its code.
template <class F>
std::string error_of(F f, ErrorCode code) {
  try {
    f();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), code) << e.what();
    return e.what();
  }
  ADD_FAILURE() << "no error";
  return "";
}

TEST(ProofKinds, BuiltinKindsAreDistinctAndServeDistinctCircuits) {
  const auto kinds = builtin_kinds();
  std::set<std::string> names, ids;
  for (const auto& k : kinds) {
    EXPECT_TRUE(names.insert(std::string(k->name())).second) << k->name();
    for (const KindCircuit& c : k->circuits()) {
      EXPECT_TRUE(ids.insert(c.id).second) << c.id;
      EXPECT_TRUE(c.params_file.ends_with(".params")) << c.params_file;
    }
  }
  EXPECT_EQ(names, (std::set<std::string>{"CIRCOM_GROTH16", "BELLPERSON_GROTH16", "POREP_SEAL_COMMIT",
                                          "SNAP_DEALS_UPDATE", "WINDOW_POST_PARTITION", "WINNING_POST"}));
  for (const char* id : {"porep-2k", "porep-64g", "snap-2k", "snap-64g", "winning-32g", "wpost-32g"})
    EXPECT_TRUE(ids.count(id)) << id;
}

TEST(ProofKinds, ChecksNameTheFieldsAKindDoesNotTake) {
  MemoryBudget budget;
  CircuitRegistry reg(budget, {});
  ProofKinds kinds(reg, {{}, plain_reading(), 1});
  ProofRequest r;
  r.circuit_id = "tiny";
  EXPECT_NE(error_of([&] { kinds.job("POREP_SEAL_COMMIT", r); }, ErrorCode::kInvalidArgument)
                .find("not circuit_id or witnesses"),
            std::string::npos);
  EXPECT_NE(error_of([&] { kinds.job("CIRCOM_GROTH16", r); }, ErrorCode::kInvalidArgument).find("no witness"),
            std::string::npos);
  EXPECT_NE(error_of([&] { kinds.job("NO_SUCH_KIND", r); }, ErrorCode::kInvalidArgument).find("NO_SUCH_KIND"),
            std::string::npos);
}

TEST(ProofKinds, MissingParametersNameTheFile) {
  MemoryBudget budget;
  CircuitRegistry reg(budget, {});
  ProofKinds unset(reg, {{}, plain_reading(), 1});
  EXPECT_FALSE(unset.ensure_circuit("tiny"));  // no kind serves it
  const std::string m = error_of([&] { unset.ensure_circuit("porep-2k"); }, ErrorCode::kIo);
  EXPECT_NE(m.find("srs.param_cache is not set"), std::string::npos) << m;
  EXPECT_NE(m.find("2KiB PoRep circuit (v28-stacked-proof-of-replication-"), std::string::npos) << m;

  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("cuzk_proof_kinds_empty_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  ProofKinds empty(reg, {dir, plain_reading(), 1});
  EXPECT_TRUE(empty.register_present(*empty.find("SNAP_DEALS_UPDATE")).empty());
  const std::string n = error_of([&] { empty.ensure_circuit("wpost-2k"); }, ErrorCode::kIo);
  EXPECT_NE(n.find(": no such file: the "), std::string::npos) << n;
  EXPECT_NE(n.find(" PoSt parameters are missing from srs.param_cache"), std::string::npos) << n;
  EXPECT_FALSE(reg.contains("wpost-2k"));
  std::filesystem::remove_all(dir);
}

TEST(ProofKinds, AWitnessJobHasOnePartitionPerWitness) {
  const auto kind = witness_kind("BELLPERSON_GROTH16", "bellperson");
  const uint8_t a[] = {1, 2, 3}, b[] = {4};
  ProofRequest r;
  r.circuit_id = "tinybp";
  r.witnesses = {a, b};
  kind->check(r);
  const JobRequest jr = kind->job(r);
  EXPECT_EQ(jr.circuit_id, "tinybp");
  EXPECT_EQ(jr.kind, "BELLPERSON_GROTH16");
  ASSERT_EQ(jr.partitions.size(), 2u);
  EXPECT_EQ(jr.partitions[0].wtns, (std::vector<uint8_t>{1, 2, 3}));
  EXPECT_EQ(jr.partitions[1].wtns, (std::vector<uint8_t>{4}));
}

/// C1s submitted together are read one at a time (porep_kind.cpp): a C1 whose read fails lets the next
/// ones through, and requests read side by side each get the job of their own C1.
TEST(ProofKinds, PorepRequestsTogetherEachGetTheirOwnJob) {
  const auto kind = porep_kind();
  std::vector<std::string> c1s;
  for (uint64_t seed = 1; seed <= 3; seed++)
    c1s.push_back(write_c1_json(make_fake_sector("StackedDrg2KiBV1_1", seed).c1));
  const std::string bad = c1s[0].substr(0, c1s[0].size() / 2);  // truncated JSON
  auto request = [](const std::string& text) {
    ProofRequest r;
    r.vanilla_proof = std::span(reinterpret_cast<const uint8_t*>(text.data()), text.size());
    return r;
  };
  EXPECT_NE(error_of([&] { kind->job(request(bad)); }, ErrorCode::kInvalidFile).find("vanilla_proof"),
            std::string::npos);
  std::vector<JobRequest> jobs(c1s.size());
  std::vector<std::string> errors(c1s.size() + 1);
  std::vector<std::thread> threads;
  for (size_t i = 0; i <= c1s.size(); i++)
    threads.emplace_back([&, i] {
      try {
        if (i < c1s.size())
          jobs[i] = kind->job(request(c1s[i]));
        else
          kind->job(request(bad));
      } catch (const Error& e) {
        errors[i] = e.what();
      }
    });
  for (auto& t : threads) t.join();
  for (size_t i = 0; i < c1s.size(); i++) {
    EXPECT_EQ(errors[i], "") << i;
    EXPECT_EQ(jobs[i].circuit_id, "porep-2k") << i;
    EXPECT_EQ(jobs[i].kind, "POREP_SEAL_COMMIT") << i;
    EXPECT_EQ(jobs[i].partitions.size(), 1u) << i;
  }
  EXPECT_NE(errors.back().find("vanilla_proof"), std::string::npos) << errors.back();
}

}  // namespace
}  // namespace cuzk::engine
