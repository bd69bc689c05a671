// WINDOW_POST_PARTITION (cuzk.v1 proof kind 3) and WINNING_POST (4), what rust-filecoin-proofs-api's
// generate_single_window_post_with_vanilla and generate_winning_post_with_vanilla compute. The request's
// fields (registered_proof = filecoin-ffi's RegisteredPoStProof id, vanilla_proofs = one bincode
// FallbackPoStSectorProof per sector, randomness, miner_id, partition_index) are parsed and the vanilla
// proofs verified when the job is made (engine::parse_post_request), so a bad one is refused at once; the
// circuit of the registered proof is "winning-<size>" or "wpost-<size>" (engine::post_circuit_id) with the
// key found by Filecoin's file name (post_param_stem). The answer is the partition's 192-byte proof,
// verified by the engine.
#include <algorithm>
#include <memory>

#include "engine/kinds/builtin.hpp"
#include "engine/post.hpp"
#include "util/error.hpp"
#include "util/thread_pool.hpp"

namespace cuzk::engine {
namespace {

class PostKind final : public ProofKind {
 public:
  explicit PostKind(bool winning) : winning_(winning) {}

  std::string_view name() const override { return winning_ ? "WINNING_POST" : "WINDOW_POST_PARTITION"; }
  std::string_view circuit_kind() const override { return "post"; }

  /// One per shape of the kind's registered proofs, in id order (V1 and V1_2 window proofs share one).
  std::vector<KindCircuit> circuits() const override {
    std::vector<KindCircuit> out;
    for (const RegisteredPostProof& p : proofs()) {
      const std::string id = post_circuit_id(p);
      if (std::none_of(out.begin(), out.end(), [&](const KindCircuit& c) { return c.id == id; }))
        out.push_back({id, post_param_stem(p.shape()) + ".params", p.shape().name + " PoSt"});
    }
    return out;
  }

  CircuitLoader loader(const std::string& id, const std::filesystem::path& params,
                       const ParamsReading& reading, unsigned threads) const override {
    for (const RegisteredPostProof& p : proofs())
      if (post_circuit_id(p) == id)
        return [shape = p.shape(), path = params, reading, threads] {
          ThreadPool pool(threads);
          const std::shared_ptr<const PostCircuit> circuit = post_circuit(shape, pool);
          return reading(circuit->rows.get(), [&](const ParamsReadOptions& opt) {
            ParamsReadOptions o = opt;
            if (!o.pool && !o.threads) o.pool = &pool;
            return load_post(path, circuit, o);
          });
        };
    return ProofKind::loader(id, params, reading, threads);
  }

  void check(const ProofRequest& r) const override {
    if (!r.circuit_id.empty() || !r.witnesses.empty() || !r.vanilla_proof.empty())
      throw Error(ErrorCode::kInvalidArgument,
                  "a PoSt job takes one bincode FallbackPoStSectorProof per sector in vanilla_proofs, not "
                  "vanilla_proof, circuit_id or witnesses");
  }

  /// Errors name the problem: a registered proof of the other PoSt type or unknown, a bad vanilla proof
  /// ("vanilla_proofs[i]: byte …" or "vanilla proof i (sector n), challenge c: …"), bad randomness.
  JobRequest job(const ProofRequest& r) const override {
    const std::string kind(name());
    const RegisteredPostProof& p = registered_post_proof_by_id(r.registered_proof);
    if ((p.type == circuits::PostType::kWinning) != winning_)
      throw Error(ErrorCode::kInvalidArgument,
                  kind + ": registered_proof " + std::to_string(r.registered_proof) + " is " +
                      std::string(p.name) +
                      (winning_ ? " (WindowPoSt ids are 5..14)" : " (WinningPoSt ids are 0..4)"));
    std::vector<std::vector<uint8_t>> vanilla;
    for (std::span<const uint8_t> v : r.vanilla_proofs) vanilla.emplace_back(v.begin(), v.end());
    auto parsed = std::make_shared<const PostRequest>(
        parse_post_request(r.registered_proof, vanilla, r.randomness, r.miner_id, r.partition_index));
    JobRequest jr;
    jr.circuit_id = post_circuit_id(p);
    jr.kind = kind;
    jr.partitions = post_job_partitions(parsed);
    return jr;
  }

 private:
  /// The registered PoSt proofs of this kind's type, in id order.
  std::vector<RegisteredPostProof> proofs() const {
    std::vector<RegisteredPostProof> out;
    for (const RegisteredPostProof& p : registered_post_proofs())
      if ((p.type == circuits::PostType::kWinning) == winning_) out.push_back(p);
    return out;
  }

  bool winning_;
};

}  // namespace

std::unique_ptr<ProofKind> post_kind(bool winning) { return std::make_unique<PostKind>(winning); }

}  // namespace cuzk::engine
