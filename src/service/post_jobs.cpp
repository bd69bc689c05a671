#include "service/post_jobs.hpp"

#include <algorithm>
#include <memory>

#include "engine/post.hpp"
#include "util/error.hpp"
#include "util/thread_pool.hpp"

namespace cuzk::service {

PostJobs::PostJobs(engine::CircuitRegistry& circuits, Options options)
    : circuits_(circuits), o_(std::move(options)) {
  if (!o_.reading) throw Error(ErrorCode::kInvalidArgument, "PostJobs: no .params reading function");
}

std::filesystem::path PostJobs::params_path(const RegisteredPostProof& proof) const {
  return o_.param_cache / (post_param_stem(proof.shape()) + ".params");
}

std::vector<std::string> PostJobs::register_present() {
  std::vector<std::string> ids;
  if (o_.param_cache.empty()) return ids;
  for (const RegisteredPostProof& p : registered_post_proofs()) {
    const std::string id = engine::post_circuit_id(p);
    if (std::find(ids.begin(), ids.end(), id) == ids.end() &&
        std::filesystem::is_regular_file(params_path(p)))
      ids.push_back(ensure_circuit(p));
  }
  return ids;
}

std::string PostJobs::ensure_circuit(const RegisteredPostProof& proof) {
  const std::string id = engine::post_circuit_id(proof);
  std::lock_guard lk(mu_);
  if (circuits_.contains(id)) return id;
  const circuits::PostShape shape = proof.shape();
  const std::string file = post_param_stem(shape) + ".params";
  if (o_.param_cache.empty())
    throw Error(ErrorCode::kIo, "srs.param_cache is not set: the daemon has no parameters for the " +
                                    shape.name + " PoSt circuit (" + file + ")");
  const std::filesystem::path path = params_path(proof);
  if (!std::filesystem::is_regular_file(path))
    throw Error(ErrorCode::kIo, path.string() + ": no such file: the " + shape.name +
                                    " PoSt parameters are missing from srs.param_cache");
  circuits_.add(id, "post", [shape, path, reading = o_.reading, threads = o_.threads] {
    ThreadPool pool(threads);
    const std::shared_ptr<const engine::PostCircuit> circuit = engine::post_circuit(shape, pool);
    return reading([&](const ParamsReadOptions& opt) {
      ParamsReadOptions o = opt;
      if (!o.pool && !o.threads) o.pool = &pool;
      return engine::load_post(path, circuit, o);
    });
  });
  return id;
}

std::optional<RegisteredPostProof> PostJobs::proof_of(const std::string& circuit_id) {
  for (const RegisteredPostProof& p : registered_post_proofs())
    if (engine::post_circuit_id(p) == circuit_id) return p;
  return std::nullopt;
}

engine::JobRequest PostJobs::job(bool winning, uint64_t registered_proof,
                                 const std::vector<std::vector<uint8_t>>& vanilla_proofs,
                                 std::span<const uint8_t> randomness, uint64_t miner_id,
                                 uint64_t partition_index) {
  const char* kind = winning ? "WINNING_POST" : "WINDOW_POST_PARTITION";
  const RegisteredPostProof& p = registered_post_proof_by_id(registered_proof);
  if ((p.type == circuits::PostType::kWinning) != winning)
    throw Error(ErrorCode::kInvalidArgument,
                std::string(kind) + ": registered_proof " + std::to_string(registered_proof) + " is " +
                    std::string(p.name) +
                    (winning ? " (WindowPoSt ids are 5..14)" : " (WinningPoSt ids are 0..4)"));
  auto r = std::make_shared<const engine::PostRequest>(
      engine::parse_post_request(registered_proof, vanilla_proofs, randomness, miner_id, partition_index));
  engine::JobRequest jr;
  jr.circuit_id = ensure_circuit(p);
  jr.kind = kind;
  jr.partitions = engine::post_job_partitions(r);
  return jr;
}

}  // namespace cuzk::service
