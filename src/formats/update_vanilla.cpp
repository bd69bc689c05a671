// SnapDeals vanilla partition proofs: bincode, the vanilla verifier, the witness, fake updates
// (see update_vanilla.hpp).
#include "formats/update_vanilla.hpp"

#include <algorithm>
#include <random>

#include "hash/fr32.hpp"
#include "hash/poseidon.hpp"

namespace cuzk {
namespace {

using circuits::PathLevel;
using circuits::TreeShape;
using circuits::UpdateShape;

// ---- bincode ------------------------------------------------------------------------------------

class BincodeWriter {
 public:
  void u32(uint32_t v) {
    for (int i = 0; i < 4; i++) out.push_back(uint8_t(v >> (8 * i)));
  }
  void u64(uint64_t v) {
    for (int i = 0; i < 8; i++) out.push_back(uint8_t(v >> (8 * i)));
  }
  void domain(const Fr& x) {
    const auto b = fr_to_bytes(x);
    out.insert(out.end(), b.begin(), b.end());
  }
  void path(std::span<const PathLevel> levels) {
    u64(levels.size());
    for (const PathLevel& l : levels) {
      u64(l.siblings.size());
      for (const Fr& s : l.siblings) domain(s);
      u64(l.index);
    }
  }
  void merkle_proof(const C1MerkleProof& p) {
    u32((uint32_t)p.kind);
    const size_t tail = p.kind == MerkleProofKind::kTop ? 2 : p.kind == MerkleProofKind::kSub ? 1 : 0;
    std::span<const PathLevel> all(p.path);
    if (tail == 0) {
      domain(p.root);
      domain(p.leaf);
      path(all);
      return;
    }
    path(all.first(all.size() - tail));
    for (size_t i = all.size() - tail; i < all.size(); i++) path(all.subspan(i, 1));
    domain(p.root);
    domain(p.leaf);
  }
  std::vector<uint8_t> out;
};

class BincodeReader {
 public:
  BincodeReader(std::span<const uint8_t> b, const std::string& source) : b_(b), source_(source) {}
  [[noreturn]] void fail(const std::string& where, const std::string& what) const {
    throw Error(ErrorCode::kInvalidArgument, source_ + ": " + where + ": " + what);
  }
  uint64_t uint(int bytes, const std::string& where) {
    if (b_.size() - at_ < size_t(bytes))
      fail(where, "truncated (" + std::to_string(b_.size()) + " bytes, needed more at offset " +
                      std::to_string(at_) + ")");
    uint64_t v = 0;
    for (int i = 0; i < bytes; i++) v |= uint64_t(b_[at_ + i]) << (8 * i);
    at_ += bytes;
    return v;
  }
  Fr domain(const std::string& where) {
    if (b_.size() - at_ < 32) fail(where, "truncated at offset " + std::to_string(at_));
    Fr x;
    if (!fr_from_bytes(b_.data() + at_, x)) fail(where, "not a canonical field element (≥ r)");
    at_ += 32;
    return x;
  }
  // A path of `levels` levels whose level i has arity(first + i).
  void path(const TreeShape& t, size_t first, size_t levels, std::vector<PathLevel>& out,
            const std::string& where) {
    const uint64_t n = uint(8, where + ".path length");
    if (n != levels)
      fail(where, std::to_string(n) + " path levels, the tree has " + std::to_string(levels) + " here");
    for (size_t i = 0; i < levels; i++) {
      const std::string w = where + "[" + std::to_string(i) + "]";
      const uint32_t arity = t.arity(first + i);
      const uint64_t m = uint(8, w + ".hashes length");
      if (m + 1 != arity)
        fail(w, std::to_string(m) + " sibling hashes for a level of arity " + std::to_string(arity));
      PathLevel pl;
      for (uint64_t s = 0; s < m; s++)
        pl.siblings.push_back(domain(w + ".hashes[" + std::to_string(s) + "]"));
      const uint64_t index = uint(8, w + ".index");
      if (index >= arity) fail(w, "index " + std::to_string(index) + " for arity " + std::to_string(arity));
      pl.index = (uint32_t)index;
      out.push_back(std::move(pl));
    }
  }
  C1MerkleProof merkle_proof(const TreeShape& t, const std::string& where) {
    C1MerkleProof p;
    const uint32_t variant = (uint32_t)uint(4, where + " variant");
    const MerkleProofKind want = merkle_proof_kind(t);
    static const char* kNames[] = {"Single", "Sub", "Top"};
    if (variant > 2) fail(where, "unknown MerkleProof variant " + std::to_string(variant));
    if (variant != (uint32_t)want)
      fail(where, std::string(kNames[variant]) + " proof for a tree that needs " + kNames[(int)want]);
    p.kind = want;
    if (want == MerkleProofKind::kSingle) {
      p.root = domain(where + ".root");
      p.leaf = domain(where + ".leaf");
      path(t, 0, t.levels(), p.path, where + ".path");
      return p;
    }
    path(t, 0, t.base_levels, p.path, where + ".base_proof");
    path(t, t.base_levels, 1, p.path, where + ".sub_proof");
    if (want == MerkleProofKind::kTop) path(t, t.base_levels + 1, 1, p.path, where + ".top_proof");
    p.root = domain(where + ".root");
    p.leaf = domain(where + ".leaf");
    return p;
  }
  size_t left() const { return b_.size() - at_; }

