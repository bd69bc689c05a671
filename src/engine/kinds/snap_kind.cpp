// SNAP_DEALS_UPDATE (cuzk.v1 proof kind 2): Filecoin's empty-sector update proof of one sector from its
// vanilla partition proofs, what rust-filecoin-proofs-api's generate_empty_sector_update_proof_with_vanilla
// computes. The request's fields are Curio's (extern/cuzk/cuzk-core/src/prover.rs `prove_snap_deals`):
// vanilla_proofs (one bincode PartitionProof per partition, formats/update_vanilla.hpp), registered_proof
// (RegisteredUpdateProof: 0 = 2 KiB, 1 = 8 MiB, 2 = 512 MiB, 3 = 32 GiB, 4 = 64 GiB), sector_size,
// comm_r_old, comm_r_new, comm_d_new (32 bytes each). Every partition proof is parsed and checked by the
// vanilla verifier when the job is made, so a bad one is refused at once; the circuit of the size is
// "snap-<size>" (snap-2k … snap-64g, cuzk's ids) with the key found by Filecoin's file name. The answer is
// the partitions' 192-byte proofs in partition order, every one verified by the engine.
#include <cctype>
#include <memory>

#include "engine/kinds/builtin.hpp"
#include "engine/update.hpp"
#include "formats/update_vanilla.hpp"
#include "groth16/prover.hpp"
#include "hash/fr32.hpp"
#include "util/error.hpp"
#include "util/thread_pool.hpp"

namespace cuzk::engine {
namespace {

std::string circuit_id(const std::string& size) {
  const circuits::UpdateShape s = circuits::update_shape(size);  // throws for an unknown size
  std::string id = "snap-";
  for (char c : s.name) id += char(std::tolower((unsigned char)c));
  return id.substr(0, id.size() - 2);  // "snap-2kib" → "snap-2k"
}

Fr commitment(std::span<const uint8_t> b, const char* name) {
  if (b.size() != 32)
    throw Error(ErrorCode::kInvalidArgument,
                std::string(name) + ": " + std::to_string(b.size()) + " bytes, expected 32");
  Fr x;
  if (!fr_from_bytes(b.data(), x))
    throw Error(ErrorCode::kInvalidArgument, std::string(name) + ": not a field element (≥ r)");
  return x;
}

class SnapKind final : public ProofKind {
 public:
  std::string_view name() const override { return "SNAP_DEALS_UPDATE"; }
  std::string_view circuit_kind() const override { return "snap"; }

  std::vector<KindCircuit> circuits() const override {
    std::vector<KindCircuit> out;
    for (const std::string& size : update_sector_sizes())
      out.push_back({circuit_id(size), update_param_stem(size) + ".params", size + " SnapDeals"});
    return out;
  }

  CircuitLoader loader(const std::string& id, const std::filesystem::path& params,
                       const ParamsReading& reading, unsigned threads) const override {
    for (const std::string& size : update_sector_sizes())
      if (circuit_id(size) == id)
        return [size, path = params, reading, threads] {
          ThreadPool pool(threads);
          auto rows = std::make_shared<const CompactCs>(update_compact_cs(size, pool));
          return reading(rows.get(), [&](const ParamsReadOptions& opt) {
            ParamsReadOptions o = opt;
            if (!o.pool && !o.threads) o.pool = &pool;
            o.rows = rows.get();  // what the vectors to release are planned with
            LoadedCircuit out;
            out.key = std::make_shared<const ProvingKey>(read_params(path, o));
            check_key_fits(*out.key, *rows, path.string() + " and the " + size + " SnapDeals circuit");
            out.rows = rows;
            return out;
          });
        };
    return ProofKind::loader(id, params, reading, threads);
  }

  void check(const ProofRequest& r) const override {
    if (!r.circuit_id.empty() || !r.witnesses.empty() || !r.vanilla_proof.empty())
      throw Error(ErrorCode::kInvalidArgument,
                  "a SNAP_DEALS_UPDATE job takes one partition proof per element of vanilla_proofs, not "
                  "vanilla_proof, circuit_id or witnesses");
  }

  /// `registered_proof` and `sector_size` (bytes; 0 = unset) must name the same size. One generated
  /// partition per vanilla proof. Errors name the field or the partition proof's part.
  JobRequest job(const ProofRequest& r) const override {
    const std::vector<std::span<const uint8_t>>& vanilla_proofs = r.vanilla_proofs;
    const uint64_t registered_proof = r.registered_proof, sector_size = r.sector_size;
    static const char* kSizes[] = {"2KiB", "8MiB", "512MiB", "32GiB", "64GiB"};  // RegisteredUpdateProof
    if (registered_proof > 4)
      throw Error(ErrorCode::kInvalidArgument, "registered_proof " + std::to_string(registered_proof) +
                                                   " is not a RegisteredUpdateProof (0..4)");
    const circuits::UpdateShape shape = circuits::update_shape(kSizes[registered_proof]);
    if (sector_size != 0 && sector_size != shape.sector_nodes * 32)
      throw Error(ErrorCode::kInvalidArgument,
                  "sector_size " + std::to_string(sector_size) + " disagrees with registered_proof " +
                      std::to_string(registered_proof) + " (" + shape.name + ")");
    UpdateCommitments comms;
    comms.comm_r_old = commitment(r.comm_r_old, "comm_r_old");
    comms.comm_r_new = commitment(r.comm_r_new, "comm_r_new");
    comms.comm_d_new = commitment(r.comm_d_new, "comm_d_new");
    if (vanilla_proofs.size() != shape.partition_count)
      throw Error(ErrorCode::kInvalidArgument, "vanilla_proofs: " + std::to_string(vanilla_proofs.size()) +
                                                   " partition proofs; a " + shape.name + " update has " +
                                                   std::to_string(shape.partition_count));
    const uint32_t h = shape.h_default();
    auto parts = std::make_shared<std::vector<UpdatePartitionProof>>();
    for (uint32_t k = 0; k < vanilla_proofs.size(); k++) {
      const std::string where = "vanilla_proofs[" + std::to_string(k) + "]";
      parts->push_back(read_update_partition_proof(vanilla_proofs[k], shape, where));
      verify_update_partition(shape, k, h, comms, parts->back(), where);
    }
    JobRequest jr;
    jr.circuit_id = circuit_id(shape.name);
    jr.kind = "SNAP_DEALS_UPDATE";
    for (uint32_t k = 0; k < parts->size(); k++) {
      WitnessInput in;
      // The leased circuit's compact rows (the loader's): a, b, c are left to the backend.
      in.assign = [parts, shape, comms, h, k](const LoadedCircuit& leased, ThreadPool& pool) {
        return update_partition_assignment(leased.rows, shape, k, h, comms, (*parts)[k], pool);
      };
      jr.partitions.push_back(std::move(in));
    }
    return jr;
  }
};

}  // namespace

std::unique_ptr<ProofKind> snap_kind() { return std::make_unique<SnapKind>(); }

}  // namespace cuzk::engine
