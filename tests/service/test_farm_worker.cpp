// A farm node's FarmWorker (src/engine/farm_worker.hpp) against an in-memory JobStore, for the jobs stored
// with one input (the Filecoin kinds, docs/CLUSTER.md): the node fetches and expands a job's input once
// however many of its partitions it claims, proves and stores every partition (each proof verified here),
// and an input it cannot use, or a corrupt row, fails the job once, for good; a store refusing statements
// is logged and does not end the node; a node id the store refuses (in use) ends the worker's start. The
// PostgreSQL store itself is tested end to end by tests/cluster/farm_e2e.sh.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <fstream>
#include <iterator>
#include <mutex>
#include <thread>

#include "../timing.hpp"
#include "engine/engine.hpp"
#include "engine/farm_worker.hpp"
#include "engine/job_store.hpp"
#include "engine/loaders.hpp"
#include "groth16/cpu_backend.hpp"
#include "groth16/verifier.hpp"
#include "util/error.hpp"

namespace cuzk::engine {
namespace {

const std::string kData = std::string(CUZK_SOURCE_DIR) + "/tests/data/";
const std::string kCircuit = "mimc-job";  // registered with a Filecoin kind, so claimed through expand
constexpr uint32_t kPartitions = 4;

std::vector<uint8_t> file_bytes(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

/// One job "j1" of kPartitions partitions stored with one input, as PgStore keeps it (no SQL).
class MemStore final : public JobStore {
 public:
  explicit MemStore(std::vector<uint8_t> input) : input_(std::move(input)), state_(kPartitions, 0) {
    proofs_.resize(kPartitions);
    public_.resize(kPartitions);
  }
  bool corrupt_row = false;  ///< job_input throws as for a SHA-256 mismatch
  /// claim and heartbeat throw this many times each a plain Error, as for a statement the server refused
  /// (not StoreUnavailable), before they work.
  std::atomic<int> claim_refusals{0}, heartbeat_refusals{0};
  /// job_input calls, partitions claimed, fail calls, and fail calls that failed the job.
  std::atomic<int> input_reads{0}, claims{0}, fails{0}, fails_applied{0};
  std::atomic<int> joins{0};  ///< join calls
  bool id_in_use = false;     ///< join throws NodeIdInUse

  SubmitResult submit(const StoredJobRequest&) override { throw Error(ErrorCode::kInternal, "unused"); }
  std::optional<JobResult> await(const std::string&, uint64_t) override { return std::nullopt; }
  std::optional<bool> cancel(const std::string&, const std::string&) override { return std::nullopt; }
  std::optional<PartitionClaim> claim(const std::string&, const std::vector<std::string>& circuits,
                                      const std::vector<std::string>&) override {
    if (claim_refusals.fetch_sub(1) > 0)
      throw Error(ErrorCode::kInternal, "ERROR:  relation \"cuzk_partitions\" is locked (test)");
    std::lock_guard lk(mu_);
    if (!error_.empty() || std::find(circuits.begin(), circuits.end(), kCircuit) == circuits.end())
      return std::nullopt;
    for (uint32_t i = 0; i < kPartitions; i++)
      if (state_[i] == 0) {
        state_[i] = 1;
        claims++;
        PartitionClaim c;
        c.job_id = "j1";
        c.index = i;
        c.epoch = 1;
        c.attempt = 1;
        c.circuit_id = kCircuit;
        c.kind = "TEST_KIND";
        c.job_input = true;
        c.partitions = kPartitions;
        return c;
      }
    return std::nullopt;
  }
  void join(const NodeReport& node) override {
    joins++;
    EXPECT_EQ(claims.load(), 0) << "claimed before joining";
    if (id_in_use) throw NodeIdInUse("cluster.node_id \"" + node.node_id + "\" is in use (test)");
  }
  std::optional<std::vector<uint8_t>> job_input(const std::string& job_id) override {
    input_reads++;
    if (corrupt_row)
      throw Error(ErrorCode::kInvalidFile,
                  "the job's input stored in the database does not match its SHA-256");
    std::lock_guard lk(mu_);
    if (job_id != "j1" || !error_.empty()) return std::nullopt;
    return input_;
  }
  void wait_for_work(uint64_t timeout_ms) override {
    std::this_thread::sleep_for(std::chrono::milliseconds(std::min<uint64_t>(timeout_ms, 20)));
  }
  bool complete(const PartitionClaim& c, const std::string&, const Groth16Proof& proof,
                const std::vector<Fr>& public_inputs, const PartitionTiming&) override {
    std::lock_guard lk(mu_);
    if (state_[c.index] != 1 || !error_.empty()) return false;
    state_[c.index] = 2;
    proofs_[c.index] = proof;
    public_[c.index] = public_inputs;
    return true;
  }
  bool fail(const PartitionClaim&, const std::string&, const std::string& reason) override {
    std::lock_guard lk(mu_);
    fails++;
    if (!error_.empty()) return false;
    error_ = reason;
    fails_applied++;
    return true;
  }
  std::vector<std::pair<std::string, uint32_t>> heartbeat(const NodeReport&) override {
    if (heartbeat_refusals.fetch_sub(1) > 0) throw Error(ErrorCode::kInternal, "heartbeat refused (test)");
    std::lock_guard lk(mu_);
    std::vector<std::pair<std::string, uint32_t>> held;
    for (uint32_t i = 0; i < kPartitions; i++)
      if (state_[i] == 1 && error_.empty()) held.emplace_back("j1", i);
    return held;
  }
  std::vector<NodeInfo> nodes() override { return {}; }
  std::vector<KindStatus> kinds() override { return {}; }
  FarmTotals totals() override { return {}; }

  /// Waits up to 120 s (times CUZK_TEST_TIMEOUT_SCALE) for every partition to be stored or the job to
  /// fail; true if it happened.
  bool wait_final() {
    return test::wait_until(
        [&] {
          std::lock_guard lk(mu_);
          return !error_.empty() || std::count(state_.begin(), state_.end(), 2) == (long)kPartitions;
        },
        120000);
  }
  std::string error() {
    std::lock_guard lk(mu_);
    return error_;
  }
  std::vector<std::optional<Groth16Proof>> proofs_;
  std::vector<std::vector<Fr>> public_;

 private:
  std::mutex mu_;
  std::vector<uint8_t> input_;
  std::vector<int> state_;  ///< 0 queued, 1 claimed, 2 stored
  std::string error_;       ///< the job's failure
};

/// A CPU engine serving the mimc fixture under a Filecoin registry kind ("snap"), and a FarmWorker of
/// 3 slots whose expander makes kPartitions mimc partitions of the stored input (a .wtns file) and
/// counts its calls, or throws `expand_error` when it is set.
struct Node {
  explicit Node(MemStore& store, std::string expand_error = "") : backend(1), engine(config(), {&backend}) {
    engine.circuits().add(kCircuit, "snap", [] { return load_circom(kData + "mimc/mimc_dev.zkey"); });
    FarmWorkerConfig fc;
    fc.node_id = "test-node";
    fc.slots = 3;
    fc.heartbeat_ms = 100;
    fc.expand = [this, expand_error](const std::string& kind, std::span<const uint8_t> input) {
      expansions++;
      if (!expand_error.empty()) throw Error(ErrorCode::kInvalidArgument, expand_error);
      EXPECT_EQ(kind, "TEST_KIND");
      JobRequest jr;
      jr.circuit_id = kCircuit;
      jr.kind = kind;
      for (uint32_t i = 0; i < kPartitions; i++)
        jr.partitions.push_back({{}, nullptr, std::vector<uint8_t>(input.begin(), input.end()), {}});
      return jr;
    };
    fc.log = [this](const LogEvent& e) {
      std::lock_guard lk(log_mu);
      events.push_back(e.event);
    };
    worker = std::make_unique<FarmWorker>(engine, store, std::move(fc));
  }
  ~Node() {
    worker->stop();
    engine.shutdown(false);
  }
  static EngineConfig config() {
    EngineConfig c;
    c.synthesis_threads = 1;
    c.gpu_workers_per_device = 2;
    return c;
  }
  /// How many events named `name` the worker logged.
  int logged(const std::string& name) {
    std::lock_guard lk(log_mu);
    return (int)std::count(events.begin(), events.end(), name);
  }
  std::atomic<int> expansions{0};
  std::mutex log_mu;
  std::vector<std::string> events;
  CpuBackend backend;
  Engine engine;
  std::unique_ptr<FarmWorker> worker;
};

TEST(ServiceFarmWorker, ExpandsAJobsInputOnceAndProvesEveryPartition) {
  MemStore store(file_bytes(kData + "mimc/mimc.wtns"));
  const VerifyingKey vk = load_circom(kData + "mimc/mimc_dev.zkey").key->verifying_key();
  {
    Node node(store);
    ASSERT_TRUE(store.wait_final()) << "the job's partitions were not all stored within 120 s";
    EXPECT_EQ(node.expansions.load(), 1) << "the input was expanded once per partition, not once per job";
  }
  EXPECT_EQ(store.error(), "");
  EXPECT_EQ(store.joins.load(), 1);
  EXPECT_EQ(store.input_reads.load(), 1);
  EXPECT_EQ(store.claims.load(), (int)kPartitions);
  for (uint32_t i = 0; i < kPartitions; i++) {
    ASSERT_TRUE(store.proofs_[i].has_value()) << i;
    EXPECT_TRUE(verify(vk, store.public_[i], *store.proofs_[i])) << "partition " << i;
  }
}

TEST(ServiceFarmWorker, ANodeIdInUseIsRefusedBeforeAnythingIsClaimed) {
  // The worker joins the farm first (JobStore::join); a refusal ends its construction, no thread started.
  MemStore store(file_bytes(kData + "mimc/mimc.wtns"));
  store.id_in_use = true;
  EXPECT_THROW(Node node(store), NodeIdInUse);
  std::this_thread::sleep_for(std::chrono::milliseconds(200));  // time for a wrong claim
  EXPECT_EQ(store.joins.load(), 1);
  EXPECT_EQ(store.claims.load(), 0);
}

TEST(ServiceFarmWorker, AnInputItCannotUseFailsTheJobOnceForGood) {
  MemStore store(file_bytes(kData + "mimc/mimc.wtns"));
  {
    Node node(store, "vanilla_proof: malformed JSON at byte 7");
    ASSERT_TRUE(store.wait_final());
    std::this_thread::sleep_for(std::chrono::milliseconds(300));  // time for a wrong second claim
    EXPECT_EQ(node.expansions.load(), 1);
  }
  EXPECT_EQ(store.error(), "the job's stored input: vanilla_proof: malformed JSON at byte 7");
  // Slots that claimed other partitions of the job before it failed get the cached error (their fail
  // calls find the job failed already); nothing is claimed after the failure.
  EXPECT_EQ(store.fails_applied.load(), 1);
  EXPECT_EQ(store.fails.load(), store.claims.load());
  EXPECT_EQ(store.input_reads.load(), 1);
}

TEST(ServiceFarmWorker, ACorruptRowFailsTheJobWithoutExpandingIt) {
  MemStore store(file_bytes(kData + "mimc/mimc.wtns"));
  store.corrupt_row = true;
  {
    Node node(store);
    ASSERT_TRUE(store.wait_final());
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    EXPECT_EQ(node.expansions.load(), 0);
  }
  EXPECT_NE(store.error().find("does not match its SHA-256"), std::string::npos) << store.error();
  EXPECT_EQ(store.fails_applied.load(), 1);
  EXPECT_EQ(store.fails.load(), store.claims.load());
  EXPECT_EQ(store.input_reads.load(), 1) << "the corrupt row was read again";
}

TEST(ServiceFarmWorker, RefusedStatementsAreLoggedAndTheNodeGoesOn) {
  // Errors of the store other than StoreUnavailable (a statement the server refused) once ended the
  // process from the slot or heartbeat thread: now each is logged and the node keeps proving.
  MemStore store(file_bytes(kData + "mimc/mimc.wtns"));
  store.claim_refusals = 4;
  store.heartbeat_refusals = 2;
  const VerifyingKey vk = load_circom(kData + "mimc/mimc_dev.zkey").key->verifying_key();
  {
    Node node(store);
    ASSERT_TRUE(store.wait_final()) << "the job's partitions were not all stored within 120 s";
    test::wait_until([&] { return store.heartbeat_refusals.load() <= 0; }, 2000,
                     std::chrono::milliseconds(20));
    EXPECT_GE(node.logged("farm_slot_error"), 6) << "4 refused claims and 2 refused heartbeats";
  }
  EXPECT_EQ(store.error(), "");
  EXPECT_EQ(store.claims.load(), (int)kPartitions);
  for (uint32_t i = 0; i < kPartitions; i++) {
    ASSERT_TRUE(store.proofs_[i].has_value()) << i;
    EXPECT_TRUE(verify(vk, store.public_[i], *store.proofs_[i])) << "partition " << i;
  }
}

}  // namespace
}  // namespace cuzk::engine
