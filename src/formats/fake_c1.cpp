#include "formats/fake_c1.hpp"

#include <algorithm>
#include <map>
#include <random>
#include <unordered_map>

#include "circuits/sdr/labels.hpp"
#include "hash/fr32.hpp"
#include "hash/poseidon.hpp"
#include "util/error.hpp"

namespace cuzk {

namespace {

using circuits::PathLevel;
using circuits::TreeShape;

// A Merkle tree of which only some leaves are non-zero: the nodes above them, level by level, and the
// hash of an all-default subtree per level.
class SparseTree {
 public:
  using Hash = Fr (*)(std::span<const Fr>);
  SparseTree(const TreeShape& shape, Hash hash, const std::map<uint64_t, Fr>& leaves) : shape_(shape) {
    levels_.resize(shape.levels() + 1);
    defaults_.resize(shape.levels() + 1);
    defaults_[0] = Fr::zero();
    for (auto& [i, v] : leaves) levels_[0][i] = v;
    std::vector<Fr> children;
    for (size_t l = 0; l < shape.levels(); l++) {
      const uint32_t arity = shape.arity(l);
      children.assign(arity, defaults_[l]);
      defaults_[l + 1] = hash(children);
      for (auto& [i, v] : levels_[l]) {
        const uint64_t parent = i / arity;
        if (levels_[l + 1].count(parent)) continue;
        for (uint32_t k = 0; k < arity; k++) children[k] = node(l, parent * arity + k);
        levels_[l + 1][parent] = hash(children);
      }
    }
  }
  Fr root() const { return node(shape_.levels(), 0); }
  // The opening of leaf i: per level the siblings and the position among them.
  std::vector<PathLevel> path(uint64_t i) const {
    std::vector<PathLevel> p(shape_.levels());
    for (size_t l = 0; l < shape_.levels(); l++) {
      const uint32_t arity = shape_.arity(l);
      p[l].index = (uint32_t)(i % arity);
      const uint64_t first = i - p[l].index;
      for (uint32_t k = 0; k < arity; k++)
        if (k != p[l].index) p[l].siblings.push_back(node(l, first + k));
      i /= arity;
    }
    return p;
  }
  Fr leaf(uint64_t i) const { return node(0, i); }

