// One SDR label as a circuit (rust-fil-proofs storage-proofs-porep src/stacked/circuit/create_label.rs
// `create_label_circuit`): SHA-256 of replica_id ‖ layer (u32 BE) ‖ node (u64 BE) ‖ zero padding to
// 64 bytes ‖ 37 parents of 32 bytes, packed like Filecoin's SHA-256 hasher. POREP_CIRCUIT.md §3.
#pragma once

#include <span>
#include <vector>

#include "circuits/filecoin_hashers.hpp"
#include "circuits/uint64.hpp"

namespace cuzk::circuits {

/// Parents a label hashes (rust-fil-proofs stacked/vanilla TOTAL_PARENTS).
inline constexpr size_t kLabelParents = 37;

/// The label of `node` in `layer` from the parents' bits (each ≤ 256 bits, in SHA byte order; padded
/// with constant zeros to 256) and the replica id's bits (≤ 256, padded likewise). The message is
/// 39 · 256 bits = 20 SHA-256 blocks; the result is pack_bits of the first 254 byte-reversed digest
/// bits. Throws Error(kInvalidArgument) unless there are 37 parents and 32..256 replica-id bits.
template <class CS>
AllocatedNum create_label(CS& cs, std::span<const Boolean> replica_id,
                          const std::vector<std::vector<Boolean>>& parents, uint32_t layer,
                          const UInt64& node) {
  if (parents.size() != kLabelParents)
    throw Error(ErrorCode::kInvalidArgument,
                "create_label: " + std::to_string(parents.size()) + " parents, not 37");
  if (replica_id.size() < 32 || replica_id.size() > 256)
    throw Error(
        ErrorCode::kInvalidArgument,
        "create_label: replica id of " + std::to_string(replica_id.size()) + " bits (32..256 allowed)");
  std::vector<Boolean> msg(replica_id.begin(), replica_id.end());
  msg.reserve((2 + kLabelParents) * 256);
  while (msg.size() < 256) msg.push_back(Boolean::constant(false));
  for (int i = 31; i >= 0; i--)
    msg.push_back(Boolean::constant((layer >> i) & 1));  // UInt32 constant, BE bits
  const std::vector<Boolean> node_be = node.to_bits_be();
  msg.insert(msg.end(), node_be.begin(), node_be.end());
  while (msg.size() < 512) msg.push_back(Boolean::constant(false));
  for (const std::vector<Boolean>& p : parents) {
    msg.insert(msg.end(), p.begin(), p.end());
    while (msg.size() % 256) msg.push_back(Boolean::constant(false));
  }
  if (msg.size() != (2 + kLabelParents) * 256)
    throw Error(ErrorCode::kInvalidArgument, "create_label: a parent has more than 256 bits");
  return sha256_hash_to_fr(cs, std::span<const Boolean>(msg));
}

}  // namespace cuzk::circuits
