#include "formats/c1.hpp"

#include <charconv>
#include <nlohmann/json.hpp>
#include <set>

#include "circuits/sdr/porep.hpp"
#include "ff/bytes.hpp"
#include "util/error.hpp"

namespace cuzk {

// ---- registered seal proofs ---------------------------------------------------------------------

namespace {

// The table is sdr's (src/circuits/sdr/porep.hpp: ids, names, partitions, challenges, versions),
// with the sector size's name added.
struct Registry {
  std::array<RegisteredSealProof, 20> rows;
  Registry() {
    for (uint32_t id = 0; id < 20; id++) {
      const auto p = static_cast<sdr::RegisteredSealProof>(id);
      const sdr::PoRepConfig cfg = sdr::porep_config(p);
      RegisteredSealProof& r = rows[id];
      r.id = id;
      r.name = sdr::registered_seal_proof_name(p);
      r.sector_size = cfg.sector_size;
      r.size = cfg.sector_size == 2048                  ? "2KiB"
               : cfg.sector_size == uint64_t{8} << 20   ? "8MiB"
               : cfg.sector_size == uint64_t{512} << 20 ? "512MiB"
               : cfg.sector_size == uint64_t{32} << 30  ? "32GiB"
                                                        : "64GiB";
      r.api_version[0] = 1;
      r.api_version[1] = cfg.api_version == sdr::ApiVersion::kV1_0_0   ? 0
                         : cfg.api_version == sdr::ApiVersion::kV1_1_0 ? 1
                                                                       : 2;
      r.feature = cfg.challenges == sdr::ChallengeKind::kSynthetic        ? PoRepFeature::kSyntheticPoRep
                  : cfg.challenges == sdr::ChallengeKind::kNonInteractive ? PoRepFeature::kNonInteractivePoRep
                                                                          : PoRepFeature::kInteractive;
      r.partitions = cfg.partitions;
      r.challenges_per_partition = cfg.challenges_per_partition();
    }
  }
};

const Registry& registry() {
  static const Registry r;
  return r;
}

}  // namespace

std::string RegisteredSealProof::shape_key() const { return "StackedDrg" + std::string(size) + "V1"; }

Bytes32 RegisteredSealProof::porep_id() const {
  return sdr::porep_id(static_cast<sdr::RegisteredSealProof>(id));
}

std::span<const RegisteredSealProof> registered_seal_proofs() { return registry().rows; }

const RegisteredSealProof& registered_seal_proof(std::string_view name) {
  for (const RegisteredSealProof& r : registry().rows)
    if (r.name == name) return r;
  throw Error(ErrorCode::kInvalidArgument,
              "unknown registered seal proof '" + std::string(name) +
                  "' (StackedDrg{2KiB,8MiB,512MiB,32GiB,64GiB}{V1,V1_1,V1_1_Feat_SyntheticPoRep,"
                  "V1_2_Feat_NonInteractivePoRep})");
}

const RegisteredSealProof& registered_seal_proof_by_id(uint64_t id) {
  if (id >= 20)
    throw Error(ErrorCode::kInvalidArgument,
                "unknown registered seal proof id " + std::to_string(id) + " (0..19)");
  return registry().rows[id];
}

uint64_t C1MerkleProof::path_index() const {
  uint64_t index = 0, scale = 1;
  for (const circuits::PathLevel& l : path) {
    index += l.index * scale;
    scale *= l.siblings.size() + 1;
  }
  return index;
}

// ---- base64 -------------------------------------------------------------------------------------

namespace {
constexpr char kB64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

int b64_value(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}

// A forward pass over standard padded base64 text yielding the decoded bytes one at a time, so that
// a large payload (Curio's Phase1Out) is parsed without ever being decoded into memory. The end
// iterator is default-constructed; invalid characters throw Error(kInvalidFile, "<what>: …").
class Base64Iter {
 public:
  using iterator_category = std::input_iterator_tag;
  using value_type = char;
  using difference_type = std::ptrdiff_t;
  using pointer = const char*;
  using reference = const char&;

  Base64Iter() = default;
  Base64Iter(const char* begin, const char* end, const std::string* what)
      : begin_(begin), p_(begin), end_(end), what_(what) {
    if ((end - begin) % 4 != 0)
      throw Error(ErrorCode::kInvalidFile,
                  *what + ": base64 length " + std::to_string(end - begin) + " is not a multiple of 4");
    fill();
  }
  // Throws as the iteration would, without decoding.
  static void check(const char* begin, const char* end, const std::string& what) {
    if ((end - begin) % 4 != 0)
      throw Error(ErrorCode::kInvalidFile,
                  what + ": base64 length " + std::to_string(end - begin) + " is not a multiple of 4");
    for (const char* p = begin; p < end; p++)
      if (b64_value(*p) < 0 && !(*p == '=' && end - p <= 2 && (p + 1 == end || p[1] == '=')))
        throw Error(ErrorCode::kInvalidFile,
                    what + ": invalid base64 character at offset " + std::to_string(p - begin));
  }
  reference operator*() const { return buf_[i_]; }
  Base64Iter& operator++() {
    if (++i_ == n_) fill();
    return *this;
  }
  Base64Iter operator++(int) {
    Base64Iter t = *this;
    ++*this;
    return t;
  }
  // Only comparisons with the end iterator are meaningful.
  bool operator==(const Base64Iter& o) const { return (i_ >= n_) == (o.i_ >= o.n_); }

