#include "porep_commands.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <random>
#include <thread>
#include <vector>

#include "circuits/stacked.hpp"
#include "util/error.hpp"

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

}  // namespace

PorepCommands::PorepCommands(CLI::App& app, CLI::App& bench) {
  porep_ = app.add_subcommand("porep", "Filecoin PoRep commit phase 2 (the StackedCircuit)");
  porep_->require_subcommand(1);
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
  for (CLI::App* sub : {porep_, r1cs_, bench_circuit_}) sub->fallthrough();
}

std::optional<int> PorepCommands::run(unsigned threads, bool quiet) {
  if (*r1cs_) return run_r1cs(sector_size_, shape_, digest_, row_, quiet);
  if (*bench_circuit_) {
    if (what_ != "all" && what_ != "label" && what_ != "inclusion")
      throw Error(ErrorCode::kInvalidArgument, "bench circuit --what takes label, inclusion or all");
    if (reps_ == 0) throw Error(ErrorCode::kInvalidArgument, "bench circuit --reps must be at least 1");
    const unsigned t = threads ? threads : std::max(1u, std::thread::hardware_concurrency());
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
