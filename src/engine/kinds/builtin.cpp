#include "engine/kinds/builtin.hpp"

namespace cuzk::engine {

std::vector<std::unique_ptr<ProofKind>> builtin_kinds() {
  std::vector<std::unique_ptr<ProofKind>> kinds;
  kinds.push_back(witness_kind("CIRCOM_GROTH16", "circom"));
  kinds.push_back(witness_kind("BELLPERSON_GROTH16", "bellperson"));
  kinds.push_back(porep_kind());
  kinds.push_back(snap_kind());
  kinds.push_back(post_kind(false));
  kinds.push_back(post_kind(true));
  return kinds;
}

}  // namespace cuzk::engine