 private:
  std::span<const uint8_t> b_;
  size_t at_ = 0;
  const std::string& source_;
};

// ---- native trees -------------------------------------------------------------------------------

Fr hash_children(std::span<const Fr> children, bool sha) {
  return sha ? sha256_of_nodes(children) : poseidon_hash(children, poseidon_constants((int)children.size()));
}

// The root `p`'s leaf and path lead to (the path's own indices), levels' arities from the path.
Fr root_of(const C1MerkleProof& p, bool sha) {
  Fr cur = p.leaf;
  for (const PathLevel& l : p.path) {
    std::vector<Fr> children = l.siblings;
    children.insert(children.begin() + l.index, cur);
    cur = hash_children(children, sha);
  }
  return cur;
}

// A tree stored level by level as runs of equal nodes: run r of a level holds `count` copies of `value`.
// Run lengths are powers of two aligned to their length (the leaves' runs are), so a group of `arity`
// siblings lies inside one run or covers whole runs: a long run hashes to one run of the next level and
// equal subtrees are hashed once. Random leaves (runs of 1) give an ordinary full tree; leaves equal over
// long stretches give trees of any size in little memory.
struct Run {
  Fr value;
  uint64_t count = 0;
};
struct NativeTree {
  TreeShape shape;
  bool sha = false;
  std::vector<std::vector<Run>> rows;         // rows[0] = leaves, rows.back() = {root}
  std::vector<std::vector<uint64_t>> starts;  // starts[level][r] = the first node of run r

