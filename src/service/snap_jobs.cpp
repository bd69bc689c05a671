#include "service/snap_jobs.hpp"

#include <cctype>
#include <memory>

#include "engine/update.hpp"
#include "formats/update_vanilla.hpp"
#include "groth16/prover.hpp"
#include "hash/fr32.hpp"
#include "util/error.hpp"
#include "util/thread_pool.hpp"

namespace cuzk::service {
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

}  // namespace

SnapJobs::SnapJobs(engine::CircuitRegistry& circuits, Options options)
    : circuits_(circuits), o_(std::move(options)) {
  if (!o_.reading) throw Error(ErrorCode::kInvalidArgument, "SnapJobs: no .params reading function");
}

std::filesystem::path SnapJobs::params_path(const std::string& sector_size) const {
  return o_.param_cache / (engine::update_param_stem(sector_size) + ".params");
}

std::vector<std::string> SnapJobs::register_present() {
  std::vector<std::string> ids;
  if (o_.param_cache.empty()) return ids;
  for (const std::string& size : engine::update_sector_sizes())
    if (std::filesystem::is_regular_file(params_path(size))) ids.push_back(ensure_circuit(size));
  return ids;
}

std::string SnapJobs::ensure_circuit(const std::string& size) {
  const std::string id = circuit_id(size);
  std::lock_guard lk(mu_);
  if (circuits_.contains(id)) return id;
  const std::string file = engine::update_param_stem(size) + ".params";
  if (o_.param_cache.empty())
    throw Error(ErrorCode::kIo, "srs.param_cache is not set: the daemon has no parameters for the " + size +
                                    " SnapDeals circuit (" + file + ")");
  const std::filesystem::path path = params_path(size);
  if (!std::filesystem::is_regular_file(path))
    throw Error(ErrorCode::kIo, path.string() + ": no such file: the " + size +
                                    " SnapDeals parameters are missing from srs.param_cache");
  circuits_.add(id, "snap", [size, path, reading = o_.reading, threads = o_.threads] {
    ThreadPool pool(threads);
    auto rows = std::make_shared<const CompactCs>(engine::update_compact_cs(size, pool));
    return reading([&](const ParamsReadOptions& opt) {
      ParamsReadOptions o = opt;
      if (!o.pool && !o.threads) o.pool = &pool;
      o.rows = rows.get();  // what the vectors to release are planned with
      engine::LoadedCircuit out;
      out.key = std::make_shared<const ProvingKey>(read_params(path, o));
      check_key_fits(*out.key, *rows, path.string() + " and the " + size + " SnapDeals circuit");
      out.rows = rows;
      return out;
    });
  });
  return id;
}

engine::JobRequest SnapJobs::job(const std::vector<std::span<const uint8_t>>& vanilla_proofs,
                                 uint64_t registered_proof, uint64_t sector_size,
                                 std::span<const uint8_t> comm_r_old, std::span<const uint8_t> comm_r_new,
                                 std::span<const uint8_t> comm_d_new) {
  static const char* kSizes[] = {"2KiB", "8MiB", "512MiB", "32GiB", "64GiB"};  // RegisteredUpdateProof
  if (registered_proof > 4)
    throw Error(ErrorCode::kInvalidArgument, "registered_proof " + std::to_string(registered_proof) +
                                                 " is not a RegisteredUpdateProof (0..4)");
  const circuits::UpdateShape shape = circuits::update_shape(kSizes[registered_proof]);
  if (sector_size != 0 && sector_size != shape.sector_nodes * 32)
    throw Error(ErrorCode::kInvalidArgument, "sector_size " + std::to_string(sector_size) +
                                                 " disagrees with registered_proof " +
                                                 std::to_string(registered_proof) + " (" + shape.name + ")");
  UpdateCommitments comms;
  comms.comm_r_old = commitment(comm_r_old, "comm_r_old");
  comms.comm_r_new = commitment(comm_r_new, "comm_r_new");
  comms.comm_d_new = commitment(comm_d_new, "comm_d_new");
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
  engine::JobRequest jr;
  jr.circuit_id = ensure_circuit(shape.name);
  jr.kind = "SNAP_DEALS_UPDATE";
  for (uint32_t k = 0; k < parts->size(); k++) {
    engine::WitnessInput in;
    // The leased circuit's compact rows (the loader's): a, b, c are left to the backend.
    in.assign = [parts, shape, comms, h, k](const engine::LoadedCircuit& leased, ThreadPool& pool) {
      return engine::update_partition_assignment(leased.rows, shape, k, h, comms, (*parts)[k], pool);
    };
    jr.partitions.push_back(std::move(in));
  }
  return jr;
}

}  // namespace cuzk::service
