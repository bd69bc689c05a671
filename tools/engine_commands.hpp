// The subcommands of the proving engine and its daemon, registered on the `cuzk` CLI by one call:
//   cuzk serve --config cuzk.toml                      the cuzk.v1 gRPC daemon (tools/serve.cpp)
//   cuzk client prove|status|metrics|cancel|preload|evict   a small gRPC client (tools/client.cpp)
//   cuzk bench batch -c COUNT -j CONCURRENCY [--porep c1.json]   load a running daemon
//   (tools/bench_batch.cpp) cuzk bench pipeline --synthetic porep --log2 K ...  the engine in-process
//   (tools/bench_pipeline.cpp)
// serve, client and bench batch need the gRPC build (CUZK_SERVICE); without it they say so.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace cuzk::cli {

/// Options of `cuzk serve`.
struct ServeOptions {
  std::string config;
};

/// Options of `cuzk client …` and `cuzk bench batch`.
struct ClientOptions {
  std::string addr = "127.0.0.1:9820";  ///< host:port or unix:///path
  std::string circuit = "mimc";
  std::string witness = "tests/data/mimc/mimc.wtns";
  unsigned partitions = 1;  ///< the witness is sent once per partition
  std::string priority = "normal";
  /// Seconds from now to the job's deadline (SubmitProofRequest.deadline_unix_ms); unset = none.
  std::optional<double> deadline_in_s;
  std::string request_id;
  std::string out_dir;  ///< client prove: where proof_<i>.json, public_<i>.json and proof.bin go
  std::string job_id;   ///< client cancel
  uint64_t timeout_ms = 0;
  unsigned count = 8, concurrency = 2;  ///< bench batch
  /// A C1 output (raw JSON or Curio's envelope): a POREP_SEAL_COMMIT job instead of a circuit's.
  std::string porep;
  /// Sent as SubmitProofRequest.registered_proof / sector_size / sector_number; unset: read from the C1
  /// (as Curio sends them), or left 0 when it does not parse (the daemon then says what is wrong).
  std::optional<uint64_t> registered_proof, sector_size;
  uint64_t sector_number = 0;
  /// `snap fake`'s vanilla.json and the update.json of its commitments: a SNAP_DEALS_UPDATE job.
  std::string snap, update;
  /// A PoSt request file (tools/post_commands.hpp): a WINNING_POST or WINDOW_POST_PARTITION job.
  std::string post;
};

/// Options of `cuzk bench soak` (tools/bench_soak.cpp): the daemon's address, one circom circuit it
/// serves (its id, a witness, its .zkey for verifying), how much to send, and the daemon's limits that
/// the oversized requests exceed (limits.max_id_bytes, max_partitions, max_queued_bytes of its config).
struct SoakOptions {
  std::string addr = "127.0.0.1:9820";
  std::string circuit = "tiny";
  std::string witness = "tests/data/tiny/mul.wtns";
  std::string zkey = "tests/data/tiny/mul_final.zkey";
  unsigned jobs = 2000, clients = 4;
  double seconds = 0;  ///< stop sending after this long (0 = when `jobs` were sent)
  int pid = 0;         ///< the daemon's process id: its RSS, descriptors and threads are checked (0 = not)
  double max_rss_growth_mib = 32;
  unsigned max_fd_growth = 8;
  unsigned max_id_bytes = 256, max_partitions = 1024;
  uint64_t max_queued_bytes = 0;  ///< 0: no request over the queued-input limit is sent
  uint64_t seed = 1;
  std::string json;  ///< write the report here too
};

/// Options of `cuzk bench pipeline`.
struct PipelineOptions {
  std::string synthetic = "porep";
  int log2 = 16;
  unsigned jobs = 3, partitions = 10;
  std::vector<unsigned> gw{2};         ///< one run per value, with the same circuit and key
  std::string memory_budget = "auto";  ///< engine memory budget (engine::parse_size; "0" = unlimited)
  unsigned synthesis_workers = 1, lookahead = 1;
  uint64_t seed = 1;
  std::string timeline;
  bool cpu = false;  ///< use the CPU backend even in a CUDA build
  /// Where a, b, c are evaluated: "backend" (compact rows, deferred: the GPU's on the device) or "host"
  /// (the synthesis workers' CSR products).
  std::string abc = "backend";
};

/// Options of `cuzk bench farm` (the farm store's claim and store statements, no proving).
struct FarmBenchOptions {
  std::string database;  ///< libpq connection string of a scratch database (its cuzk_* rows are used)
  unsigned partitions = 1000, nodes = 3, slots = 1;
};

int run_serve(const ServeOptions& o);
int run_client(const std::string& what, const ClientOptions& o, bool quiet);
int run_bench_batch(const ClientOptions& o, bool quiet);
int run_bench_pipeline(const PipelineOptions& o, unsigned threads, bool quiet);
int run_bench_farm(const FarmBenchOptions& o);
int run_bench_soak(const SoakOptions& o, bool quiet);

/// Registers the subcommands on `app` (serve, client) and `bench` (batch, pipeline, farm, soak).
class EngineCommands {
 public:
  EngineCommands(CLI::App& app, CLI::App& bench);
  /// Runs the chosen subcommand: nullopt when none of these was chosen, else the exit code. Errors are
  /// thrown as cuzk::Error (the caller maps them to exit codes).
  std::optional<int> run(unsigned threads, bool quiet);

 private:
  CLI::App *serve_, *bench_batch_, *bench_pipeline_, *bench_farm_, *bench_soak_;
  std::vector<std::pair<std::string, CLI::App*>> client_;
  ServeOptions serve_opt_;
  ClientOptions client_opt_;
  FarmBenchOptions farm_opt_;
  PipelineOptions pipeline_opt_;
  SoakOptions soak_opt_;
};

}  // namespace cuzk::cli
