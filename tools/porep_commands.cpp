#include "porep_commands.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <optional>
#include <random>
#include <thread>
#include <vector>

#include "bench_common.hpp"
#include "circuits/sdr/porep.hpp"
#include "circuits/stacked.hpp"
#include "cli_checks.hpp"
#include "engine/kinds/builtin.hpp"
#include "engine/porep.hpp"
#include "formats/atomic_file.hpp"
#include "formats/fake_c1.hpp"
#include "formats/params.hpp"
#include "formats/proof_zcash.hpp"
#include "groth16/prover.hpp"
#include "groth16/setup.hpp"
#include "groth16/synthesis.hpp"
#include "groth16/verifier.hpp"
#include "kind_prove.hpp"
#include "util/error.hpp"
#include "util/thread_pool.hpp"

namespace cuzk::cli {

namespace {

using namespace cuzk::circuits;

std::string hex(const std::array<uint8_t, 32>& d) {
  static const char* h = "0123456789abcdef";
  std::string s;
  for (uint8_t b : d) {
    s += h[b >> 4];
    s += h[b & 15];
  }
  return s;
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

Fr random_fr(std::mt19937_64& rng) {
  uint64_t l[4] = {rng(), rng(), rng(), rng() & 0x0fffffffffffffffULL};
  Fr r;
  Fr::from_canonical(l, r);
  return r;
}

int run_r1cs(const std::string& sector_size, const std::string& shape_name, bool digest,
             std::optional<uint64_t> row, bool quiet) {
  if (sector_size.empty() == shape_name.empty())
    throw Error(ErrorCode::kInvalidArgument, "porep r1cs takes one of --sector-size and --shape");
  const StackedShape shape =
      sector_size.empty() ? stacked_test_shape(shape_name) : stacked_shape(sector_size);
  const auto t0 = std::chrono::steady_clock::now();
  if (!digest && !row) {
    CountCs cs;
    synthesize_stacked(cs, shape, nullptr);
    std::printf("%s: %u inputs (ONE included), %u aux, %zu constraints, %zu rows with the input rows\n",
                shape.name.c_str(), cs.num_inputs(), cs.num_aux(), cs.num_constraints(),
                cs.num_constraints() + cs.num_inputs());
  } else {
    RecordCs cs;
    synthesize_stacked(cs, shape, nullptr);
    const Recording rec = cs.take_recording();
    if (digest)
      std::printf(
          "%s: %u inputs, %u aux, %zu rows, %zu distinct coefficients, %.1f bytes per row, sha256 %s\n",
          shape.name.c_str(), rec.n_inputs, rec.n_aux, rec.n_rows(), rec.coeffs.size(),
          (double)rec.bytes() / (double)rec.n_rows(), hex(rec.canonical_digest()).c_str());
    if (row) std::printf("row %llu: %s\n", (unsigned long long)*row, rec.describe_row(*row).c_str());
  }
  if (!quiet) std::fprintf(stderr, "%.2f s\n", seconds_since(t0));
  return 0;
}

// One layer's label of the 32 GiB circuit (layer > 1): 14 parent decompositions + create_label.
template <class CS>
void label_block(CS& cs, std::mt19937_64& rng) {
  std::vector<Boolean> replica_bits;
  for (int i = 0; i < 256; i++) replica_bits.push_back(Boolean::is(AllocatedBit::alloc(cs, rng() & 1)));
  UInt64 node = UInt64::alloc(cs, rng() >> 34);
  std::vector<std::vector<Boolean>> parents;
  for (size_t p = 0; p < kDrgParents + kExpParents; p++) {
    AllocatedNum v = AllocatedNum::alloc(cs, random_fr(rng));
    parents.push_back(reverse_bit_numbering(to_bits_le(cs, v)));
  }
  std::vector<std::vector<Boolean>> expanded = parents;
  expanded.insert(expanded.end(), parents.begin(), parents.end());
  expanded.insert(expanded.end(), parents.begin(), parents.begin() + 9);
  create_label(cs, std::span<const Boolean>(replica_bits), expanded, 2, node);
}

// One tree-R inclusion of the 32 GiB circuit (Poseidon-8, 9 base levels and a sub level of 8).
template <class CS>
void inclusion_block(CS& cs, std::mt19937_64& rng) {
  const StackedShape shape = stacked_shape("32GiB");
  std::vector<PathLevel> path(shape.tree_rc.levels());
  for (size_t i = 0; i < path.size(); i++) {
    path[i].index = (uint32_t)(rng() % shape.tree_rc.arity(i));
    for (uint32_t k = 0; k + 1 < shape.tree_rc.arity(i); k++) path[i].siblings.push_back(random_fr(rng));
  }
  AllocatedNum leaf = AllocatedNum::alloc(cs, random_fr(rng));
  AllocatedNum root =
      AllocatedNum::alloc(cs, random_fr(rng));  // the root equality does not hold: no check here
  enforce_inclusion<PoseidonHasher>(cs, shape.tree_rc, path, leaf, root);
}

template <class Block>
void bench_block(const char* name, Block block, unsigned reps, unsigned threads) {
  // Single core: median of reps.
  std::vector<double> t;
  size_t aux = 0, constraints = 0;
  for (unsigned r = 0; r < reps + 1; r++) {
    std::mt19937_64 rng(r + 1);
    WitnessCs cs;
    const auto t0 = std::chrono::steady_clock::now();
    block(cs, rng);
    if (r > 0) t.push_back(seconds_since(t0));  // the first run warms up
    aux = cs.num_aux();
    constraints = cs.num_constraints();
  }
  std::sort(t.begin(), t.end());
  const double one = t[t.size() / 2];
  // All cores: `threads` independent witnesses at once, reps each.
  const auto t0 = std::chrono::steady_clock::now();
  std::vector<std::thread> pool;
  for (unsigned k = 0; k < threads; k++)
    pool.emplace_back([&, k] {
      for (unsigned r = 0; r < reps; r++) {
        std::mt19937_64 rng(100 * k + r);
        WitnessCs cs;
        block(cs, rng);
      }
    });
  for (auto& th : pool) th.join();
  const double all = seconds_since(t0);
  const double per_core = (double)aux / one, total = (double)aux * threads * reps / all;
  std::printf(
      "%-10s %9zu constraints %9zu aux | 1 core: %8.2f ms, %6.1f M aux/s | %u threads: %6.1f M aux/s "
      "(%.1f M/s per thread) | 130 M aux: %.2f s\n",
      name, constraints, aux, one * 1e3, per_core / 1e6, threads, total / 1e6, total / threads / 1e6,
      130e6 / total);
}

std::string hex32(const std::array<uint8_t, 32>& b) { return hex(b); }

std::array<uint8_t, 32> parse_hex32(const std::string& text, const std::string& what) {
  std::array<uint8_t, 32> b{};
  auto nib = [&](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    throw Error(ErrorCode::kInvalidArgument, what + ": not a hex digit '" + std::string(1, c) + "'");
  };
  if (text.size() != 64)
    throw Error(ErrorCode::kInvalidArgument, what + ": expected 64 hex digits (32 bytes)");
  for (size_t i = 0; i < 32; i++) b[i] = (uint8_t)(nib(text[2 * i]) << 4 | nib(text[2 * i + 1]));
  return b;
}

// The chain's data of a sector (verify_seal's arguments) as JSON: hex strings of the 32-byte values
// (in the byte order a C1 stores them), the sector id and the registered proof.
nlohmann::json seal_json(const std::string& registered_proof, const sdr::SealPublicData& s) {
  return {{"registered_proof", registered_proof},
          {"comm_r", hex32(s.comm_r)},
          {"comm_d", hex32(s.comm_d)},
          {"prover_id", hex32(s.prover_id)},
          {"sector_id", s.sector_id},
          {"ticket", hex32(s.ticket)},
          {"seed", hex32(s.seed)}};
}

struct SealFile {
  std::string registered_proof;
  sdr::SealPublicData seal;
};
SealFile read_seal_json(const std::string& path) {
  const std::vector<uint8_t> bytes = read_file_bytes(path);
  nlohmann::json j = nlohmann::json::parse(bytes.begin(), bytes.end(), nullptr, false);
  if (j.is_discarded() || !j.is_object()) throw Error(ErrorCode::kInvalidFile, path + ": not a JSON object");
  auto str = [&](const char* k) {
    if (!j.contains(k) || !j[k].is_string())
      throw Error(ErrorCode::kInvalidFile, path + ": " + k + ": missing or not a string");
    return j[k].get<std::string>();
  };
  SealFile f;
  f.registered_proof = str("registered_proof");
  f.seal.comm_r = parse_hex32(str("comm_r"), path + ": comm_r");
  f.seal.comm_d = parse_hex32(str("comm_d"), path + ": comm_d");
  f.seal.prover_id = parse_hex32(str("prover_id"), path + ": prover_id");
  f.seal.ticket = parse_hex32(str("ticket"), path + ": ticket");
  f.seal.seed = parse_hex32(str("seed"), path + ": seed");
  if (!j.contains("sector_id") || !j["sector_id"].is_number_unsigned())
    throw Error(ErrorCode::kInvalidFile, path + ": sector_id: missing or not an unsigned integer");
  f.seal.sector_id = j["sector_id"].get<uint64_t>();
  return f;
}

C1Output load_c1(const std::string& path) {
  const std::vector<uint8_t> bytes = read_file_bytes(path);
  return read_c1(bytes, path);
}

int run_fake_c1(const std::string& size, std::string proof, uint64_t seed, std::optional<uint64_t> envelope,
                const std::string& out, bool quiet) {
  if (size.empty() && proof.empty())
    throw Error(ErrorCode::kInvalidArgument, "porep fake-c1 needs --sector-size or --registered-proof");
  if (proof.empty()) proof = "StackedDrg" + size + "V1_1";
  const std::string seal_path = std::filesystem::path(out).replace_extension(".seal.json").string();
  check_outputs({}, {out, seal_path});
  const auto t0 = std::chrono::steady_clock::now();
  const FakeSector fs = make_fake_sector(proof, seed);
  const std::string json = envelope ? write_c1_envelope_json(fs.c1, *envelope) : write_c1_json(fs.c1);
  write_files_unlocked({{seal_path, seal_json(proof, fs.seal).dump(2) + "\n"}, {out, json}});
  if (!quiet)
    std::printf("wrote %s (%s, %zu partitions, %.1f MB) and %s in %.2f s\n", out.c_str(), proof.c_str(),
                fs.c1.vanilla_proofs.size(), json.size() / 1e6, seal_path.c_str(), seconds_since(t0));
  return 0;
}

int run_prove(const std::string& c1_path, const std::string& params, const std::string& vk_path,
              const std::string& out, bool subgroup_check, const DeviceChoice& dev, bool quiet) {
  if (c1_path.empty() || params.empty() || out.empty())
    throw Error(ErrorCode::kInvalidArgument,
                "porep prove takes --c1 FILE --params FILE [--vk FILE] proof.bin");
  check_outputs({c1_path, params, vk_path}, {out});
  ProveJobOptions o{params, vk_path, out, subgroup_check, dev, quiet, {{"vanilla_proof", c1_path}}, c1_path};
  // The C1 as the daemon takes it: parsed, its comm_r and challenges checked (all enforced by the circuit)
  // before the key is read.
  const std::vector<uint8_t> c1 = read_file_bytes(c1_path);
  engine::ProofRequest r;
  r.vanilla_proof = c1;
  const std::unique_ptr<engine::ProofKind> kind = engine::porep_kind();
  return prove_job(*kind, kind_job(*kind, r, o.files, o.fallback), o);
}

int run_verify(const std::string& c1_path, const std::string& seal_path, const std::string& vk_path,
               const std::string& proof_path, bool quiet) {
  if (c1_path.empty() == seal_path.empty())
    throw Error(ErrorCode::kInvalidArgument, "porep verify takes one of --c1 FILE and --seal FILE");
  if (vk_path.empty() || proof_path.empty())
    throw Error(ErrorCode::kInvalidArgument, "porep verify takes --vk FILE and proof.bin");
  std::vector<std::vector<Fr>> inputs;
  std::string proof_name;  // the registered proof, naming the circuit a wrong key is refused against
  if (!c1_path.empty()) {
    const C1Output c1 = load_c1(c1_path);
    // The public inputs come from the C1's challenges: they must be the ones its seed, replica_id and
    // registered proof give (and comm_r its vanilla proofs' roots), as for proving.
    engine::check_c1_comm_r(c1, c1_path);
    engine::check_c1_challenges(c1, c1_path);
    proof_name = std::string(c1.registered_proof.name);
    for (size_t k = 0; k < c1.vanilla_proofs.size(); k++) inputs.push_back(partition_public_inputs(c1, k));
  } else {
    const SealFile f = read_seal_json(seal_path);
    proof_name = f.registered_proof;
    const auto proof = sdr::registered_seal_proof_from_name(f.registered_proof);
    if (!proof)
      throw Error(ErrorCode::kInvalidFile,
                  seal_path + ": registered_proof: unknown '" + f.registered_proof + "'");
    const sdr::PoRepConfig cfg = sdr::porep_config(*proof);
    const sdr::SdrGraph graph(cfg.nodes(), cfg.porep_id, cfg.api_version);
    for (uint32_t k = 0; k < cfg.partitions; k++)
      inputs.push_back(sdr::partition_public_inputs(cfg, graph, f.seal, k));
  }
  const VerifyingKey vk = read_vk(vk_path);
  if (!inputs.empty()) check_vk_inputs(vk, inputs[0].size(), vk_path, "the PoRep circuit of " + proof_name);
  const std::vector<Groth16Proof> proofs = read_proofs_file(proof_path);
  if (proofs.size() != inputs.size())
    throw Error(ErrorCode::kInvalidFile, proof_path + ": " + std::to_string(proofs.size()) +
                                             " proofs; the sector has " + std::to_string(inputs.size()) +
                                             " partitions");
  for (size_t k = 0; k < proofs.size(); k++)
    if (!verify(vk, inputs[k], proofs[k])) {
      if (!quiet) std::printf("invalid: partition %zu does not verify\n", k);
      return 1;
    }
  if (!quiet) std::printf("OK: %zu partitions verify\n", proofs.size());
  return 0;
}

// C2 of a fake sector stage by stage, in one process: C1 written and parsed, challenges checked, the
// circuit recorded, a key (read from --params, else an in-memory testing setup), then every partition:
// witness, a/b/c, prove (the backend's stages), verify.
int run_bench_porep(const std::string& size, const std::string& params, unsigned partitions, uint64_t seed,
                    const DeviceChoice& dev) {
  if (size.empty()) throw Error(ErrorCode::kInvalidArgument, "bench porep needs --sector-size");
  ThreadPool pool(dev.threads);
  auto t0 = std::chrono::steady_clock::now();
  const FakeSector fs = make_fake_sector("StackedDrg" + size + "V1_1", seed);
  const double t_fake = seconds_since(t0);
  const std::string json = write_c1_json(fs.c1);
  t0 = std::chrono::steady_clock::now();
  const C1Output c1 =
      read_c1({reinterpret_cast<const uint8_t*>(json.data()), json.size()}, "fake " + size + " C1");
  const double t_parse = seconds_since(t0);
  t0 = std::chrono::steady_clock::now();
  engine::check_c1_challenges(c1, "fake C1");
  const double t_chain = seconds_since(t0);
  t0 = std::chrono::steady_clock::now();
  const auto circuit = engine::porep_circuit(size, pool);
  const double t_circuit = seconds_since(t0);
  t0 = std::chrono::steady_clock::now();
  std::shared_ptr<const ProvingKey> key;  // shared: a GPU backend keeps it resident
  if (!params.empty()) {
    key = std::make_shared<const ProvingKey>(read_params_on(params, dev, SubgroupCheck::kNo));
    check_key_fits(*key, *circuit->rows, params + " and the " + size + " PoRep circuit");
  } else {
    key = std::make_shared<const ProvingKey>(
        setup(expand(*circuit->rows, pool), ToxicWaste::from_seed(seed), pool, setup_accel(dev)));
  }
  const double t_key = seconds_since(t0);
  std::printf(
      "%s: fake sector %.2f s; C1 %.1f MB parsed in %.2f s; challenges checked in %.2f s; circuit "
      "(%zu rows, %zu nonzeros) %.2f s; key (%s) %.2f s\n",
      size.c_str(), t_fake, json.size() / 1e6, t_parse, t_chain, circuit->rows->a.rows(),
      circuit->rows->nnz(), t_circuit, params.empty() ? "in-memory setup" : "read", t_key);
  std::unique_ptr<ProverBackend> backend = make_backend(dev);
  const VerifyingKey vk = key->verifying_key();
  const size_t n =
      partitions ? std::min<size_t>(partitions, c1.vanilla_proofs.size()) : c1.vanilla_proofs.size();
  std::vector<double> tw, tp, tv;
  const auto all0 = std::chrono::steady_clock::now();
  for (size_t k = 0; k < n; k++) {
    auto t = std::chrono::steady_clock::now();
    Assignment asg = engine::porep_partition_assignment(c1, k, circuit, pool);  // a, b, c: the backend's
    tw.push_back(seconds_since(t));
    t = std::chrono::steady_clock::now();
    ProveOptions opt;
    opt.verify = false;
    std::vector<Assignment> one;
    one.push_back(std::move(asg));
    ProveResult res = std::move(prove_finalize(prove_start(key, std::move(one), *backend, opt))[0]);
    tp.push_back(seconds_since(t));
    t = std::chrono::steady_clock::now();
    if (!verify(vk, res.public_inputs, res.proof))
      throw Error(ErrorCode::kUnsatisfied, "partition " + std::to_string(k) + " does not verify");
    tv.push_back(seconds_since(t));
    std::string stages;
    for (auto& [name, ms] : res.stages) stages += " " + name + " " + std::to_string((int)ms) + "ms";
    std::printf("partition %zu: witness %.3f s, prove %.3f s (%s ), verify %.3f s\n", k, tw.back(), tp.back(),
                stages.c_str() + 1, tv.back());
  }
  const double total = seconds_since(all0);
  std::printf(
      "%s: %zu partitions in %.2f s (%.2f s per partition; medians: witness %.3f, prove %.3f, "
      "verify %.3f s); with the C1 parse and the challenge check: %.2f s per proof; host memory peak %.1f "
      "GiB; every proof verified\n",
      size.c_str(), n, total, total / n, median(tw), median(tp), median(tv), total + t_parse + t_chain,
      peak_rss_gib());
  return 0;
}

}  // namespace

PorepCommands::PorepCommands(CLI::App& app, CLI::App& bench,
                             const std::function<void(CLI::App*, bool)>& add_device_options) {
  porep_ = app.add_subcommand("porep", "Filecoin PoRep commit phase 2 (the StackedCircuit) from a C1 output");
  porep_->require_subcommand(1);
  fake_ = porep_->add_subcommand("fake-c1",
                                 "Write the C1 of a fake committed-capacity sector and its .seal.json");
  CLI::Option* fake_size = fake_->add_option("--sector-size", sector_size_,
                                             "2KiB, 8MiB, 512MiB, 32GiB or 64GiB (StackedDrg<size>V1_1)");
  fake_
      ->add_option("--registered-proof", registered_proof_, "e.g. StackedDrg32GiBV1 (interactive PoRep only)")
      ->excludes(fake_size);
  fake_->add_option("--seed", seed_, "Seed of the sector's random data")
      ->capture_default_str()
      ->check(cli::unsigned64());
  fake_
      ->add_option("--envelope", envelope_,
                   "Write Curio's envelope with this SectorNum instead of the raw JSON")
      ->check(cli::unsigned64());
  fake_->add_option("c1", out_, "Output c1.json (the chain data goes to c1.seal.json)")->required();
  prove_ =
      porep_->add_subcommand("prove", "Prove every partition of a C1; each proof is verified before writing");
  prove_->add_option("--c1", c1_, "C1 output (raw JSON or Curio's envelope)")
      ->required()
      ->check(CLI::ExistingFile);
  prove_->add_option("--params", params_, "The size's .params")->required()->check(CLI::ExistingFile);
  prove_->add_option("--vk", vk_, "Verify with this .vk (default: the key's own)")->check(CLI::ExistingFile);
  prove_->add_flag(
      "--no-subgroup-check", no_subgroup_check_,
      "Skip the subgroup check of the key's points (for a file whose digest is known, as Filecoin's "
      "parameter fetcher checks it; the check costs ~10 min per GB on two CPU cores)");
  prove_->add_option("proof", out_, "Output: the partitions' 192-byte proofs, concatenated")->required();
  add_device_options(prove_, true);
  verify_ = porep_->add_subcommand("verify", "Verify a PoRep proof file (exit 0 valid, 1 invalid)");
  verify_->add_option("--c1", c1_, "Public inputs from this C1")->check(CLI::ExistingFile);
  verify_->add_option("--seal", seal_, "Public inputs from the chain data (fake-c1's .seal.json)")
      ->check(CLI::ExistingFile);
  verify_->add_option("--vk", vk_, "The size's .vk")->required()->check(CLI::ExistingFile);
  verify_->add_option("proof", out_, "The proof file")->required()->check(CLI::ExistingFile);
  r1cs_ =
      porep_->add_subcommand("r1cs", "Count or record the circuit of one partition; its canonical digest");
  r1cs_->add_option("--sector-size", sector_size_, "2KiB, 8MiB, 512MiB, 32GiB or 64GiB");
  r1cs_->add_option("--shape", shape_, "One of upstream's test shapes: base-2, base-8, sub-8-4, top-8-4-2");
  r1cs_->add_flag("--digest", digest_, "Record the rows and print the SHA-256 of the canonical form");
  r1cs_->add_option("--row", row_, "Print row I (synthesized rows, then the input rows) in words");
  bench_circuit_ =
      bench.add_subcommand("circuit", "Witness-mode speed of the PoRep gadgets (values per second)");
  bench_circuit_->add_option("--what", what_, "label, inclusion or all")->capture_default_str();
  bench_circuit_->add_option("--reps", reps_, "Repetitions (median for one core)")->capture_default_str();
  bench_porep_ = bench.add_subcommand("porep", "C2 of a fake sector stage by stage (every proof verified)");
  bench_porep_->add_option("--sector-size", sector_size_, "2KiB, 8MiB, 512MiB, 32GiB or 64GiB")->required();
  bench_porep_
      ->add_option("--params", params_, "Read this .params (no subgroup check) instead of a testing setup")
      ->check(CLI::ExistingFile);
  bench_porep_->add_option("--partitions", partitions_, "Prove only the first N partitions (0 = all)");
  bench_porep_->add_option("--seed", seed_, "Fake sector and setup seed")
      ->capture_default_str()
      ->check(cli::unsigned64());
  add_device_options(bench_porep_, true);
  for (CLI::App* sub : {porep_, fake_, prove_, verify_, r1cs_, bench_circuit_, bench_porep_})
    sub->fallthrough();
}

std::optional<int> PorepCommands::run(const DeviceChoice& dev, bool quiet) {
  if (*fake_) return run_fake_c1(sector_size_, registered_proof_, seed_, envelope_, out_, quiet);
  if (*prove_) return run_prove(c1_, params_, vk_, out_, !no_subgroup_check_, dev, quiet);
  if (*verify_) return run_verify(c1_, seal_, vk_, out_, quiet);
  if (*r1cs_) return run_r1cs(sector_size_, shape_, digest_, row_, quiet);
  if (*bench_porep_) return run_bench_porep(sector_size_, params_, partitions_, seed_, dev);
  if (*bench_circuit_) {
    if (what_ != "all" && what_ != "label" && what_ != "inclusion")
      throw Error(ErrorCode::kInvalidArgument, "bench circuit --what takes label, inclusion or all");
    if (reps_ == 0) throw Error(ErrorCode::kInvalidArgument, "bench circuit --reps must be at least 1");
    const unsigned t = dev.threads ? dev.threads : std::max(1u, std::thread::hardware_concurrency());
    if (what_ != "inclusion")
      bench_block(
          "label", [](auto& cs, auto& rng) { label_block(cs, rng); }, reps_, t);
    if (what_ != "label")
      bench_block(
          "inclusion", [](auto& cs, auto& rng) { inclusion_block(cs, rng); }, reps_ * 100, t);
    return 0;
  }
  return std::nullopt;
}

}  // namespace cuzk::cli
