// 64 Booleans read as an unsigned integer (rust-fil-proofs storage-proofs-core src/gadgets/uint64.rs).
#pragma once

#include <vector>

#include "circuits/multipack.hpp"

namespace cuzk::circuits {

/// An unsigned 64-bit integer as 64 Booleans, least significant first.
struct UInt64 {
  std::vector<Boolean> bits;  ///< 64, LSB first
  uint64_t value = 0;         ///< meaningful for constants and in the witness modes

  /// 64 constant bits.
  static UInt64 constant(uint64_t v) {
    UInt64 u{{}, v};
    for (int i = 0; i < 64; i++) u.bits.push_back(Boolean::constant((v >> i) & 1));
    return u;
  }
  /// 64 AllocatedBits, LSB first, each with its boolean constraint (uint64.rs `alloc`): 64 constraints.
  template <class CS>
  static UInt64 alloc(CS& cs, uint64_t v) {
    UInt64 u{{}, v};
    u.bits.reserve(64);
    for (int i = 0; i < 64; i++) u.bits.push_back(Boolean::is(AllocatedBit::alloc(cs, (v >> i) & 1)));
    return u;
  }
  /// The bits most significant first (free).
  std::vector<Boolean> to_bits_be() const { return {bits.rbegin(), bits.rend()}; }
  /// Exposes the value as one public input (uint64.rs `pack_into_input`): one constraint.
  template <class CS>
  void pack_into_input(CS& cs) const {
    pack_into_inputs(cs, std::span<const Boolean>(bits));
  }
};

}  // namespace cuzk::circuits
