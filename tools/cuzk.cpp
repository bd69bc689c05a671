// The `cuzk` command-line tool: prove / verify / setup / zkey export-vk / info / selfcheck / bench.
//
// Exit codes (README "Exit codes"): 0 success; 1 a proof that does not verify (`verify`) or a failed
// self-check (`selfcheck`, a benchmark's result check); 2 bad input (unreadable or corrupt file, wrong
// curve, a proof point off the curve or outside its subgroup, mismatched witness, unsatisfied
// constraints, bad arguments); 3 internal or CUDA error (a GPU benchmark without a GPU included). Every
// error goes through one path: "cuzk: error: <message>" on stderr.
#include <malloc.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <exception>
#include <filesystem>
#include <fstream>

#include "backend_select.hpp"
#include "bench_cpu.hpp"
#include "bench_gpu.hpp"
#include "bench_gpu_msm.hpp"
#include "bench_prove.hpp"
#include "bench_witness.hpp"  // bench witness
#include "cli_checks.hpp"
#include "engine/porep.hpp"
#include "engine_commands.hpp"  // serve, client, bench batch, bench pipeline
#include "formats/atomic_file.hpp"
#include "formats/decimal.hpp"
#include "formats/params.hpp"
#include "formats/proof_zcash.hpp"
#include "formats/r1cs.hpp"
#include "formats/snarkjs_json.hpp"
#include "formats/wtns.hpp"
#include "formats/zkey.hpp"
#include "groth16/cpu_backend.hpp"
#include "groth16/prover.hpp"
#include "groth16/setup.hpp"
#include "groth16/synthesis.hpp"
#include "groth16/synthetic.hpp"
#include "groth16/verifier.hpp"
#include "info.hpp"
#include "info_gpu.hpp"        // info gpu
#include "porep_commands.hpp"  // porep …, bench circuit
#include "post_commands.hpp"   // post … (WinningPoSt, WindowPoSt)
#include "selfcheck.hpp"
#include "snap_commands.hpp"  // snap …
#include "synth.hpp"
#include "timeline.hpp"
#include "util/error.hpp"
#include "util/plural.hpp"
#include "version.hpp"

namespace {

using namespace cuzk;
using cuzk::cli::BenchProveArgs;
using cuzk::cli::check_outputs;
using cuzk::cli::DeviceChoice;
using cuzk::cli::make_backend;
using cuzk::cli::parse_devices;
using cuzk::cli::parse_size;
using cuzk::cli::read_params_on;
using cuzk::cli::setup_accel;

/// A circuit's witness from a .wtns file (read_wtns): its value 0 must be the constant 1, else the
/// file is refused by name (Error kInvalidArgument), before any key is read.
std::vector<Fr> read_circuit_wtns(const std::string& path) {
  std::vector<Fr> w = read_wtns(path);
  if (w.empty() || !w[0].is_one())
    throw Error(ErrorCode::kInvalidArgument,
                path + ": witness value 0 is not 1 (the constant ONE): not the witness of a circuit");
  return w;
}

/// A one-line phase indicator on stderr, only when stderr is a terminal.
class Progress {
 public:
  explicit Progress(bool quiet) : on_(!quiet && isatty(2)), t0_(std::chrono::steady_clock::now()) {}
  void operator()(const std::string& phase) const {
    if (!on_) return;
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
    std::fprintf(stderr, "\r\033[K[%7.2fs] %s", s, phase.c_str());
    std::fflush(stderr);
  }
  void done() const {
    if (on_) std::fprintf(stderr, "\r\033[K");
  }

 private:
  bool on_;
  std::chrono::steady_clock::time_point t0_;
};

Fr parse_scalar(const std::string& dec, const char* what) {
  Fr v;
  if (from_decimal(dec, v) != DecimalParse::kOk)
    throw Error(ErrorCode::kInvalidArgument, std::string(what) + ": not a decimal integer below r: " + dec);
  return v;
}

}  // namespace

