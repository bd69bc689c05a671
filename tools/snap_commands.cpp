#include "snap_commands.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>

#include "bench_common.hpp"
#include "cli_checks.hpp"
#include "engine/kinds/builtin.hpp"
#include "engine/update.hpp"
#include "formats/atomic_file.hpp"
#include "formats/params.hpp"
#include "formats/proof_zcash.hpp"
#include "groth16/prover.hpp"
#include "groth16/setup.hpp"
#include "groth16/synthesis.hpp"
#include "groth16/verifier.hpp"
#include "hash/fr32.hpp"
#include "kind_prove.hpp"
#include "util/error.hpp"
#include "util/thread_pool.hpp"

namespace cuzk::cli {

namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

std::string hex_of(const Fr& x) {
  static const char* h = "0123456789abcdef";
  std::string s;
  for (uint8_t b : fr_to_bytes(x)) {
    s += h[b >> 4];
    s += h[b & 15];
  }
  return s;
}

Fr fr_of_hex(const std::string& text, const std::string& what) {
  if (text.size() != 64) throw Error(ErrorCode::kInvalidFile, what + ": expected 64 hex digits (32 bytes)");
  uint8_t b[32];
  for (size_t i = 0; i < 32; i++) {
    unsigned v = 0;
    for (size_t j = 0; j < 2; j++) {
      const char c = text[2 * i + j];
      const int n = c >= '0' && c <= '9'   ? c - '0'
                    : c >= 'a' && c <= 'f' ? c - 'a' + 10
                    : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                           : -1;
      if (n < 0) throw Error(ErrorCode::kInvalidFile, what + ": not a hex digit '" + std::string(1, c) + "'");
      v = v * 16 + (unsigned)n;
    }
    b[i] = (uint8_t)v;
  }
  Fr x;
  if (!fr_from_bytes(b, x)) throw Error(ErrorCode::kInvalidFile, what + ": not a field element (≥ r)");
  return x;
}

// update.json: the sector size, h and the three commitments.
struct UpdateFile {
  circuits::UpdateShape shape;
  uint32_t h = 0;
  UpdateCommitments comms;
};

nlohmann::json update_json(const FakeUpdate& f) {
  return {{"sector_size", f.shape.name},
          {"h", f.h},
          {"comm_r_old", hex_of(f.comms.comm_r_old)},
          {"comm_d_new", hex_of(f.comms.comm_d_new)},
          {"comm_r_new", hex_of(f.comms.comm_r_new)}};
}

UpdateFile read_update_json(const std::string& path) {
  const std::vector<uint8_t> bytes = read_file_bytes(path);
  const nlohmann::json j = nlohmann::json::parse(bytes.begin(), bytes.end(), nullptr, false);
  if (j.is_discarded() || !j.is_object()) throw Error(ErrorCode::kInvalidFile, path + ": not a JSON object");
  auto str = [&](const char* k) {
    if (!j.contains(k) || !j[k].is_string())
      throw Error(ErrorCode::kInvalidFile, path + ": " + k + ": missing or not a string");
    return j[k].get<std::string>();
  };
  UpdateFile f;
  f.shape = circuits::update_shape(str("sector_size"));
  f.h = f.shape.h_default();
  if (j.contains("h")) {
    if (!j["h"].is_number_unsigned())
      throw Error(ErrorCode::kInvalidFile, path + ": h: not an unsigned integer");
    f.h = j["h"].get<uint32_t>();
  }
  f.comms.comm_r_old = fr_of_hex(str("comm_r_old"), path + ": comm_r_old");
  f.comms.comm_d_new = fr_of_hex(str("comm_d_new"), path + ": comm_d_new");
  f.comms.comm_r_new = fr_of_hex(str("comm_r_new"), path + ": comm_r_new");
  try {
    circuits::update_k_and_h_select(f.shape, 0, f.h);
  } catch (const Error& e) {
    throw Error(ErrorCode::kInvalidFile, path + ": h: " + e.what());
  }
  return f;
}

int run_fake(const std::string& size, uint64_t seed, uint32_t h, bool uniform, const std::string& out,
             bool quiet) {
  if (size.empty()) throw Error(ErrorCode::kInvalidArgument, "snap fake needs --sector-size");
  std::filesystem::path upd(out);
  upd.replace_extension(".update.json");
  check_outputs({}, {out, upd.string()});
  const auto t0 = std::chrono::steady_clock::now();
  const FakeUpdate f =
      make_fake_update(size, seed, h, uniform ? FakeUpdateData::kUniform : FakeUpdateData::kRandom);
  nlohmann::json arr = nlohmann::json::array();
  for (const UpdatePartitionProof& p : f.partitions)
    arr.push_back(base64_encode(write_update_partition_proof(p)));
  write_files_unlocked({{out, arr.dump() + "\n"}, {upd.string(), update_json(f).dump(2) + "\n"}});
  if (!quiet)
    std::printf("wrote %s (%zu partition proofs) and %s in %.2f s\n", out.c_str(), f.partitions.size(),
                upd.string().c_str(), seconds_since(t0));
  return 0;
}

int run_setup(const std::string& size, uint64_t seed, std::string out, const DeviceChoice& dev, bool quiet) {
  if (size.empty()) throw Error(ErrorCode::kInvalidArgument, "snap setup needs --sector-size");
  std::fprintf(
      stderr,
      "cuzk snap setup: a single-party setup is for TESTING ONLY: whoever runs it can forge proofs.\n");
  out = key_output_path(out, engine::update_param_stem(size));
  const std::string vk_out = std::filesystem::path(out).replace_extension(".vk").string();
  check_outputs({}, {out, vk_out});
  const auto t0 = std::chrono::steady_clock::now();
  ThreadPool pool(dev.threads);
  const ConstraintSystem cs = engine::update_constraint_system(size);
  const ProvingKey key = setup(cs, ToxicWaste::from_seed(seed), pool, setup_accel(dev));
  write_params(out, key, &pool);
  write_vk(vk_out, key);
  if (!quiet) std::printf("wrote %s and %s in %.2f s\n", out.c_str(), vk_out.c_str(), seconds_since(t0));
  return 0;
}

int run_prove(const std::string& vanilla, const std::string& update, const std::string& params,
              const std::string& vk_path, const std::string& out, bool subgroup_check,
              const DeviceChoice& dev, bool quiet) {
  check_outputs({vanilla, update, params, vk_path}, {out});
  ProveJobOptions o{params, vk_path, out, subgroup_check, dev, quiet, {{"vanilla_proofs", vanilla}}, update};
  // The fields `cuzk client --snap` sends; the kind checks every partition proof against the
  // commitments before the key is read.
  const SnapJobFiles f = read_snap_job_files(vanilla, update);
  engine::ProofRequest r;
  r.vanilla_proofs.assign(f.vanilla_proofs.begin(), f.vanilla_proofs.end());
  r.registered_proof = f.registered_proof;
  r.sector_size = f.sector_size;
  r.comm_r_old = f.comm_r_old;
  r.comm_r_new = f.comm_r_new;
  r.comm_d_new = f.comm_d_new;
  const std::unique_ptr<engine::ProofKind> kind = engine::snap_kind();
  return prove_job(*kind, kind_job(*kind, r, o.files, o.fallback), o);
}

int run_verify(const std::string& update, const std::string& vk_path, const std::string& proof_path,
               bool quiet) {
  const UpdateFile u = read_update_json(update);
  const VerifyingKey vk = read_vk(vk_path);
  check_vk_inputs(vk,
                  circuits::update_public_inputs(u.shape, 0, u.h, u.comms.comm_r_old, u.comms.comm_d_new,
                                                 u.comms.comm_r_new)
                      .size(),
                  vk_path, "the " + u.shape.name + " SnapDeals circuit");
  const std::vector<Groth16Proof> proofs = read_proofs_file(proof_path);
  if (proofs.size() != u.shape.partition_count)
    throw Error(ErrorCode::kInvalidFile, proof_path + ": " + std::to_string(proofs.size()) + " proofs; a " +
                                             u.shape.name + " update has " +
                                             std::to_string(u.shape.partition_count) + " partitions");
  for (uint32_t k = 0; k < proofs.size(); k++)
    if (!verify(vk,
                circuits::update_public_inputs(u.shape, k, u.h, u.comms.comm_r_old, u.comms.comm_d_new,
                                               u.comms.comm_r_new),
                proofs[k])) {
      if (!quiet) std::printf("invalid: partition %u does not verify\n", k);
      return 1;
    }
  if (!quiet) std::printf("OK: %zu partitions verify\n", proofs.size());
  return 0;
}

int run_r1cs(const std::string& size) {
  if (size.empty()) throw Error(ErrorCode::kInvalidArgument, "snap r1cs needs --sector-size");
  const circuits::UpdateShape s = circuits::update_shape(size);
  circuits::CountCs cs;
  circuits::synthesize_empty_sector_update(cs, s, nullptr);
  std::printf("%s: %u inputs (ONE included), %u aux, %zu constraints, %u partitions\n", s.name.c_str(),
              cs.num_inputs(), cs.num_aux(), cs.num_constraints(), s.partition_count);
  return 0;
}

// A SnapDeals proof of a fake update, stage by stage: the update made (uniform data above 16 MiB), its
// partition proofs checked as the daemon does at submit, the circuit recorded and compacted, an
// in-memory testing setup, then the first `partitions` partitions (0 = all): assignment (a, b, c left
// to the backend), prove, verify.
int run_bench_snap(const std::string& size, unsigned partitions, uint64_t seed, const DeviceChoice& dev) {
  if (size.empty()) throw Error(ErrorCode::kInvalidArgument, "bench snap needs --sector-size");
  const circuits::UpdateShape shape = circuits::update_shape(size);
  ThreadPool pool(dev.threads);
  auto t0 = std::chrono::steady_clock::now();
  const bool uniform = shape.sector_nodes * 32 > (16u << 20);
  const FakeUpdate f =
      make_fake_update(size, seed, 0, uniform ? FakeUpdateData::kUniform : FakeUpdateData::kRandom);
  const double t_fake = seconds_since(t0);
  t0 = std::chrono::steady_clock::now();
  for (uint32_t k = 0; k < f.partitions.size(); k++)
    verify_update_partition(f.shape, k, f.h, f.comms, f.partitions[k], "fake partition " + std::to_string(k));
  const double t_check = seconds_since(t0);
  // The full constraint system only for the setup and the compaction: freed before proving.
  std::shared_ptr<const ProvingKey> key;
  std::shared_ptr<const CompactCs> rows;
  double t_record = 0, t_key = 0, t_compact = 0;
  {
    t0 = std::chrono::steady_clock::now();
    const ConstraintSystem cs = engine::update_constraint_system(size);
    t_record = seconds_since(t0);
    t0 = std::chrono::steady_clock::now();
    key = std::make_shared<const ProvingKey>(setup(cs, ToxicWaste::from_seed(seed), pool, setup_accel(dev)));
    t_key = seconds_since(t0);
    t0 = std::chrono::steady_clock::now();
    rows = std::make_shared<const CompactCs>(compact(cs, pool));
    t_compact = seconds_since(t0);
  }
  std::printf(
      "%s: fake update (%s data) %.2f s; %zu partition proofs checked in %.2f s; circuit recorded (%zu rows) "
      "%.2f s, compacted (%zu nonzeros, %.1f GB) %.2f s; in-memory setup %.2f s\n",
      shape.name.c_str(), uniform ? "uniform" : "random", t_fake, f.partitions.size(), t_check,
      rows->a.rows(), t_record, rows->nnz(), rows->bytes() / 1e9, t_compact, t_key);
  std::unique_ptr<ProverBackend> backend = make_backend(dev);
  const VerifyingKey vk = key->verifying_key();
  const size_t n = partitions ? std::min<size_t>(partitions, f.partitions.size()) : f.partitions.size();
  std::vector<double> tw, tp;
  const auto all0 = std::chrono::steady_clock::now();
  for (uint32_t k = 0; k < n; k++) {
    auto t = std::chrono::steady_clock::now();
    std::vector<Assignment> one;
    one.push_back(engine::update_partition_assignment(rows, f.shape, k, f.h, f.comms, f.partitions[k], pool));
    tw.push_back(seconds_since(t));
    t = std::chrono::steady_clock::now();
    ProveOptions opt;
    opt.verify = false;
    ProveResult res = std::move(prove_finalize(prove_start(key, std::move(one), *backend, opt))[0]);
    tp.push_back(seconds_since(t));
    const std::vector<Fr> pi = circuits::update_public_inputs(f.shape, k, f.h, f.comms.comm_r_old,
                                                              f.comms.comm_d_new, f.comms.comm_r_new);
    if (!verify(vk, pi, res.proof))
      throw Error(ErrorCode::kUnsatisfied, "partition " + std::to_string(k) + " does not verify");
    std::string stages;
    for (auto& [name, ms] : res.stages) stages += " " + name + " " + std::to_string((int)ms) + "ms";
    std::printf("partition %u: assignment %.3f s, prove %.3f s (%s ), verified\n", k, tw.back(), tp.back(),
                stages.empty() ? "" : stages.c_str() + 1);
  }
  const double total = seconds_since(all0);
  std::printf(
      "%s: %zu of %zu partitions in %.2f s (%.2f s per partition; medians: assignment %.3f, prove %.3f s); "
      "with the partition checks: %.2f s per proof of %zu partitions; host memory peak %.1f GiB; every "
      "proof verified\n",
      shape.name.c_str(), n, f.partitions.size(), total, total / n, median(tw), median(tp),
      t_check + total / n * f.partitions.size(), f.partitions.size(), peak_rss_gib());
  return 0;
}

}  // namespace

