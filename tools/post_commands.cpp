#include "post_commands.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>

#include "bench_common.hpp"
#include "cli_checks.hpp"
#include "engine/kinds/builtin.hpp"
#include "engine/post.hpp"
#include "formats/atomic_file.hpp"
#include "formats/fake_post.hpp"
#include "formats/params.hpp"
#include "formats/proof_zcash.hpp"
#include "groth16/prover.hpp"
#include "groth16/setup.hpp"
#include "groth16/verifier.hpp"
#include "kind_prove.hpp"
#include "util/error.hpp"
#include "util/thread_pool.hpp"

namespace cuzk::cli {

namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

std::string hex(std::span<const uint8_t> b) {
  static const char* h = "0123456789abcdef";
  std::string s;
  for (uint8_t x : b) {
    s += h[x >> 4];
    s += h[x & 15];
  }
  return s;
}

std::vector<uint8_t> unhex(const std::string& text, const std::string& what) {
  auto nib = [&](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    throw Error(ErrorCode::kInvalidFile, what + ": not a hex digit '" + std::string(1, c) + "'");
  };
  if (text.size() % 2) throw Error(ErrorCode::kInvalidFile, what + ": an odd number of hex digits");
  std::vector<uint8_t> b(text.size() / 2);
  for (size_t i = 0; i < b.size(); i++) b[i] = (uint8_t)(nib(text[2 * i]) << 4 | nib(text[2 * i + 1]));
  return b;
}

// A registered PoSt proof given as an id (0..14) or a variant name.
const RegisteredPostProof& proof_arg(const std::string& text) {
  if (text.empty())
    throw Error(ErrorCode::kInvalidArgument, "--registered-proof: required (0..14 or a name)");
  if (std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return registered_post_proof_by_id(std::stoull(text));
  return registered_post_proof(text);
}

// A request file, parsed and verified as the daemon parses SubmitProofRequest's fields.
engine::PostRequest read_request(const std::string& path) {
  const PostRequestFile f = read_post_request_file(path);
  try {
    return engine::parse_post_request(f.registered_proof, f.vanilla_proofs, f.randomness, f.miner_id,
                                      f.partition_index);
  } catch (const Error& e) {
    throw Error(ErrorCode::kInvalidFile, path + ": " + e.what());
  }
}

int run_fake(const std::string& proof_name, size_t sectors, size_t partition, uint64_t seed, bool as_json,
             const std::string& dir, bool quiet) {
  const RegisteredPostProof& proof = proof_arg(proof_name);
  if (sectors == 0) sectors = proof.type == circuits::PostType::kWinning ? 1 : proof.shape().sectors;
  std::error_code ec;
  const bool made = !std::filesystem::is_directory(dir, ec);
  if (made && !std::filesystem::create_directories(dir, ec))
    throw Error(ErrorCode::kInvalidArgument,
                dir + ": cannot create the folder" + (ec ? ": " + ec.message() : std::string()));
  // A folder made here is removed again when the command fails (it is empty then: nothing was renamed).
  struct RemoveIfFailed {
    std::filesystem::path dir;
    bool made, done = false;
    ~RemoveIfFailed() {
      std::error_code e;
      if (made && !done) std::filesystem::remove(dir, e);
    }
  } cleanup{dir, made};
  check_outputs({}, {(std::filesystem::path(dir) / "request.json").string()});
  const FakePost f = make_fake_post(proof, sectors, partition, seed);
  std::vector<FileToWrite> files;
  nlohmann::json names = nlohmann::json::array();
  for (size_t i = 0; i < f.vanilla.size(); i++) {
    const std::string name =
        "sector-" + std::to_string(f.vanilla[i].sector_id) + (as_json ? ".json" : ".bin");
    std::string contents = write_post_vanilla_proof_json(f.vanilla[i]);
    if (!as_json) {
      const std::vector<uint8_t> b = write_post_vanilla_proof(f.vanilla[i]);
      contents.assign(b.begin(), b.end());
    }
    files.push_back({(std::filesystem::path(dir) / name).string(), std::move(contents)});
    names.push_back(name);
  }
  const nlohmann::json req = {{"registered_proof", proof.id},
                              {"randomness", hex(f.randomness)},
                              {"miner_id", f.miner_id},
                              {"partition_index", f.partition},
                              {"vanilla_proofs", names}};
  files.push_back({(std::filesystem::path(dir) / "request.json").string(), req.dump(2) + "\n"});
  std::vector<std::string> paths;
  for (const FileToWrite& w : files) paths.push_back(w.path.string());
  check_outputs({}, paths);
  write_files_unlocked(files);  // request.json, which names the others, last
  cleanup.done = true;
  if (!quiet)
    std::printf("wrote %s/request.json: %s, %zu sectors, partition %zu\n", dir.c_str(),
                std::string(proof.name).c_str(), f.vanilla.size(), f.partition);
  return 0;
}

int run_setup(const std::string& proof_name, uint64_t seed, std::string out, const DeviceChoice& dev,
              bool quiet) {
  std::fprintf(
      stderr,
      "cuzk post setup: a single-party setup is for TESTING ONLY: whoever runs it can forge proofs.\n");
  const RegisteredPostProof& proof = proof_arg(proof_name);
  const circuits::PostShape shape = proof.shape();
  out = key_output_path(out, post_param_stem(shape));
  const std::string vk_out = std::filesystem::path(out).replace_extension(".vk").string();
  check_outputs({}, {out, vk_out});
  ThreadPool pool(dev.threads);
  const auto t0 = std::chrono::steady_clock::now();
  const auto circuit = engine::post_circuit(shape, pool);
  const ProvingKey key =
      setup(expand(*circuit->rows, pool), ToxicWaste::from_seed(seed), pool, setup_accel(dev));
  write_params(out, key, &pool);
  write_vk(vk_out, key);
  if (!quiet)
    std::printf("wrote %s and %s (%s: %u inputs, %u aux) in %.1f s\n", out.c_str(), vk_out.c_str(),
                shape.name.c_str(), key.n_inputs, key.n_aux, seconds_since(t0));
  return 0;
}

int run_prove(const std::string& request, const std::string& params, const std::string& vk_path,
              const std::string& out, bool subgroup_check, const DeviceChoice& dev, bool quiet) {
  check_outputs({request, params, vk_path}, {out});
  ProveJobOptions o{params, vk_path, out, subgroup_check, dev, quiet, {}, request};
  // The fields `cuzk client --post` sends; the kind parses and verifies the vanilla proofs before the key
  // is read.
  const PostRequestFile f = read_post_request_file(request);
  check_outputs(f.vanilla_files, {out});
  engine::ProofRequest r;
  r.registered_proof = f.registered_proof;
  r.vanilla_proofs.assign(f.vanilla_proofs.begin(), f.vanilla_proofs.end());
  r.randomness = f.randomness;
  r.miner_id = f.miner_id;
  r.partition_index = f.partition_index;
  const std::unique_ptr<engine::ProofKind> kind = engine::post_kind(f.winning);
  return prove_job(*kind, kind_job(*kind, r, o.files, o.fallback), o);
}

int run_verify(const std::string& request, const std::string& vk_path, const std::string& proof_path,
               bool quiet) {
  const engine::PostRequest r = read_request(request);
  const VerifyingKey vk = read_vk(vk_path);
  check_vk_inputs(vk, engine::post_public_inputs(r).size(), vk_path,
                  "the " + r.proof.shape().name + " PoSt circuit");
  const std::vector<Groth16Proof> proofs = read_proofs_file(proof_path);
  if (proofs.size() != 1)
    throw Error(ErrorCode::kInvalidFile,
                proof_path + ": " + std::to_string(proofs.size()) + " proofs; a PoSt partition has 1");
  if (!verify(vk, engine::post_public_inputs(r), proofs[0])) {
    if (!quiet) std::printf("invalid: the proof does not verify\n");
    return 1;
  }
  if (!quiet) std::printf("OK: %s partition %zu verifies\n", std::string(r.proof.name).c_str(), r.partition);
  return 0;
}

int run_r1cs(const std::string& proof_name) {
  const circuits::PostShape shape = proof_arg(proof_name).shape();
  circuits::CountCs cs;
  circuits::synthesize_fallback_post(cs, shape, nullptr);
  std::printf("%s: %u inputs (ONE included), %u aux, %zu constraints, %zu rows with the input rows; %s\n",
              shape.name.c_str(), cs.num_inputs(), cs.num_aux(), cs.num_constraints(),
              cs.num_constraints() + cs.num_inputs(), post_param_stem(shape).c_str());
  return 0;
}

// One PoSt partition from fake sectors, stage by stage: the vanilla proofs made and encoded as bincode,
// parsed and checked as the daemon does at submit, the circuit, an in-memory testing setup, then one
// warm-up and `reps` timed proofs (assignment, prove, verify), every proof verified.
int run_bench_post(const std::string& proof_name, size_t sectors, unsigned reps, uint64_t seed,
                   const DeviceChoice& dev) {
  const RegisteredPostProof& proof = proof_arg(proof_name);
  if (sectors == 0) sectors = proof.type == circuits::PostType::kWinning ? 1 : proof.shape().sectors;
  if (reps == 0) throw Error(ErrorCode::kInvalidArgument, "bench post --reps must be at least 1");
  ThreadPool pool(dev.threads);
  auto t0 = std::chrono::steady_clock::now();
  const FakePost f = make_fake_post(proof, sectors, 0, seed);
  std::vector<std::vector<uint8_t>> bincode;
  size_t bytes = 0;
  for (const PostVanillaProof& v : f.vanilla) {
    bincode.push_back(write_post_vanilla_proof(v));
    bytes += bincode.back().size();
  }
  const double t_fake = seconds_since(t0);
  t0 = std::chrono::steady_clock::now();
  const engine::PostRequest r =
      engine::parse_post_request(proof.id, bincode, f.randomness, f.miner_id, f.partition);
  const double t_parse = seconds_since(t0);
  t0 = std::chrono::steady_clock::now();
  const auto circuit = engine::post_circuit(proof.shape(), pool);
  const double t_circuit = seconds_since(t0);
  t0 = std::chrono::steady_clock::now();
  const auto key = std::make_shared<const ProvingKey>(
      setup(expand(*circuit->rows, pool), ToxicWaste::from_seed(seed), pool, setup_accel(dev)));
  const double t_key = seconds_since(t0);
  std::printf(
      "%s: %zu fake sectors %.2f s; vanilla proofs (%.1f MB bincode) parsed and checked in %.2f s; circuit "
      "(%zu rows, %zu nonzeros, %.1f GB) %.2f s; in-memory setup %.2f s\n",
      std::string(proof.name).c_str(), sectors, t_fake, bytes / 1e6, t_parse, circuit->rows->a.rows(),
      circuit->rows->nnz(), circuit->rows->bytes() / 1e9, t_circuit, t_key);
  std::unique_ptr<ProverBackend> backend = make_backend(dev);
  const VerifyingKey vk = key->verifying_key();
  const std::vector<Fr> pi = engine::post_public_inputs(r);
  std::vector<double> tw, tp;
  for (unsigned rep = 0; rep <= reps; rep++) {
    auto t = std::chrono::steady_clock::now();
    std::vector<Assignment> one;
    one.push_back(engine::post_assignment(r, circuit, pool));  // a, b, c: the backend's
    const double w = seconds_since(t);
    t = std::chrono::steady_clock::now();
    ProveOptions opt;
    opt.verify = false;
    ProveResult res = std::move(prove_finalize(prove_start(key, std::move(one), *backend, opt))[0]);
    const double pr = seconds_since(t);
    if (!verify(vk, pi, res.proof))
      throw Error(ErrorCode::kUnsatisfied, "proof " + std::to_string(rep) + " does not verify");
    std::string stages;
    for (auto& [name, ms] : res.stages) stages += " " + name + " " + std::to_string((int)ms) + "ms";
    std::printf("%s %u: assignment %.3f s, prove %.3f s (%s ), verified\n", rep ? "proof" : "warm-up", rep, w,
                pr, stages.empty() ? "" : stages.c_str() + 1);
    if (rep) {
      tw.push_back(w);
      tp.push_back(pr);
    }
  }
  std::printf(
      "%s: one partition, median of %u after a warm-up: assignment %.3f s, prove %.3f s; with the vanilla "
      "check %.2f s per partition; host memory peak %.1f GiB; every proof verified\n",
      std::string(proof.name).c_str(), reps, median(tw), median(tp), t_parse + median(tw) + median(tp),
      peak_rss_gib());
  return 0;
}

}  // namespace

PostRequestFile read_post_request_file(const std::string& path) {
  const std::vector<uint8_t> bytes = read_file_bytes(path);
  const nlohmann::json j = nlohmann::json::parse(bytes.begin(), bytes.end(), nullptr, false);
  if (j.is_discarded() || !j.is_object()) throw Error(ErrorCode::kInvalidFile, path + ": not a JSON object");
  auto field = [&](const char* k) -> const nlohmann::json& {
    if (!j.contains(k)) throw Error(ErrorCode::kInvalidFile, path + ": " + k + ": missing");
    return j.at(k);
  };
  auto uint = [&](const char* k) {
    const nlohmann::json& v = field(k);
    if (!v.is_number_unsigned())
      throw Error(ErrorCode::kInvalidFile, path + ": " + k + ": not an unsigned integer");
    return v.get<uint64_t>();
  };
  PostRequestFile f;
  const nlohmann::json& rp = field("registered_proof");
  try {
    if (rp.is_string())
      f.registered_proof = registered_post_proof(rp.get<std::string>()).id;
    else if (rp.is_number_unsigned())
      f.registered_proof = registered_post_proof_by_id(rp.get<uint64_t>()).id;
    else
      throw Error(ErrorCode::kInvalidFile, "not an id or a name");
  } catch (const Error& e) {
    throw Error(ErrorCode::kInvalidFile, path + ": registered_proof: " + e.what());
  }
  f.winning = registered_post_proof_by_id(f.registered_proof).type == circuits::PostType::kWinning;
  const nlohmann::json& rnd = field("randomness");
  if (!rnd.is_string()) throw Error(ErrorCode::kInvalidFile, path + ": randomness: not a hex string");
  f.randomness = unhex(rnd.get<std::string>(), path + ": randomness");
  const nlohmann::json& files = field("vanilla_proofs");
  if (!files.is_array())
    throw Error(ErrorCode::kInvalidFile, path + ": vanilla_proofs: not an array of paths");
  const std::filesystem::path dir = std::filesystem::path(path).parent_path();
  for (size_t i = 0; i < files.size(); i++) {
    if (!files[i].is_string())
      throw Error(ErrorCode::kInvalidFile, path + ": vanilla_proofs[" + std::to_string(i) + "]: not a path");
    const std::filesystem::path file = dir / files[i].get<std::string>();
    f.vanilla_files.push_back(file.string());
    std::vector<uint8_t> b = read_file_bytes(file);
    // A .json file holds the proof's serde JSON: sent on as the bincode the daemon takes.
    if (file.extension() == ".json")
      b = write_post_vanilla_proof(read_post_vanilla_proof_json(
          b, registered_post_proof_by_id(f.registered_proof).shape().tree_r, file.string()));
    f.vanilla_proofs.push_back(std::move(b));
  }
  f.miner_id = uint("miner_id");
  f.partition_index = uint("partition_index");
  return f;
}

PostCommands::PostCommands(CLI::App& app, CLI::App& bench,
                           const std::function<void(CLI::App*, bool)>& add_device_options) {
  post_ = app.add_subcommand("post", "Filecoin WinningPoSt and WindowPoSt (the fallback PoSt circuit)");
  post_->require_subcommand(1);
  const char* rp_help =
      "Registered PoSt proof: 0..14 (filecoin-ffi ids) or a name, e.g. StackedDrgWindow2KiBV1_2";
  fake_ = post_->add_subcommand("fake", "Write fake sectors' vanilla proofs and their request.json");
  fake_->add_option("--registered-proof", registered_proof_, rp_help)->required();
  fake_->add_option("--sectors", sectors_, "Sectors of the partition (default: a full one; WinningPoSt 1)")
      ->check(CLI::Range(size_t{1}, size_t{1} << 20));
  fake_->add_option("--partition", partition_, "The partition's index in the proof")->capture_default_str();
  fake_->add_option("--seed", seed_, "Seed of the sectors' random data")
      ->capture_default_str()
      ->check(cli::unsigned64());
  fake_->add_flag("--json", json_,
                  "Write each vanilla proof's serde JSON (sector-<id>.json) instead of bincode");
  fake_->add_option("dir", out_, "Output folder")->required();
  setup_ = post_->add_subcommand("setup", "A TESTING-ONLY key (.params and .vk) for a PoSt circuit");
  setup_->add_option("--registered-proof", registered_proof_, rp_help)->required();
  setup_->add_option("--seed", seed_, "Toxic waste seed")->capture_default_str()->check(cli::unsigned64());
  setup_->add_option("out", out_, "out.params, or a folder (created when missing) for Filecoin's file name")
      ->required();
  add_device_options(setup_, false);
  prove_ = post_->add_subcommand("prove", "Prove a PoSt partition; the proof is verified before writing");
  prove_->add_option("--request", request_, "request.json")->required()->check(CLI::ExistingFile);
  prove_->add_option("--params", params_, "The circuit's .params")->required()->check(CLI::ExistingFile);
  prove_->add_option("--vk", vk_, "Verify with this .vk (default: the key's own)")->check(CLI::ExistingFile);
  prove_->add_flag("--no-subgroup-check", no_subgroup_check_, "Skip the subgroup check of the key's points");
  prove_->add_option("proof", out_, "Output: the 192-byte proof")->required();
  add_device_options(prove_, true);
  verify_ = post_->add_subcommand("verify", "Verify a PoSt proof (exit 0 valid, 1 invalid)");
  verify_->add_option("--request", request_, "request.json")->required()->check(CLI::ExistingFile);
  verify_->add_option("--vk", vk_, "The circuit's .vk")->required()->check(CLI::ExistingFile);
  verify_->add_option("proof", out_, "The proof file")->required()->check(CLI::ExistingFile);
  r1cs_ = post_->add_subcommand("r1cs", "Count the circuit of a registered PoSt proof");
  r1cs_->add_option("--registered-proof", registered_proof_, rp_help)->required();
  bench_ =
      bench.add_subcommand("post", "A PoSt partition from fake sectors stage by stage (proofs verified)");
  bench_->add_option("--registered-proof", registered_proof_, rp_help)->required();
  bench_->add_option("--sectors", sectors_, "Sectors of the partition (default: a full one; WinningPoSt 1)")
      ->check(CLI::Range(size_t{1}, size_t{1} << 20));
  bench_->add_option("--reps", reps_, "Timed proofs after a warm-up (median reported)")
      ->capture_default_str();
  bench_->add_option("--seed", seed_, "Fake sectors and setup seed")
      ->capture_default_str()
      ->check(cli::unsigned64());
  add_device_options(bench_, true);
  for (CLI::App* sub : {post_, fake_, setup_, prove_, verify_, r1cs_, bench_}) sub->fallthrough();
}

std::optional<int> PostCommands::run(const DeviceChoice& dev, bool quiet) {
  if (*fake_) return run_fake(registered_proof_, sectors_, partition_, seed_, json_, out_, quiet);
  if (*setup_) return run_setup(registered_proof_, seed_, out_, dev, quiet);
  if (*prove_) return run_prove(request_, params_, vk_, out_, !no_subgroup_check_, dev, quiet);
  if (*verify_) return run_verify(request_, vk_, out_, quiet);
  if (*r1cs_) return run_r1cs(registered_proof_);
  if (*bench_) return run_bench_post(registered_proof_, sectors_, reps_, seed_, dev);
  return std::nullopt;
}

}  // namespace cuzk::cli
