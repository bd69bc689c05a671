#include "formats/fake_post.hpp"

#include <random>
#include <unordered_map>

#include "hash/fr32.hpp"
#include "hash/poseidon.hpp"
#include "util/error.hpp"

namespace cuzk {

namespace {

using circuits::PathLevel;
using circuits::TreeShape;

// A Poseidon Merkle tree of `shape` given by its non-zero leaves (all of them for a dense tree): the
// nodes above them, and per level the hash of an all-zero subtree.
class Tree {
 public:
  Tree(const TreeShape& shape, const std::unordered_map<uint64_t, Fr>& leaves) : shape_(shape) {
    levels_.resize(shape.levels() + 1);
    defaults_.assign(shape.levels() + 1, Fr::zero());
    levels_[0] = leaves;
    std::vector<Fr> children;
    for (size_t l = 0; l < shape.levels(); l++) {
      const uint32_t arity = shape.arity(l);
      children.assign(arity, defaults_[l]);
      defaults_[l + 1] = poseidon_hash(children, poseidon_constants((int)arity));
      for (const auto& [i, v] : levels_[l]) {
        const uint64_t parent = i / arity;
        if (levels_[l + 1].count(parent)) continue;
        for (uint32_t k = 0; k < arity; k++) children[k] = node(l, parent * arity + k);
        levels_[l + 1][parent] = poseidon_hash(children, poseidon_constants((int)arity));
      }
    }
  }
  Fr root() const { return node(shape_.levels(), 0); }
  C1MerkleProof proof(uint64_t i) const {
    C1MerkleProof p;
    p.kind = merkle_proof_kind(shape_);
    p.root = root();
    p.leaf = node(0, i);
    for (size_t l = 0; l < shape_.levels(); l++) {
      const uint32_t arity = shape_.arity(l);
      PathLevel pl;
      pl.index = (uint32_t)(i % arity);
      for (uint32_t k = 0; k < arity; k++)
        if (k != pl.index) pl.siblings.push_back(node(l, i - pl.index + k));
      p.path.push_back(std::move(pl));
      i /= arity;
    }
    return p;
  }

 private:
  Fr node(size_t level, uint64_t i) const {
    auto it = levels_[level].find(i);
    return it == levels_[level].end() ? defaults_[level] : it->second;
  }
  TreeShape shape_;
  std::vector<std::unordered_map<uint64_t, Fr>> levels_;
  std::vector<Fr> defaults_;
};

Fr random_fr(std::mt19937_64& rng) {
  uint64_t l[4] = {rng(), rng(), rng(), rng() & 0x0fffffffffffffffULL};
  Fr r;
  Fr::from_canonical(l, r);
  return r;
}

}  // namespace

FakePost make_fake_post(const RegisteredPostProof& proof, size_t sectors, size_t partition, uint64_t seed) {
  const circuits::PostShape shape = proof.shape();
  const bool winning = proof.type == circuits::PostType::kWinning;
  if (sectors == 0 || (winning && (sectors != 1 || partition != 0)) || (!winning && sectors > shape.sectors))
    throw Error(ErrorCode::kInvalidArgument,
                "fake PoSt: " + std::to_string(sectors) + " sectors in partition " +
                    std::to_string(partition) + " of " + std::string(proof.name) +
                    " (WinningPoSt: 1 sector; WindowPoSt: 1 to " +
                    std::to_string(post_shape(circuits::PostType::kWindow, std::string(proof.size)).sectors) +
                    " a partition)");
  std::mt19937_64 rng(seed);
  FakePost f;
  f.proof = proof;
  f.randomness = fr_to_bytes(random_fr(rng));
  f.miner_id = 1000 + rng() % 100000;
  f.partition = partition;
  // Every inclusion proof of a sector's vanilla proof: 66 for WinningPoSt, 10 for WindowPoSt.
  const size_t challenges = winning ? shape.sectors : shape.challenges;
  const bool dense = shape.nodes() <= (uint64_t{1} << 12);
  for (size_t i = 0; i < sectors; i++) {
    PostVanillaProof v;
    v.sector_id = 100 * (partition * shape.sectors + i) + rng() % 100;  // distinct and increasing
    const uint64_t sector_index = partition * shape.sectors + i;
    std::vector<uint64_t> leafs;
    for (size_t n = 0; n < challenges; n++) {
      const uint64_t index = winning ? circuits::post_challenge_index(proof.api, n, 1, 0)
                                     : circuits::post_challenge_index(proof.api, sector_index, challenges, n);
      leafs.push_back(circuits::post_leaf_challenge(f.randomness, v.sector_id, index, shape.nodes()));
    }
    std::unordered_map<uint64_t, Fr> data;
    if (dense)
      for (uint64_t j = 0; j < shape.nodes(); j++) data[j] = random_fr(rng);
    else
      for (uint64_t j : leafs) data.emplace(j, random_fr(rng));
    const Tree tree(shape.tree_r, data);
    PostSectorProof sp;
    sp.comm_c = random_fr(rng);
    sp.comm_r_last = tree.root();
    for (uint64_t j : leafs) sp.inclusion_proofs.push_back(tree.proof(j));
    const Fr pre[2] = {sp.comm_c, sp.comm_r_last};
    v.comm_r = poseidon_hash(pre, poseidon_constants(2));
    v.sectors.push_back(std::move(sp));
    f.vanilla.push_back(std::move(v));
  }
  return f;
}

}  // namespace cuzk
