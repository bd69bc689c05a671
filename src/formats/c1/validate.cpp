#include "formats/c1/validate.hpp"

#include "ff/bytes.hpp"
#include "util/error.hpp"

namespace cuzk::c1_detail {

using circuits::PathLevel;
using circuits::TreeShape;

C1VanillaProof ProofReader::proof(const json& j, JsonPath& p) {
  C1VanillaProof v = read(j, p);
  check_roots(v, p);
  return v;
}

C1VanillaProof ProofReader::read(const json& j, JsonPath& p) const {
  expect_object(j, p);
  C1VanillaProof v;
  const uint32_t layers = shape_.layers;
  {  // labeling_proofs first: labeling_proofs[0].node is the challenge
    const json& lp = field(j, "labeling_proofs", p);
    auto g = p.key("labeling_proofs");
    expect_array(lp, p);
    if (lp.size() != layers)
      fail(p, std::to_string(lp.size()) + " labeling proofs; a " + shape_.name + " sector has " +
                  std::to_string(layers) + " layers");
    for (uint32_t l = 0; l < layers; l++) {
      auto gi = p.index(l);
      v.labeling_proofs.push_back(labeling(lp[l], p, l + 1, l == 0 ? nullptr : &v.labeling_proofs[0].node));
    }
  }
  const uint64_t challenge = v.labeling_proofs[0].node;
  {
    const json& e = field(j, "encoding_proof", p);
    auto g = p.key("encoding_proof");
    v.encoding_proof = labeling(e, p, layers, &challenge);
  }
  {
    const json& d = field(j, "comm_d_proofs", p);
    auto g = p.key("comm_d_proofs");
    v.comm_d_proofs = merkle(d, p, shape_.tree_d, "tree D", challenge, "the challenge");
  }
  {
    const json& r = field(j, "comm_r_last_proof", p);
    auto g = p.key("comm_r_last_proof");
    v.comm_r_last_proof = merkle(r, p, shape_.tree_rc, "tree R", challenge, "the challenge");
  }
  {
    const json& rc = field(j, "replica_column_proofs", p);
    auto g = p.key("replica_column_proofs");
    expect_object(rc, p);
    {
      const json& cx = field(rc, "c_x", p);
      auto gx = p.key("c_x");
      v.replica_column_proofs.c_x = column(cx, p, &challenge);
    }
    auto parents = [&](const char* name, size_t want, std::vector<C1ColumnProof>& out) {
      const json& a = field(rc, name, p);
      auto ga = p.key(name);
      expect_array(a, p);
      if (a.size() != want)
        fail(p, std::to_string(a.size()) + " column proofs; expected " + std::to_string(want));
      for (size_t i = 0; i < want; i++) {
        auto gi = p.index(i);
        out.push_back(column(a[i], p, nullptr));
      }
    };
    parents("drg_parents", circuits::kDrgParents, v.replica_column_proofs.drg_parents);
    parents("exp_parents", circuits::kExpParents, v.replica_column_proofs.exp_parents);
  }
  return v;
}

// Every root must equal the first proof's: comm_d proofs, comm_r_last proofs, every column proof.
void ProofReader::check_roots(const C1VanillaProof& v, JsonPath& p) {
  const C1ReplicaColumnProof& rc = v.replica_column_proofs;
  if (!have_first_) {
    have_first_ = true;
    first_ = {v.comm_d_proofs.root, v.comm_r_last_proof.root, rc.c_x.inclusion_proof.root};
    first_path_ = p.s;
  }
  auto check = [&](const C1MerkleProof& m, int which, const std::string& rel) {
    if (m.root == first_[which]) return;
    static const char* names[3] = {"comm_d (the comm_d proofs' root)",
                                   "comm_r_last (the comm_r_last proofs' root)",
                                   "comm_c (the column proofs' root)"};
    c1_detail::fail(source_, p.s + "." + rel + ".data." + kind_name(m.kind) + ".root",
                    std::string("root differs from ") + names[which] + " of " + first_path_);
  };
  check(v.comm_d_proofs, 0, "comm_d_proofs");
  check(v.comm_r_last_proof, 1, "comm_r_last_proof");
  check(rc.c_x.inclusion_proof, 2, "replica_column_proofs.c_x.inclusion_proof");
  for (size_t i = 0; i < rc.drg_parents.size(); i++)
    check(rc.drg_parents[i].inclusion_proof, 2,
          "replica_column_proofs.drg_parents[" + std::to_string(i) + "].inclusion_proof");
  for (size_t i = 0; i < rc.exp_parents.size(); i++)
    check(rc.exp_parents[i].inclusion_proof, 2,
          "replica_column_proofs.exp_parents[" + std::to_string(i) + "].inclusion_proof");
}

// A LabelingProof / EncodingProof of layer `layer`; its node must equal *node when given, and be
// < nodes.
C1LabelingProof ProofReader::labeling(const json& j, JsonPath& p, uint32_t layer,
                                      const uint64_t* node) const {
  expect_object(j, p);
  C1LabelingProof l;
  {
    const json& a = field(j, "parents", p);
    auto g = p.key("parents");
    l.parents = fr_array(a, p, kTotalParents, "parents");
  }
  {
    const json& a = field(j, "layer_index", p);
    auto g = p.key("layer_index");
    l.layer_index = (uint32_t)uint(a, p, UINT32_MAX);
    if (l.layer_index != layer)
      fail(p, "layer_index " + std::to_string(l.layer_index) + "; expected " + std::to_string(layer));
  }
  {
    const json& a = field(j, "node", p);
    auto g = p.key("node");
    l.node = uint(a, p, UINT64_MAX);
    if (node && l.node != *node)
      fail(p, "node " + std::to_string(l.node) + " differs from the challenge " + std::to_string(*node) +
                  " (labeling_proofs[0].node)");
    if (l.node >= shape_.nodes)
      fail(p, "node " + std::to_string(l.node) + " is not below the sector's " +
                  std::to_string(shape_.nodes) + " nodes");
  }
  return l;
}

// A ColumnProof; its index must equal *node when given (c_x), else be < nodes.
C1ColumnProof ProofReader::column(const json& j, JsonPath& p, const uint64_t* node) const {
  expect_object(j, p);
  C1ColumnProof c;
  {
    const json& col = field(j, "column", p);
    auto g = p.key("column");
    expect_object(col, p);
    {
      const json& a = field(col, "index", p);
      auto gi = p.key("index");
      c.index = (uint32_t)uint(a, p, UINT32_MAX);
      if (node && c.index != *node)
        fail(p, "column index " + std::to_string(c.index) + " differs from the challenge " +
                    std::to_string(*node));
      if (c.index >= shape_.nodes)
        fail(p, "column index " + std::to_string(c.index) + " is not below the sector's " +
                    std::to_string(shape_.nodes) + " nodes");
    }
    {
      const json& a = field(col, "rows", p);
      auto gr = p.key("rows");
      c.rows = fr_array(a, p, shape_.layers, "rows (one per layer)");
    }
    if (auto it = col.find("_h"); it != col.end() && !it->is_null()) {
      auto gh = p.key("_h");
      fail(p, "expected null (PhantomData), found " + describe(*it));
    }
  }
  const json& ip = field(j, "inclusion_proof", p);
  auto g = p.key("inclusion_proof");
  c.inclusion_proof = merkle(ip, p, shape_.tree_rc, "tree C", c.index, "the column index");
  return c;
}

// An InclusionPath {"path": [{"hashes", "index"}]} of `levels` levels of `arity`, appended to out.
void ProofReader::segment(const json& j, JsonPath& p, uint32_t arity, size_t levels, const char* tree,
                          std::vector<PathLevel>& out) const {
  expect_object(j, p);
  const json& a = field(j, "path", p);
  auto g = p.key("path");
  expect_array(a, p);
  if (a.size() != levels)
    fail(p, std::to_string(a.size()) + " levels; this part of " + tree + " of a " + shape_.name +
                " sector has " + std::to_string(levels));
  for (size_t i = 0; i < levels; i++) {
    auto gi = p.index(i);
    const json& e = a[i];
    expect_object(e, p);
    PathLevel l;
    {
      const json& h = field(e, "hashes", p);
      auto gh = p.key("hashes");
      l.siblings =
          fr_array(h, p, arity - 1, ("hashes (siblings at arity " + std::to_string(arity) + ")").c_str());
    }
    {
      const json& x = field(e, "index", p);
      auto gx = p.key("index");
      uint64_t v = uint(x, p, UINT64_MAX);
      if (v >= arity)
        fail(p, "index " + std::to_string(v) + " is not below the arity " + std::to_string(arity));
      l.index = (uint32_t)v;
    }
    out.push_back(std::move(l));
  }
}

// A MerkleProof {"data": {variant: …}} over `t`; its path index must equal `node`.
C1MerkleProof ProofReader::merkle(const json& j, JsonPath& p, const TreeShape& t, const char* tree,
                                  uint64_t node, const char* node_name) const {
  expect_object(j, p);
  const json& data = field(j, "data", p);
  auto g = p.key("data");
  expect_object(data, p);
  if (data.size() != 1)
    fail(p, "expected one key (Single, Sub or Top), found " + std::to_string(data.size()));
  const json::const_iterator only = data.begin();  // named: GCC 13 flags a reference through a temporary
  const std::string& variant = only.key();
  C1MerkleProof m;
  if (variant == "Single")
    m.kind = MerkleProofKind::kSingle;
  else if (variant == "Sub")
    m.kind = MerkleProofKind::kSub;
  else if (variant == "Top")
    m.kind = MerkleProofKind::kTop;
  else
    fail(p, "unknown MerkleProof variant '" + variant + "' (Single, Sub or Top)");
  auto gv = p.key(variant);
  const MerkleProofKind want = merkle_proof_kind(t);
  if (m.kind != want)
    fail(p, std::string(tree) + " of a " + shape_.name + " sector takes " + kind_name(want) +
                " proofs, not " + variant);
  const json& body = only.value();
  expect_object(body, p);
  {
    const json& r = field(body, "root", p);
    auto gr = p.key("root");
    m.root = fr(r, p);
  }
  {
    const json& l = field(body, "leaf", p);
    auto gl = p.key("leaf");
    m.leaf = fr(l, p);
  }
  m.path.reserve(t.levels());
  if (m.kind == MerkleProofKind::kSingle) {
    const json& s = field(body, "path", p);
    auto gs = p.key("path");
    segment(s, p, t.base_arity, t.base_levels, tree, m.path);
  } else {
    auto part = [&](const char* name, uint32_t arity, size_t levels) {
      const json& s = field(body, name, p);
      auto gs = p.key(name);
      segment(s, p, arity, levels, tree, m.path);
    };
    part("base_proof", t.base_arity, t.base_levels);
    part("sub_proof", t.sub_arity, 1);
    if (m.kind == MerkleProofKind::kTop) part("top_proof", t.top_arity, 1);
  }
  if (m.path_index() != node)
    fail(p, "the path's index " + std::to_string(m.path_index()) + " differs from " + node_name + " " +
                std::to_string(node));
  return m;
}

void check_c1(const std::string& source, const std::set<std::string>& top_keys, const C1Output& c1,
              const circuits::StackedShape& shape, const ProofReader* proofs) {
  auto fail = [&](const std::string& path, const std::string& what) { c1_detail::fail(source, path, what); };
  for (const char* k :
       {"registered_proof", "vanilla_proofs", "comm_r", "comm_d", "replica_id", "seed", "ticket"})
    if (!top_keys.count(k)) fail("", std::string("missing field '") + k + "'");
  const RegisteredSealProof& rp = c1.registered_proof;
  if (c1.shape_key != rp.shape_key())
    fail("vanilla_proofs." + c1.shape_key, "the shape key does not match registered_proof " +
                                               std::string(rp.name) + " (whose key is " + rp.shape_key() +
                                               ")");
  if (c1.vanilla_proofs.size() != rp.partitions)
    fail("vanilla_proofs." + c1.shape_key, std::to_string(c1.vanilla_proofs.size()) + " partitions; " +
                                               std::string(rp.name) + " has " +
                                               std::to_string(rp.partitions));
  // challenges per partition were checked per partition against the shape; the registered proof
  // agrees with the shape (same size), asserted here for safety.
  if (rp.challenges_per_partition != shape.challenges)
    throw Error(ErrorCode::kInternal, "registered proof table and circuit shapes disagree");
  for (auto [name, b] :
       {std::pair{"comm_r", &c1.comm_r}, {"comm_d", &c1.comm_d}, {"replica_id", &c1.replica_id}}) {
    Fr f;
    if (!from_bytes_le(b->data(), f))
      fail(name, "not a field element: the 32-byte little-endian value is ≥ r (BLS12-381's scalar field)");
  }
  for (auto [name, b] : {std::pair{"comm_r", &c1.comm_r}, {"comm_d", &c1.comm_d}, {"seed", &c1.seed}})
    if (is_zero(*b)) fail(name, "is zero (C2 refuses an all-zero commitment or seed)");
  Fr comm_d;
  from_bytes_le(c1.comm_d.data(), comm_d);
  if (!(proofs->comm_d_root() == comm_d))
    fail("comm_d", "differs from the root of the comm_d proofs (" + proofs->first_path() +
                       ".comm_d_proofs.data.Single.root)");
}

}  // namespace cuzk::c1_detail