 private:
  void fill() {
    i_ = n_ = 0;
    if (p_ == end_) return;
    int v[4], pad = 0;
    const bool last = p_ + 4 == end_;
    for (int k = 0; k < 4; k++) {
      const char c = p_[k];
      if (c == '=' && last && k >= 2) {
        v[k] = 0;
        pad++;
        continue;
      }
      v[k] = b64_value(c);
      if (v[k] < 0 || pad)
        throw Error(ErrorCode::kInvalidFile,
                    *what_ + ": invalid base64 character at offset " + std::to_string(p_ - begin_ + k));
    }
    const uint32_t w = (uint32_t)v[0] << 18 | (uint32_t)v[1] << 12 | (uint32_t)v[2] << 6 | (uint32_t)v[3];
    buf_[0] = (char)(w >> 16);
    buf_[1] = (char)(w >> 8);
    buf_[2] = (char)w;
    n_ = 3 - pad;
    p_ += 4;
  }
  const char *begin_ = nullptr, *p_ = nullptr, *end_ = nullptr;
  const std::string* what_ = nullptr;
  char buf_[3]{};
  int i_ = 0, n_ = 0;
};
}  // namespace

std::string base64_encode(std::span<const uint8_t> b) {
  std::string s;
  s.reserve((b.size() + 2) / 3 * 4);
  size_t i = 0;
  for (; i + 3 <= b.size(); i += 3) {
    uint32_t w = (uint32_t)b[i] << 16 | (uint32_t)b[i + 1] << 8 | b[i + 2];
    s += kB64[w >> 18];
    s += kB64[(w >> 12) & 63];
    s += kB64[(w >> 6) & 63];
    s += kB64[w & 63];
  }
  if (size_t r = b.size() - i) {
    uint32_t w = (uint32_t)b[i] << 16 | (r == 2 ? (uint32_t)b[i + 1] << 8 : 0);
    s += kB64[w >> 18];
    s += kB64[(w >> 12) & 63];
    s += r == 2 ? kB64[(w >> 6) & 63] : '=';
    s += '=';
  }
  return s;
}

std::vector<uint8_t> base64_decode(std::string_view text, const std::string& what) {
  std::vector<uint8_t> out;
  out.reserve(text.size() / 4 * 3);
  for (Base64Iter it(text.data(), text.data() + text.size(), &what), end; it != end; ++it)
    out.push_back((uint8_t)*it);
  return out;
}

// ---- reading ------------------------------------------------------------------------------------

namespace {

using json = nlohmann::json;
using circuits::PathLevel;
using circuits::StackedShape;
using circuits::TreeShape;

constexpr size_t kTotalParents = 37;  // storage-proofs-porep stacked/vanilla/proof.rs TOTAL_PARENTS

// A JSON path under construction: segments are appended while descending and removed on return.
struct Path {
  std::string s;
  struct [[nodiscard]] Guard {
    Path& p;
    size_t n;
    Guard(Path& p_, size_t n_) : p(p_), n(n_) {}
    Guard(const Guard&) = delete;
    ~Guard() { p.s.resize(n); }
  };
  Guard key(std::string_view k) {
    size_t n = s.size();
    if (n) s += '.';
    s += k;
    return Guard(*this, n);
  }
  Guard index(size_t i) {
    size_t n = s.size();
    s += '[';
    s += std::to_string(i);
    s += ']';
    return Guard(*this, n);
  }
};

[[noreturn]] void fail(const std::string& source, const std::string& path, const std::string& what) {
  throw Error(ErrorCode::kInvalidFile, source + ": " + (path.empty() ? "" : path + ": ") + what);
}

std::string describe(const json& j) {
  if (j.is_array()) return "an array of " + std::to_string(j.size());
  if (j.is_object()) return "an object";
  if (j.is_string()) return "a string";
  if (j.is_null()) return "null";
  if (j.is_boolean()) return "a boolean";
  if (j.is_number_unsigned()) return std::to_string(j.get<uint64_t>());
  if (j.is_number_integer()) return std::to_string(j.get<int64_t>());
  return "the number " + j.dump();
}

const char* kind_name(MerkleProofKind k) {
  return k == MerkleProofKind::kSingle ? "Single" : k == MerkleProofKind::kSub ? "Sub" : "Top";
}

bool is_zero(const Bytes32& b) {
  for (uint8_t x : b)
    if (x) return false;
  return true;
}

// Typed reads of small JSON trees (one vanilla proof, or one top-level value) with error paths.
class TreeReader {
 public:
  explicit TreeReader(const std::string& source) : source_(source) {}

  [[noreturn]] void fail(const Path& p, const std::string& what) const { cuzk::fail(source_, p.s, what); }

  void expect_object(const json& j, const Path& p) const {
    if (!j.is_object()) fail(p, "expected an object, found " + describe(j));
  }
  const json& expect_array(const json& j, const Path& p) const {
    if (!j.is_array()) fail(p, "expected an array, found " + describe(j));
    return j;
  }
  // The member `name` of object `obj` (whose path is p).
  const json& field(const json& obj, const char* name, const Path& p) const {
    auto it = obj.find(name);
    if (it == obj.end()) fail(p, std::string("missing field '") + name + "'");
    return *it;
  }
  uint64_t uint(const json& j, const Path& p, uint64_t max) const {
    if (!j.is_number_unsigned()) fail(p, "expected an unsigned integer, found " + describe(j));
    uint64_t v = j.get<uint64_t>();
    if (v > max) fail(p, std::to_string(v) + " is out of range (at most " + std::to_string(max) + ")");
    return v;
  }
  Bytes32 bytes32(const json& j, Path& p) const {
    if (!j.is_array() || j.size() != 32)
      fail(p, "expected an array of 32 integers 0..255, found " + describe(j));
    Bytes32 b;
    for (size_t i = 0; i < 32; i++) {
      const json& e = j[i];
      if (!e.is_number_unsigned() || e.get<uint64_t>() > 255) {
        auto g = p.index(i);
        fail(p, "expected a byte 0..255, found " + describe(e));
      }
      b[i] = (uint8_t)e.get<uint64_t>();
    }
    return b;
  }
  Fr fr(const json& j, Path& p) const {
    Bytes32 b = bytes32(j, p);
    Fr f;
    if (!from_bytes_le(b.data(), f))
      fail(p, "not a field element: the 32-byte little-endian value is ≥ r (BLS12-381's scalar field)");
    return f;
  }
  std::vector<Fr> fr_array(const json& j, Path& p, size_t want, const char* what) const {
    expect_array(j, p);
    if (j.size() != want)
      fail(p, std::to_string(j.size()) + " " + what + "; expected " + std::to_string(want));
    std::vector<Fr> v(want);
    for (size_t i = 0; i < want; i++) {
      auto g = p.index(i);
      v[i] = fr(j[i], p);
    }
    return v;
  }

