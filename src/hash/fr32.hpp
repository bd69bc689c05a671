// Filecoin's byte conventions for field elements (rust-fil-proofs fr32 and filecoin-hashers
// src/sha256.rs): a node is an Fr's 32-byte little-endian representation, and a SHA-256 digest becomes
// a node by clearing its top two bits (`trim_to_fr32`).
#pragma once

#include <array>
#include <cstdint>
#include <span>

#include "ff/bls12_381.hpp"
#include "hash/sha256.hpp"

namespace cuzk {

/// The 32-byte little-endian representation of x (fr32 `fr_into_bytes`).
std::array<uint8_t, 32> fr_to_bytes(const Fr& x);
/// The Fr whose little-endian representation is `b`; false when it is ≥ r (fr32 `bytes_into_fr`).
bool fr_from_bytes(const uint8_t b[32], Fr& out);
/// A SHA-256 digest as a node: byte 31 &= 0x3f, then read little-endian (always < r).
Fr digest_to_fr(const Sha256::Digest& d);
/// Filecoin's SHA-256 hash of nodes (Sha256Function `hash_multi_leaf` and `hash2`): SHA-256 of the
/// concatenated 32-byte representations, trimmed to a node.
Fr sha256_of_nodes(std::span<const Fr> nodes);

}  // namespace cuzk
