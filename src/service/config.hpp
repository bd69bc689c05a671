// The daemon's configuration: cuzk's TOML document (CUZK_V1_API.md: daemon.*, gpus.*, memory.*,
// synthesis.*, pipeline.*, scheduler.*, srs.*, logging.*) plus our [[circuits]] tables, which name the
// circuits the daemon serves. Every key is checked: an unknown key, a wrong type or a value out of range
// is an Error(kInvalidArgument) naming the file, the key and the problem.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "engine/engine_config.hpp"

namespace cuzk::service {

/// One circuit the daemon serves.
struct CircuitConfig {
  std::string id;                            ///< what SubmitProofRequest.circuit_id names
  std::string kind;                          ///< "circom" (zkey) or "bellperson" (params + r1cs)
  std::filesystem::path zkey, params, r1cs;  ///< resolved against the config file's folder
  bool preload = false;                      ///< load at start instead of on first use
};

/// What one client can make the daemon hold ([limits], ours; docs/DAEMON_LIMITS.md). A request over a
/// limit is refused with INVALID_ARGUMENT (a size) or RESOURCE_EXHAUSTED (the daemon is full now).
struct ServiceLimits {
  unsigned max_id_bytes = 256;          ///< limits.max_id_bytes: request_id, circuit_id, job_id
  unsigned max_partitions = 1024;       ///< limits.max_partitions: witnesses or vanilla proofs of a job
  unsigned max_waiting_clients = 1024;  ///< limits.max_waiting_clients: AwaitProof and Prove calls at once
  /// limits.max_waiting_per_client (ours): of those, from one client (a TCP connection; on a unix socket,
  /// those waiting for one job), so that one client cannot take every slot (issue 36 N2).
  unsigned max_waiting_per_client = 256;
  uint64_t max_vanilla_proof_bytes = 512ull << 20;  ///< one vanilla_proof (a PoRep C1)
  /// limits.max_message_bytes: one gRPC message (gRPC's receive limit; a bigger one is refused with
  /// RESOURCE_EXHAUSTED). Filecoin's largest requests are well under 100 MB: a 32 GiB PoRep C1 is ~38 MB
  /// of JSON (~50 MB in Curio's base64 envelope), a WindowPoSt partition's 2349 vanilla proofs 59 MB
  /// (docs/PERFORMANCE.md).
  uint64_t max_message_bytes = 256ull << 20;
  /// limits.max_receiving_bytes (ours): gRPC's memory for requests being received, all connections together
  /// (its ResourceQuota); past it gRPC cancels the streams being received (RESOURCE_EXHAUSTED). At least
  /// max_message_bytes.
  uint64_t max_receiving_bytes = 1ull << 30;
  /// limits.max_queued_bytes: input bytes of jobs not finished (EngineConfig::max_queued_bytes; "auto" =
  /// a quarter of memory.total_budget, at least 1 GiB).
  std::string max_queued = "auto";
  uint64_t max_queued_bytes = 0;       ///< max_queued resolved (0 = auto)
  unsigned http_max_connections = 64;  ///< HTTP connections open at once (a new one closes the oldest)
  unsigned http_timeout_s = 2;         ///< HTTP: time to send the request head, and to take the response
  /// limits.max_connection_idle_s (ours): a gRPC connection with no call for this long is closed (a client
  /// reconnects on its next call), so connections that clients leave open cannot pile up.
  unsigned max_connection_idle_s = 120;
  /// limits.max_connections (ours): gRPC connections open at once; a new one past them is closed at once.
  /// 0 = min(4096, half the descriptors the process may open); never more than that half (the daemon raises
  /// its soft RLIMIT_NOFILE to the hard limit at start).
  unsigned max_connections = 0;
  /// limits.handshake_timeout_s (ours): a gRPC connection whose client sends nothing for this long after
  /// connecting is closed (gRPC clients send their preface at once).
  unsigned handshake_timeout_s = 10;
};

/// [cluster] (ours; docs/CLUSTER.md): when `database` is set, the daemon is a node of a proving farm
/// whose jobs, partitions and results live in that PostgreSQL database.
struct ClusterConfig {
  std::string database;       ///< cluster.database: a libpq connection string or postgresql:// URI; "" = off
  std::string node_id;        ///< cluster.node_id; default: the host name
  uint64_t lease_ms = 30000;  ///< cluster.lease: how long a claim lives without a heartbeat
  uint64_t heartbeat_ms = 0;  ///< cluster.heartbeat; 0 = a third of the lease
  unsigned max_attempts = 3;  ///< cluster.max_attempts: claims of one partition before its job fails
  uint64_t retention_s = 7 * 86400;  ///< cluster.retention: finished jobs are deleted after this
  unsigned slots =
      0;  ///< cluster.slots: partitions claimed at once; 0 = devices × gpu_workers_per_device + 1
  /// cluster.max_queued_bytes: input bytes stored in the database for the farm's jobs not finished (all
  /// nodes' submits together) that a submit through this node may bring the total to; past it the submit
  /// is refused with RESOURCE_EXHAUSTED. "auto" = this node's limits.max_queued_bytes as resolved.
  std::string max_queued = "auto";
  uint64_t max_queued_bytes = 0;  ///< max_queued resolved (0 = auto)
};

/// The whole configuration, with cuzk's defaults.
struct ServiceConfig {
  std::string listen = "unix:///run/curio/cuzk.sock";  ///< daemon.listen: host:port or unix:///path
  std::string status_listen;  ///< daemon.status_listen: host:port of HTTP /status and /metrics; "" = off
  std::vector<unsigned> gpu_devices;    ///< gpus.devices; empty = all (one CPU device without a GPU)
  unsigned gpu_threads = 0;             ///< gpus.gpu_threads: CPU threads per backend; 0 = all
  unsigned gpu_workers_per_device = 2;  ///< gpus.gpu_workers_per_device
  std::string gpu_mem_budget;           ///< gpus.mem_budget: device memory per GPU, e.g. "16GiB"; "" = all
  uint64_t gpu_mem_budget_bytes = 0;    ///< gpus.mem_budget parsed (0 = the device's memory)
  unsigned synthesis_threads = 0;       ///< synthesis.threads; 0 = cores / 2
  unsigned synthesis_concurrency = 1;   ///< pipeline.synthesis_concurrency
  unsigned max_parallel_synthesis = 0;  ///< pipeline.max_parallel_synthesis; 0 = synthesis_concurrency
  unsigned synthesis_lookahead = 1;     ///< pipeline.synthesis_lookahead
  unsigned max_gpu_queue_depth = 0;     ///< pipeline.max_gpu_queue_depth; 0 = synthesis_lookahead
  std::string total_budget = "auto";    ///< memory.total_budget
  uint64_t memory_budget_bytes = 0;     ///< total_budget resolved
  std::string safety_margin = "5GiB";   ///< memory.safety_margin
  /// memory.release_device_keys (ours): a key's point vectors that every GPU keeps resident are not kept
  /// in host memory too (read again from the .params file when a GPU evicts and re-uploads them, or a
  /// CPU proves with them).
  bool release_device_keys = true;
  std::string log_level = "info";  ///< logging.level: trace, debug, info, warn, error, off
  std::string timeline_csv;        ///< logging.timeline_csv (ours): per-partition stage times
  /// scheduler.deadline_lead_s (ours): a job is urgent this long before its deadline_unix_ms.
  unsigned deadline_lead_s = 600;
  /// srs.param_cache, resolved against the config file's folder: Filecoin's parameter files, found by
  /// their file names (POREP_SEAL_COMMIT jobs); "" = none.
  std::filesystem::path param_cache;
  /// srs.verify_subgroup (ours): subgroup-check every point of a .params file as it loads (bellperson and
  /// PoRep circuits). false for a trusted cache (Filecoin's fetcher checks each file's digest): a load is
  /// then several times faster.
  bool verify_subgroup = true;
  std::vector<CircuitConfig> circuits;  ///< [[circuits]]
  ServiceLimits limits;                 ///< [limits]
  ClusterConfig cluster;                ///< [cluster]

  /// The engine settings this configuration asks for (log sink not set).
  engine::EngineConfig engine_config() const;
};

/// Parses a duration: an integer with a unit, ms, s, m, h or d ("500ms", "30s", "7d"). Throws
/// Error(kInvalidArgument) naming the problem.
uint64_t parse_duration_ms(const std::string& text);

/// Parses TOML text; `name` (the path) prefixes errors and relative circuit paths are resolved against
/// `base_dir`. Throws Error(kInvalidArgument, "<name>: <key>: <problem>") for a bad document.
ServiceConfig parse_config(std::string_view toml_text, const std::string& name,
                           const std::filesystem::path& base_dir);
/// Reads and parses a file. Throws Error(kIo) when it cannot be read.
ServiceConfig load_config(const std::filesystem::path& path);

}  // namespace cuzk::service
