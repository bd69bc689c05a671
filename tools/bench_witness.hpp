// `cuzk bench witness`: the PoRep witness alone (circuits::stacked_witness), partition by partition,
// with the time of each round and of each kind of block:
//   cuzk bench witness --sector-size 32GiB [--c1 FILE] [--seed S] [--threads N] [--reps R]
//                      [--partitions P] [--into] [--plain-alloc] [--estimate T]
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <optional>
#include <string>

namespace cuzk::cli {

/// Registers `witness` on `bench`.
class BenchWitness {
 public:
  explicit BenchWitness(CLI::App& bench);
  /// Runs it when chosen: nullopt otherwise, else the exit code (0). `threads` is the CLI's --threads
  /// (0 = all). Errors are thrown as cuzk::Error.
  std::optional<int> run(unsigned threads);

 private:
  CLI::App* cmd_ = nullptr;
  std::string sector_size_, c1_;
  uint64_t seed_ = 1;
  unsigned reps_ = 3, partitions_ = 1, estimate_ = 16;
  bool into_ = false, plain_ = false;
};

}  // namespace cuzk::cli
