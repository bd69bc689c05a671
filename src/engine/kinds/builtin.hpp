// The proof kinds cuzk knows, one factory per file of this folder, and their list (builtin.cpp).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "engine/kinds/proof_kind.hpp"

namespace cuzk::engine {

/// POREP_SEAL_COMMIT (porep_kind.cpp).
std::unique_ptr<ProofKind> porep_kind();
/// SNAP_DEALS_UPDATE (snap_kind.cpp).
std::unique_ptr<ProofKind> snap_kind();
/// WINNING_POST (`winning`) or WINDOW_POST_PARTITION (post_kind.cpp).
std::unique_ptr<ProofKind> post_kind(bool winning);
/// CIRCOM_GROTH16 or BELLPERSON_GROTH16: a registered circuit and one .wtns per partition
/// (witness_kind.cpp). `name` is the kind's name, `circuit_kind` its circuits' registry kind.
std::unique_ptr<ProofKind> witness_kind(std::string name, std::string circuit_kind);

/// Every kind above, once.
std::vector<std::unique_ptr<ProofKind>> builtin_kinds();

}  // namespace cuzk::engine
