// What `porep prove`, `snap prove` and `post prove` share: the request a command builds from the user's
// files goes through its proof kind (engine/kinds: the checks, the circuit and the partitions of the
// daemon's and the farm's jobs), then every partition of the job is proved on the chosen device, verified,
// and the proofs are written. The commands keep what is the CLI's own: their files, the output checks
// (cli_checks.hpp) before any work, the device, the key's subgroup check and --vk.
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "backend_select.hpp"
#include "engine/job.hpp"
#include "engine/kinds/proof_kind.hpp"
#include "util/error.hpp"

namespace cuzk::cli {

/// A request field whose bytes the command read from a file, so that errors name the file.
struct FieldFile {
  std::string field;  ///< the ProofRequest field as the kind's messages name it, e.g. "vanilla_proof"
  std::string file;   ///< the file the field's bytes came from
};

/// `e` with its message naming the user's files: one that begins with a field of `files` followed by ':'
/// or '[' begins with the file instead ("vanilla_proof: comm_r …" → "c1.json: comm_r …",
/// "vanilla_proofs[2]: …" → "v.json: [2]: …"); any other is prefixed with "<fallback>: ". The code is kept.
Error naming_files(const Error& e, const std::vector<FieldFile>& files, const std::string& fallback);

/// The job of `r` by `kind`: its check, then its job (everything verifiable from the request's bytes is
/// checked there, before any key is read). A kind's Error is rethrown as naming_files(e, files, fallback).
engine::JobRequest kind_job(const engine::ProofKind& kind, const engine::ProofRequest& r,
                            const std::vector<FieldFile>& files, const std::string& fallback);

/// How prove_job reads the key, proves and writes.
struct ProveJobOptions {
  std::string params;            ///< the circuit's .params
  std::string vk;                ///< verify with this .vk; empty: with the key's own
  std::string out;               ///< where the proofs go (checked by the caller before any work)
  bool subgroup_check = true;    ///< check that every point of the key is in its subgroup
  DeviceChoice dev;              ///< the proving device, and the key's point decoder
  bool quiet = false;            ///< no progress or summary lines
  std::vector<FieldFile> files;  ///< as kind_job's: a partition's errors name these files
  std::string fallback;          ///< as kind_job's: the file other errors are named after
  std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();  ///< the command's start
};

/// Proves every partition of `job` (kind_job's of `kind`) and writes their 192-byte proofs, concatenated
/// in partition order, to o.out. The circuit of job.circuit_id is loaded by the kind's loader from
/// o.params, read with read_params_on's options (with_params_options_on); a o.vk made for another circuit
/// is refused before the key is read (Error(kInvalidArgument), check_vk_inputs). Partition k + 1's witness
/// is made on the CPU while partition k proves, and every proof is verified with o.vk (else the key's own)
/// before anything is written: Error(kUnsatisfied) naming the partition otherwise. A partition's error
/// (its synthesis, its proof) names it, and one of the input (kInvalidArgument, kInvalidEncoding,
/// kInvalidFile, kUnsatisfied) is rethrown as naming_files(e, o.files, o.fallback). Unless
/// o.quiet, a line per partition on stderr and a summary on stdout. Returns 0; throws the loader's and the
/// backend's errors.
int prove_job(const engine::ProofKind& kind, const engine::JobRequest& job, const ProveJobOptions& o);

}  // namespace cuzk::cli
