// Native Poseidon hash over BLS12-381's Fr as neptune v11.0.0 computes it for HashType::MerkleTree
// (neptune src/poseidon.rs `Poseidon::hash`): state [domain tag, x_1, …, x_A], the permutation, output
// state element 1. Filecoin's tree R / tree C / column hashes and comm_r are this function.
#pragma once

#include <span>

#include "hash/poseidon_constants.hpp"

namespace cuzk {

/// The Poseidon hash of `preimage` (exactly c.arity elements) with the optimised schedule neptune
/// uses by default (src/poseidon.rs `hash_optimized_static`): the compressed round constants, the
/// pre-sparse matrix and the partial rounds' sparse matrices. Throws Error(kInvalidArgument) when
/// preimage.size() differs from the arity.
Fr poseidon_hash(std::span<const Fr> preimage, const PoseidonConstants& c);

/// The same hash by the plain textbook schedule (neptune src/poseidon_alt.rs `hash_correct`): each
/// round adds its Grain round keys to every element, applies x⁵ to every element (full rounds) or to
/// element 0 (partial rounds), then multiplies by M. A reference for tests; slower. Same errors.
Fr poseidon_hash_reference(std::span<const Fr> preimage, const PoseidonConstants& c);

/// x⁵ (neptune src/lib.rs `quintic_s_box` without round keys).
inline Fr poseidon_quintic(const Fr& x) {
  Fr x2 = x.sqr();
  return x2.sqr() * x;
}

}  // namespace cuzk
