// The job store of a proving farm (docs/CLUSTER.md): where jobs, their partitions and their results live
// when several daemons share one queue. The engine knows only this interface (no SQL); src/cluster's
// PgStore keeps everything in PostgreSQL. A node's FarmWorker (farm_worker.hpp) claims partitions from
// the store, proves each on its local Engine and writes the result back under the partition's lease.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "engine/engine.hpp"
#include "engine/job.hpp"
#include "util/error.hpp"

namespace cuzk::engine {

/// A job as the farm stores it: what SubmitProof asked for, and its input as bytes, either one input per
/// partition (`inputs`: a .wtns v2 file each, the circuit_id + witness kinds CIRCOM_GROTH16 and
/// BELLPERSON_GROTH16) or one input that every partition is made from (`job_input`: the Filecoin kinds,
/// e.g. a PoRep C1; FarmWorkerConfig::expand turns it into the job's partitions on the claiming node).
/// Exactly one of the two is set.
struct StoredJobRequest {
  std::string request_id;   ///< idempotency key, farm-wide (JobRequest::request_id's rules)
  std::string fingerprint;  ///< digest of what the request asks for (JobRequest::fingerprint)
  std::string circuit_id, kind;
  Priority priority = Priority::kNormal;
  /// When the proof is due, milliseconds since the Unix epoch (SubmitProofRequest.deadline_unix_ms); from
  /// the claiming node's lead (scheduler.deadline_lead_s) before it the job's partitions are claimed
  /// before those of every job without a near deadline, the earliest deadline first (JobRequest::deadline).
  std::optional<int64_t> deadline_unix_ms;
  std::vector<std::vector<uint8_t>> inputs;  ///< one .wtns file per partition, in partition order
  std::vector<uint8_t> job_input;            ///< the input all partitions are made from
  uint32_t partitions = 0;                   ///< with job_input: the job's partition count (≥ 1)
};

/// One partition claimed by a node: the lease it holds (owner = the node's id, `epoch` = the lease's
/// number, which every later claim of the partition increments) and the partition's input.
struct PartitionClaim {
  std::string job_id;
  uint32_t index = 0;
  uint64_t epoch = 0;
  unsigned attempt = 0;  ///< 1 for the first claim of the partition, +1 for each re-claim
  std::string circuit_id, kind;
  Priority priority = Priority::kNormal;
  /// The partition's own input, checked against the SHA-256 stored with it by the store; empty when
  /// `job_input` (the partition is made from the job's input: JobStore::job_input).
  std::vector<uint8_t> input;
  bool job_input = false;
  uint32_t partitions = 0;  ///< the job's partition count
};

/// What a node reports of itself at each heartbeat.
struct NodeReport {
  std::string node_id;                ///< cluster.node_id
  std::string incarnation;            ///< this process's lease owner id (node_id@random): leases die with it
  std::string address;                ///< its gRPC address as configured (daemon.listen)
  unsigned gpus = 0;                  ///< devices of its engine (CPU backends count as devices)
  std::vector<std::string> resident;  ///< circuits whose keys are loaded now
  unsigned running = 0;               ///< partitions it is proving now
};

/// A node as the store last heard of it.
struct NodeInfo {
  NodeReport report;
  double heartbeat_age_s = 0;      ///< seconds since its last heartbeat
  bool alive = false;              ///< heard from within one lease
  uint64_t partitions_stored = 0;  ///< partition proofs it stored, of the jobs the store holds
};

/// The farm's jobs by state (of the jobs the store holds: finished ones are pruned after the retention)
/// and the partition proofs stored.
struct FarmTotals {
  uint64_t queued = 0, running = 0, completed = 0, failed = 0, cancelled = 0;
  uint64_t partitions_stored = 0;
};

/// Thrown by a JobStore whose database cannot be reached now; the caller may retry later (the gRPC
/// service answers UNAVAILABLE).
class StoreUnavailable : public Error {
 public:
  explicit StoreUnavailable(const std::string& msg) : Error(ErrorCode::kIo, msg) {}
};

/// Thrown by JobStore::join when another process that is running holds the node id: node ids must be
/// unique among running nodes (a bad configuration, so kInvalidArgument: `cuzk serve` exits 2).
class NodeIdInUse : public Error {
 public:
  explicit NodeIdInUse(const std::string& msg) : Error(ErrorCode::kInvalidArgument, msg) {}
};

/// The farm's shared job table. Thread-safe. Every method may throw StoreUnavailable.
class JobStore {
 public:
  virtual ~JobStore() = default;

