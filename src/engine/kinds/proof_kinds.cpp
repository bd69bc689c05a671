#include "engine/kinds/proof_kinds.hpp"

#include "util/error.hpp"

namespace cuzk::engine {

ProofKinds::ProofKinds(CircuitRegistry& circuits, Options options,
                       std::vector<std::unique_ptr<ProofKind>> kinds)
    : circuits_(circuits), o_(std::move(options)), kinds_(std::move(kinds)) {
  if (!o_.reading) throw Error(ErrorCode::kInvalidArgument, "ProofKinds: no .params reading function");
  for (size_t i = 0; i < kinds_.size(); i++)
    for (size_t j = 0; j < i; j++)
      if (kinds_[i]->name() == kinds_[j]->name())
        throw Error(ErrorCode::kInvalidArgument,
                    "ProofKinds: two kinds named " + std::string(kinds_[i]->name()));
}

const ProofKind* ProofKinds::find(std::string_view name) const {
  for (const auto& k : kinds_)
    if (k->name() == name) return k.get();
  return nullptr;
}

std::vector<std::string> ProofKinds::register_present(const ProofKind& kind) {
  std::vector<std::string> ids;
  if (o_.param_cache.empty()) return ids;
  for (const KindCircuit& c : kind.circuits())
    if (std::filesystem::is_regular_file(o_.param_cache / c.params_file)) ids.push_back(ensure(kind, c));
  return ids;
}

bool ProofKinds::ensure_circuit(const std::string& id) {
  for (const auto& k : kinds_)
    for (const KindCircuit& c : k->circuits())
      if (c.id == id) {
        ensure(*k, c);
        return true;
      }
  return false;
}

JobRequest ProofKinds::job(std::string_view kind, const ProofRequest& request) {
  const ProofKind* k = find(kind);
  if (!k) throw Error(ErrorCode::kInvalidArgument, "no proof kind " + std::string(kind));
  k->check(request);
  JobRequest jr = k->job(request);
  for (const KindCircuit& c : k->circuits())
    if (c.id == jr.circuit_id) ensure(*k, c);
  return jr;
}

std::string ProofKinds::ensure(const ProofKind& kind, const KindCircuit& c) {
  std::lock_guard lk(mu_);
  if (circuits_.contains(c.id)) return c.id;
  if (o_.param_cache.empty())
    throw Error(ErrorCode::kIo, "srs.param_cache is not set: the daemon has no parameters for the " +
                                    c.label + " circuit (" + c.params_file + ")");
  const std::filesystem::path path = o_.param_cache / c.params_file;
  if (!std::filesystem::is_regular_file(path))
    throw Error(ErrorCode::kIo, path.string() + ": no such file: the " + c.label +
                                    " parameters are missing from srs.param_cache");
  circuits_.add(c.id, std::string(kind.circuit_kind()), kind.loader(c.id, path, o_.reading, o_.threads));
  return c.id;
}

}  // namespace cuzk::engine