  NativeTree(const TreeShape& s, std::vector<Run> leaves, bool is_sha) : shape(s), sha(is_sha) {
    rows.push_back(std::move(leaves));
    for (size_t level = 0; level < s.levels(); level++) {
      const uint32_t arity = s.arity(level);
      const std::vector<Run>& cur = rows.back();
      std::vector<Run> next;
      std::vector<Fr> group;
      for (const Run& r : cur) {
        if (r.count >= arity) {
          const std::vector<Fr> same(arity, r.value);
          next.push_back({hash_children(same, sha), r.count / arity});
          continue;
        }
        for (uint64_t i = 0; i < r.count; i++) group.push_back(r.value);
        if (group.size() == arity) {
          next.push_back({hash_children(group, sha), 1});
          group.clear();
        }
      }
      rows.push_back(std::move(next));
    }
    for (const std::vector<Run>& row : rows) {
      std::vector<uint64_t> st;
      uint64_t at = 0;
      for (const Run& r : row) {
        st.push_back(at);
        at += r.count;
      }
      starts.push_back(std::move(st));
    }
  }
  const Fr& root() const { return rows.back()[0].value; }
  const Fr& node(size_t level, uint64_t i) const {
    const std::vector<uint64_t>& st = starts[level];
    const size_t r = size_t(std::upper_bound(st.begin(), st.end(), i) - st.begin()) - 1;
    return rows[level][r].value;
  }
  C1MerkleProof open(uint64_t leaf) const {
    C1MerkleProof p;
    p.kind = merkle_proof_kind(shape);
    p.leaf = node(0, leaf);
    p.root = root();
    uint64_t pos = leaf;
    for (size_t level = 0; level < shape.levels(); level++) {
      const uint32_t arity = shape.arity(level);
      PathLevel pl;
      pl.index = uint32_t(pos % arity);
      const uint64_t first = pos - pl.index;
      for (uint32_t i = 0; i < arity; i++)
        if (i != pl.index) pl.siblings.push_back(node(level, first + i));
      p.path.push_back(std::move(pl));
      pos /= arity;
    }
    return p;
  }
};

Fr poseidon2(const Fr& a, const Fr& b) {
  const Fr pre[2] = {a, b};
  return poseidon_hash(pre, poseidon_constants(2));
}

Fr random_fr(std::mt19937_64& rng) {
  uint64_t l[4] = {rng(), rng(), rng(), rng() & 0x3fffffffffffffffULL};  // < 2^254 < r
  Fr x;
  Fr::from_canonical(l, x);
  return x;
}

// The rows of the apex tree built from `leafs` (vanilla.rs `verify`): rows[0] = leafs.
std::vector<std::vector<Fr>> apex_tree(const std::vector<Fr>& leafs) {
  std::vector<std::vector<Fr>> rows{leafs};
  while (rows.back().size() > 1) {
    const std::vector<Fr>& cur = rows.back();
    std::vector<Fr> next;
    for (size_t i = 0; i + 1 < cur.size(); i += 2)
      next.push_back(sha256_of_nodes(std::span<const Fr>(&cur[i], 2)));
    rows.push_back(std::move(next));
  }
  return rows;
}

}  // namespace

std::vector<uint8_t> write_update_partition_proof(const UpdatePartitionProof& p) {
  BincodeWriter w;
  w.domain(p.comm_c);
  w.u64(p.apex_leafs.size());
  for (const Fr& x : p.apex_leafs) w.domain(x);
  w.u64(p.challenge_proofs.size());
  for (const UpdateChallengeProof& c : p.challenge_proofs) {
    w.merkle_proof(c.proof_r_old);
    w.merkle_proof(c.proof_d_new);
    w.merkle_proof(c.proof_r_new);
  }
  return std::move(w.out);
}

UpdatePartitionProof read_update_partition_proof(std::span<const uint8_t> bytes, const UpdateShape& shape,
                                                 const std::string& source) {
  BincodeReader r(bytes, source);
  UpdatePartitionProof p;
  p.comm_c = r.domain("comm_c");
  const uint64_t na = r.uint(8, "apex_leafs length");
  if (na != shape.apex_leaf_count)
    r.fail("apex_leafs", std::to_string(na) + " apex leaves, a " + shape.name + " partition has " +
                             std::to_string(shape.apex_leaf_count));
  for (uint64_t i = 0; i < na; i++) p.apex_leafs.push_back(r.domain("apex_leafs[" + std::to_string(i) + "]"));
  const uint64_t nc = r.uint(8, "challenge_proofs length");
  if (nc != shape.challenge_count)
    r.fail("challenge_proofs", std::to_string(nc) + " challenge proofs, a " + shape.name + " partition has " +
                                   std::to_string(shape.challenge_count));
  for (uint64_t i = 0; i < nc; i++) {
    const std::string w = "challenge_proofs[" + std::to_string(i) + "]";
    UpdateChallengeProof c;
    c.proof_r_old = r.merkle_proof(shape.tree_r, w + ".proof_r_old");
    c.proof_d_new = r.merkle_proof(shape.tree_d, w + ".proof_d_new");
    c.proof_r_new = r.merkle_proof(shape.tree_r, w + ".proof_r_new");
    p.challenge_proofs.push_back(std::move(c));
  }
  if (r.left()) r.fail("end", std::to_string(r.left()) + " bytes after the partition proof");
  return p;
}

void verify_update_partition(const UpdateShape& shape, uint32_t k, uint32_t h, const UpdateCommitments& comms,
                             const UpdatePartitionProof& p, const std::string& source) {
  auto fail = [&](const std::string& what) {
    throw Error(ErrorCode::kInvalidArgument, source + ": partition " + std::to_string(k) + ": " + what);
  };
  circuits::update_k_and_h_select(shape, k, h);  // k < partitions, h allowed
  if (p.apex_leafs.size() != shape.apex_leaf_count) fail("wrong number of apex leaves");
  if (p.challenge_proofs.size() != shape.challenge_count) fail("wrong number of challenge proofs");
  const std::vector<std::vector<Fr>> apex = apex_tree(p.apex_leafs);
  const Fr root_r_old = p.challenge_proofs[0].proof_r_old.root;
  const Fr root_r_new = p.challenge_proofs[0].proof_r_new.root;
  if (poseidon2(p.comm_c, root_r_old) != comms.comm_r_old)
    fail("comm_r_old is not Poseidon2(comm_c, root_r_old)");
  if (poseidon2(p.comm_c, root_r_new) != comms.comm_r_new)
    fail("comm_r_new is not Poseidon2(comm_c, root_r_new)");
  const Fr phi = circuits::update_phi(comms.comm_d_new, comms.comm_r_old);
  const std::vector<uint64_t> challenges = circuits::update_challenges(shape, comms.comm_r_new, k);
  const uint32_t shr = shape.challenge_bit_len - h;
  const uint32_t apex_height = shape.challenge_bit_len - shape.partition_bit_len - shape.apex_leaf_bit_len;
  for (size_t i = 0; i < challenges.size(); i++) {
    const UpdateChallengeProof& c = p.challenge_proofs[i];
    const std::string at =
        "challenge " + std::to_string(i) + " (node " + std::to_string(challenges[i]) + "): ";
    if (c.proof_r_old.path_index() != challenges[i] || c.proof_d_new.path_index() != challenges[i] ||
        c.proof_r_new.path_index() != challenges[i])
      fail(at + "an opening is not at the challenged node");
    if (c.proof_r_old.root != root_r_old || c.proof_d_new.root != comms.comm_d_new ||
        c.proof_r_new.root != root_r_new)
      fail(at + "an opening has another root");
    if (root_of(c.proof_r_old, false) != root_r_old)
      fail(at + "tree R old opening does not hash to its root");
    if (root_of(c.proof_d_new, true) != comms.comm_d_new)
      fail(at + "tree D new opening does not hash to comm_d_new");
    if (root_of(c.proof_r_new, false) != root_r_new)
      fail(at + "tree R new opening does not hash to its root");
    const Fr rho = circuits::update_rho(phi, challenges[i] >> shr);
    if (c.proof_r_old.leaf + c.proof_d_new.leaf * rho != c.proof_r_new.leaf)
      fail(at + "the new label is not label_r_old + label_d_new·rho");
    for (uint32_t j = 0; j < shape.apex_leaf_bit_len; j++) {
      const Fr& sib = c.proof_d_new.path[apex_height + j].siblings[0];
      bool found = false;
      for (const Fr& x : apex[j]) found = found || x == sib;
      if (!found) fail(at + "tree D apex path sibling " + std::to_string(j) + " is not in the apex tree");
    }
  }
}

circuits::UpdateWitness update_partition_witness(uint32_t k, uint32_t h, const UpdateCommitments& comms,
                                                 const UpdatePartitionProof& p) {
  circuits::UpdateWitness w;
  w.k = k;
  w.h = h;
  w.comm_r_old = comms.comm_r_old;
  w.comm_d_new = comms.comm_d_new;
  w.comm_r_new = comms.comm_r_new;
  w.comm_c = p.comm_c;
  if (p.challenge_proofs.empty())
    throw Error(ErrorCode::kInvalidArgument, "empty-sector-update partition proof has no challenge proofs");
  w.root_r_old = p.challenge_proofs[0].proof_r_old.root;
  w.root_r_new = p.challenge_proofs[0].proof_r_new.root;
  w.apex_leafs = p.apex_leafs;
  for (const UpdateChallengeProof& c : p.challenge_proofs)
    w.challenges.push_back({c.proof_r_old.leaf, c.proof_d_new.leaf, c.proof_r_new.leaf, c.proof_r_old.path,
                            c.proof_d_new.path, c.proof_r_new.path});
  return w;
}

FakeUpdate make_fake_update(const std::string& sector_size, uint64_t seed, uint32_t h,
                            FakeUpdateData data_kind) {
  FakeUpdate f;
  f.shape = circuits::update_shape(sector_size);
  const UpdateShape& s = f.shape;
  const bool random = data_kind == FakeUpdateData::kRandom;
  if (random && s.sector_nodes > (uint64_t{1} << 19))
    throw Error(ErrorCode::kInvalidArgument, "fake update: random data of a " + sector_size +
                                                 " sector is too large for in-memory trees (16MiB at most; "
                                                 "uniform data has no limit)");
  f.h = h ? h : s.h_default();
  circuits::update_k_and_h_select(s, 0, f.h);  // h allowed
  std::mt19937_64 rng(seed);
  // Leaves as runs: one run per node (random), or one run of the whole sector (uniform).
  const uint64_t run = random ? 1 : s.sector_nodes;
  std::vector<Run> old_labels, data;
  for (uint64_t n = 0; n < s.sector_nodes; n += run) old_labels.push_back({random_fr(rng), run});
  for (uint64_t n = 0; n < s.sector_nodes; n += run) data.push_back({random_fr(rng), run});
  const Fr comm_c = random_fr(rng);
  const NativeTree tree_r_old(s.tree_r, old_labels, false);
  const NativeTree tree_d_new(s.tree_d, data, true);
  f.comms.comm_r_old = poseidon2(comm_c, tree_r_old.root());
  f.comms.comm_d_new = tree_d_new.root();
  const Fr phi = circuits::update_phi(f.comms.comm_d_new, f.comms.comm_r_old);
  // label_r_new = label_r_old + data·rho(node >> shr): rho is constant over runs of 2^shr nodes.
  const uint32_t shr = s.challenge_bit_len - f.h;
  const uint64_t rho_run = uint64_t{1} << shr, step = std::min(run, rho_run);
  std::vector<Run> new_labels;
  for (uint64_t n = 0; n < s.sector_nodes; n += step) {
    const Fr rho = circuits::update_rho(phi, n >> shr);
    new_labels.push_back({tree_r_old.node(0, n) + tree_d_new.node(0, n) * rho, step});
  }
  const NativeTree tree_r_new(s.tree_r, new_labels, false);
  f.comms.comm_r_new = poseidon2(comm_c, tree_r_new.root());
  const size_t apex_row = s.challenge_bit_len - s.partition_bit_len - s.apex_leaf_bit_len;
  for (uint32_t k = 0; k < s.partition_count; k++) {
    UpdatePartitionProof p;
    p.comm_c = comm_c;
    for (uint64_t i = 0; i < s.apex_leaf_count; i++)
      p.apex_leafs.push_back(tree_d_new.node(apex_row, uint64_t{k} * s.apex_leaf_count + i));
    for (uint64_t c : circuits::update_challenges(s, f.comms.comm_r_new, k))
      p.challenge_proofs.push_back({tree_r_old.open(c), tree_d_new.open(c), tree_r_new.open(c)});
    f.partitions.push_back(std::move(p));
  }
  return f;
}

}  // namespace cuzk
