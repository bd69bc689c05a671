// Merkle inclusion with the index bits and the siblings allocated by the caller (rust-fil-proofs
// storage-proofs-core src/gadgets/por.rs `por_no_challenge_input`): no public input, no allocation but
// the insertions' and hashes' own. Used by the SnapDeals circuit, whose challenge bits come from a
// Poseidon digest and whose siblings are allocated before each inclusion.
#pragma once

#include <span>
#include <vector>

#include "circuits/insertion.hpp"
#include "circuits/por.hpp"

namespace cuzk::circuits {

/// Ascends `shape` from `leaf`: per level (base levels, then sub, then top) the next log2(arity) of
/// `bits` (least significant first) place the current node among that level's siblings (`insert`),
/// and `Hasher::hash` hashes the children; then computed · ONE = root. `path[i]` holds level i's
/// arity − 1 allocated siblings. Levels × (insert + hash) + 1 constraints. Throws
/// Error(kInvalidArgument) when path's levels or sibling counts differ from the shape or bits does
/// not hold exactly the shape's index bits (upstream's asserts).
template <class Hasher, class CS>
void por_no_challenge_input(CS& cs, const TreeShape& shape, std::span<const Boolean> bits,
                            const AllocatedNum& leaf, std::span<const std::vector<AllocatedNum>> path,
                            const AllocatedNum& root) {
  if (path.size() != shape.levels())
    throw Error(ErrorCode::kInvalidArgument, "por_no_challenge_input: " + std::to_string(path.size()) +
                                                 " path levels for a tree of " +
                                                 std::to_string(shape.levels()));
  AllocatedNum cur = leaf;
  size_t at = 0;
  for (size_t level = 0; level < shape.levels(); level++) {
    const uint32_t arity = shape.arity(level);
    const size_t nbits = (size_t)std::countr_zero(arity);
    if (path[level].size() + 1 != arity)
      throw Error(ErrorCode::kInvalidArgument, "por_no_challenge_input: level " + std::to_string(level) +
                                                   " has " + std::to_string(path[level].size()) +
                                                   " siblings for arity " + std::to_string(arity));
    if (at + nbits > bits.size())
      throw Error(ErrorCode::kInvalidArgument, "por_no_challenge_input: " + std::to_string(bits.size()) +
                                                   " index bits are too few for the tree");
    std::vector<AllocatedNum> children =
        insert(cs, cur, bits.subspan(at, nbits), std::span<const AllocatedNum>(path[level]));
    at += nbits;
    cur = Hasher::hash(cs, std::span<const AllocatedNum>(children), level);
  }
  if (at != bits.size())
    throw Error(ErrorCode::kInvalidArgument, "por_no_challenge_input: " + std::to_string(bits.size()) +
                                                 " index bits for a tree of " + std::to_string(at));
  enforce_equal(cs, cur, root);
}

}  // namespace cuzk::circuits
