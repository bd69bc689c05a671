// The daemon's PoSt jobs: WINDOW_POST_PARTITION (cuzk.v1 proof kind 3) and WINNING_POST (4), what
// rust-filecoin-proofs-api's generate_single_window_post_with_vanilla and
// generate_winning_post_with_vanilla compute. The request's fields (registered_proof = filecoin-ffi's
// RegisteredPoStProof id, vanilla_proofs = one bincode FallbackPoStSectorProof per sector, randomness,
// miner_id, partition_index) are parsed and the vanilla proofs verified when the job is submitted
// (engine::parse_post_request), so a bad one is refused at once; the circuit of the registered proof is
// registered in the engine's registry as "winning-<size>" or "wpost-<size>" (engine::post_circuit_id)
// with the key found in srs.param_cache by Filecoin's file name (engine::post_param_stem), loaded on
// first use, shared by jobs and evictable like any circuit. The answer is the partition's 192-byte
// proof, verified by the engine.
#pragma once

#include <cstdint>
#include <filesystem>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "engine/job.hpp"
#include "engine/registry.hpp"
#include "formats/post_vanilla.hpp"
#include "service/porep_jobs.hpp"

namespace cuzk::service {

/// PoSt jobs for one engine's registry. Thread-safe.
class PostJobs {
 public:
  /// Where the parameters are and how they are read (as PorepJobs::Options).
  using Options = PorepJobs::Options;

  /// Registers nothing yet (see register_present). `circuits` must outlive this object.
  PostJobs(engine::CircuitRegistry& circuits, Options options);

  /// The .params file of a registered PoSt proof: param_cache / (post_param_stem + ".params").
  std::filesystem::path params_path(const RegisteredPostProof& proof) const;

  /// Registers the circuit of every PoSt shape whose .params file is in param_cache (not loaded).
  /// Returns their ids.
  std::vector<std::string> register_present();

  /// The circuit id of `proof`, registered now if it was not (its loader records the circuit with
  /// engine::post_circuit and reads the key with engine::load_post). Throws Error(kIo) naming the path
  /// when srs.param_cache is unset or lacks the .params file.
  std::string ensure_circuit(const RegisteredPostProof& proof);

  /// The registered PoSt proof of a PoSt circuit id ("wpost-32g" → a 32 GiB window proof), nullopt for
  /// any other id.
  static std::optional<RegisteredPostProof> proof_of(const std::string& circuit_id);

  /// The job of one SubmitProofRequest of kind WINDOW_POST_PARTITION (`winning` false) or WINNING_POST
  /// (`winning` true). Returns a request with circuit_id, kind and the one partition (request_id and
  /// priority left to the caller). Throws Error(kInvalidArgument) naming the problem: a registered
  /// proof of the other PoSt type or unknown, a bad vanilla proof ("vanilla_proofs[i]: byte …" or
  /// "vanilla proof i (sector n), challenge c: …"), bad randomness; Error(kIo) from ensure_circuit when
  /// the parameters are missing.
  engine::JobRequest job(bool winning, uint64_t registered_proof,
                         const std::vector<std::vector<uint8_t>>& vanilla_proofs,
                         std::span<const uint8_t> randomness, uint64_t miner_id, uint64_t partition_index);

 private:
  engine::CircuitRegistry& circuits_;
  Options o_;
  std::mutex mu_;  // serializes registration
};

}  // namespace cuzk::service
