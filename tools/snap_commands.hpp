// The Filecoin SnapDeals (empty-sector update) subcommands of the `cuzk` CLI, registered by one call:
//   cuzk snap fake --sector-size 2KiB [--seed S] [--update-h H] [--uniform] vanilla.json   a fake update
//   cuzk snap setup --sector-size 2KiB [--seed S] DIR|out.params         TESTING-ONLY key (+ .vk)
//   cuzk snap prove --vanilla vanilla.json --update update.json --params FILE [--vk FILE] proof.bin
//   cuzk snap verify --update update.json --vk FILE proof.bin
//   cuzk snap r1cs --sector-size 32GiB                                   the circuit's counts
//   cuzk bench snap --sector-size 32GiB [--partitions N]                 fake update stage by stage
// `snap prove` goes through the SNAP_DEALS_UPDATE kind (engine/kinds), as the daemon's jobs do: Filecoin's
// sizes (2KiB, 8MiB, 512MiB, 32GiB, 64GiB) and h (the size's default) only.
// vanilla.json is a JSON array of the partitions' proofs, each the standard base64 of its bincode bytes
// (Curio's cuzk-bench format; formats/update_vanilla.hpp); update.json holds {"sector_size", "h",
// "comm_r_old", "comm_d_new", "comm_r_new"} with the commitments as 64 hex digits of their 32 bytes.
#pragma once

#include <CLI/CLI.hpp>
#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "backend_select.hpp"

namespace cuzk::cli {

/// What a SNAP_DEALS_UPDATE request carries, read from `snap fake`'s files (`cuzk client --snap`).
struct SnapJobFiles {
  std::vector<std::vector<uint8_t>> vanilla_proofs;  ///< each partition's bincode bytes (base64-decoded)
  uint64_t registered_proof = 0;                     ///< RegisteredUpdateProof: 0 = 2 KiB … 4 = 64 GiB
  uint64_t sector_size = 0;                          ///< bytes
  std::array<uint8_t, 32> comm_r_old{}, comm_r_new{}, comm_d_new{};
};
/// Reads vanilla.json (a JSON array of base64 strings, sent as they decode; not parsed further, so that
/// the kind's own checks answer: the daemon's, or `snap prove`'s) and update.json (sector size and
/// commitments; its h must be the size's default, the only one a request proves with). Throws
/// Error(kInvalidFile) naming the file and the problem; Error(kInvalidArgument) for a size without
/// Filecoin SnapDeals parameters.
SnapJobFiles read_snap_job_files(const std::string& vanilla_json, const std::string& update_json);

/// Registers `snap …` on `app` and `snap` on `bench`.
class SnapCommands {
 public:
  /// `add_device_options(cmd, true)` adds --device, --devices, --g2 and --gpu-mem-budget to a subcommand
  /// that proves, `(cmd, false)` --device and --devices to one that sets up.
  SnapCommands(CLI::App& app, CLI::App& bench,
               const std::function<void(CLI::App*, bool)>& add_device_options);
  /// Runs the chosen subcommand: nullopt when none of these was chosen, else the exit code (0, or 1 for
  /// a proof that does not verify). Errors are thrown as cuzk::Error (the caller maps them to exit codes).
  std::optional<int> run(const DeviceChoice& dev, bool quiet);

 private:
  CLI::App *snap_ = nullptr, *fake_ = nullptr, *setup_ = nullptr, *prove_ = nullptr, *verify_ = nullptr,
           *r1cs_ = nullptr, *bench_ = nullptr;
  std::string sector_size_, vanilla_, update_, params_, vk_, out_;
  unsigned partitions_ = 0;
  uint64_t seed_ = 1;
  uint32_t h_ = 0;
  bool no_subgroup_check_ = false, uniform_ = false;
};

}  // namespace cuzk::cli
