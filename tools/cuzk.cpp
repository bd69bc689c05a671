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
#include <chrono>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <fstream>

#include "bench_cpu.hpp"
#include "bench_gpu.hpp"
#include "bench_gpu_msm.hpp"
#include "engine_commands.hpp"  // serve, client, bench batch, bench pipeline
#include "formats/decimal.hpp"
#include "formats/r1cs.hpp"
#include "formats/snarkjs_json.hpp"
#include "formats/wtns.hpp"
#include "formats/zkey.hpp"
#include "groth16/cpu_backend.hpp"
#include "groth16/prover.hpp"
#include "groth16/setup.hpp"
#include "groth16/synthesis.hpp"
#include "groth16/verifier.hpp"
#include "info.hpp"
#include "selfcheck.hpp"
#include "util/error.hpp"
#include "util/plural.hpp"

namespace {

using namespace cuzk;

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

/// Refuses output paths that name an input or each other, or whose folder does not exist, before any
/// work is done (so a failed run leaves nothing behind and never overwrites an input).
void check_outputs(const std::vector<std::string>& inputs, const std::vector<std::string>& outputs) {
  namespace fs = std::filesystem;
  auto same = [](const std::string& a, const std::string& b) {
    std::error_code ec;
    return fs::equivalent(a, b, ec) || fs::weakly_canonical(a, ec) == fs::weakly_canonical(b, ec);
  };
  for (size_t i = 0; i < outputs.size(); i++) {
    fs::path dir = fs::path(outputs[i]).parent_path();
    if (!dir.empty() && !fs::is_directory(dir))
      throw Error(ErrorCode::kInvalidArgument, outputs[i] + ": folder " + dir.string() + " does not exist");
    if (fs::is_directory(outputs[i]))
      throw Error(ErrorCode::kInvalidArgument, outputs[i] + ": is a folder, expected a file name");
    for (const auto& in : inputs)
      if (!in.empty() && same(in, outputs[i]))
        throw Error(ErrorCode::kInvalidArgument,
                    "output " + outputs[i] + " is also an input: refusing to overwrite it");
    for (size_t j = 0; j < i; j++)
      if (same(outputs[j], outputs[i]))
        throw Error(ErrorCode::kInvalidArgument, "the two outputs are the same file: " + outputs[i]);
  }
}

}  // namespace

