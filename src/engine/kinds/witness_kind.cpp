// CIRCOM_GROTH16 and BELLPERSON_GROTH16: a circuit registered from the daemon's [[circuits]] (a snarkjs
// .zkey, or a bellperson .params with its .r1cs) and one .wtns v2 file per partition, decoded by a
// synthesis worker (so a corrupt witness fails its own job there).
#include <memory>

#include "engine/kinds/builtin.hpp"
#include "util/error.hpp"

namespace cuzk::engine {
namespace {

class WitnessKind final : public ProofKind {
 public:
  WitnessKind(std::string name, std::string circuit_kind)
      : name_(std::move(name)), circuit_kind_(std::move(circuit_kind)) {}

  std::string_view name() const override { return name_; }
  std::string_view circuit_kind() const override { return circuit_kind_; }

  void check(const ProofRequest& r) const override {
    if (r.circuit_id.empty()) throw Error(ErrorCode::kInvalidArgument, "circuit_id is empty");
    if (r.witnesses.empty())
      throw Error(ErrorCode::kInvalidArgument, "no witness: give one .wtns per partition in witnesses");
  }

  /// circuit_id and one partition per witness (its bytes copied); nothing is parsed here.
  JobRequest job(const ProofRequest& r) const override {
    JobRequest jr;
    jr.circuit_id = r.circuit_id;
    jr.kind = name_;
    for (std::span<const uint8_t> w : r.witnesses)
      jr.partitions.push_back({{}, nullptr, std::vector<uint8_t>(w.begin(), w.end()), {}});
    return jr;
  }

 private:
  std::string name_, circuit_kind_;
};

}  // namespace

std::unique_ptr<ProofKind> witness_kind(std::string name, std::string circuit_kind) {
  return std::make_unique<WitnessKind>(std::move(name), std::move(circuit_kind));
}

}  // namespace cuzk::engine
