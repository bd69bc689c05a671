#include "engine/post.hpp"

#include <algorithm>
#include <map>
#include <memory>
#include <mutex>

#include "circuits/cs.hpp"
#include "groth16/prover.hpp"
#include "hash/fr32.hpp"
#include "util/error.hpp"

namespace cuzk::engine {

std::shared_ptr<const PostCircuit> post_circuit(const circuits::PostShape& shape, ThreadPool& pool) {
  static std::mutex mu;
  static std::map<std::string, std::weak_ptr<const PostCircuit>> cache;
  // Keyed by the identifier (sizes and counts), so that test shapes of one name cannot collide.
  std::lock_guard<std::mutex> lock(mu);
  auto& slot = cache[shape.identifier() + " " + std::to_string(shape.tree_r.base_arity) + "-" +
                     std::to_string(shape.tree_r.sub_arity) + "-" + std::to_string(shape.tree_r.top_arity)];
  if (auto held = slot.lock()) return held;
  auto c = std::make_shared<PostCircuit>();
  c->shape = shape;
  c->rows = std::make_shared<const CompactCs>(circuits::fallback_post_compact_cs(shape, pool));
  std::shared_ptr<const PostCircuit> out = std::move(c);
  slot = out;
  return out;
}

std::string post_circuit_id(const RegisteredPostProof& proof) {
  static const std::map<std::string_view, std::string_view> sizes = {
      {"2KiB", "2k"}, {"8MiB", "8m"}, {"512MiB", "512m"}, {"32GiB", "32g"}, {"64GiB", "64g"}};
  const std::string prefix = proof.type == circuits::PostType::kWinning ? "winning-" : "wpost-";
  return prefix + std::string(sizes.at(proof.size));
}

PostRequest parse_post_request(uint64_t registered_proof,
                               const std::vector<std::vector<uint8_t>>& vanilla_proofs,
                               std::span<const uint8_t> randomness, uint64_t miner_id,
                               uint64_t partition_index, ThreadPool* pool) {
  PostRequest r;
  r.proof = registered_post_proof_by_id(registered_proof);
  if (randomness.size() != 32)
    throw Error(ErrorCode::kInvalidArgument,
                "randomness: " + std::to_string(randomness.size()) + " bytes; PoSt randomness is 32");
  std::copy(randomness.begin(), randomness.end(), r.randomness.begin());
  Fr check;
  if (!fr_from_bytes(r.randomness.data(), check))
    throw Error(ErrorCode::kInvalidArgument, "randomness: not a field element (≥ r; byte 31 must be < 0x74)");
  if (vanilla_proofs.empty()) throw Error(ErrorCode::kInvalidArgument, "vanilla_proofs: none given");
  const circuits::TreeShape tree = r.proof.shape().tree_r;
  for (size_t i = 0; i < vanilla_proofs.size(); i++) {
    try {
      r.vanilla.push_back(
          read_post_vanilla_proof(vanilla_proofs[i], tree, "vanilla_proofs[" + std::to_string(i) + "]"));
    } catch (const Error& e) {
      throw Error(ErrorCode::kInvalidArgument, e.what());
    }
  }
  r.miner_id = miner_id;
  r.partition = partition_index;
  // A full WindowPoSt partition's checks take seconds on one core: spread them when there are many.
  std::unique_ptr<ThreadPool> local;
  if (!pool && r.vanilla.size() >= 64) pool = (local = std::make_unique<ThreadPool>()).get();
  r.circuit_input = post_partition(r.proof, r.vanilla, r.randomness, r.partition, pool);
  return r;
}

std::vector<Fr> post_public_inputs(const PostRequest& r) {
  std::vector<circuits::PostPublicSector> sectors;
  for (const PostVanillaProof& v : r.vanilla) sectors.push_back({v.sector_id, v.comm_r});
  if (r.proof.type == circuits::PostType::kWinning) {
    if (sectors.size() != 1)
      throw Error(ErrorCode::kInvalidArgument,
                  std::to_string(sectors.size()) + " vanilla proofs; WinningPoSt takes 1");
    sectors = circuits::winning_post_public_sectors(r.proof.shape(), sectors[0]);
  }
  return circuits::fallback_post_public_inputs(r.proof.shape(), r.proof.api, r.randomness, sectors,
                                               r.partition);
}

Assignment post_assignment(const PostRequest& r, const std::shared_ptr<const PostCircuit>& circuit,
                           ThreadPool& pool) {
  const circuits::PostShape shape = r.proof.shape();
  if (circuit->shape.identifier() != shape.identifier())
    throw Error(ErrorCode::kInternal,
                "the circuit " + circuit->shape.name + " is not the " + shape.name + " circuit");
  const CompactCs& rows = *circuit->rows;
  Assignment asg;
  asg.log_n = rows.log_n;
  asg.inputs.resize(rows.n_inputs);
  asg.aux.vec().resize(rows.n_aux);  // BigVector: default-initialized, every value written below
  circuits::fallback_post_witness_into(shape, r.circuit_input.witness, pool, asg.inputs, asg.aux.vec());
  const std::vector<Fr> want = post_public_inputs(r);
  if (want.size() + 1 != asg.inputs.size() || !std::equal(want.begin(), want.end(), asg.inputs.begin() + 1))
    throw Error(ErrorCode::kInternal, shape.name + " partition " + std::to_string(r.partition) +
                                          ": the circuit's public inputs differ from those computed from the "
                                          "sectors' ids, comm_r and the randomness");
  asg.a_aux = rows.a_aux;
  asg.b_inp = rows.b_inp;
  asg.b_aux = rows.b_aux;
  asg.rows = std::shared_ptr<const CompactCs>(circuit, circuit->rows.get());
  return asg;
}

LoadedCircuit load_post(const std::filesystem::path& params,
                        const std::shared_ptr<const PostCircuit>& circuit, const ParamsReadOptions& options) {
  ParamsReadOptions o = options;
  o.rows = circuit->rows.get();  // what the vectors to release are planned with
  auto key = std::make_shared<const ProvingKey>(read_params(params, o));
  check_key_fits(*key, *circuit->rows, params.string() + " and the " + circuit->shape.name + " PoSt circuit");
  LoadedCircuit out;
  out.key = key;
  out.rows = std::shared_ptr<const CompactCs>(circuit, circuit->rows.get());
  return out;
}

std::vector<WitnessInput> post_job_partitions(std::shared_ptr<const PostRequest> r) {
  std::vector<WitnessInput> out(1);
  out[0].assign = [r](const LoadedCircuit& leased, ThreadPool& pool) {
    // The leased circuit holds its PostCircuit (load_post), so this finds it rather than recording one.
    const std::shared_ptr<const PostCircuit> circuit = post_circuit(r->proof.shape(), pool);
    if (circuit->rows != leased.rows)
      throw Error(ErrorCode::kInternal, "the circuit is not the " + circuit->shape.name +
                                            " PoSt circuit (register it with load_post)");
    return post_assignment(*r, circuit, pool);
  };
  return out;
}

}  // namespace cuzk::engine
