// How the daemon returns proofs (README "Daemon"): AwaitProofResponse.proof holds every partition's
// proof in the zcash/bellperson encoding (A compressed 48 bytes, B 96, C 48 = 192 bytes, REFERENCE.md §6),
// concatenated in partition order, as Filecoin does; circom jobs also get snarkjs's proof.json and
// public.json text per partition.
#pragma once

#include <cstdint>
#include <vector>

#include "groth16/key.hpp"

namespace cuzk::service {

/// Bytes of one proof in the zcash encoding.
inline constexpr size_t kZcashProofBytes = 192;

/// The proofs in the zcash encoding, concatenated.
std::vector<uint8_t> zcash_proofs(const std::vector<Groth16Proof>& proofs);

/// Decodes concatenated zcash proofs (a multiple of 192 bytes). Throws Error(kInvalidEncoding).
std::vector<Groth16Proof> zcash_proofs_from_bytes(const uint8_t* data, size_t len);

}  // namespace cuzk::service
