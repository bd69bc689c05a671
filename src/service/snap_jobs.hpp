// The daemon's SNAP_DEALS_UPDATE jobs (cuzk.v1 proof kind 2): Filecoin's empty-sector update proof of
// one sector from its vanilla partition proofs, what rust-filecoin-proofs-api's
// generate_empty_sector_update_proof_with_vanilla computes. The request's fields are Curio's
// (extern/cuzk/cuzk-core/src/prover.rs `prove_snap_deals`): vanilla_proofs (one bincode PartitionProof
// per partition, formats/update_vanilla.hpp), registered_proof (RegisteredUpdateProof: 0 = 2 KiB,
// 1 = 8 MiB, 2 = 512 MiB, 3 = 32 GiB, 4 = 64 GiB), sector_size, comm_r_old, comm_r_new, comm_d_new
// (32 bytes each). Every partition proof is parsed and checked by the vanilla verifier at submit, so a
// bad one is refused at once; the circuit of the size is registered as "snap-<size>" (snap-2k …
// snap-64g, cuzk's ids) with the key found in srs.param_cache by Filecoin's file name. The answer is
// the partitions' 192-byte proofs in partition order, every one verified by the engine.
#pragma once

#include <cstdint>
#include <filesystem>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "engine/job.hpp"
#include "engine/registry.hpp"
#include "service/porep_jobs.hpp"

namespace cuzk::service {

/// SnapDeals jobs for one engine's registry. Thread-safe.
class SnapJobs {
 public:
  /// Where the parameters are and how they are read (the same as PorepJobs').
  using Options = PorepJobs::Options;

  /// Registers nothing yet (see register_present). `circuits` must outlive this object.
  SnapJobs(engine::CircuitRegistry& circuits, Options options);

  /// The .params file of a sector size: param_cache / (engine::update_param_stem + ".params").
  std::filesystem::path params_path(const std::string& sector_size) const;

  /// Registers the circuit of every sector size whose .params file is in param_cache (not loaded).
  /// Returns their ids.
  std::vector<std::string> register_present();

  /// The circuit id of `sector_size` ("snap-2k" …), registered now if it was not (its loader records
  /// the circuit and reads the key, checked against it). Throws Error(kIo) naming the path when
  /// srs.param_cache is unset or lacks the file, Error(kInvalidArgument) for an unknown size.
  std::string ensure_circuit(const std::string& sector_size);

  /// The job of one SubmitProofRequest (see the file comment): `registered_proof` and `sector_size`
  /// (bytes; 0 = unset) must name the same size. Returns a request with circuit_id, kind
  /// "SNAP_DEALS_UPDATE" and one generated partition per vanilla proof (request_id and priority left
  /// to the caller). Throws Error(kInvalidArgument) naming the field or the partition proof's part,
  /// Error(kIo) from ensure_circuit when the parameters are missing.
  engine::JobRequest job(const std::vector<std::span<const uint8_t>>& vanilla_proofs,
                         uint64_t registered_proof, uint64_t sector_size, std::span<const uint8_t> comm_r_old,
                         std::span<const uint8_t> comm_r_new, std::span<const uint8_t> comm_d_new);

 private:
  engine::CircuitRegistry& circuits_;
  Options o_;
  std::mutex mu_;  // serializes registration
};

}  // namespace cuzk::service