int main(int argc, char** argv) {
  // A proof allocates and frees arrays of megabytes per MSM window and NTT: keep freed memory in the
  // heap for reuse instead of returning it to the kernel, which would clear fresh pages again each time.
  mallopt(M_MMAP_THRESHOLD, 64 << 20);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
  CLI::App app{"cuzk: Groth16 proving engine for BLS12-381 (circom/snarkjs circuits)"};
  app.require_subcommand(1);
  unsigned threads = 0;
  bool quiet = false;
  app.add_option("--threads", threads, "CPU threads (0 = all)")->capture_default_str();
  app.add_flag("-q,--quiet", quiet, "No progress line");

  // prove
  auto* prove = app.add_subcommand("prove", "Make a Groth16 proof from a snarkjs .zkey and a .wtns");
  std::string zkey_path, wtns_path, proof_path, public_path, r1cs_path, r_dec, s_dec;
  bool no_verify = false;
  prove->add_option("zkey", zkey_path, "Proving key (.zkey)")->required()->check(CLI::ExistingFile);
  prove->add_option("witness", wtns_path, "Witness (.wtns)")->required()->check(CLI::ExistingFile);
  prove->add_option("proof", proof_path, "Output proof.json")->required();
  prove->add_option("public", public_path, "Output public.json")->required();
  prove->add_option("--r1cs", r1cs_path, "Circuit (.r1cs): name the first unsatisfied constraint on failure")
      ->check(CLI::ExistingFile);
  prove->add_flag("--no-verify", no_verify, "Skip verifying the proof before writing it");
  prove->add_option("--r", r_dec, "Blinding scalar r (decimal; testing only: makes the proof deterministic)");
  prove->add_option("--s", s_dec, "Blinding scalar s (decimal; testing only)");

  // verify
  auto* verify_cmd = app.add_subcommand("verify", "Verify a proof (exit 0 valid, 1 invalid)");
  std::string vk_path;
  verify_cmd->add_option("verification_key", vk_path, "verification_key.json")
      ->required()
      ->check(CLI::ExistingFile);
  verify_cmd->add_option("public", public_path, "public.json")->required()->check(CLI::ExistingFile);
  verify_cmd->add_option("proof", proof_path, "proof.json")->required()->check(CLI::ExistingFile);

  // setup
  auto* setup_cmd = app.add_subcommand("setup", "Single-party Groth16 setup (TESTING ONLY): .r1cs -> .zkey");
  std::string out_path;
  uint64_t seed = 0;
  auto* seed_opt = setup_cmd->add_option("--seed", seed, "Deterministic toxic waste from this seed");
  setup_cmd->add_option("r1cs", r1cs_path, "Circuit (.r1cs)")->required()->check(CLI::ExistingFile);
  setup_cmd->add_option("zkey", out_path, "Output .zkey")->required();

  // zkey export-vk
  auto* zkey_cmd = app.add_subcommand("zkey", "Proving-key tools");
  zkey_cmd->require_subcommand(1);
  auto* export_vk = zkey_cmd->add_subcommand("export-vk", "Write verification_key.json of a .zkey");
  export_vk->add_option("zkey", zkey_path, ".zkey")->required()->check(CLI::ExistingFile);
  export_vk->add_option("verification_key", out_path, "Output verification_key.json")->required();

  // info
  auto* info_cmd = app.add_subcommand("info", "Describe a .zkey/.r1cs/.wtns or snarkjs JSON file");
  std::string info_path;
  info_cmd->add_option("file", info_path)->required()->check(CLI::ExistingFile);

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

  auto* bench_ntt = bench->add_subcommand("ntt", "GPU NTT over Fr (forward, inverse, coset), natural order");
  bench_ntt->add_option("--min", log_min, "Smallest size, log2")->capture_default_str();
  bench_ntt->add_option("--max", log_max, "Largest size, log2")->capture_default_str();
  bench_ntt->add_option("--reps", reps, "Timed repetitions (median)")->capture_default_str();
  auto* bench_arith =
      bench->add_subcommand("gpu-arith", "GPU Fp/Fr multiplications and G1 mixed additions per second");

  cuzk::cli::EngineCommands engine_commands(app, *bench);  // serve, client, bench batch/pipeline

  // -q and --threads are accepted after the subcommand too
  for (CLI::App* sub : {prove, verify_cmd, setup_cmd, zkey_cmd, export_vk, info_cmd, selfcheck, bench,
                        bench_msm, bench_ntt, bench_arith})
    sub->fallthrough();
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::fprintf(stderr, "cuzk: error: %s (see cuzk --help)\n", e.what());
    return 2;
  }
  Progress progress(quiet);
  try {
    if (auto rc = engine_commands.run(threads, quiet)) return *rc;
    if (*prove) {
      progress("reading " + zkey_path);
      Zkey zk = read_zkey(zkey_path);
      progress("reading " + wtns_path);
      std::vector<Fr> w = read_wtns(wtns_path);
      std::optional<R1cs> cs;
      if (!r1cs_path.empty()) cs = read_r1cs(r1cs_path);
      if (w.size() != zk.n_vars)
        throw Error(ErrorCode::kInvalidArgument, wtns_path + ": the witness has " +
                                                     counted(w.size(), "value") + " but " + zkey_path +
                                                     " expects " + std::to_string(zk.n_vars));
      check_outputs({zkey_path, wtns_path, r1cs_path}, {proof_path, public_path});
      ProveOptions opt;
      opt.verify = !no_verify;
      opt.r1cs = cs ? &*cs : nullptr;
      opt.progress = [&](const std::string& p) { progress(p); };
      if (r_dec.empty() != s_dec.empty())
        throw Error(ErrorCode::kInvalidArgument, "--r and --s must be given together");
      if (!r_dec.empty()) {
        opt.r = parse_scalar(r_dec, "--r");
        opt.s = parse_scalar(s_dec, "--s");
      }
      CpuBackend backend(threads);
      const ConstraintSystem rows = zkey_constraint_system(zk);
      const ProvingKey key = proving_key(std::move(zk), rows);
      progress("evaluating A·w, B·w");
      ProveResult res = cuzk::prove(key, synthesize(rows, w, backend.pool()), backend, opt);
      write_proof_and_public_json(proof_path, res.proof, public_path, res.public_inputs);
      progress.done();
      if (!quiet)
        std::printf("wrote %s and %s (%s)%s\n", proof_path.c_str(), public_path.c_str(),
                    counted(res.public_inputs.size(), "public signal").c_str(),
                    no_verify ? "" : "; the proof verifies");
      return 0;
    }
    if (*verify_cmd) {
      SnarkjsVerificationKey vk = read_vk_json(vk_path);
      std::vector<Fr> pub = read_public_json(public_path);
      Groth16Proof proof = read_proof_json(proof_path);
      if (pub.size() != vk.vk.n_public())
        throw Error(ErrorCode::kInvalidArgument, public_path + " has " + counted(pub.size(), "signal") +
                                                     " but the key expects " +
                                                     std::to_string(vk.vk.n_public()));
      if (cuzk::verify(vk.vk, pub, proof)) {
        std::printf("OK: the proof is valid\n");
        return 0;
      }
      std::printf("INVALID: the proof does not verify\n");
      return 1;
    }
    if (*setup_cmd) {
      std::fprintf(
          stderr,
          "cuzk setup: a single-party setup is for TESTING ONLY: whoever runs it can forge proofs.\n");
      check_outputs({r1cs_path}, {out_path});
      R1cs cs = read_r1cs(r1cs_path);
      ThreadPool pool(threads);
      progress("setup");
      ToxicWaste tw = *seed_opt ? ToxicWaste::from_seed(seed) : ToxicWaste::random();
      Zkey zk = setup(cs, tw, pool);
      progress("writing " + out_path);
      write_zkey(out_path, zk);
      progress.done();
      if (!quiet)
        std::printf("wrote %s: %s, %s, %u public, domain %u\n", out_path.c_str(),
                    counted(cs.n_constraints, "constraint").c_str(), counted(zk.n_vars, "variable").c_str(),
                    zk.n_public, zk.domain_size);
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
    if (*info_cmd) return cuzk::cli::run_info(info_path);
    if (*selfcheck) return cuzk::cli::run_selfcheck();
    if (*bench_msm) {
      if (gpu) return cuzk::cli::bench_gpu_msm(log_min, log_max, reps);
      if (!cpu) throw Error(ErrorCode::kInvalidArgument, "bench msm: choose --cpu or --gpu");
      return cuzk::cli::bench_msm_cpu(log_min, log_max, threads, reps);
    }
    if (*bench_ntt) return cuzk::cli::bench_gpu_ntt(log_min, log_max, reps);
    if (*bench_arith) return cuzk::cli::bench_gpu_arith();
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
