// POREP_SEAL_COMMIT (cuzk.v1 proof kind 1): Filecoin PoRep commit phase 2 of one C1 output, what
// rust-filecoin-proofs-api's seal_commit_phase2 computes. The C1 (its serde JSON, or Curio's envelope
// around it) is parsed and checked when the job is made (formats/c1.hpp read_c1, the request's
// registered_proof / sector_size / sector_number against it, engine/porep.hpp check_c1_comm_r and
// check_c1_challenges), so a bad one is refused at once; the circuit of its sector size is "porep-<size>"
// (cuzk's ids: porep-2k … porep-64g) with the key found by Filecoin's file name; each partition's witness is
// made from the C1 in a synthesis worker (engine::porep_job_partitions). The answer is the partitions'
// 192-byte proofs, in partition order, every one verified by the engine.
#include <memory>
#include <mutex>

#include "engine/kinds/builtin.hpp"
#include "engine/porep.hpp"
#include "formats/c1.hpp"
#include "util/error.hpp"
#include "util/thread_pool.hpp"

namespace cuzk::engine {
namespace {

class PorepKind final : public ProofKind {
 public:
  std::string_view name() const override { return "POREP_SEAL_COMMIT"; }
  std::string_view circuit_kind() const override { return "porep"; }

  std::vector<KindCircuit> circuits() const override {
    std::vector<KindCircuit> out;
    for (const std::string& size : porep_sector_sizes())
      out.push_back({porep_circuit_id(size), porep_param_stem(size) + ".params", size + " PoRep"});
    return out;
  }

  CircuitLoader loader(const std::string& id, const std::filesystem::path& params,
                       const ParamsReading& reading, unsigned threads) const override {
    for (const std::string& size : porep_sector_sizes())
      if (porep_circuit_id(size) == id)
        return [size, path = params, reading, threads] {
          ThreadPool pool(threads);
          const std::shared_ptr<const PorepCircuit> circuit = porep_circuit(size, pool);
          return reading(circuit->rows.get(), [&](const ParamsReadOptions& opt) {
            ParamsReadOptions o = opt;
            if (!o.pool && !o.threads) o.pool = &pool;
            return load_porep(path, circuit, o);
          });
        };
    return ProofKind::loader(id, params, reading, threads);
  }

  void check(const ProofRequest& r) const override {
    if (!r.circuit_id.empty() || !r.witnesses.empty())
      throw Error(
          ErrorCode::kInvalidArgument,
          "a POREP_SEAL_COMMIT job takes the C1 output in vanilla_proof, not circuit_id or witnesses");
    if (!r.vanilla_proofs.empty())
      throw Error(ErrorCode::kInvalidArgument,
                  "a POREP_SEAL_COMMIT job takes one C1 output in vanilla_proof, not vanilla_proofs");
  }

  /// `vanilla_proof` is the C1 (raw JSON or Curio's envelope); `registered_proof` (abi.RegisteredSealProof,
  /// 0..19) and `sector_size` (bytes) must agree with it, except that both 0 means unset; a non-zero
  /// `sector_number` must agree with an envelope's SectorNum. One generated partition per C1 partition.
  /// Errors name the problem ("vanilla_proof: <JSON path>: …", the challenge that differs, …).
  JobRequest job(const ProofRequest& r) const override {
    const std::span<const uint8_t> vanilla_proof = r.vanilla_proof;
    const uint64_t registered_proof = r.registered_proof, sector_size = r.sector_size,
                   sector_number = r.sector_number;
    if (vanilla_proof.empty())
      throw Error(ErrorCode::kInvalidArgument,
                  "vanilla_proof is empty: a POREP_SEAL_COMMIT job takes the C1 output (its JSON, or Curio's "
                  "envelope)");
    std::shared_ptr<const C1Output> c1;
    {
      // One C1 read at a time, each on its own threads (read_c1 uses up to 8): requests that arrive
      // together are ready one after another instead of all at the end, so the first job's partitions
      // start while the others are read (a batch's ramp, docs/PERFORMANCE.md §34).
      std::lock_guard lock(read_mu_);
      c1 = std::make_shared<const C1Output>(read_c1(vanilla_proof, "vanilla_proof"));
    }
    const RegisteredSealProof& rp = c1->registered_proof;
    const std::string theirs = "the C1's registered proof " + std::string(rp.name) + " (id " +
                               std::to_string(rp.id) + ", " + std::to_string(rp.sector_size) +
                               "-byte sectors)";
    if (sector_size != 0 && sector_size != rp.sector_size)
      throw Error(ErrorCode::kInvalidArgument,
                  "sector_size " + std::to_string(sector_size) + " disagrees with " + theirs);
    if ((registered_proof != 0 || sector_size != 0) && registered_proof != rp.id) {
      std::string name;
      try {
        name = std::string(registered_seal_proof_by_id(registered_proof).name);
      } catch (const Error&) {
        name = "not a registered seal proof (0..19)";
      }
      throw Error(ErrorCode::kInvalidArgument, "registered_proof " + std::to_string(registered_proof) + " (" +
                                                   name + ") disagrees with " + theirs);
    }
    if (c1->envelope && sector_number != 0 && sector_number != c1->envelope->sector_num)
      throw Error(ErrorCode::kInvalidArgument, "sector_number " + std::to_string(sector_number) +
                                                   " disagrees with the envelope's SectorNum " +
                                                   std::to_string(c1->envelope->sector_num));
    check_c1_comm_r(*c1, "vanilla_proof");
    check_c1_challenges(*c1, "vanilla_proof");
    JobRequest jr;
    jr.circuit_id = porep_circuit_id(std::string(rp.size));
    jr.kind = "POREP_SEAL_COMMIT";
    jr.partitions = porep_job_partitions(c1);
    return jr;
  }

 private:
  /// Held while a C1 is read (job).
  mutable std::mutex read_mu_;
};

}  // namespace

std::unique_ptr<ProofKind> porep_kind() { return std::make_unique<PorepKind>(); }

}  // namespace cuzk::engine
