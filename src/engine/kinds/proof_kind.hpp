// A proof kind: what a request of the kind carries (its bytes), the circuits that prove it with their
// parameter files, the checks made at submit from the bytes alone, and the job the request becomes.
// The daemon and the farm's claimers reach every kind through ProofKinds (proof_kinds.hpp); the
// service keeps only the wire. The CLI's `porep`/`snap`/`post prove` use the kind itself (its check, job
// and loader: tools/kind_prove.hpp). A new kind is one file in this folder and one line in builtin.cpp.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "engine/job.hpp"
#include "engine/registry.hpp"
#include "formats/params.hpp"

namespace cuzk::engine {

/// A request's fields as bytes, whatever the wire (they carry cuzk.v1 SubmitProofRequest's names): each
/// kind reads the fields it takes, and its check refuses the ones it does not. The spans must outlive
/// ProofKind::job's call (not the job: the kinds copy or parse what they keep).
struct ProofRequest {
  std::string circuit_id;                                ///< circom / bellperson: the registered circuit
  std::vector<std::span<const uint8_t>> witnesses;       ///< circom / bellperson: one .wtns per partition
  std::span<const uint8_t> vanilla_proof;                ///< PoRep: the C1 output (JSON or Curio's envelope)
  std::vector<std::span<const uint8_t>> vanilla_proofs;  ///< SnapDeals: partition proofs; PoSt: sector proofs
  uint64_t registered_proof = 0;  ///< the kind's registered proof id (seal, update or PoSt)
  uint64_t sector_size = 0;       ///< bytes; 0 = unset
  uint64_t sector_number = 0;     ///< PoRep: an envelope's SectorNum must agree; 0 = unset
  std::span<const uint8_t> comm_r_old, comm_r_new, comm_d_new;  ///< SnapDeals: 32 bytes each
  std::span<const uint8_t> randomness;                          ///< PoSt: 32 bytes
  uint64_t miner_id = 0;                                        ///< PoSt
  uint64_t partition_index = 0;                                 ///< WindowPoSt
};

/// One circuit a kind serves: its id in the circuit registry, its parameter file and how errors name it.
struct KindCircuit {
  std::string id;           ///< cuzk's id, e.g. "porep-32g", "snap-2k", "wpost-32g"
  std::string params_file;  ///< Filecoin's file name in srs.param_cache, e.g. "v28-stacked-….params"
  std::string label;        ///< e.g. "32GiB PoRep", "2KiB SnapDeals", "<shape name> PoSt"
};

/// Calls `read` with the caller's .params read options (the daemon's: the subgroup check setting and, in
/// CUDA builds with a GPU, a point decoder that lives for the call) and returns its result. `rows` are the
/// compact rows of the circuit the key is read for when they are known before the read (every kind's
/// loader passes them; nullptr otherwise), so that what needs only the circuit is checked before the
/// key's long read (the CLI refuses there a --vk made for another circuit).
using ParamsReading = std::function<LoadedCircuit(
    const CompactCs* rows, const std::function<LoadedCircuit(const ParamsReadOptions&)>& read)>;

/// One proof kind (see the file comment). Implementations are stateless and thread-safe.
class ProofKind {
 public:
  virtual ~ProofKind() = default;

  /// The kind's name: JobRequest::kind and cuzk.v1's ProofKind name, e.g. "POREP_SEAL_COMMIT".
  virtual std::string_view name() const = 0;

  /// The CircuitRegistry kind of its circuits: "porep", "snap", "post", "circom" or "bellperson".
  virtual std::string_view circuit_kind() const = 0;

  /// The circuits it serves, with their parameter files; empty for the kinds whose circuits are
  /// configured one by one (circom, bellperson: the daemon's [[circuits]]).
  virtual std::vector<KindCircuit> circuits() const { return {}; }

  /// The loader of circuit `id` (one of circuits()) from the key at `params`, read with `reading`: it
  /// records the circuit on `threads` threads (0 = every hardware thread) and checks the key against it.
  /// Throws Error(kInvalidArgument) for an id the kind does not serve.
  virtual CircuitLoader loader(const std::string& id, const std::filesystem::path& params,
                               const ParamsReading& reading, unsigned threads) const;

  /// Refuses a request that leaves out a field the kind needs or sets one it does not take:
  /// Error(kInvalidArgument) naming them. Cheap: parses nothing.
  virtual void check(const ProofRequest& r) const = 0;

  /// The job of `r`: everything verifiable from its bytes is checked (the kind's file comment says
  /// what), and the result has circuit_id, kind and the partitions (request_id, priority, deadline left
  /// to the caller). Does not register the circuit (ProofKinds::job does). Throws Error(kInvalidArgument
  /// or kInvalidFile) naming the field and the problem.
  virtual JobRequest job(const ProofRequest& r) const = 0;
};

}  // namespace cuzk::engine