 private:
  Fr node(size_t level, uint64_t i) const {
    auto it = levels_[level].find(i);
    return it == levels_[level].end() ? defaults_[level] : it->second;
  }
  TreeShape shape_;
  std::vector<std::unordered_map<uint64_t, Fr>> levels_;
  std::vector<Fr> defaults_;
};

Fr poseidon_any(std::span<const Fr> children) {
  return poseidon_hash(children, poseidon_constants((int)children.size()));
}

Fr random_fr(std::mt19937_64& rng) {
  uint64_t l[4] = {rng(), rng(), rng(), rng() & 0x0fffffffffffffffULL};
  Fr r;
  Fr::from_canonical(l, r);
  return r;
}

sdr::Domain to_domain(const Fr& x) { return fr_to_bytes(x); }
Fr from_domain(const sdr::Domain& d) {
  Fr r;
  if (!fr_from_bytes(d.data(), r))
    throw Error(ErrorCode::kInternal, "fake sector: a domain value is not in Fr");
  return r;
}

C1MerkleProof merkle_proof(const SparseTree& t, const TreeShape& shape, uint64_t i) {
  C1MerkleProof p;
  p.kind = merkle_proof_kind(shape);
  p.root = t.root();
  p.leaf = t.leaf(i);
  p.path = t.path(i);
  return p;
}

}  // namespace

FakeSector make_fake_sector(const std::string& name, uint64_t seed, ThreadPool* /*pool*/) {
  const auto proof = sdr::registered_seal_proof_from_name(name);
  if (!proof)
    throw Error(ErrorCode::kInvalidArgument, "fake sector: unknown registered proof '" + name + "'");
  const sdr::PoRepConfig cfg = sdr::porep_config(*proof);
  if (cfg.challenges != sdr::ChallengeKind::kInteractive)
    throw Error(
        ErrorCode::kInvalidArgument,
        "fake sector: " + name +
            " derives its challenges from comm_r, which a fake sector cannot fix before its trees exist; "
            "use an interactive proof (StackedDrg<size>V1 or V1_1)");
  const RegisteredSealProof& rp = registered_seal_proof(name);
  const circuits::StackedShape shape = circuits::stacked_shape(std::string(rp.size));
  const uint64_t nodes = shape.nodes;
  const uint32_t layers = shape.layers;
  std::mt19937_64 rng(seed);

  FakeSector out;
  sdr::SealPublicData& seal = out.seal;
  seal.prover_id = to_domain(random_fr(rng));
  seal.sector_id = rng() >> 24;
  for (auto& b : seal.ticket) b = (uint8_t)rng();
  seal.ticket[31] &= 0x3f;
  seal.seed = to_domain(random_fr(rng));
  seal.seed[0] |= 1;  // never zero

  // All-zero data: tree D is the zero tree; every opening's siblings are its default hashes.
  const SparseTree tree_d(shape.tree_d, [](std::span<const Fr> c) { return sha256_of_nodes(c); }, {});
  seal.comm_d = to_domain(tree_d.root());
  const sdr::Domain replica_id =
      sdr::replica_id(seal.prover_id, seal.sector_id, seal.ticket, seal.comm_d, cfg.porep_id);
  const sdr::SdrGraph graph(nodes, cfg.porep_id, cfg.api_version);

  // Every partition's challenges and their parents (interactive: independent of comm_r).
  const sdr::Domain no_comm_r{};
  std::vector<std::vector<sdr::ChallengeParents>> parts(cfg.partitions);
  std::map<uint64_t, bool> challenged;  // node → true
  for (uint32_t k = 0; k < cfg.partitions; k++) {
    parts[k] = sdr::partition_challenge_parents(cfg, graph, replica_id, no_comm_r, seal.seed, k);
    for (const auto& c : parts[k]) challenged[c.challenge] = true;
  }
  // Columns: random rows for the parents nobody challenges, labels for the challenged nodes, layer by
  // layer (a label reads this layer's DRG parents, which precede the node, and the previous layer's
  // expander parents).
  std::map<uint64_t, std::vector<Fr>> columns;
  auto column = [&](uint64_t n) -> std::vector<Fr>& {
    auto [it, added] = columns.try_emplace(n);
    if (added) {
      it->second.resize(layers);
      if (!challenged.count(n))
        for (Fr& r : it->second) r = random_fr(rng);
    }
    return it->second;
  };
  std::map<uint64_t, std::pair<std::array<uint32_t, 6>, std::array<uint32_t, 8>>> parents_of;
  for (const auto& p : parts)
    for (const auto& c : p) {
      parents_of[c.challenge] = {c.drg, c.exp};
      column(c.challenge);
      for (uint32_t x : c.drg) column(x);
      for (uint32_t x : c.exp) column(x);
    }
  const sdr::Label rid = replica_id;
  std::map<std::pair<uint64_t, uint32_t>, std::vector<Fr>> label_parents;  // (node, layer) → 37 labels
  for (uint32_t layer = 1; layer <= layers; layer++)
    for (auto& [n, pe] : parents_of) {
      std::vector<sdr::Label> drg, exp;
      for (uint32_t x : pe.first) drg.push_back(fr_to_bytes(columns.at(x)[layer - 1]));
      if (layer > 1)
        for (uint32_t x : pe.second) exp.push_back(fr_to_bytes(columns.at(x)[layer - 2]));
      columns.at(n)[layer - 1] = from_domain(sdr::label_from_parents(rid, layer, n, drg, exp));
      std::vector<Fr>& lp = label_parents[{n, layer}];
      std::vector<sdr::Label> base = drg;
      base.insert(base.end(), exp.begin(), exp.end());
      for (size_t i = 0; i < 37; i++) lp.push_back(from_domain(base[i % base.size()]));
    }
  // Trees C (column hashes) and R (encodings: last label + data 0) over the opened nodes only.
  std::map<uint64_t, Fr> c_leaves, r_leaves;
  for (auto& [n, rows] : columns) c_leaves[n] = poseidon_hash(rows, poseidon_constants((int)layers));
  for (auto& [n, pe] : parents_of) r_leaves[n] = columns.at(n)[layers - 1];
  const SparseTree tree_c(shape.tree_rc, poseidon_any, c_leaves);
  const SparseTree tree_r(shape.tree_rc, poseidon_any, r_leaves);
  const Fr comm_r = poseidon_hash(std::vector<Fr>{tree_c.root(), tree_r.root()}, poseidon_constants(2));
  seal.comm_r = to_domain(comm_r);

  C1Output& c1 = out.c1;
  c1.registered_proof = rp;
  c1.shape_key = std::string(rp.shape_key());
  c1.comm_r = seal.comm_r;
  c1.comm_d = seal.comm_d;
  c1.replica_id = replica_id;
  c1.seed = seal.seed;
  c1.ticket = seal.ticket;
  auto column_proof = [&](uint64_t n) {
    C1ColumnProof cp;
    cp.index = (uint32_t)n;
    cp.rows = columns.at(n);
    cp.inclusion_proof = merkle_proof(tree_c, shape.tree_rc, n);
    return cp;
  };
  for (const auto& p : parts) {
    std::vector<C1VanillaProof>& vps = c1.vanilla_proofs.emplace_back();
    for (const auto& c : p) {
      C1VanillaProof vp;
      vp.comm_d_proofs = merkle_proof(tree_d, shape.tree_d, c.challenge);
      vp.comm_r_last_proof = merkle_proof(tree_r, shape.tree_rc, c.challenge);
      vp.replica_column_proofs.c_x = column_proof(c.challenge);
      for (uint32_t x : c.drg) vp.replica_column_proofs.drg_parents.push_back(column_proof(x));
      for (uint32_t x : c.exp) vp.replica_column_proofs.exp_parents.push_back(column_proof(x));
      for (uint32_t layer = 1; layer <= layers; layer++)
        vp.labeling_proofs.push_back({label_parents.at({c.challenge, layer}), layer, c.challenge});
      vp.encoding_proof = {label_parents.at({c.challenge, layers}), layers, c.challenge};
      vps.push_back(std::move(vp));
    }
  }
  return out;
}

}  // namespace cuzk