 protected:
  const std::string& source_;
};

// Reads and validates vanilla proofs against the shape of the shape key, and checks that the roots
// agree across challenges and partitions.
class ProofReader : public TreeReader {
 public:
  ProofReader(const std::string& source, const StackedShape& shape) : TreeReader(source), shape_(shape) {}

  C1VanillaProof proof(const json& j, Path& p) {
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
    check_roots(v, p);
    return v;
  }

  // The first proof's roots (after at least one proof).
  const Fr& comm_d_root() const { return first_[0]; }
  const std::string& first_path() const { return first_path_; }

 private:
  // Every root must equal the first proof's: comm_d proofs, comm_r_last proofs, every column proof.
  void check_roots(const C1VanillaProof& v, Path& p) {
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
      cuzk::fail(source_, p.s + "." + rel + ".data." + kind_name(m.kind) + ".root",
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
  C1LabelingProof labeling(const json& j, Path& p, uint32_t layer, const uint64_t* node) {
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
  C1ColumnProof column(const json& j, Path& p, const uint64_t* node) {
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
  void segment(const json& j, Path& p, uint32_t arity, size_t levels, const char* tree,
               std::vector<PathLevel>& out) {
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
  C1MerkleProof merkle(const json& j, Path& p, const TreeShape& t, const char* tree, uint64_t node,
                       const char* node_name) {
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

  const StackedShape& shape_;
  bool have_first_ = false;
  std::array<Fr, 3> first_;
  std::string first_path_;
};

// Builds one JSON value from SAX events (a vanilla proof or a top-level value).
class DomBuilder {
 public:
  bool active() const { return active_; }
  void begin() {
    active_ = true;
    root_ = json();
    stack_.clear();
  }
  // Adds a scalar; true when it completes the root value.
  bool value(json&& v) {
    if (stack_.empty()) {
      root_ = std::move(v);
      active_ = false;
      return true;
    }
    add(std::move(v));
    return false;
  }
  void start(json&& container) {
    if (stack_.empty()) {
      root_ = std::move(container);
      stack_.push_back({&root_, {}});
    } else {
      json* c = add(std::move(container));
      stack_.push_back({c, {}});
    }
  }
  // Closes the innermost container; true when that completes the root value.
  bool end() {
    stack_.pop_back();
    if (stack_.empty()) {
      active_ = false;
      return true;
    }
    return false;
  }
  // Sets the next member's key; false if the object already has it.
  bool key(std::string&& k) {
    Frame& f = stack_.back();
    f.key = std::move(k);
    return !f.node->contains(f.key);
  }
  json take() { return std::move(root_); }
  // The path of the value being built, relative to the root ("" at the root).
  std::string path() const {
    std::string s;
    for (const Frame& f : stack_) {
      if (f.node->is_array()) {
        s += "[" + std::to_string(f.node->size() == 0 ? 0 : f.node->size() - 1) + "]";
      } else if (!f.key.empty()) {
        s += "." + f.key;
      }
    }
    return s;
  }

 private:
  struct Frame {
    json* node;
    std::string key;
  };
  json* add(json&& v) {
    Frame& f = stack_.back();
    if (f.node->is_array()) {
      f.node->push_back(std::move(v));
      return &f.node->back();
    }
    auto r = f.node->emplace(f.key, std::move(v));
    return &r.first.value();
  }
  bool active_ = false;
  json root_;
  std::vector<Frame> stack_;
};

// The shape key "StackedDrg<size>V1" → the size, or "" if it is not one.
std::string size_of_shape_key(const std::string& key) {
  for (const RegisteredSealProof& r : registered_seal_proofs())
    if (key == r.shape_key()) return std::string(r.size);
  return "";
}

// Where the string value of a top-level "Phase1Out" lies in `b` ([first, second) between the quotes)
// if `b` looks like Curio's envelope with an escape-free Phase1Out; nullopt otherwise, and at once for
// a raw C1 (its first key is a C1 field). A heuristic pre-scan only: the SAX parse validates.
std::optional<std::pair<size_t, size_t>> find_phase1_out(std::string_view b) {
  size_t i = 0;
  const size_t n = b.size();
  auto ws = [&] {
    while (i < n && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r')) i++;
  };
  auto skip_string = [&] {  // at '"'
    for (i++; i < n && b[i] != '"'; i++)
      if (b[i] == '\\') i++;
    if (i >= n) return false;
    i++;
    return true;
  };
  auto skip_value = [&] {
    ws();
    if (i >= n) return false;
    if (b[i] == '"') return skip_string();
    if (b[i] == '{' || b[i] == '[') {
      for (int depth = 0; i < n;) {
        const char c = b[i];
        if (c == '"') {
          if (!skip_string()) return false;
          continue;
        }
        if (c == '{' || c == '[') depth++;
        if ((c == '}' || c == ']') && --depth == 0) {
          i++;
          return true;
        }
        i++;
      }
      return false;
    }
    while (i < n && b[i] != ',' && b[i] != '}') i++;
    return true;
  };
  ws();
  if (i >= n || b[i] != '{') return std::nullopt;
  i++;
  for (;;) {
    ws();
    if (i >= n || b[i] != '"') return std::nullopt;
    const size_t k0 = i + 1;
    if (!skip_string()) return std::nullopt;
    const std::string_view key = b.substr(k0, i - 1 - k0);
    ws();
    if (i >= n || b[i] != ':') return std::nullopt;
    i++;
    ws();
    if (key == "Phase1Out") {
      if (i >= n || b[i] != '"') return std::nullopt;
      size_t j = i + 1;
      while (j < n && b[j] != '"' && b[j] != '\\') j++;
      if (j >= n || b[j] != '"') return std::nullopt;
      return std::pair{i + 1, j};
    }
    if (key == "registered_proof" || key == "vanilla_proofs" || key == "comm_r" || key == "comm_d")
      return std::nullopt;
    if (!skip_value()) return std::nullopt;
    ws();
    if (i >= n || b[i] != ',') return std::nullopt;
    i++;
  }
}

// Iterates over the input but jumps over [skip_from, skip_to) (the Phase1Out string's contents).
class SkipIter {
 public:
  using iterator_category = std::input_iterator_tag;
  using value_type = char;
  using difference_type = std::ptrdiff_t;
  using pointer = const char*;
  using reference = const char&;

  SkipIter(const char* p, const char* skip_from, const char* skip_to)
      : p_(p), from_(skip_from), to_(skip_to) {}
  reference operator*() const { return *p_; }
  SkipIter& operator++() {
    if (++p_ == from_) p_ = to_;
    return *this;
  }
  SkipIter operator++(int) {
    SkipIter t = *this;
    ++*this;
    return t;
  }
  bool operator==(const SkipIter& o) const { return p_ == o.p_; }

 private:
  const char *p_, *from_, *to_;
};

// The streaming reader: a SAX handler that walks the top level and vanilla_proofs itself and builds a
// JSON tree only for one top-level value or one vanilla proof at a time.
class C1Sax {
 public:
  C1Sax(const std::string& source, bool allow_envelope)
      : source_(source), allow_envelope_(allow_envelope), tree_(source) {}
  // The Phase1Out string lies at [begin, end) of the input and the parser sees it as "" (SkipIter).
  void set_phase1_out(const char* begin, const char* end, size_t offset) {
    phase1_begin_ = begin;
    phase1_end_ = end;
    skipped_at_ = offset;
    skipped_ = (size_t)(end - begin);
  }

  // nlohmann SAX interface.
  bool null() { return scalar(json(nullptr)); }
  bool boolean(bool b) { return scalar(json(b)); }
  bool number_integer(int64_t v) { return scalar(json(v)); }
  bool number_unsigned(uint64_t v) { return scalar(json(v)); }
  bool number_float(double v, const std::string&) { return scalar(json(v)); }
  bool binary(json::binary_t&) { return scalar(json()); }  // not produced by JSON text
  bool string(std::string& s) {
    if (!dom_.active() && st_ == St::kTopValue && top_key_ == "Phase1Out" && allow_envelope_) {
      if (!phase1_begin_) {  // not located by find_phase1_out: take the lexer's copy (no second one)
        phase1_out_ = std::move(s);
        phase1_begin_ = phase1_out_.data();
        phase1_end_ = phase1_out_.data() + phase1_out_.size();
      }
      have_phase1_out_ = true;
      st_ = St::kTop;
      return true;
    }
    return scalar(json(std::move(s)));
  }
  bool start_object(size_t) {
    if (dom_.active()) {
      dom_.start(json::object());
      return true;
    }
    switch (st_) {
      case St::kStart:
        st_ = St::kTop;
        return true;
      case St::kTopValue:
        if (top_key_ == "vanilla_proofs") {
          st_ = St::kVp;
          return true;
        }
        dom_.begin();
        dom_.start(json::object());
        return true;
      case St::kChallenges:
        dom_.begin();
        dom_.start(json::object());
        return true;
      default:
        return unexpected("an object");
    }
  }
  bool start_array(size_t) {
    if (dom_.active()) {
      dom_.start(json::array());
      return true;
    }
    switch (st_) {
      case St::kTopValue:
        if (top_key_ == "vanilla_proofs") return unexpected("an array");
        dom_.begin();
        dom_.start(json::array());
        return true;
      case St::kVpValue:
        st_ = St::kParts;
        return true;
      case St::kParts:
        out_.vanilla_proofs.emplace_back();
        st_ = St::kChallenges;
        return true;
      default:
        return unexpected("an array");
    }
  }
  bool key(std::string& k) {
    if (dom_.active()) {
      if (!dom_.key(std::move(k))) fail(where() + dom_.path(), "duplicate field");
      return true;
    }
    if (st_ == St::kTop) {
      if (!top_keys_.insert(k).second) fail(k, "duplicate field");
      top_key_ = k;
      st_ = St::kTopValue;
      return true;
    }
    // kVp: the variant of VanillaSealProof.
    if (!out_.shape_key.empty())
      fail("vanilla_proofs", "more than one key ('" + out_.shape_key + "' and '" + k +
                                 "'); VanillaSealProof has exactly one variant");
    out_.shape_key = k;
    std::string size = size_of_shape_key(k);
    if (size.empty())
      fail("vanilla_proofs." + k,
           "unknown shape key '" + k + "' (StackedDrg{2KiB,8MiB,512MiB,32GiB,64GiB}V1)");
    shape_ = circuits::stacked_shape(size);
    proofs_.emplace(source_, shape_);
    st_ = St::kVpValue;
    return true;
  }
  bool end_object() {
    if (dom_.active()) {
      if (dom_.end()) dispatch();
      return true;
    }
    if (st_ == St::kTop) {
      st_ = St::kDone;
      return true;
    }
    // kVp
    if (out_.shape_key.empty()) fail("vanilla_proofs", "no key: expected one of StackedDrg<size>V1");
    st_ = St::kTop;
    return true;
  }
  bool end_array() {
    if (dom_.active()) {
      if (dom_.end()) dispatch();
      return true;
    }
    if (st_ == St::kChallenges) {
      const size_t n = out_.vanilla_proofs.back().size();
      if (n != shape_.challenges)
        fail("vanilla_proofs." + out_.shape_key + "[" + std::to_string(out_.vanilla_proofs.size() - 1) + "]",
             std::to_string(n) + " challenges; a " + shape_.name + " partition has " +
                 std::to_string(shape_.challenges));
      st_ = St::kParts;
      return true;
    }
    // kParts
    st_ = St::kVp;
    return true;
  }
  bool parse_error(size_t pos, const std::string&, const nlohmann::detail::exception& e) {
    if (skipped_ && pos > skipped_at_) pos += skipped_;  // find_phase1_out's skipped string
    std::string w = where() + (dom_.active() ? dom_.path() : "");
    fail(w, "malformed JSON at byte " + std::to_string(pos) + ": " + e.what());
  }

  // After a successful parse: the C1 (validated) or, for an envelope, the decoded inner JSON.
  C1Output finish() {
    if (have_phase1_out_) return finish_envelope();
    for (const char* k :
         {"registered_proof", "vanilla_proofs", "comm_r", "comm_d", "replica_id", "seed", "ticket"})
      if (!top_keys_.count(k)) fail("", std::string("missing field '") + k + "'");
    const RegisteredSealProof& rp = out_.registered_proof;
    if (out_.shape_key != rp.shape_key())
      fail("vanilla_proofs." + out_.shape_key, "the shape key does not match registered_proof " +
                                                   std::string(rp.name) + " (whose key is " + rp.shape_key() +
                                                   ")");
    if (out_.vanilla_proofs.size() != rp.partitions)
      fail("vanilla_proofs." + out_.shape_key, std::to_string(out_.vanilla_proofs.size()) + " partitions; " +
                                                   std::string(rp.name) + " has " +
                                                   std::to_string(rp.partitions));
    // challenges per partition were checked per partition against the shape; the registered proof
    // agrees with the shape (same size), asserted here for safety.
    if (rp.challenges_per_partition != shape_.challenges)
      throw Error(ErrorCode::kInternal, "registered proof table and circuit shapes disagree");
    for (auto [name, b] :
         {std::pair{"comm_r", &out_.comm_r}, {"comm_d", &out_.comm_d}, {"replica_id", &out_.replica_id}}) {
      Fr f;
      if (!from_bytes_le(b->data(), f))
        fail(name, "not a field element: the 32-byte little-endian value is ≥ r (BLS12-381's scalar field)");
    }
    for (auto [name, b] : {std::pair{"comm_r", &out_.comm_r}, {"comm_d", &out_.comm_d}, {"seed", &out_.seed}})
      if (is_zero(*b)) fail(name, "is zero (C2 refuses an all-zero commitment or seed)");
    Fr comm_d;
    from_bytes_le(out_.comm_d.data(), comm_d);
    if (!(proofs_->comm_d_root() == comm_d))
      fail("comm_d", "differs from the root of the comm_d proofs (" + proofs_->first_path() +
                         ".comm_d_proofs.data.Single.root)");
    return std::move(out_);
  }

 private:
  enum class St { kStart, kTop, kTopValue, kVp, kVpValue, kParts, kChallenges, kDone };

  [[noreturn]] void fail(const std::string& path, const std::string& what) const {
    cuzk::fail(source_, path, what);
  }
  // The path of the current position outside a captured value.
  std::string where() const {
    switch (st_) {
      case St::kStart:
      case St::kTop:  // between members
      case St::kDone:
        return "";
      case St::kTopValue:
        return top_key_;
      case St::kVp:
        return "vanilla_proofs";
      case St::kVpValue:
        return "vanilla_proofs." + out_.shape_key;
      case St::kParts:
        return "vanilla_proofs." + out_.shape_key + "[" + std::to_string(out_.vanilla_proofs.size()) + "]";
      case St::kChallenges:
        return "vanilla_proofs." + out_.shape_key + "[" + std::to_string(out_.vanilla_proofs.size() - 1) +
               "][" + std::to_string(out_.vanilla_proofs.back().size()) + "]";
    }
    return "";
  }
  bool unexpected(const char* found) {
    switch (st_) {
      case St::kStart:
        fail("", std::string("expected a JSON object, found ") + found);
      case St::kTopValue:
        fail("vanilla_proofs", std::string("expected an object {\"StackedDrg<size>V1\": …}, found ") + found);
      case St::kVpValue:
        fail(where(), std::string("expected an array of partitions, found ") + found);
      case St::kParts:
        fail(where(), std::string("expected an array of challenges (a partition), found ") + found);
      case St::kChallenges:
        fail(where(), std::string("expected a vanilla proof object, found ") + found);
      default:
        fail(where(), std::string("unexpected ") + found);
    }
    return false;
  }
  bool scalar(json&& v) {
    if (dom_.active()) {
      if (dom_.value(std::move(v))) dispatch();
      return true;
    }
    if (st_ == St::kTopValue && top_key_ != "vanilla_proofs") {
      dom_.begin();
      dom_.value(std::move(v));
      dispatch();
      return true;
    }
    return unexpected(v.is_string() ? "a string" : "a scalar");
  }
  // A captured value is complete.
  void dispatch() {
    json v = dom_.take();
    if (st_ == St::kChallenges) {
      Path p;
      p.s = where();
      out_.vanilla_proofs.back().push_back(proofs_->proof(v, p));
      return;
    }
    // A top-level value.
    Path p;
    auto g = p.key(top_key_);
    if (top_key_ == "registered_proof") {
      if (!v.is_string()) tree_.fail(p, "expected a string, found " + describe(v));
      try {
        out_.registered_proof = registered_seal_proof(v.get_ref<const std::string&>());
      } catch (const Error& e) {
        tree_.fail(p, e.what());
      }
    } else if (top_key_ == "comm_r") {
      out_.comm_r = tree_.bytes32(v, p);
    } else if (top_key_ == "comm_d") {
      out_.comm_d = tree_.bytes32(v, p);
    } else if (top_key_ == "replica_id") {
      out_.replica_id = tree_.bytes32(v, p);
    } else if (top_key_ == "seed") {
      out_.seed = tree_.bytes32(v, p);
    } else if (top_key_ == "ticket") {
      out_.ticket = tree_.bytes32(v, p);
    } else if (allow_envelope_ && top_key_ == "SectorNum") {
      sector_num_ = tree_.uint(v, p, UINT64_MAX);
    } else if (allow_envelope_ && top_key_ == "SectorSize") {
      sector_size_ = tree_.uint(v, p, UINT64_MAX);
    } else if (allow_envelope_ && top_key_ == "Phase1Out") {
      tree_.fail(p, "expected a base64 string, found " + describe(v));
    }  // other fields are ignored, as serde does
    st_ = St::kTop;
  }

  C1Output finish_envelope() {
    for (const char* k :
         {"registered_proof", "vanilla_proofs", "comm_r", "comm_d", "replica_id", "seed", "ticket"})
      if (top_keys_.count(k))
        fail(k, "a C1 field next to Phase1Out: neither a C1 output nor Curio's envelope");
    for (const char* k : {"SectorNum", "SectorSize"})
      if (!top_keys_.count(k)) fail("", std::string("Curio envelope: missing field '") + k + "'");
    const std::string inner_source = source_ + ": Phase1Out";
    C1Sax inner(inner_source, false);
    // The base64 is checked first (a JSON error must not mask a base64 one), then decoded while the
    // inner JSON is parsed: the decoded JSON is never held.
    Base64Iter::check(phase1_begin_, phase1_end_, inner_source);
    nlohmann::json::sax_parse(Base64Iter(phase1_begin_, phase1_end_, &inner_source), Base64Iter(), &inner);
    std::string().swap(phase1_out_);
    C1Output c1 = inner.finish();
    if (sector_size_ != c1.registered_proof.sector_size)
      fail("SectorSize", std::to_string(sector_size_) + " differs from the sector size of " +
                             std::string(c1.registered_proof.name) + " (" +
                             std::to_string(c1.registered_proof.sector_size) + ")");
    c1.envelope = C1Envelope{sector_num_, sector_size_};
    return c1;
  }

  const std::string& source_;
  bool allow_envelope_;
  TreeReader tree_;
  St st_ = St::kStart;
  std::set<std::string> top_keys_;
  std::string top_key_;
  DomBuilder dom_;
  StackedShape shape_;
  std::optional<ProofReader> proofs_;
  C1Output out_;
  std::string phase1_out_;  // the lexer's copy of Phase1Out, when it was not located in the input
  const char *phase1_begin_ = nullptr, *phase1_end_ = nullptr;
  size_t skipped_at_ = 0, skipped_ = 0;
  bool have_phase1_out_ = false;
  uint64_t sector_num_ = 0, sector_size_ = 0;
};

}  // namespace

C1Output read_c1(std::span<const uint8_t> bytes, const std::string& source) {
  const char* b = reinterpret_cast<const char*>(bytes.data());
  C1Sax sax(source, true);
  if (auto r = find_phase1_out(std::string_view(b, bytes.size()))) {
    // Curio's envelope: parse it with the (large) Phase1Out string skipped, then decode and parse
    // that string in one pass.
    sax.set_phase1_out(b + r->first, b + r->second, r->first);
    nlohmann::json::sax_parse(SkipIter(b, b + r->first, b + r->second),
                              SkipIter(b + bytes.size(), nullptr, nullptr), &sax);
  } else {
    nlohmann::json::sax_parse(b, b + bytes.size(), &sax);
  }
  return sax.finish();
}

// ---- writing ------------------------------------------------------------------------------------

namespace {

class Writer {
 public:
  std::string s;

  void raw(std::string_view t) { s += t; }
  void u64(uint64_t v) {
    char buf[24];
    auto r = std::to_chars(buf, buf + sizeof buf, v);
    s.append(buf, r.ptr);
  }
  void bytes(const uint8_t* b) {
    s += '[';
    for (int i = 0; i < 32; i++) {
      if (i) s += ',';
      u64(b[i]);
    }
    s += ']';
  }
  void fr(const Fr& f) {
    uint8_t b[32];
    to_bytes_le(f, b);
    bytes(b);
  }
  void frs(const std::vector<Fr>& v) {
    s += '[';
    for (size_t i = 0; i < v.size(); i++) {
      if (i) s += ',';
      fr(v[i]);
    }
    s += ']';
  }
  void segment(std::span<const circuits::PathLevel> levels) {
    raw("{\"path\":[");
    for (size_t i = 0; i < levels.size(); i++) {
      if (i) s += ',';
      raw("{\"hashes\":");
      frs(levels[i].siblings);
      raw(",\"index\":");
      u64(levels[i].index);
      s += '}';
    }
    raw("]}");
  }
  void merkle(const C1MerkleProof& m) {
    std::span<const circuits::PathLevel> p(m.path);
    auto root_leaf = [&] {
      raw("\"root\":");
      fr(m.root);
      raw(",\"leaf\":");
      fr(m.leaf);
    };
    if (m.kind == MerkleProofKind::kSingle) {
      raw("{\"data\":{\"Single\":{");
      root_leaf();
      raw(",\"path\":");
      segment(p);
      raw("}}}");
      return;
    }
    const size_t tail = m.kind == MerkleProofKind::kSub ? 1 : 2;
    if (p.size() < tail)
      throw Error(ErrorCode::kInvalidArgument, std::string("write_c1_json: a ") + kind_name(m.kind) +
                                                   " Merkle proof needs at least " + std::to_string(tail) +
                                                   " levels");
    const size_t base = p.size() - tail;
    raw(m.kind == MerkleProofKind::kSub ? "{\"data\":{\"Sub\":{\"base_proof\":"
                                        : "{\"data\":{\"Top\":{\"base_proof\":");
    segment(p.subspan(0, base));
    raw(",\"sub_proof\":");
    segment(p.subspan(base, 1));
    if (m.kind == MerkleProofKind::kTop) {
      raw(",\"top_proof\":");
      segment(p.subspan(base + 1, 1));
    }
    s += ',';
    root_leaf();
    raw("}}}");
  }
  void column(const C1ColumnProof& c) {
    raw("{\"column\":{\"index\":");
    u64(c.index);
    raw(",\"rows\":");
    frs(c.rows);
    raw(",\"_h\":null},\"inclusion_proof\":");
    merkle(c.inclusion_proof);
    s += '}';
  }
  void columns(const std::vector<C1ColumnProof>& v) {
    s += '[';
    for (size_t i = 0; i < v.size(); i++) {
      if (i) s += ',';
      column(v[i]);
    }
    s += ']';
  }
  void labeling(const C1LabelingProof& l) {
    raw("{\"parents\":");
    frs(l.parents);
    raw(",\"layer_index\":");
    u64(l.layer_index);
    raw(",\"node\":");
    u64(l.node);
    s += '}';
  }
  void proof(const C1VanillaProof& v) {
    raw("{\"comm_d_proofs\":");
    merkle(v.comm_d_proofs);
    raw(",\"comm_r_last_proof\":");
    merkle(v.comm_r_last_proof);
    raw(",\"replica_column_proofs\":{\"c_x\":");
    column(v.replica_column_proofs.c_x);
    raw(",\"drg_parents\":");
    columns(v.replica_column_proofs.drg_parents);
    raw(",\"exp_parents\":");
    columns(v.replica_column_proofs.exp_parents);
    raw("},\"labeling_proofs\":[");
    for (size_t i = 0; i < v.labeling_proofs.size(); i++) {
      if (i) s += ',';
      labeling(v.labeling_proofs[i]);
    }
    raw("],\"encoding_proof\":");
    labeling(v.encoding_proof);
    s += '}';
  }
};

// A rough size of the output, to reserve it once (each Fr is ≤ 32·4 + 1 characters).
size_t estimate(const C1Output& c1) {
  size_t frs = 0;
  for (const auto& part : c1.vanilla_proofs)
    for (const C1VanillaProof& v : part) {
      auto m = [&](const C1MerkleProof& p) {
        frs += 2;
        for (const auto& l : p.path) frs += l.siblings.size() + 1;
      };
      m(v.comm_d_proofs);
      m(v.comm_r_last_proof);
      auto c = [&](const C1ColumnProof& x) {
        frs += x.rows.size();
        m(x.inclusion_proof);
      };
      c(v.replica_column_proofs.c_x);
      for (const auto& x : v.replica_column_proofs.drg_parents) c(x);
      for (const auto& x : v.replica_column_proofs.exp_parents) c(x);
      for (const auto& l : v.labeling_proofs) frs += l.parents.size() + 1;
      frs += v.encoding_proof.parents.size() + 1;
    }
  return 1024 + frs * 120;
}

}  // namespace

std::string write_c1_json(const C1Output& c1) {
  Writer w;
  w.s.reserve(estimate(c1));
  w.raw("{\"registered_proof\":\"");
  w.raw(c1.registered_proof.name);
  w.raw("\",\"vanilla_proofs\":{\"");
  w.raw(c1.shape_key.empty() ? c1.registered_proof.shape_key() : c1.shape_key);
  w.raw("\":[");
  for (size_t k = 0; k < c1.vanilla_proofs.size(); k++) {
    if (k) w.s += ',';
    w.s += '[';
    for (size_t i = 0; i < c1.vanilla_proofs[k].size(); i++) {
      if (i) w.s += ',';
      w.proof(c1.vanilla_proofs[k][i]);
    }
    w.s += ']';
  }
  w.raw("]},\"comm_r\":");
  w.bytes(c1.comm_r.data());
  w.raw(",\"comm_d\":");
  w.bytes(c1.comm_d.data());
  w.raw(",\"replica_id\":");
  w.bytes(c1.replica_id.data());
  w.raw(",\"seed\":");
  w.bytes(c1.seed.data());
  w.raw(",\"ticket\":");
  w.bytes(c1.ticket.data());
  w.s += '}';
  return std::move(w.s);
}

std::string write_c1_envelope_json(const C1Output& c1, uint64_t sector_num) {
  std::string inner = write_c1_json(c1);
  std::string b64 = base64_encode(std::span(reinterpret_cast<const uint8_t*>(inner.data()), inner.size()));
  std::string().swap(inner);
  std::string s = "{\"SectorNum\":" + std::to_string(sector_num) + ",\"Phase1Out\":\"";
  s.reserve(s.size() + b64.size() + 40);
  s += b64;
  s += "\",\"SectorSize\":" + std::to_string(c1.registered_proof.sector_size) + "}";
  return s;
}

// ---- the circuit's view -------------------------------------------------------------------------

circuits::StackedShape shape_of(const C1Output& c1) {
  return circuits::stacked_shape(std::string(c1.registered_proof.size));
}

namespace {
bool same_tree(const TreeShape& a, const TreeShape& b) {
  return a.base_arity == b.base_arity && a.base_levels == b.base_levels && a.sub_arity == b.sub_arity &&
         a.top_arity == b.top_arity;
}
const std::vector<C1VanillaProof>& partition_of(const C1Output& c1, size_t partition) {
  if (partition >= c1.vanilla_proofs.size() || c1.vanilla_proofs[partition].empty())
    throw Error(ErrorCode::kInvalidArgument,
                "C1 " + std::string(c1.registered_proof.name) + ": partition " + std::to_string(partition) +
                    " of " + std::to_string(c1.vanilla_proofs.size()) + " does not exist or is empty");
  return c1.vanilla_proofs[partition];
}
Fr fr_of(const Bytes32& b, const char* name) {
  Fr f;
  if (!from_bytes_le(b.data(), f))
    throw Error(ErrorCode::kInvalidArgument, std::string("C1 ") + name + " is not a field element (≥ r)");
  return f;
}
}  // namespace

std::vector<uint64_t> partition_challenges(const C1Output& c1, size_t partition) {
  std::vector<uint64_t> r;
  for (const C1VanillaProof& v : partition_of(c1, partition)) {
    if (v.labeling_proofs.empty())
      throw Error(ErrorCode::kInvalidArgument, "C1 vanilla proof without labeling proofs");
    r.push_back(v.labeling_proofs[0].node);
  }
  return r;
}

std::vector<std::array<uint64_t, 14>> partition_parents(const C1Output& c1, size_t partition) {
  std::vector<std::array<uint64_t, 14>> r;
  for (const C1VanillaProof& v : partition_of(c1, partition)) {
    const C1ReplicaColumnProof& rc = v.replica_column_proofs;
    if (rc.drg_parents.size() != circuits::kDrgParents || rc.exp_parents.size() != circuits::kExpParents)
      throw Error(ErrorCode::kInvalidArgument,
                  "C1 vanilla proof with " + std::to_string(rc.drg_parents.size()) + " DRG and " +
                      std::to_string(rc.exp_parents.size()) + " expander parents (6 and 8 expected)");
    std::array<uint64_t, 14> a;
    for (size_t i = 0; i < 6; i++) a[i] = rc.drg_parents[i].index;
    for (size_t i = 0; i < 8; i++) a[6 + i] = rc.exp_parents[i].index;
    r.push_back(a);
  }
  return r;
}

std::vector<Fr> partition_public_inputs(const C1Output& c1, size_t partition) {
  auto fr = [](const Bytes32& b) {
    Fr x;
    if (!from_bytes_le(b.data(), x))
      throw Error(ErrorCode::kInvalidArgument, "C1: a commitment is not in Fr");
    return x;
  };
  return circuits::stacked_public_inputs(fr(c1.replica_id), fr(c1.comm_d), fr(c1.comm_r),
                                         partition_challenges(c1, partition),
                                         partition_parents(c1, partition));
}

circuits::StackedWitness partition_witness(const C1Output& c1, size_t partition,
                                           const circuits::StackedShape& shape) {
  const std::vector<C1VanillaProof>& proofs = partition_of(c1, partition);
  const circuits::StackedShape own = shape_of(c1);
  if (own.nodes != shape.nodes || own.layers != shape.layers || own.challenges != shape.challenges ||
      !same_tree(own.tree_d, shape.tree_d) || !same_tree(own.tree_rc, shape.tree_rc))
    throw Error(ErrorCode::kInvalidArgument,
                "partition_witness: shape '" + shape.name + "' does not fit C1 of " +
                    std::string(c1.registered_proof.name) + " (shape '" + own.name + "')");
  if (proofs.size() != shape.challenges)
    throw Error(ErrorCode::kInvalidArgument, "partition_witness: partition " + std::to_string(partition) +
                                                 " has " + std::to_string(proofs.size()) +
                                                 " challenges; shape '" + shape.name + "' takes " +
                                                 std::to_string(shape.challenges));
  std::vector<uint64_t> challenges = partition_challenges(c1, partition);
  partition_parents(c1, partition);  // checks the parent counts
  circuits::StackedWitness w;
  w.replica_id = fr_of(c1.replica_id, "replica_id");
  w.comm_d = fr_of(c1.comm_d, "comm_d");
  w.comm_r = fr_of(c1.comm_r, "comm_r");
  w.comm_r_last = proofs[0].comm_r_last_proof.root;
  w.comm_c = proofs[0].replica_column_proofs.c_x.inclusion_proof.root;
  w.challenges.reserve(proofs.size());
  for (size_t i = 0; i < proofs.size(); i++) {
    const C1VanillaProof& v = proofs[i];
    circuits::ChallengeWitness c;
    c.challenge = challenges[i];
    c.data_leaf = v.comm_d_proofs.leaf;
    c.comm_d_path = v.comm_d_proofs.path;
    for (const C1ColumnProof& p : v.replica_column_proofs.drg_parents)
      c.drg_parents.push_back({p.rows, p.inclusion_proof.path});
    for (const C1ColumnProof& p : v.replica_column_proofs.exp_parents)
      c.exp_parents.push_back({p.rows, p.inclusion_proof.path});
    c.comm_r_last_path = v.comm_r_last_proof.path;
    c.comm_c_path = v.replica_column_proofs.c_x.inclusion_proof.path;
    w.challenges.push_back(std::move(c));
  }
  return w;
}

}  // namespace cuzk
