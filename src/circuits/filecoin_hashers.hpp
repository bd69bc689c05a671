// Filecoin's hash functions as circuits (rust-fil-proofs filecoin-hashers src/sha256.rs and
// src/poseidon.rs, `HashFunction` circuit methods): the level hashes of its Merkle trees and hash2.
#pragma once

#include <span>
#include <vector>

#include "circuits/multipack.hpp"
#include "circuits/poseidon.hpp"
#include "circuits/sha256.hpp"
#include "hash/poseidon_constants.hpp"

namespace cuzk::circuits {

/// Filecoin's SHA-256 digest of `bits` as a field element (sha256.rs `hash_circuit`): SHA-256 of the
/// bits, the digest's bits reversed inside each byte, the first 254 packed (`pack_bits`): the digest
/// bytes read as a little-endian integer with the top two bits cleared (`trim_to_fr32`).
template <class CS>
AllocatedNum sha256_hash_to_fr(CS& cs, std::span<const Boolean> bits) {
  std::vector<Boolean> digest = reverse_bit_numbering(sha256(cs, bits));
  return pack_bits(cs, std::span<const Boolean>(digest).first(kFrCapacity));
}

/// The bits of `x` in SHA-256 byte order (to_bits_le, padded to 256, each byte reversed) appended to
/// `out` (sha256.rs `hash_multi_leaf_circuit` and create_label's parents). 256 constraints.
template <class CS>
void append_fr_bits_sha_order(CS& cs, const AllocatedNum& x, std::vector<Boolean>& out) {
  std::vector<Boolean> b = reverse_bit_numbering(to_bits_le(cs, x));
  out.insert(out.end(), b.begin(), b.end());
}

/// SHA-256 of two bit strings given least-significant bit first within each byte (sha256.rs
/// `hash_leaf_bits_circuit`): each is padded to whole bytes, its bits reversed inside each byte, and
/// the concatenation hashed as `sha256_hash_to_fr` does.
template <class CS>
AllocatedNum sha256_hash_leaf_bits(CS& cs, std::span<const Boolean> left, std::span<const Boolean> right) {
  std::vector<Boolean> msg = reverse_bit_numbering({left.begin(), left.end()});
  std::vector<Boolean> r = reverse_bit_numbering({right.begin(), right.end()});
  msg.insert(msg.end(), r.begin(), r.end());
  return sha256_hash_to_fr(cs, std::span<const Boolean>(msg));
}

/// Tree D's level hash, SHA-256 over the children's 32-byte representations (sha256.rs
/// `hash_multi_leaf_circuit`): every child's bits first, then the hash.
struct Sha256Hasher {
  template <class CS>
  static AllocatedNum hash(CS& cs, std::span<const AllocatedNum> children, size_t /*level*/) {
    std::vector<Boolean> bits;
    bits.reserve(256 * children.size());
    for (const AllocatedNum& c : children) append_fr_bits_sha_order(cs, c, bits);
    return sha256_hash_to_fr(cs, std::span<const Boolean>(bits));
  }
};

/// Trees R and C's level hash, Poseidon of the children with the constants of their arity
/// (poseidon.rs `hash_multi_leaf_circuit` → neptune `poseidon_hash`).
struct PoseidonHasher {
  template <class CS>
  static AllocatedNum hash(CS& cs, std::span<const AllocatedNum> children, size_t /*level*/) {
    return poseidon_hash(cs, children, poseidon_constants((int)children.size()));
  }
};

}  // namespace cuzk::circuits
