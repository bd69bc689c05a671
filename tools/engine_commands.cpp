#include "engine_commands.hpp"

#include "cli_checks.hpp"

namespace cuzk::cli {
namespace {

void client_options(CLI::App* c, ClientOptions& o) {
  c->add_option("--addr", o.addr, "Daemon address: host:port or unix:///path.sock")->capture_default_str();
}

void job_options(CLI::App* c, ClientOptions& o) {
  client_options(c, o);
  CLI::Option* circuit =
      c->add_option("--circuit", o.circuit, "Circuit id (one of the daemon's [[circuits]])")
          ->capture_default_str();
  CLI::Option* witness = c->add_option("--witness", o.witness, "Witness (.wtns) sent for every partition")
                             ->capture_default_str();
  CLI::Option* partitions = c->add_option("--partitions", o.partitions, "Partitions per job")
                                ->capture_default_str()
                                ->check(CLI::Range(1u, 1000u));
  c->add_option("--priority", o.priority, "low, normal, high or critical")
      ->capture_default_str()
      ->check(CLI::IsMember({"low", "normal", "high", "critical"}));
  c->add_option("--deadline-in", o.deadline_in_s,
                "Seconds from now to the proof's deadline: from scheduler.deadline_lead_s before it the job "
                "goes ahead of every job without a near deadline")
      ->check(CLI::NonNegativeNumber);
  CLI::Option* porep =
      c->add_option(
           "--porep", o.porep,
           "A C1 output (raw JSON or Curio's envelope): prove a POREP_SEAL_COMMIT job instead of --circuit")
          ->check(CLI::ExistingFile);
  CLI::Option* registered_proof =
      c->add_option("--registered-proof", o.registered_proof,
                    "PoRep: registered_proof to send (abi.RegisteredSealProof 0..19; default: the C1's)");
  CLI::Option* sector_size =
      c->add_option("--sector-size", o.sector_size, "PoRep: sector_size to send, bytes (default: the C1's)");
  CLI::Option* sector_number =
      c->add_option("--sector-number", o.sector_number, "PoRep: sector_number to send (0 = unset)");
  CLI::Option* snap =
      c->add_option("--snap", o.snap,
                    "SnapDeals: vanilla.json of `snap fake` (a SNAP_DEALS_UPDATE job; needs --update)")
          ->check(CLI::ExistingFile);
  CLI::Option* update = c->add_option("--update", o.update, "SnapDeals: the update.json of the commitments")
                            ->check(CLI::ExistingFile);
  CLI::Option* post =
      c->add_option("--post", o.post,
                    "A PoSt request.json (cuzk post fake): a WINNING_POST or WINDOW_POST_PARTITION job")
          ->check(CLI::ExistingFile);
  // One kind of job per request: a circuit's (--circuit, --witness, --partitions), --porep, --snap or --post,
  // each with only its own options.
  for (CLI::Option* kind : {porep, snap, post})
    kind->excludes(circuit)->excludes(witness)->excludes(partitions);
  porep->excludes(snap)->excludes(post);
  snap->excludes(post);
  for (CLI::Option* o2 : {registered_proof, sector_size})
    o2->excludes(post)->excludes(circuit)->excludes(witness);
  sector_number->needs(porep);
  update->needs(snap);
}

}  // namespace

EngineCommands::EngineCommands(CLI::App& app, CLI::App& bench) {
  serve_ = app.add_subcommand("serve", "Run the cuzk.v1 gRPC proving daemon (SIGTERM drains and exits)");
  serve_->add_option("--config", serve_opt_.config, "Configuration (TOML), e.g. examples/cuzk.toml")
      ->required()
      ->check(CLI::ExistingFile);

  auto* client = app.add_subcommand("client", "Talk to a running daemon (cuzk.v1 gRPC)");
  client->require_subcommand(1);
  auto* prove = client->add_subcommand("prove", "Prove one job and write its proofs");
  job_options(prove, client_opt_);
  prove
      ->add_option("--out", client_opt_.out_dir,
                   "Folder for proof_<i>.json, public_<i>.json, proof.bin (created when missing)")
      ->required();
  prove->add_option("--request-id", client_opt_.request_id, "Idempotency key");
  auto* submit = client->add_subcommand("submit", "Submit one job; print its job id");
  job_options(submit, client_opt_);
  submit->add_option("--request-id", client_opt_.request_id, "Idempotency key");
  auto* await = client->add_subcommand("await", "Wait for a job; print its status");
  client_options(await, client_opt_);
  await->add_option("job_id", client_opt_.job_id)->required();
  await->add_option("--timeout-ms", client_opt_.timeout_ms, "0 = wait forever");
  await->add_option("--out", client_opt_.out_dir,
                    "Folder for its proofs when completed (as client prove; created when missing)");
  auto* cancel = client->add_subcommand("cancel", "Cancel a job");
  client_options(cancel, client_opt_);
  cancel->add_option("job_id", client_opt_.job_id)->required();
  auto* status = client->add_subcommand("status", "Print GetStatus as JSON");
  client_options(status, client_opt_);
  auto* metrics = client->add_subcommand("metrics", "Print GetMetrics (Prometheus text)");
  client_options(metrics, client_opt_);
  auto* preload = client->add_subcommand("preload", "Load a circuit (PreloadSRS)");
  client_options(preload, client_opt_);
  preload->add_option("circuit", client_opt_.circuit)->required();
  auto* evict = client->add_subcommand("evict", "Free a circuit (EvictSRS)");
  client_options(evict, client_opt_);
  evict->add_option("circuit", client_opt_.circuit)->required();
  client_ = {{"prove", prove},   {"submit", submit},   {"await", await},     {"cancel", cancel},
             {"status", status}, {"metrics", metrics}, {"preload", preload}, {"evict", evict}};

  bench_batch_ = bench.add_subcommand("batch", "Submit jobs to a running daemon; throughput and latency");
  job_options(bench_batch_, client_opt_);
  bench_batch_->add_option("-c,--count", client_opt_.count, "Jobs in all")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  bench_batch_->add_option("-j,--concurrency", client_opt_.concurrency, "Jobs in flight at once")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);

