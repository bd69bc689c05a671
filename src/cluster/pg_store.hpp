// The farm's job store in PostgreSQL (docs/CLUSTER.md), through libpq: tables cuzk_jobs,
// cuzk_partitions and cuzk_nodes, created and migrated by the daemon itself (versioned migrations, one
// transaction each, under an advisory lock so that nodes starting together apply each once). Claims use
// SELECT … FOR UPDATE SKIP LOCKED; results are written only under the claim's lease (owner and epoch);
// LISTEN/NOTIFY wakes claimers (cuzk_work) and waiters (cuzk_done). A lost connection is re-opened with
// back-off (50 ms doubling to 2 s); meanwhile every call throws engine::StoreUnavailable.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "engine/job_store.hpp"
#include "engine/log.hpp"

namespace cuzk::cluster {

/// Settings of a PgStore ([cluster] in cuzk.toml).
struct PgStoreOptions {
  std::string database;              ///< libpq connection string or postgresql:// URI
  uint64_t lease_ms = 30000;         ///< a claim's lease, renewed by each heartbeat
  unsigned max_attempts = 3;         ///< claims of one partition before its job fails
  uint64_t retention_s = 7 * 86400;  ///< finished jobs (and silent nodes) are deleted after this
  /// How long before its deadline a job's partitions are claimed first (scheduler.deadline_lead_s).
  uint64_t deadline_lead_ms = 600000;
  /// Input bytes stored for the farm's jobs not final (their job inputs and per-partition witnesses,
  /// farm-wide) that a submit through this node may bring the total to (cluster.max_queued_bytes); a
  /// submit beyond it is refused with SubmitRefused(kOverLimit). 0 = no limit.
  uint64_t max_queued_bytes = 0;
  engine::LogSink log;  ///< receives the store's events (may be empty)
};

/// The schema version this build migrates the database to.
constexpr int kSchemaVersion = 3;

/// engine::JobStore on PostgreSQL. Thread-safe (a small pool of connections).
class PgStore final : public engine::JobStore {
 public:
  /// Connects and migrates the schema. Throws engine::StoreUnavailable when the database cannot be
  /// reached, Error(kInvalidArgument) when it holds a newer schema than this build knows.
  explicit PgStore(PgStoreOptions opt);
  ~PgStore() override;
  PgStore(const PgStore&) = delete;
  PgStore& operator=(const PgStore&) = delete;

  engine::SubmitResult submit(const engine::StoredJobRequest& req) override;
  std::optional<engine::JobResult> await(const std::string& job_id, uint64_t timeout_ms) override;
  std::optional<bool> cancel(const std::string& job_id, const std::string& reason) override;
  std::optional<engine::PartitionClaim> claim(const std::string& node_id,
                                              const std::vector<std::string>& circuits,
                                              const std::vector<std::string>& resident) override;
  std::optional<std::vector<uint8_t>> job_input(const std::string& job_id) override;
  void wait_for_work(uint64_t timeout_ms) override;
  bool complete(const engine::PartitionClaim& c, const std::string& node_id, const Groth16Proof& proof,
                const std::vector<Fr>& public_inputs, const engine::PartitionTiming& t) override;
  bool fail(const engine::PartitionClaim& c, const std::string& node_id, const std::string& reason) override;
  void join(const engine::NodeReport& node) override;
  std::vector<std::pair<std::string, uint32_t>> heartbeat(const engine::NodeReport& node) override;
  std::vector<engine::NodeInfo> nodes() override;
  std::vector<engine::KindStatus> kinds() override;
  engine::FarmTotals totals() override;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace cuzk::cluster
