// Merkle inclusion (proof of retrievability): rust-fil-proofs storage-proofs-core src/gadgets/por.rs
// (`PoRCircuit::synthesize`, `SubPath::synthesize`). For every level, base levels first, then the sub
// level, then the top level: log2(arity) index bits (AllocatedBit, LSB first), arity − 1 sibling
// AllocatedNums (no constraint), `insert` of the current node, and the level hash. Then all index bits
// are packed into public inputs (one input: ≤ 254 bits) and the computed root is enforced equal to
// the given root. POREP_CIRCUIT.md §2 "Inclusion gadget".
#pragma once

#include <bit>
#include <span>
#include <vector>

#include "circuits/insertion.hpp"
#include "circuits/multipack.hpp"

namespace cuzk::circuits {

/// The shape of a Merkle tree's authentication path (rust-fil-proofs MerkleTreeWrapper<_, _, U, V, W>):
/// base_levels levels of arity base_arity, then one level of sub_arity and one of top_arity when
/// those are non-zero (a top level needs a sub level). Arities are powers of two.
struct TreeShape {
  uint32_t base_arity = 2;
  uint32_t base_levels = 0;
  uint32_t sub_arity = 0;
  uint32_t top_arity = 0;

  size_t levels() const { return base_levels + (sub_arity ? 1 : 0) + (top_arity ? 1 : 0); }
  /// The arity of level `i` (0 = the leaves' level).
  uint32_t arity(size_t i) const {
    return i < base_levels ? base_arity : i == base_levels && sub_arity ? sub_arity : top_arity;
  }
  /// Leaves of a full tree of this shape.
  uint64_t leaves() const {
    uint64_t n = 1;
    for (size_t i = 0; i < levels(); i++) n *= arity(i);
    return n;
  }
};

/// One level of an opening: the arity − 1 siblings (values) and the position of the current node
/// among the arity children (rust-fil-proofs `PathElement`: hashes, index).
struct PathLevel {
  std::vector<Fr> siblings;
  uint32_t index = 0;
};

/// Checks that `path` fits `shape` (witness modes); throws Error(kInvalidArgument) naming the level.
inline void check_path(const TreeShape& shape, std::span<const PathLevel> path) {
  if (path.size() != shape.levels())
    throw Error(ErrorCode::kInvalidArgument, "Merkle path has " + std::to_string(path.size()) +
                                                 " levels; the tree has " + std::to_string(shape.levels()));
  for (size_t i = 0; i < path.size(); i++) {
    if (path[i].siblings.size() + 1 != shape.arity(i) || path[i].index >= shape.arity(i))
      throw Error(ErrorCode::kInvalidArgument, "Merkle path level " + std::to_string(i) + ": " +
                                                   std::to_string(path[i].siblings.size()) +
                                                   " siblings and index " + std::to_string(path[i].index) +
                                                   " for arity " + std::to_string(shape.arity(i)));
  }
}

/// Ascends `shape` from `leaf` and returns the computed root and the index bits (por.rs
/// `SubPath::synthesize` for base, sub and top). `Hasher::hash(cs, children, level)` is the level
/// hash (Filecoin's `hash_multi_leaf_circuit`). `path` (witness modes) holds the siblings and
/// indices; the blank modes pass an empty span.
template <class Hasher, class CS>
AllocatedNum merkle_root(CS& cs, const TreeShape& shape, std::span<const PathLevel> path,
                         const AllocatedNum& leaf, std::vector<Boolean>& index_bits) {
  if constexpr (CS::kValues) check_path(shape, path);
  AllocatedNum cur = leaf;
  std::vector<Boolean> bits;
  std::vector<AllocatedNum> siblings;
  for (size_t level = 0; level < shape.levels(); level++) {
    const uint32_t arity = shape.arity(level);
    const int nbits = std::countr_zero(arity);
    const PathLevel* pl = CS::kValues ? &path[level] : nullptr;
    bits.clear();
    for (int j = 0; j < nbits; j++)
      bits.push_back(Boolean::is(AllocatedBit::alloc(cs, pl ? ((pl->index >> j) & 1) != 0 : false)));
    index_bits.insert(index_bits.end(), bits.begin(), bits.end());
    siblings.clear();
    for (uint32_t k = 0; k + 1 < arity; k++)
      siblings.push_back(AllocatedNum::alloc(cs, [&] { return pl->siblings[k]; }));
    std::vector<AllocatedNum> children =
        insert(cs, cur, std::span<const Boolean>(bits), std::span<const AllocatedNum>(siblings));
    cur = Hasher::hash(cs, std::span<const AllocatedNum>(children), level);
  }
  return cur;
}

/// Inclusion of `leaf` under `root`, both already allocated and the root private (rust-fil-proofs
/// storage-proofs-porep stacked/circuit/params.rs `enforce_inclusion`: PoRCircuit with Root::Var and
/// private = true): the levels, pack_into_inputs of the index bits (the node index as one public
/// input), then computed · ONE = root. Levels + 2 constraints. Returns the computed root (its value in
/// the value modes: unequal to root's when the path does not lead there, and the witness then satisfies
/// no proof).
template <class Hasher, class CS>
AllocatedNum enforce_inclusion(CS& cs, const TreeShape& shape, std::span<const PathLevel> path,
                               const AllocatedNum& leaf, const AllocatedNum& root) {
  std::vector<Boolean> index_bits;
  AllocatedNum computed = merkle_root<Hasher>(cs, shape, path, leaf, index_bits);
  pack_into_inputs(cs, std::span<const Boolean>(index_bits));
  enforce_equal(cs, computed, root);
  return computed;
}

/// The stand-alone PoR circuit of upstream's tests (storage-proofs-core tests/por_circuit.rs):
/// alloc the leaf value, the levels, pack_into_inputs, alloc the root, the equality and, unless
/// `private_root`, inputize the root.
template <class Hasher, class CS>
void por_circuit(CS& cs, const TreeShape& shape, std::span<const PathLevel> path, const Fr& leaf_value,
                 const Fr& root_value, bool private_root) {
  AllocatedNum leaf = AllocatedNum::alloc(cs, leaf_value);
  std::vector<Boolean> index_bits;
  AllocatedNum computed = merkle_root<Hasher>(cs, shape, path, leaf, index_bits);
  pack_into_inputs(cs, std::span<const Boolean>(index_bits));
  AllocatedNum root = AllocatedNum::alloc(cs, root_value);
  enforce_equal(cs, computed, root);
  if (!private_root) inputize(cs, root);
}

}  // namespace cuzk::circuits