  bench_pipeline_ = bench.add_subcommand("pipeline", "The proving engine in-process on synthetic circuits");
  auto& p = pipeline_opt_;
  bench_pipeline_->add_option("--synthetic", p.synthetic, "Circuit shape")
      ->capture_default_str()
      ->check(CLI::IsMember({"porep"}));
  bench_pipeline_->add_option("--log2", p.log2, "Domain size, log2")
      ->capture_default_str()
      ->check(CLI::Range(10, 28));
  bench_pipeline_->add_option("--jobs", p.jobs, "Jobs")->capture_default_str()->check(CLI::PositiveNumber);
  bench_pipeline_->add_option("--partitions", p.partitions, "Partitions per job")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  bench_pipeline_->add_option("--gw", p.gw, "GPU workers per device; a list (1,2,3) runs once per value")
      ->capture_default_str()
      ->delimiter(',')
      ->check(CLI::Range(1u, 16u));
  bench_pipeline_
      ->add_option("--memory-budget", p.memory_budget,
                   "Host memory for the circuit, key and partitions in flight (auto = 90% of RAM)")
      ->capture_default_str();
  bench_pipeline_->add_option("--abc", p.abc, "a, b, c by the backend from compact rows, or on the host")
      ->capture_default_str()
      ->check(CLI::IsMember({"backend", "host"}));
  bench_pipeline_->add_option("--synthesis-workers", p.synthesis_workers, "Partitions synthesized at once")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  bench_pipeline_->add_option("--lookahead", p.lookahead, "Synthesized partitions waiting for the GPU")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  bench_pipeline_->add_option("--seed", p.seed, "Seed of the synthetic circuit and its key")
      ->capture_default_str()->check(cli::unsigned64());
  bench_pipeline_->add_option("--timeline", p.timeline, "Write a per-partition timeline CSV here");
  bench_pipeline_->add_flag("--cpu", p.cpu, "Prove on the CPU backend even in a CUDA build");