  /// Stores a new job and its partitions (queued), or returns the job that holds `req.request_id`
  /// (SubmitResult::existing; a failed or cancelled one does not hold it: the request is a new attempt).
  /// Throws SubmitRefused(kRequestIdInUse) for a request_id held by a job that asked for something else.
  virtual SubmitResult submit(const StoredJobRequest& req) = 0;
  /// The job's state (and, when completed, its proofs in partition order), waiting up to `timeout_ms`
  /// (at least one look; 0 = one look only) for it to become final. nullopt for an unknown job id.
  virtual std::optional<JobResult> await(const std::string& job_id, uint64_t timeout_ms) = 0;
  /// Cancels a job that is not final on every node (its partitions are no longer claimable, leases on
  /// them are void). nullopt for an unknown id, else whether a partition had been claimed.
  virtual std::optional<bool> cancel(const std::string& job_id, const std::string& reason) = 0;

  /// Claims the best claimable partition for the lease owner `node_id` (NodeReport::incarnation): queued, or
  /// running under an expired lease that has not used up its attempts; of one of `circuits` (those the node
  /// can prove); first the partitions of jobs whose deadline is near (within the store's deadline lead),
  /// the earliest deadline first; then highest priority, then a circuit of `resident`, then the oldest
  /// job, then the lowest index. nullopt when none.
  virtual std::optional<PartitionClaim> claim(const std::string& node_id,
                                              const std::vector<std::string>& circuits,
                                              const std::vector<std::string>& resident) = 0;
  /// The input a job's partitions are made from (StoredJobRequest::job_input), nullopt when the job is
  /// unknown, final (its input is dropped then) or has per-partition inputs. Throws
  /// Error(kInvalidFile) when the stored bytes do not match the SHA-256 stored with them (a corrupt row).
  virtual std::optional<std::vector<uint8_t>> job_input(const std::string& job_id) = 0;
  /// Waits up to `timeout_ms` for new work to be announced (a submit anywhere in the farm).
  virtual void wait_for_work(uint64_t timeout_ms) = 0;
  /// Stores the partition's proof if `node_id` still holds the claim's lease (same epoch, not expired,
  /// job not final): returns false, storing nothing, otherwise. The job completes with its last proof.
  virtual bool complete(const PartitionClaim& c, const std::string& node_id, const Groth16Proof& proof,
                        const std::vector<Fr>& public_inputs, const PartitionTiming& t) = 0;
  /// Fails the claim's job for good with "partition i: reason" (a corrupt input, a proof that does not
  /// verify: retrying would fail again) if `node_id` still holds the lease; returns whether it did.
  virtual bool fail(const PartitionClaim& c, const std::string& node_id, const std::string& reason) = 0;
  /// Takes `node.node_id` for this process (`node.incarnation`), before its first heartbeat. When another
  /// incarnation holds the id: one whose last heartbeat is a lease old or older (a process that died) is
  /// replaced, its leases lapsing at once; one that is still heard from is alive, and the id is refused
  /// with NodeIdInUse (nothing of the other process changed). An incarnation heard from within the lease
  /// but not since is waited for, at most one lease after its last heartbeat: a node restarted at once
  /// after a crash takes its id over then.
  virtual void join(const NodeReport& node) = 0;
  /// Records the node's heartbeat (join first) and renews the leases of its incarnation; returns the
  /// (job id, partition) leases it still holds (a lease another node took over, or of a job cancelled or
  /// failed, is not among them). Also fails jobs whose partition used up its attempts and prunes old
  /// finished jobs.
  virtual std::vector<std::pair<std::string, uint32_t>> heartbeat(const NodeReport& node) = 0;
  /// Every node heard of (within the retention), by id.
  virtual std::vector<NodeInfo> nodes() = 0;
  /// Farm-wide: per kind, jobs not final with no partition claimed yet and with some claimed.
  virtual std::vector<KindStatus> kinds() = 0;
  /// Farm-wide job and proof counts.
  virtual FarmTotals totals() = 0;
};

}  // namespace cuzk::engine
