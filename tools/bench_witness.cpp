#include "bench_witness.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <vector>

#include "bench_common.hpp"
#include "circuits/stacked.hpp"
#include "cli_checks.hpp"
#include "formats/atomic_file.hpp"
#include "formats/c1.hpp"
#include "formats/fake_c1.hpp"
#include "util/error.hpp"
#include "util/thread_pool.hpp"

namespace cuzk::cli {

namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

using Times = circuits::StackedWitnessTimes;

// The time of T threads from one run's block times: per round at least the work over T and at least
// the longest block (the lower bound), at most their sum (list scheduling, Graham's bound); the top
// level and the allocation as measured.
void print_estimate(const Times& t, unsigned threads) {
  struct Round {
    const char* name;
    std::vector<const Times::Blocks*> blocks;
  };
  const Round rounds[] = {{"round 1 (columns, challenge bits)", {&t.column, &t.challenge_bits}},
                          {"round 2 (tree D, labels)", {&t.tree_d, &t.label1, &t.label}},
                          {"round 3 (encoding, c_x)", {&t.encoding, &t.c_x}}};
  double lo = t.alloc + t.top, hi = lo, work = 0;
  for (const Round& r : rounds) {
    double sum = 0, longest = 0;
    for (const Times::Blocks* b : r.blocks) {
      sum += b->total;
      longest = std::max(longest, b->max);
    }
    work += sum;
    lo += std::max(sum / threads, longest);
    hi += sum / threads + longest;
    std::printf("  %-36s work %7.3f s, longest block %6.3f s -> on %u threads %6.3f .. %6.3f s\n", r.name,
                sum, longest, threads, std::max(sum / threads, longest), sum / threads + longest);
  }
  std::printf(
      "  estimate on %u threads (from these block times, plus allocation %.3f s and top %.3f s as measured "
      "here): %.3f .. %.3f s; all blocks %.3f s of work\n",
      threads, t.alloc, t.top, lo, hi, work);
}

void print_blocks(const Times& t) {
  const std::pair<const char*, const Times::Blocks*> kinds[] = {
      {"tree D (data leaf + SHA-256 inclusion)", &t.tree_d},
      {"parent column (rows, hash, tree C)", &t.column},
      {"challenge bits", &t.challenge_bits},
      {"label, layer 1", &t.label1},
      {"label, layers 2..", &t.label},
      {"encoding in tree R", &t.encoding},
      {"c_x in tree C", &t.c_x}};
  for (auto& [name, b] : kinds)
    if (b->count)
      std::printf("  %-40s %4zu blocks: total %8.3f s, mean %7.4f s, longest %7.4f s\n", name, b->count,
                  b->total, b->total / (double)b->count, b->max);
}

}  // namespace

BenchWitness::BenchWitness(CLI::App& bench) {
  cmd_ = bench.add_subcommand(
      "witness", "The PoRep witness of a (fake) C1, partition by partition, round and block times");
  cmd_->add_option("--sector-size", sector_size_, "2KiB, 8MiB, 512MiB, 32GiB or 64GiB (a fake sector)");
  cmd_->add_option("--c1", c1_, "Read this C1 output instead of making a fake sector")
      ->check(CLI::ExistingFile);
  cmd_->add_option("--seed", seed_, "Fake sector seed")->capture_default_str()->check(cli::unsigned64());
  cmd_->add_option("--reps", reps_, "Timed repetitions per partition, after one warm-up")
      ->capture_default_str();
  cmd_->add_option("--partitions", partitions_, "Time the first N partitions (0 = all)")
      ->capture_default_str();
  cmd_->add_flag("--into", into_,
                 "Also time stacked_witness_into one reused, uninitialized buffer (no std::vector fill)");
  cmd_->add_flag("--plain-alloc", plain_,
                 "Also time a plain std::vector<Fr>(n) (one thread, faults included) against the allocation");
  cmd_->add_option("--estimate", estimate_, "Estimate the time on this many threads from the block times")
      ->capture_default_str();
  cmd_->fallthrough();
}