SnapJobFiles read_snap_job_files(const std::string& vanilla_json, const std::string& update_json) {
  const UpdateFile u = read_update_json(update_json);
  SnapJobFiles f;
  const std::vector<std::string>& sizes = engine::update_sector_sizes();
  const auto it = std::find(sizes.begin(), sizes.end(), u.shape.name);
  if (it == sizes.end())
    throw Error(ErrorCode::kInvalidArgument,
                update_json + ": sector_size: " + u.shape.name + " has no Filecoin SnapDeals parameters");
  if (u.h != u.shape.h_default())
    throw Error(ErrorCode::kInvalidFile,
                update_json + ": h: " + std::to_string(u.h) + " is not the " + u.shape.name + " default (" +
                    std::to_string(u.shape.h_default()) +
                    "), the h of Filecoin's SnapDeals proofs (a request carries none)");
  f.registered_proof = uint64_t(it - sizes.begin());
  f.sector_size = u.shape.sector_nodes * 32;
  f.comm_r_old = fr_to_bytes(u.comms.comm_r_old);
  f.comm_r_new = fr_to_bytes(u.comms.comm_r_new);
  f.comm_d_new = fr_to_bytes(u.comms.comm_d_new);
  const std::vector<uint8_t> bytes = read_file_bytes(vanilla_json);
  const nlohmann::json j = nlohmann::json::parse(bytes.begin(), bytes.end(), nullptr, false);
  if (j.is_discarded() || !j.is_array())
    throw Error(ErrorCode::kInvalidFile, vanilla_json + ": not a JSON array of base64 partition proofs");
  for (size_t k = 0; k < j.size(); k++) {
    const std::string where = vanilla_json + ": [" + std::to_string(k) + "]";
    if (!j[k].is_string()) throw Error(ErrorCode::kInvalidFile, where + ": not a base64 string");
    f.vanilla_proofs.push_back(base64_decode(j[k].get<std::string>(), where));
  }
  return f;
}

