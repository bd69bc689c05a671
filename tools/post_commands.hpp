// The Filecoin fallback PoSt subcommands of the `cuzk` CLI (WinningPoSt and WindowPoSt), registered by
// one call. A request file holds what cuzk.v1's SubmitProofRequest carries for a PoSt partition:
//   {"registered_proof": 0..14 or a name, "randomness": "<64 hex digits>", "miner_id": N,
//    "partition_index": K, "vanilla_proofs": ["sector-0.bin", …]}   (paths relative to the request;
//    each file is one sector's bincode FallbackPoStSectorProof, as filecoin-ffi and Curio pass it, or
//    its serde JSON when the name ends in .json)
//   cuzk post fake --registered-proof ID [--sectors N] [--partition K] [--seed S] [--json] DIR
//   cuzk post setup --registered-proof ID [--seed S] DIR|out.params   testing key (Filecoin's file name)
//   cuzk post prove --request FILE --params FILE [--vk FILE] proof.bin   verified before it is written
//   cuzk post verify --request FILE --vk FILE proof.bin                  exit 0 valid, 1 invalid
//   cuzk post r1cs --registered-proof ID                                 the circuit's counts
//   cuzk bench post --registered-proof ID [--sectors N] [--reps R]       fake partition stage by stage
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "backend_select.hpp"

namespace cuzk::cli {

/// The raw fields of a request file (the header's format), as SubmitProofRequest carries them.
struct PostRequestFile {
  uint64_t registered_proof = 0;  ///< filecoin-ffi's RegisteredPoStProof id
  bool winning = false;  ///< a WinningPoSt proof (ids 0..4): WINNING_POST, else WINDOW_POST_PARTITION
  std::vector<std::vector<uint8_t>> vanilla_proofs;  ///< the files' bytes, in the request's order
  std::vector<std::string> vanilla_files;            ///< their paths (relative to the request's folder)
  std::vector<uint8_t> randomness;
  uint64_t miner_id = 0, partition_index = 0;
};

/// Reads a request file and the vanilla proof files it names (relative to its folder); a .json vanilla
/// proof (serde JSON) is read and re-encoded as bincode. Only the request's JSON and such JSON proofs
/// are checked here (the bincode, the challenges and the randomness are the prover's to check): throws
/// Error(kInvalidFile) "<path>: <field>: <problem>", Error(kIo) for a file that cannot be read.
PostRequestFile read_post_request_file(const std::string& path);

/// Registers `post …` on `app` and `post` on `bench`.
class PostCommands {
 public:
  /// `add_device_options(cmd, true)` adds --device, --devices, --g2 and --gpu-mem-budget to a subcommand
  /// that proves, `(cmd, false)` --device and --devices to one that sets up.
  PostCommands(CLI::App& app, CLI::App& bench,
               const std::function<void(CLI::App*, bool)>& add_device_options);
  /// Runs the chosen subcommand: nullopt when none of these was chosen, else the exit code (0, or 1
  /// for a proof that does not verify). Errors are thrown as cuzk::Error.
  std::optional<int> run(const DeviceChoice& dev, bool quiet);

 private:
  CLI::App *post_ = nullptr, *fake_ = nullptr, *setup_ = nullptr, *prove_ = nullptr, *verify_ = nullptr,
           *r1cs_ = nullptr, *bench_ = nullptr;
  std::string registered_proof_, request_, params_, vk_, out_;
  unsigned reps_ = 3;
  bool no_subgroup_check_ = false, json_ = false;
  size_t sectors_ = 0, partition_ = 0;
  uint64_t seed_ = 1;
};

}  // namespace cuzk::cli
