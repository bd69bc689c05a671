#include "service/porep_jobs.hpp"

#include <memory>

#include "engine/porep.hpp"
#include "formats/c1.hpp"
#include "util/error.hpp"
#include "util/thread_pool.hpp"

namespace cuzk::service {

PorepJobs::PorepJobs(engine::CircuitRegistry& circuits, Options options)
    : circuits_(circuits), o_(std::move(options)) {
  if (!o_.reading) throw Error(ErrorCode::kInvalidArgument, "PorepJobs: no .params reading function");
}

std::filesystem::path PorepJobs::params_path(const std::string& sector_size) const {
  return o_.param_cache / (engine::porep_param_stem(sector_size) + ".params");
}

std::vector<std::string> PorepJobs::register_present() {
  std::vector<std::string> ids;
  if (o_.param_cache.empty()) return ids;
  for (const std::string& size : engine::porep_sector_sizes())
    if (std::filesystem::is_regular_file(params_path(size))) ids.push_back(ensure_circuit(size));
  return ids;
}

std::string PorepJobs::ensure_circuit(const std::string& size) {
  const std::string id = engine::porep_circuit_id(size);
  std::lock_guard lk(mu_);
  if (circuits_.contains(id)) return id;
  const std::string file = engine::porep_param_stem(size) + ".params";
  if (o_.param_cache.empty())
    throw Error(ErrorCode::kIo, "srs.param_cache is not set: the daemon has no parameters for the " + size +
                                    " PoRep circuit (" + file + ")");
  const std::filesystem::path path = params_path(size);
  if (!std::filesystem::is_regular_file(path))
    throw Error(ErrorCode::kIo, path.string() + ": no such file: the " + size +
                                    " PoRep parameters are missing from srs.param_cache");
  circuits_.add(id, "porep", [size, path, reading = o_.reading, threads = o_.threads] {
    ThreadPool pool(threads);
    const std::shared_ptr<const engine::PorepCircuit> circuit = engine::porep_circuit(size, pool);
    return reading([&](const ParamsReadOptions& opt) {
      ParamsReadOptions o = opt;
      if (!o.pool && !o.threads) o.pool = &pool;
      return engine::load_porep(path, circuit, o);
    });
  });
  return id;
}

std::optional<std::string> PorepJobs::sector_size_of(const std::string& circuit_id) {
  for (const std::string& size : engine::porep_sector_sizes())
    if (engine::porep_circuit_id(size) == circuit_id) return size;
  return std::nullopt;
}

engine::JobRequest PorepJobs::job(std::span<const uint8_t> vanilla_proof, uint64_t registered_proof,
                                  uint64_t sector_size, uint64_t sector_number) {
  if (vanilla_proof.empty())
    throw Error(ErrorCode::kInvalidArgument,
                "vanilla_proof is empty: a POREP_SEAL_COMMIT job takes the C1 output (its JSON, or Curio's "
                "envelope)");
  auto c1 = std::make_shared<const C1Output>(read_c1(vanilla_proof, "vanilla_proof"));
  const RegisteredSealProof& rp = c1->registered_proof;
  const std::string theirs = "the C1's registered proof " + std::string(rp.name) + " (id " +
                             std::to_string(rp.id) + ", " + std::to_string(rp.sector_size) + "-byte sectors)";
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
  engine::check_c1_comm_r(*c1, "vanilla_proof");
  engine::check_c1_challenges(*c1, "vanilla_proof");
  engine::JobRequest jr;
  jr.circuit_id = ensure_circuit(std::string(rp.size));
  jr.kind = "POREP_SEAL_COMMIT";
  jr.partitions = engine::porep_job_partitions(c1);
  return jr;
}

}  // namespace cuzk::service