std::optional<int> BenchWitness::run(unsigned threads) {
  if (!*cmd_) return std::nullopt;
  if (sector_size_.empty() == c1_.empty())
    throw Error(ErrorCode::kInvalidArgument, "bench witness takes one of --sector-size and --c1");
  if (reps_ == 0 || estimate_ == 0)
    throw Error(ErrorCode::kInvalidArgument, "bench witness: --reps and --estimate must be at least 1");
  ThreadPool pool(threads);
  auto t0 = std::chrono::steady_clock::now();
  C1Output c1;
  if (c1_.empty()) {
    c1 = make_fake_sector("StackedDrg" + sector_size_ + "V1_1", seed_, &pool).c1;
  } else {
    const std::vector<uint8_t> bytes = read_file_bytes(c1_);
    c1 = read_c1(bytes, c1_);
  }
  const double t_c1 = seconds_since(t0);
  const circuits::StackedShape shape = shape_of(c1);
  t0 = std::chrono::steady_clock::now();
  const circuits::StackedLayout layout = circuits::stacked_layout(shape);
  const double t_layout = seconds_since(t0);
  const size_t n_vals = size_t{layout.n_inputs} + layout.n_aux;
  const size_t parts =
      partitions_ ? std::min<size_t>(partitions_, c1.vanilla_proofs.size()) : c1.vanilla_proofs.size();
  std::printf(
      "%s: C1 (%s) %.2f s; layout %.2f s; %zu values (%.2f GB) per partition; %zu of %zu partitions x %u "
      "reps after a warm-up, on %u threads\n",
      shape.name.c_str(), c1_.empty() ? "fake sector" : c1_.c_str(), t_c1, t_layout, n_vals,
      (double)n_vals * sizeof(Fr) / 1e9, parts, c1.vanilla_proofs.size(), reps_, pool.size());
  std::unique_ptr<Fr[]> buffer;  // --into: default-initialized, i.e. not written before the first run
  if (into_) buffer.reset(new Fr[n_vals]);
  std::vector<double> total, extract, into, plain;
  std::vector<Times> runs;
  for (size_t k = 0; k < parts; k++) {
    for (unsigned r = 0; r <= reps_; r++) {
      t0 = std::chrono::steady_clock::now();
      const circuits::StackedWitness w = partition_witness(c1, k, shape);
      const double t_extract = seconds_since(t0);
      Times t;
      t0 = std::chrono::steady_clock::now();
      std::vector<Fr> full = circuits::stacked_witness(shape, w, layout, pool, &t);
      const double t_all = seconds_since(t0);
      t0 = std::chrono::steady_clock::now();
      std::vector<Fr>().swap(full);
      const double t_free = seconds_since(t0);
      double t_plain = 0;  // what stacked_witness's allocation was: value-initialized on one thread
      if (plain_) {
        t0 = std::chrono::steady_clock::now();
        std::vector<Fr> v(n_vals);
        t_plain = seconds_since(t0);
      }
      double t_into = 0;
      if (into_) {
        t0 = std::chrono::steady_clock::now();
        circuits::stacked_witness_into(shape, w, layout, pool, {buffer.get(), n_vals});
        t_into = seconds_since(t0);
      }
      std::printf(
          "partition %zu %s: %.3f s (allocation %.3f, top %.3f, round 1 %.3f, round 2 %.3f, round 3 %.3f); "
          "C1 extraction %.3f s, free %.3f s%s%s\n",
          k, r == 0 ? "warm-up" : ("rep " + std::to_string(r)).c_str(), t_all, t.alloc, t.top, t.columns,
          t.labels, t.phase_c, t_extract, t_free,
          plain_ ? (", std::vector<Fr>(n) " + std::to_string(t_plain) + " s").c_str() : "",
          into_ ? (", into a buffer " + std::to_string(t_into) + " s").c_str() : "");
      if (r == 0) continue;
      total.push_back(t_all);
      extract.push_back(t_extract);
      if (into_) into.push_back(t_into);
      if (plain_) plain.push_back(t_plain);
      runs.push_back(t);
    }
  }
  auto med = [&](double Times::*f) {
    std::vector<double> v;
    for (const Times& t : runs) v.push_back(t.*f);
    return median(v);
  };
  std::printf(
      "%s witness per partition (%zu runs): median %.3f s, min %.3f s; medians: allocation %.3f, top %.3f, "
      "round 1 %.3f, round 2 %.3f, round 3 %.3f s; C1 extraction %.3f s",
      shape.name.c_str(), total.size(), median(total), *std::min_element(total.begin(), total.end()),
      med(&Times::alloc), med(&Times::top), med(&Times::columns), med(&Times::labels), med(&Times::phase_c),
      median(extract));
  if (into_) std::printf("; into a buffer: median %.3f s", median(into));
  if (plain_) std::printf("; std::vector<Fr>(n): median %.3f s", median(plain));
  std::printf("\n");
  // The blocks of the median run.
  std::vector<size_t> order(runs.size());
  for (size_t i = 0; i < order.size(); i++) order[i] = i;
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return total[a] < total[b]; });
  const Times& mid = runs[order[order.size() / 2]];
  std::printf("blocks of the median run (seconds on one of the %u threads each):\n", pool.size());
  print_blocks(mid);
  print_estimate(mid, estimate_);
  return 0;
}

}  // namespace cuzk::cli