  bench_farm_ = bench.add_subcommand(
      "farm", "The proving farm's store: claim + store of one-partition jobs by several nodes (no proving)");
  bench_farm_->add_option("--database", farm_opt_.database, "libpq connection string of a scratch database")
      ->required();
  bench_farm_->add_option("--partitions", farm_opt_.partitions, "Jobs of one partition each")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  bench_farm_->add_option("--nodes", farm_opt_.nodes, "Nodes (a store each, with its own connections)")
      ->capture_default_str()
      ->check(CLI::Range(1u, 64u));
  bench_farm_->add_option("--slots", farm_opt_.slots, "Claimer threads per node")
      ->capture_default_str()
      ->check(CLI::Range(1u, 64u));


  bench_soak_ = bench.add_subcommand(
      "soak",
      "Mixed jobs (valid, corrupt, unknown, cancelled, abandoned, oversized) against a running daemon; "
      "checks every outcome, its counters, and with --pid its RSS and descriptors");
  auto& k = soak_opt_;
  bench_soak_->add_option("--addr", k.addr, "Daemon address: host:port or unix:///path.sock")
      ->capture_default_str();
  bench_soak_->add_option("--circuit", k.circuit, "A circom circuit id of the daemon")->capture_default_str();
  bench_soak_->add_option("--witness", k.witness, "A valid .wtns of it")
      ->capture_default_str()
      ->check(CLI::ExistingFile);
  bench_soak_->add_option("--zkey", k.zkey, "Its .zkey (the proofs are verified with its key)")
      ->capture_default_str()
      ->check(CLI::ExistingFile);
  bench_soak_->add_option("--jobs", k.jobs, "Jobs to send")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  bench_soak_->add_option("--seconds", k.seconds, "Stop sending after this long (0 = no limit)")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  bench_soak_->add_option("--clients", k.clients, "Concurrent clients")
      ->capture_default_str()
      ->check(CLI::Range(1u, 256u));
  bench_soak_->add_option("--pid", k.pid, "The daemon's pid: check its RSS and open descriptors (/proc)");
  bench_soak_
      ->add_option("--max-rss-growth-mib", k.max_rss_growth_mib,
                   "RSS growth after the warm-up allowed beyond what the daemon charges to its budget")
      ->capture_default_str();
  bench_soak_
      ->add_option("--max-fd-growth", k.max_fd_growth, "Open descriptors' growth allowed after the warm-up")
      ->capture_default_str();
  bench_soak_->add_option("--max-id-bytes", k.max_id_bytes, "The daemon's limits.max_id_bytes")
      ->capture_default_str();
  bench_soak_->add_option("--max-partitions", k.max_partitions, "The daemon's limits.max_partitions")
      ->capture_default_str();
  bench_soak_
      ->add_option("--max-queued-bytes", k.max_queued_bytes,
                   "The daemon's limits.max_queued_bytes in bytes (0: send no request over it)")
      ->capture_default_str();
  bench_soak_->add_option("--seed", k.seed, "Seed of the job mix")->capture_default_str()->check(cli::unsigned64());
  bench_soak_->add_option("--json", k.json, "Write the report (JSON) here too");

  for (CLI::App* sub : {serve_, client, bench_batch_, bench_pipeline_, bench_farm_, bench_soak_}) sub->fallthrough();
  for (auto& [name, sub] : client_) sub->fallthrough();
}

std::optional<int> EngineCommands::run(unsigned threads, bool quiet) {
  if (*serve_) return run_serve(serve_opt_);
  for (auto& [name, sub] : client_)
    if (*sub) return run_client(name, client_opt_, quiet);
  if (*bench_batch_) return run_bench_batch(client_opt_, quiet);
  if (*bench_pipeline_) return run_bench_pipeline(pipeline_opt_, threads, quiet);
  if (*bench_farm_) return run_bench_farm(farm_opt_);
  if (*bench_soak_) {
    check_outputs({}, {soak_opt_.json});
    return run_bench_soak(soak_opt_, quiet);
  }
  return std::nullopt;
}

}  // namespace cuzk::cli