SnapCommands::SnapCommands(CLI::App& app, CLI::App& bench,
                           const std::function<void(CLI::App*, bool)>& add_device_options) {
  snap_ = app.add_subcommand("snap",
                             "Filecoin SnapDeals (empty-sector update) proofs from vanilla partition proofs");
  snap_->require_subcommand(1);
  const char* sizes = "1KiB … 32KiB, 8MiB, 16MiB, 512MiB, 32GiB or 64GiB";
  fake_ = snap_->add_subcommand("fake", "Write a fake update's vanilla proofs and its .update.json");
  fake_->add_option("--sector-size", sector_size_, sizes);
  fake_->add_flag(
      "--uniform", uniform_,
      "One old label and one data value for the whole sector (any size; random data: 16MiB at most)");
  fake_->add_option("--seed", seed_, "Seed of the sector's random data")
      ->capture_default_str()
      ->check(cli::unsigned64());
  // Not "--h": some CLI11 versions refuse it beside the help flag -h (an abort at start-up).
  fake_->add_option("--update-h", h_,
                    "the update's h, upstream's hs() value (default: the size's h_default)");
  fake_->add_option("vanilla", out_, "Output vanilla.json (the commitments go to vanilla.update.json)")
      ->required();
  setup_ =
      snap_->add_subcommand("setup", "A TESTING-ONLY key of a size under Filecoin's file name, and its .vk");
  setup_->add_option("--sector-size", sector_size_, sizes);
  setup_->add_option("--seed", seed_, "Toxic-waste seed")->capture_default_str()->check(cli::unsigned64());
  setup_->add_option("out", out_, "out.params, or a folder (created when missing) for Filecoin's file name")
      ->required();
  add_device_options(setup_, false);
  prove_ = snap_->add_subcommand("prove", "Prove every partition; each proof is verified before writing");
  prove_->add_option("--vanilla", vanilla_, "JSON array of base64 bincode partition proofs")
      ->required()
      ->check(CLI::ExistingFile);
  prove_->add_option("--update", update_, "The update's sector size, h and commitments")
      ->required()
      ->check(CLI::ExistingFile);
  prove_->add_option("--params", params_, "The size's .params")->required()->check(CLI::ExistingFile);
  prove_->add_option("--vk", vk_, "Verify with this .vk (default: the key's own)")->check(CLI::ExistingFile);
  prove_->add_flag("--no-subgroup-check", no_subgroup_check_, "Skip the subgroup check of the key's points");
  prove_->add_option("proof", out_, "Output: the partitions' 192-byte proofs, concatenated")->required();
  add_device_options(prove_, true);
  verify_ = snap_->add_subcommand("verify", "Verify a SnapDeals proof file (exit 0 valid, 1 invalid)");
  verify_->add_option("--update", update_, "The update's sector size, h and commitments")
      ->required()
      ->check(CLI::ExistingFile);
  verify_->add_option("--vk", vk_, "The size's .vk")->required()->check(CLI::ExistingFile);
  verify_->add_option("proof", out_, "The proof file")->required()->check(CLI::ExistingFile);
  r1cs_ = snap_->add_subcommand("r1cs", "Count the circuit of one partition");
  r1cs_->add_option("--sector-size", sector_size_, sizes);
  bench_ =
      bench.add_subcommand("snap", "A SnapDeals proof of a fake update stage by stage (proofs verified)");
  bench_->add_option("--sector-size", sector_size_, sizes);
  bench_->add_option("--partitions", partitions_, "Prove only the first N partitions (0 = all)");
  bench_->add_option("--seed", seed_, "Fake update and setup seed")
      ->capture_default_str()
      ->check(cli::unsigned64());
  add_device_options(bench_, true);
}

std::optional<int> SnapCommands::run(const DeviceChoice& dev, bool quiet) {
  if (*fake_) return run_fake(sector_size_, seed_, h_, uniform_, out_, quiet);
  if (*setup_) return run_setup(sector_size_, seed_, out_, dev, quiet);
  if (*prove_) return run_prove(vanilla_, update_, params_, vk_, out_, !no_subgroup_check_, dev, quiet);
  if (*verify_) return run_verify(update_, vk_, out_, quiet);
  if (*r1cs_) return run_r1cs(sector_size_);
  if (*bench_) return run_bench_snap(sector_size_, partitions_, seed_, dev);
  return std::nullopt;
}

}  // namespace cuzk::cli
