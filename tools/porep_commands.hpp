// The Filecoin PoRep subcommands of the `cuzk` CLI, registered by one call:
//   cuzk porep fake-c1 --sector-size 2KiB [--registered-proof NAME] [--seed S] [--envelope N] c1.json
//   cuzk porep prove --c1 c1.json --params FILE [--vk FILE] proof.bin   every partition, verified first
//   cuzk porep verify --c1 c1.json --vk FILE proof.bin                  public inputs from the C1
//   cuzk porep verify --seal seal.json --vk FILE proof.bin              public inputs from the chain data
//   cuzk porep r1cs --sector-size 2KiB | --shape base-8 [--digest] [--row I]   the recorded circuit
//   cuzk bench circuit [--what label|inclusion] [--reps N]                      witness-mode speed
//   cuzk bench porep --sector-size 32GiB [--params FILE]                        C2 stage by stage
// (`cuzk setup --porep SIZE` is in tools/cuzk.cpp with the other setups.)
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "backend_select.hpp"

namespace cuzk::cli {

/// Registers `porep …` on `app` and `circuit`, `porep` on `bench`.
class PorepCommands {
 public:
  /// `add_device_options(cmd, true)` adds --device, --devices, --g2 and --gpu-mem-budget to a subcommand
  /// that proves, `(cmd, false)` --device and --devices to one that sets up.
  PorepCommands(CLI::App& app, CLI::App& bench,
                const std::function<void(CLI::App*, bool)>& add_device_options);
  /// Runs the chosen subcommand: nullopt when none of these was chosen, else the exit code (0, or 1
  /// for a proof that does not verify). Errors are thrown as cuzk::Error (the caller maps them to exit
  /// codes).
  std::optional<int> run(const DeviceChoice& dev, bool quiet);

 private:
  CLI::App *porep_ = nullptr, *r1cs_ = nullptr, *fake_ = nullptr, *prove_ = nullptr, *verify_ = nullptr;
  CLI::App *bench_circuit_ = nullptr, *bench_porep_ = nullptr;
  std::string sector_size_, shape_, what_ = "all", registered_proof_, c1_, params_, vk_, seal_, out_;
  bool digest_ = false, no_subgroup_check_ = false;
  std::optional<uint64_t> row_, envelope_;
  uint64_t seed_ = 1;
  unsigned reps_ = 5, partitions_ = 0;
};

}  // namespace cuzk::cli
