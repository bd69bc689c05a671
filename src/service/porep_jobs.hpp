// The daemon's POREP_SEAL_COMMIT jobs (cuzk.v1 proof kind 1): Filecoin PoRep commit phase 2 of one C1
// output, what rust-filecoin-proofs-api's seal_commit_phase2 computes. The C1 (its serde JSON, or Curio's
// envelope around it) is parsed and checked when the job is submitted (formats/c1.hpp read_c1, the
// request's registered_proof / sector_size / sector_number against it, engine/porep.hpp
// check_c1_comm_r and check_c1_challenges), so a bad one is refused at once; the circuit of its sector size
// is registered in the engine's registry as "porep-<size>" (cuzk's ids: porep-2k … porep-64g) with the key
// found in srs.param_cache by Filecoin's file name, loaded on first use, shared by jobs and evictable like
// any circuit; each partition's witness is made from the C1 in a synthesis worker
// (engine::porep_job_partitions). The answer is the partitions' 192-byte proofs, in partition order,
// every one verified by the engine.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "engine/job.hpp"
#include "engine/registry.hpp"
#include "formats/params.hpp"

namespace cuzk::service {

/// Calls `read` with the daemon's .params read options (the subgroup check setting and, in CUDA builds
/// with a GPU, a point decoder that lives for the call) and returns its result.
using ParamsReading = std::function<engine::LoadedCircuit(
    const std::function<engine::LoadedCircuit(const ParamsReadOptions&)>& read)>;

/// PoRep jobs for one engine's registry. Thread-safe.
class PorepJobs {
 public:
  /// Where the parameters are and how they are read.
  struct Options {
    std::filesystem::path param_cache;  ///< srs.param_cache; empty: PoRep jobs are refused
    ParamsReading reading;              ///< how .params files are read (required)
    unsigned threads = 0;               ///< threads recording a circuit's rows; 0 = every hardware thread
  };

  /// Registers nothing yet (see register_present). `circuits` must outlive this object.
  PorepJobs(engine::CircuitRegistry& circuits, Options options);

  /// The .params file of a sector size ("2KiB" … "64GiB"): param_cache / (porep_param_stem + ".params").
  std::filesystem::path params_path(const std::string& sector_size) const;

  /// Registers the circuit of every sector size whose .params file is in param_cache (not loaded: on
  /// first use or PreloadSRS). Returns their ids.
  std::vector<std::string> register_present();

  /// The circuit id of `sector_size`, registered now if it was not (its loader records the circuit with
  /// engine::porep_circuit and reads the key with engine::load_porep). Throws Error(kIo) naming the path
  /// when srs.param_cache is unset or lacks the size's .params file, Error(kInvalidArgument) for an
  /// unknown size.
  std::string ensure_circuit(const std::string& sector_size);

  /// The sector size of a PoRep circuit id ("porep-32g" → "32GiB"), nullopt for any other id.
  static std::optional<std::string> sector_size_of(const std::string& circuit_id);

  /// The job of one SubmitProofRequest: `vanilla_proof` is the C1 (raw JSON or Curio's envelope);
  /// `registered_proof` (abi.RegisteredSealProof, 0..19) and `sector_size` (bytes) must agree with it,
  /// except that both 0 means unset; a non-zero `sector_number` must agree with an envelope's SectorNum.
  /// Returns a request with circuit_id, kind "POREP_SEAL_COMMIT" and one generated partition per C1
  /// partition (request_id and priority left to the caller). Throws Error(kInvalidArgument or
  /// kInvalidFile) naming the problem for a bad request or C1 ("vanilla_proof: <JSON path>: …", the
  /// challenge that differs, …), Error(kIo) from ensure_circuit when the parameters are missing.
  engine::JobRequest job(std::span<const uint8_t> vanilla_proof, uint64_t registered_proof,
                         uint64_t sector_size, uint64_t sector_number);

 private:
  engine::CircuitRegistry& circuits_;
  Options o_;
  std::mutex mu_;  // serializes registration
};

}  // namespace cuzk::service