/// The command line's work; main adds the check of standard output.
static int run_cli(int argc, char** argv) {
  // A proof allocates and frees arrays of megabytes per MSM window and NTT: keep freed memory in the
  // heap for reuse instead of returning it to the kernel, which would clear fresh pages again each time.
  mallopt(M_MMAP_THRESHOLD, 64 << 20);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
  CLI::App app{"cuzk: Groth16 proving engine for BLS12-381 (circom/snarkjs .zkey, bellperson .params)"};
  app.require_subcommand(1);
  app.set_version_flag("--version", cuzk::cli::version_text(), "Print the version and the build's commit");
  unsigned threads = 0;
  bool quiet = false;
  app.add_option("--threads", threads, "CPU threads (0 = all)")
      ->capture_default_str()
      ->check(CLI::Range(0u, 4096u));  // the daemon's synthesis.threads bound
  app.add_flag("-q,--quiet", quiet, "No progress line");

  // prove
  auto* prove = app.add_subcommand(
      "prove", "Make a Groth16 proof: from a snarkjs .zkey, or a bellperson .params + .r1cs");
  std::vector<std::string> prove_args;
  std::string zkey_path, wtns_path, proof_path, public_path, r1cs_path, r_dec, s_dec, params_path;
  bool no_verify = false;
  DeviceChoice dev;
  std::string devices_text, budget_text;
  prove
      ->add_option(
          "args", prove_args,
          "circuit.zkey witness.wtns proof.json public.json, or with --params: witness.wtns proof.bin "
          "public.json")
      ->required();
  prove->add_option("--params", params_path, "bellperson parameters (.params); needs --r1cs")
      ->check(CLI::ExistingFile);
  prove
      ->add_option("--r1cs", r1cs_path,
                   "Circuit (.r1cs): the constraints for --params; with a zkey, names the first unsatisfied "
                   "constraint on failure")
      ->check(CLI::ExistingFile);
  prove->add_flag("--no-verify", no_verify, "Skip verifying the proof before writing it");
  prove->add_option("--r", r_dec, "Blinding scalar r (decimal; testing only: makes the proof deterministic)");
  prove->add_option("--s", s_dec, "Blinding scalar s (decimal; testing only)");
  // proving = false (a setup): only --device and --devices, the GPU of the fixed-base multiplications
  auto add_device_options = [&](CLI::App* cmd, bool proving) {
    cmd->add_option("--device", dev.device, "auto (GPU when present), cpu or gpu")->capture_default_str();
    if (!proving) {
      cmd->add_option("--devices", devices_text, "GPU ordinal of the setup's fixed-base multiplications");
      return;
    }
    cmd->add_option("--devices", devices_text, "GPU ordinals, e.g. 0,1 (partitions spread over them)");
    cmd->add_option("--g2", dev.g2, "Where the B_G2 MSM runs with a GPU: gpu or cpu (overlapped)")
        ->capture_default_str();
    cmd->add_option(
        "--gpu-mem-budget", budget_text,
        "GPU memory cuzk may use in all, e.g. 16GiB for a 16 GB card (default: the device's memory): "
        "what of a key fits beside one partition stays resident, the rest streams from host memory");
  };
  add_device_options(prove, true);

  // verify
  auto* verify_cmd = app.add_subcommand("verify", "Verify a proof (exit 0 valid, 1 invalid)");
  std::vector<std::string> verify_args;
  std::string vk_path, bvk_path;
  verify_cmd
      ->add_option("args", verify_args,
                   "verification_key.json public.json proof.json, or with --vk: public.json proof.bin")
      ->required();
  verify_cmd
      ->add_option("--vk", bvk_path, "bellperson verifying key (.vk); the proof file holds 192-byte proofs")
      ->check(CLI::ExistingFile);

  // setup
  auto* setup_cmd = app.add_subcommand(
      "setup", "Single-party Groth16 setup (TESTING ONLY): .r1cs -> .zkey, or -> .params + .vk");
  std::vector<std::string> setup_args;
  std::string out_path, setup_format = "zkey", synthetic_kind;
  uint64_t seed = 1;  // synthetic circuits: the same default as bench prove
  int log2_k = 0;
  auto* seed_opt =
      setup_cmd->add_option("--seed", seed, "Deterministic toxic waste (and synthetic circuit) seed")
          ->check(cli::unsigned64());
  setup_cmd
      ->add_option("args", setup_args, "circuit.r1cs out.zkey|out.params, or with --synthetic: out.params")
      ->required();
  setup_cmd->add_option("--format", setup_format, "zkey (snarkjs) or bellperson (.params + .vk)")
      ->capture_default_str();
  setup_cmd->add_option("--synthetic", synthetic_kind,
                        "porep: a PoRep-shaped synthetic circuit (needs --log2)");
  setup_cmd->add_option("--log2", log2_k, "Domain size of the synthetic circuit, log2");
  std::string porep_size;
  setup_cmd->add_option(
      "--porep", porep_size,
      "Filecoin's PoRep circuit of a sector size (2KiB, 8MiB, 512MiB, 32GiB, 64GiB): out.params, "
      "or a folder (created when missing) to write Filecoin's parameter file names into");
  add_device_options(setup_cmd, false);

  // synth
  auto* synth_cmd = app.add_subcommand("synth", "Generate a synthetic circuit and witness and describe them");
  synth_cmd->add_option("kind", synthetic_kind, "porep")->required();
  synth_cmd->add_option("--log2", log2_k, "Domain size, log2")->required();
  synth_cmd->add_option("--seed", seed, "Seed")->capture_default_str()->check(cli::unsigned64());

  // zkey export-vk
  auto* zkey_cmd = app.add_subcommand("zkey", "Proving-key tools");
  zkey_cmd->require_subcommand(1);
  auto* export_vk = zkey_cmd->add_subcommand("export-vk", "Write verification_key.json of a .zkey");
  export_vk->add_option("zkey", zkey_path, ".zkey")->required()->check(CLI::ExistingFile);
  export_vk->add_option("verification_key", out_path, "Output verification_key.json")->required();

  // info
  auto* info_cmd = app.add_subcommand(
      "info",
      "Describe a .zkey/.r1cs/.wtns/.params/.vk/proof .bin or snarkjs JSON file; `info gpu`: the GPUs");
  std::string info_path;
  info_cmd->add_option("file", info_path, "The file (required unless `gpu`)")->check(CLI::ExistingFile);
  auto* info_gpu_cmd = info_cmd->add_subcommand(
      "gpu",
      "The CUDA devices, whether this build has code for them, and per Filecoin proof kind the host memory "
      "its key needs and which of its vectors stay resident on a GPU memory budget or stream");
  cuzk::cli::InfoGpuArgs info_gpu;
  info_gpu_cmd->add_option(
      "--gpu-mem-budget", budget_text,
      "GPU memory budget to plan for, e.g. 16GiB (default: each device's; required without a GPU)");
  info_gpu_cmd->add_flag("--measure", info_gpu.measure,
                         "Record each kind's circuit and print its row of the table in "
                         "src/engine/proof_shapes.cpp (minutes; SnapDeals takes over 22 GB of memory)");

  auto* selfcheck = app.add_subcommand("selfcheck", "Check the arithmetic core against known values");

  // bench
  auto* bench = app.add_subcommand("bench", "Benchmarks (see docs/PERFORMANCE.md)");
  bench->require_subcommand(1);
  auto* bench_msm = bench->add_subcommand("msm", "Random-scalar G1/G2 MSM");
  bool cpu = false;
  int log_min = 16, log_max = 20, reps = 3;
  bool gpu = false;
  auto* cpu_flag = bench_msm->add_flag("--cpu", cpu, "CPU Pippenger");
  bench_msm->add_flag("--gpu", gpu, "GPU Pippenger (bases and scalars resident on the device)")
      ->excludes(cpu_flag);
  bench_msm->add_option("--min", log_min, "Smallest size, log2")->capture_default_str();
  bench_msm->add_option("--max", log_max, "Largest size, log2")->capture_default_str();
  bench_msm->add_option("--reps", reps, "Timed repetitions (median)")->capture_default_str();
  std::string bench_json;
  bench_msm->add_option("--json", bench_json, "Also write the figures and the environment to FILE (--gpu)");

  auto* bench_ntt = bench->add_subcommand("ntt", "GPU NTT over Fr (forward, inverse, coset), natural order");
  bench_ntt->add_option("--min", log_min, "Smallest size, log2")->capture_default_str();
  bench_ntt->add_option("--max", log_max, "Largest size, log2")->capture_default_str();
  bench_ntt->add_option("--reps", reps, "Timed repetitions (median)")->capture_default_str();
  bench_ntt->add_option("--json", bench_json, "Also write the figures and the environment to FILE");
  auto* bench_arith =
      bench->add_subcommand("gpu-arith", "GPU Fp/Fr multiplications and G1 mixed additions per second");
  auto* bench_upload =
      bench->add_subcommand("gpu-upload", "Host-to-device upload rates of a witness-sized vector");
  double upload_gib = 4;
  bench_upload->add_option("--gib", upload_gib, "Vector size in GiB, at most 64")
      ->capture_default_str()
      ->check(CLI::Range(0.001, 64.0));
  bench_upload->add_option("--reps", reps, "Timed repetitions (median)")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  auto* bench_prove_cmd =
      bench->add_subcommand("prove", "Prove synthetic PoRep-shaped circuits, per-stage times");
  BenchProveArgs bp;
  std::string stream_budget_text;
  bench_prove_cmd->add_option("--synthetic", synthetic_kind, "porep")->required();
  bench_prove_cmd->add_option("--log2", bp.log2, "Domain size, log2")->required();
  bench_prove_cmd->add_option("--seed", bp.seed, "Seed")->capture_default_str()->check(cli::unsigned64());
  bench_prove_cmd->add_option("--params", bp.params, "Key file (default: setup in memory)")
      ->check(CLI::ExistingFile);
  bench_prove_cmd->add_option("--reps", bp.reps, "Timed proofs (median)")->capture_default_str();
  bench_prove_cmd->add_option("--gw", bp.gw, "Workers for the throughput run")->capture_default_str();
  bench_prove_cmd->add_option("--partitions", bp.partitions, "Partitions for the throughput run (0 = none)")
      ->capture_default_str();
  bench_prove_cmd->add_flag("--sweep", bp.sweep, "Throughput runs for gw 1, 2 x B_G2 on gpu, cpu (GPU only)");
  bench_prove_cmd->add_option(
      "--stream-budget", stream_budget_text,
      "Also prove with these GPU memory budgets, e.g. 16GiB,24GiB (GPU only): plan, peak, times");
  bench_prove_cmd->add_option("--json", bp.json, "Also write the figures and the environment to FILE");
  add_device_options(bench_prove_cmd, true);

  cuzk::cli::EngineCommands engine_commands(app, *bench);  // serve, client, bench batch/pipeline
  cuzk::cli::PorepCommands porep_commands(app, *bench, add_device_options);  // porep …, bench circuit
  cuzk::cli::SnapCommands snap_commands(app, *bench, add_device_options);    // snap …, bench snap
  cuzk::cli::PostCommands post_commands(app, *bench, add_device_options);    // post …, bench post
  std::string timeline_csv, timeline_svg;
  CLI::App* timeline_cmd = app.add_subcommand("timeline", "Draw the engine's timeline CSV as lanes");
  timeline_cmd->add_option("csv", timeline_csv, "Timeline CSV (bench pipeline --timeline, the daemon's)")
      ->required();
  timeline_cmd->add_option("--svg", timeline_svg, "Write the lanes picture (SVG) here");
  cuzk::cli::BenchWitness bench_witness(*bench);

  // -q and --threads are accepted after the subcommand too
  for (CLI::App* sub : {prove, verify_cmd, setup_cmd, synth_cmd, zkey_cmd, export_vk, info_cmd, info_gpu_cmd,
                        selfcheck, bench, bench_msm, bench_ntt, bench_arith, bench_prove_cmd})
    sub->fallthrough();
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::fprintf(stderr, "cuzk: error: %s (see cuzk --help)\n", e.what());
    return 2;
  }
  Progress progress(quiet);
  try {
    if (auto rc = engine_commands.run(threads, quiet)) return *rc;
    dev.threads = threads;
    if (!devices_text.empty()) dev.devices = parse_devices(devices_text);
    if (!budget_text.empty()) dev.gpu_mem_budget = parse_size(budget_text, "--gpu-mem-budget");
    if (auto rc = porep_commands.run(dev, quiet)) return *rc;
    if (auto rc = snap_commands.run(dev, quiet)) return *rc;
    if (auto rc = post_commands.run(dev, quiet)) return *rc;
    if (*timeline_cmd) return cuzk::cli::run_timeline(timeline_csv, timeline_svg, quiet);
    if (auto rc = bench_witness.run(threads)) return *rc;
    if (*prove) {
      const bool bell = !params_path.empty();
      if (prove_args.size() != (bell ? 3u : 4u))
        throw Error(ErrorCode::kInvalidArgument,
                    bell ? "prove --params takes witness.wtns proof.bin public.json"
                         : "prove takes circuit.zkey witness.wtns proof.json public.json");
      if (bell && r1cs_path.empty())
        throw Error(ErrorCode::kInvalidArgument,
                    "prove --params needs --r1cs circuit.r1cs (the constraints)");
      size_t k = 0;
      if (!bell) zkey_path = prove_args[k++];
      wtns_path = prove_args[k++];
      proof_path = prove_args[k++];
      public_path = prove_args[k++];
      check_outputs({zkey_path, params_path, wtns_path, r1cs_path}, {proof_path, public_path});
      ProveOptions opt;
      opt.verify = !no_verify;
      opt.progress = [&](const std::string& p) { progress(p); };
      if (r_dec.empty() != s_dec.empty())
        throw Error(ErrorCode::kInvalidArgument, "--r and --s must be given together");
      if (!r_dec.empty()) {
        opt.r = parse_scalar(r_dec, "--r");
        opt.s = parse_scalar(s_dec, "--s");
      }
      std::unique_ptr<ProverBackend> backend = make_backend(dev);
      ThreadPool pool(threads);
      ProveResult res;
      // A witness that satisfies no proof is named, with the key it was proved against.
      auto prove_named = [&](const ProvingKey& key, Assignment asg, const std::string& key_path) {
        try {
          return cuzk::prove(key, std::move(asg), *backend, opt);
        } catch (const Error& e) {
          if (e.code() != ErrorCode::kUnsatisfied) throw;
          throw Error(e.code(), wtns_path + " with " + key_path + ": " + e.what());
        }
      };
      if (bell) {
        progress("reading " + r1cs_path);
        const R1cs r1 = read_r1cs(r1cs_path);
        const ConstraintSystem rows = constraint_system(r1, HConvention::kBellperson);
        progress("reading " + wtns_path);
        const std::vector<Fr> w = read_circuit_wtns(wtns_path);
        if (w.size() != rows.n_vars())
          throw Error(ErrorCode::kInvalidArgument, wtns_path + ": the witness has " +
                                                       counted(w.size(), "value") + " but " + r1cs_path +
                                                       " has " + counted(rows.n_vars(), "wire"));
        progress("reading " + params_path);
        progress.done();  // read_params_on shows the subgroup check's progress in lines of its own
        const ProvingKey key = read_params_on(params_path, dev, SubgroupCheck::kYes, !quiet);
        check_key_fits(key, rows, params_path + " and " + r1cs_path);
        opt.r1cs = &r1;
        progress("synthesis");
        res = prove_named(key, synthesize(rows, w, pool), params_path);
        const auto bytes = encode_proof_zcash(res.proof);
        write_files_atomically({{proof_path, std::string(bytes.begin(), bytes.end())},
                                {public_path, public_to_json(res.public_inputs)}});
      } else {
        progress("reading " + zkey_path);
        Zkey zk = read_zkey(zkey_path);
        progress("reading " + wtns_path);
        std::vector<Fr> w = read_circuit_wtns(wtns_path);
        std::optional<R1cs> cs;
        if (!r1cs_path.empty()) cs = read_r1cs(r1cs_path);
        if (w.size() != zk.n_vars)
          throw Error(ErrorCode::kInvalidArgument, wtns_path + ": the witness has " +
                                                       counted(w.size(), "value") + " but " + zkey_path +
                                                       " expects " + std::to_string(zk.n_vars));
        opt.r1cs = cs ? &*cs : nullptr;
        const ConstraintSystem rows = zkey_constraint_system(zk);
        const ProvingKey key = proving_key(std::move(zk), rows);
        progress("evaluating A·w, B·w");
        res = prove_named(key, synthesize(rows, w, pool), zkey_path);
        write_proof_and_public_json(proof_path, res.proof, public_path, res.public_inputs);
      }
      progress.done();
      if (!quiet)
        std::printf("wrote %s and %s (%s; device %s)%s\n", proof_path.c_str(), public_path.c_str(),
                    counted(res.public_inputs.size(), "public signal").c_str(), backend->name().c_str(),
                    no_verify ? "" : "; the proof verifies");
      return 0;
    }
    if (*verify_cmd) {
      const bool bell = !bvk_path.empty();
      if (verify_args.size() != (bell ? 2u : 3u))
        throw Error(ErrorCode::kInvalidArgument,
                    bell ? "verify --vk takes public.json proof.bin"
                         : "verify takes verification_key.json public.json proof.json");
      VerifyingKey vk;
      std::vector<Groth16Proof> proofs;
      std::vector<Fr> pub;
      if (bell) {
        vk = read_vk(bvk_path);
        public_path = verify_args[0];
        proof_path = verify_args[1];
        pub = read_public_json(public_path);
        proofs = read_proofs_file(proof_path);
      } else {
        vk = read_vk_json(verify_args[0]).vk;
        public_path = verify_args[1];
        proof_path = verify_args[2];
        pub = read_public_json(public_path);
        proofs.push_back(read_proof_json(proof_path));
      }
      // bellperson files may hold several partitions: public.json then lists each partition's inputs in turn
      const size_t per = vk.n_public();
      if (!proofs.empty() && pub.size() % proofs.size() == 0)  // a key of another circuit: name it
        cuzk::cli::check_vk_inputs(vk, pub.size() / proofs.size(), bell ? bvk_path : verify_args[0],
                                   public_path + " holds " + std::to_string(pub.size() / proofs.size()) +
                                       " per proof of " + proof_path);
      if (proofs.empty() || pub.size() != per * proofs.size())
        throw Error(ErrorCode::kInvalidArgument, public_path + " has " + counted(pub.size(), "signal") +
                                                     " but the key expects " + std::to_string(per) +
                                                     " per proof and " + proof_path + " holds " +
                                                     counted(proofs.size(), "proof"));
      for (size_t i = 0; i < proofs.size(); i++) {
        if (!cuzk::verify(vk, std::span<const Fr>(pub).subspan(i * per, per), proofs[i])) {
          std::printf("INVALID: the proof%s does not verify\n",
                      proofs.size() > 1 ? (" of partition " + std::to_string(i)).c_str() : "");
          return 1;
        }
      }
      std::printf("OK: the proof%s valid\n", proofs.size() > 1 ? "s are" : " is");
      return 0;
    }
    if (*synth_cmd) return cuzk::cli::run_synth(synthetic_kind, log2_k, seed, threads);
    if (*bench_prove_cmd) {
      if (synthetic_kind != "porep")
        throw Error(ErrorCode::kInvalidArgument, "bench prove --synthetic: only \"porep\" is known");
      bp.device = dev;
      for (size_t at = 0; at < stream_budget_text.size();) {  // comma-separated sizes
        const size_t comma = std::min(stream_budget_text.find(',', at), stream_budget_text.size());
        bp.stream_budgets.push_back(parse_size(stream_budget_text.substr(at, comma - at), "--stream-budget"));
        at = comma + 1;
      }
      check_outputs({bp.params}, {bp.json});
      bp.load_params = [dev](const std::string& path) { return read_params_on(path, dev); };
      return cuzk::cli::bench_prove(bp);
    }
    if (*setup_cmd) {
      std::fprintf(
          stderr,
          "cuzk setup: a single-party setup is for TESTING ONLY: whoever runs it can forge proofs.\n");
      const bool synthetic = !synthetic_kind.empty() || !porep_size.empty();
      if (!synthetic_kind.empty() && !porep_size.empty())
        throw Error(ErrorCode::kInvalidArgument, "setup takes --synthetic or --porep, not both");
      if (setup_args.size() != (synthetic ? 1u : 2u))
        throw Error(ErrorCode::kInvalidArgument,
                    synthetic ? "setup --synthetic porep --log2 K and setup --porep SIZE take out.params"
                              : "setup takes circuit.r1cs out.zkey|out.params");
      if (setup_format != "zkey" && setup_format != "bellperson")
        throw Error(ErrorCode::kInvalidArgument,
                    "--format: expected zkey or bellperson, not \"" + setup_format + "\"");
      if (!synthetic_kind.empty() && synthetic_kind != "porep")
        throw Error(ErrorCode::kInvalidArgument, "--synthetic: only \"porep\" is known");
      if (synthetic) setup_format = "bellperson";
      ThreadPool pool(threads);
      ToxicWaste tw = *seed_opt ? ToxicWaste::from_seed(seed) : ToxicWaste::random();
      out_path = setup_args.back();
      // --porep: a folder (created when missing) gets Filecoin's file name, as the daemon's param_cache
      if (!porep_size.empty())
        out_path = cuzk::cli::key_output_path(out_path, cuzk::engine::porep_param_stem(porep_size));
      if (!synthetic) r1cs_path = setup_args[0];
      if (setup_format == "zkey") {
        check_outputs({r1cs_path}, {out_path});
        R1cs cs = read_r1cs(r1cs_path);
        progress("setup");
        const Zkey zk = setup_zkey(cs, tw, pool, setup_accel(dev));
        progress("writing " + out_path);
        write_zkey(out_path, zk);
        progress.done();
        if (!quiet)
          std::printf("wrote %s: %s, %s, %u public, domain %u\n", out_path.c_str(),
                      counted(cs.n_constraints, "constraint").c_str(), counted(zk.n_vars, "variable").c_str(),
                      zk.n_public, zk.domain_size);
        return 0;
      }
      const std::string vk_out = std::filesystem::path(out_path).replace_extension(".vk").string();
      check_outputs({r1cs_path}, {out_path, vk_out});
      ConstraintSystem rows;
      if (!porep_size.empty()) {
        progress("recording the " + porep_size + " PoRep circuit");
        rows = expand(*cuzk::engine::porep_circuit(porep_size, pool)->rows, pool);
      } else if (synthetic) {
        progress("generating the synthetic circuit");
        rows = synthetic_porep(log2_k, seed, pool).cs;
      } else {
        rows = constraint_system(read_r1cs(r1cs_path), HConvention::kBellperson);
      }
      progress("setup");
      const auto t0 = std::chrono::steady_clock::now();
      const ProvingKey key = setup(rows, tw, pool, setup_accel(dev));
      const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      progress("writing " + out_path);
      write_params(out_path, key, &pool);
      write_vk(vk_out, key);
      progress.done();
      if (!quiet)
        std::printf("wrote %s and %s: domain 2^%d, %s, %u aux, %.2f GB of points; setup %.1f s\n",
                    out_path.c_str(), vk_out.c_str(), key.log_n, counted(key.n_inputs, "input").c_str(),
                    key.n_aux, key.point_bytes() / 1e9, secs);
      return 0;
    }
    if (*export_vk) {
      check_outputs({zkey_path}, {out_path});
      Zkey zk = read_zkey(zkey_path);
      VerifyingKey vk = verifying_key(zk);
      write_vk_json(out_path, vk, alphabeta(vk));
      if (!quiet)
        std::printf("wrote %s (verification key of %s, %s)\n", out_path.c_str(), zkey_path.c_str(),
                    counted(vk.n_public(), "public signal").c_str());
      return 0;
    }
    if (*info_gpu_cmd) {
      if (!info_path.empty()) throw Error(ErrorCode::kInvalidArgument, "info gpu takes no file");
      info_gpu.budget = dev.gpu_mem_budget;
      info_gpu.threads = threads;
      return cuzk::cli::run_info_gpu(info_gpu);
    }
    if (*info_cmd) {
      if (info_path.empty()) throw Error(ErrorCode::kInvalidArgument, "info needs a file (or: info gpu)");
      return cuzk::cli::run_info(info_path);
    }
    if (*selfcheck) return cuzk::cli::run_selfcheck();
    if (*bench_msm || *bench_ntt) check_outputs({}, {bench_json});
    if (*bench_msm) {
      if (gpu) return cuzk::cli::bench_gpu_msm(log_min, log_max, reps, bench_json);
      if (!cpu) throw Error(ErrorCode::kInvalidArgument, "bench msm: choose --cpu or --gpu");
      if (!bench_json.empty()) throw Error(ErrorCode::kInvalidArgument, "bench msm: --json goes with --gpu");
      return cuzk::cli::bench_msm_cpu(log_min, log_max, threads, reps);
    }
    if (*bench_ntt) return cuzk::cli::bench_gpu_ntt(log_min, log_max, reps, bench_json);
    if (*bench_arith) return cuzk::cli::bench_gpu_arith();
    if (*bench_upload) return cuzk::cli::bench_gpu_upload(upload_gib, reps);
  } catch (const cuzk::Error& e) {
    progress.done();
    std::fprintf(stderr, "cuzk: error: %s\n", e.what());
    return e.code() == ErrorCode::kInternal || e.code() == ErrorCode::kCuda ? 3 : 2;
  } catch (const std::exception& e) {
    progress.done();
    std::fprintf(stderr, "cuzk: error: internal error: %s\n", e.what());
    return 3;
  }
  return 0;
}

int main(int argc, char** argv) {
  const int rc = run_cli(argc, argv);
  // What a command printed must have reached standard output (a full disk, a closed descriptor): if not,
  // the command failed, whatever it computed.
  if (std::fflush(stdout) != 0 || std::ferror(stdout)) {
    std::fprintf(stderr, "cuzk: error: standard output could not be written: %s\n", std::strerror(errno));
    return rc == 0 ? 2 : rc;
  }
  return rc;
}
