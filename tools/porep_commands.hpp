// The Filecoin PoRep subcommands of the `cuzk` CLI, registered by one call:
//   cuzk porep r1cs --sector-size 2KiB | --shape base-8 [--digest] [--row I]   the recorded circuit
//   cuzk bench circuit [--what label|inclusion] [--reps N]                      witness-mode speed
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <optional>
#include <string>

namespace cuzk::cli {

/// Registers `porep …` on `app` and `circuit` on `bench`.
class PorepCommands {
 public:
  PorepCommands(CLI::App& app, CLI::App& bench);
  /// Runs the chosen subcommand: nullopt when none of these was chosen, else the exit code. Errors are
  /// thrown as cuzk::Error (the caller maps them to exit codes).
  std::optional<int> run(unsigned threads, bool quiet);

 private:
  CLI::App* porep_ = nullptr;
  CLI::App* r1cs_ = nullptr;
  CLI::App* bench_circuit_ = nullptr;
  std::string sector_size_, shape_, what_ = "all";
  bool digest_ = false;
  std::optional<uint64_t> row_;
  unsigned reps_ = 5;
};

}  // namespace cuzk::cli
