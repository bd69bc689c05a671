#include "formats/post_vanilla.hpp"

#include <nlohmann/json.hpp>
#include <set>

#include "hash/fr32.hpp"
#include "hash/poseidon.hpp"
#include "hash/sha256.hpp"
#include "util/error.hpp"

namespace cuzk {

using circuits::PathLevel;
using circuits::PostApiVersion;
using circuits::PostShape;
using circuits::PostType;
using circuits::TreeShape;

circuits::PostShape RegisteredPostProof::shape() const {
  return circuits::post_shape(type, std::string(size));
}

std::span<const RegisteredPostProof> registered_post_proofs() {
  using enum PostType;
  constexpr PostApiVersion v1 = PostApiVersion::kV1_0_0, v12 = PostApiVersion::kV1_2_0;
  static const RegisteredPostProof table[] = {{0, "StackedDrgWinning2KiBV1", "2KiB", kWinning, v1},
                                              {1, "StackedDrgWinning8MiBV1", "8MiB", kWinning, v1},
                                              {2, "StackedDrgWinning512MiBV1", "512MiB", kWinning, v1},
                                              {3, "StackedDrgWinning32GiBV1", "32GiB", kWinning, v1},
                                              {4, "StackedDrgWinning64GiBV1", "64GiB", kWinning, v1},
                                              {5, "StackedDrgWindow2KiBV1", "2KiB", kWindow, v1},
                                              {6, "StackedDrgWindow8MiBV1", "8MiB", kWindow, v1},
                                              {7, "StackedDrgWindow512MiBV1", "512MiB", kWindow, v1},
                                              {8, "StackedDrgWindow32GiBV1", "32GiB", kWindow, v1},
                                              {9, "StackedDrgWindow64GiBV1", "64GiB", kWindow, v1},
                                              {10, "StackedDrgWindow2KiBV1_2", "2KiB", kWindow, v12},
                                              {11, "StackedDrgWindow8MiBV1_2", "8MiB", kWindow, v12},
                                              {12, "StackedDrgWindow512MiBV1_2", "512MiB", kWindow, v12},
                                              {13, "StackedDrgWindow32GiBV1_2", "32GiB", kWindow, v12},
                                              {14, "StackedDrgWindow64GiBV1_2", "64GiB", kWindow, v12}};
  return table;
}

const RegisteredPostProof& registered_post_proof_by_id(uint64_t id) {
  if (id >= registered_post_proofs().size())
    throw Error(ErrorCode::kInvalidArgument,
                "unknown registered PoSt proof " + std::to_string(id) + " (0-4 Winning, 5-14 Window)");
  return registered_post_proofs()[id];
}

const RegisteredPostProof& registered_post_proof(std::string_view name) {
  for (const RegisteredPostProof& p : registered_post_proofs()) {
    if (p.name == name) return p;
    // filecoin-ffi calls the API's V1_2 window proofs V1_1.
    if (p.api == PostApiVersion::kV1_2_0 && name.ends_with("V1_1") &&
        name.substr(0, name.size() - 1) == p.name.substr(0, p.name.size() - 1))
      return p;
  }
  throw Error(ErrorCode::kInvalidArgument, "unknown registered PoSt proof '" + std::string(name) + "'");
}

namespace {

// A bincode cursor that names the offset and the field of every problem.
class Reader {
 public:
  Reader(std::span<const uint8_t> b, const std::string& source) : b_(b), source_(source) {}
  [[noreturn]] void fail(const std::string& field, const std::string& what) const {
    throw Error(ErrorCode::kInvalidFile,
                source_ + ": byte " + std::to_string(pos_) + ": " + field + ": " + what);
  }
  const uint8_t* take(size_t n, const std::string& field) {
    if (b_.size() - pos_ < n)
      fail(field, "truncated (" + std::to_string(n) + " bytes needed, " + std::to_string(b_.size() - pos_) +
                      " left)");
    const uint8_t* p = b_.data() + pos_;
    pos_ += n;
    return p;
  }
  uint64_t u64(const std::string& field) {
    const uint8_t* p = take(8, field);
    uint64_t r = 0;
    for (int i = 7; i >= 0; i--) r = (r << 8) | p[i];
    return r;
  }
  uint32_t u32(const std::string& field) {
    const uint8_t* p = take(4, field);
    return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
  }
  // A Vec's length, each entry at least `min_entry` bytes.
  uint64_t len(const std::string& field, size_t min_entry) {
    const uint64_t n = u64(field + " length");
    if (min_entry && n > (b_.size() - pos_) / min_entry)
      fail(field, "length " + std::to_string(n) + ": more entries than the " +
                      std::to_string(b_.size() - pos_) + " bytes left can hold (truncated or corrupt)");
    return n;
  }
  Fr fr(const std::string& field) {
    const size_t at = pos_;
    const uint8_t* p = take(32, field);
    Fr r;
    if (!fr_from_bytes(p, r)) {
      pos_ = at;
      fail(field, "not a field element (≥ r)");
    }
    return r;
  }
  bool done() const { return pos_ == b_.size(); }
  size_t pos() const { return pos_; }

 private:
  std::span<const uint8_t> b_;
  std::string source_;
  size_t pos_ = 0;
};

// One InclusionPath of `levels` levels of `arity`, appended to out.
void read_path(Reader& r, const std::string& field, uint32_t arity, size_t levels,
               std::vector<PathLevel>& out) {
  const uint64_t n = r.len(field + ".path", 16);
  if (n != levels)
    r.fail(field + ".path", std::to_string(n) + " levels; the tree has " + std::to_string(levels));
  for (uint64_t i = 0; i < n; i++) {
    const std::string at = field + ".path[" + std::to_string(i) + "]";
    PathLevel l;
    const uint64_t h = r.len(at + ".hashes", 32);
    if (h + 1 != arity)
      r.fail(at + ".hashes", std::to_string(h) + " siblings for arity " + std::to_string(arity));
    for (uint64_t k = 0; k < h; k++) l.siblings.push_back(r.fr(at + ".hashes[" + std::to_string(k) + "]"));
    const uint64_t index = r.u64(at + ".index");
    if (index >= arity) r.fail(at + ".index", std::to_string(index) + " ≥ arity " + std::to_string(arity));
    l.index = (uint32_t)index;
    out.push_back(std::move(l));
  }
}

C1MerkleProof read_merkle(Reader& r, const std::string& field, const TreeShape& t) {
  C1MerkleProof m;
  const uint32_t variant = r.u32(field + ".data");
  if (variant > 2)
    r.fail(field + ".data", "unknown MerkleProof variant " + std::to_string(variant) + " (0-2)");
  m.kind = MerkleProofKind(variant);
  if (m.kind != merkle_proof_kind(t))
    r.fail(field + ".data", std::string("a ") +
                                (variant == 0   ? "Single"
                                 : variant == 1 ? "Sub"
                                                : "Top") +
                                " proof for a tree that takes " +
                                (t.top_arity   ? "Top"
                                 : t.sub_arity ? "Sub"
                                               : "Single"));
  const std::string data = field + ".data." + (variant == 0 ? "Single" : variant == 1 ? "Sub" : "Top");
  if (m.kind == MerkleProofKind::kSingle) {
    m.root = r.fr(data + ".root");
    m.leaf = r.fr(data + ".leaf");
    read_path(r, data + ".path", t.base_arity, t.base_levels, m.path);
  } else {
    read_path(r, data + ".base_proof", t.base_arity, t.base_levels, m.path);
    read_path(r, data + ".sub_proof", t.sub_arity, 1, m.path);
    if (m.kind == MerkleProofKind::kTop) read_path(r, data + ".top_proof", t.top_arity, 1, m.path);
    m.root = r.fr(data + ".root");
    m.leaf = r.fr(data + ".leaf");
  }
  return m;
}

// bincode writer.
struct Writer {
  std::vector<uint8_t> out;
  void u64(uint64_t v) {
    for (int i = 0; i < 8; i++) out.push_back(uint8_t(v >> (8 * i)));
  }
  void u32(uint32_t v) {
    for (int i = 0; i < 4; i++) out.push_back(uint8_t(v >> (8 * i)));
  }
  void fr(const Fr& x) {
    const auto b = fr_to_bytes(x);
    out.insert(out.end(), b.begin(), b.end());
  }
  void path(std::span<const PathLevel> p) {
    u64(p.size());
    for (const PathLevel& l : p) {
      u64(l.siblings.size());
      for (const Fr& s : l.siblings) fr(s);
      u64(l.index);
    }
  }
  void merkle(const C1MerkleProof& m) {
    u32(uint32_t(m.kind));
    if (m.kind == MerkleProofKind::kSingle) {
      fr(m.root);
      fr(m.leaf);
      path(m.path);
      return;
    }
    const size_t tail = m.kind == MerkleProofKind::kSub ? 1 : 2;
    if (m.path.size() < tail)
      throw Error(ErrorCode::kInvalidArgument,
                  "PoSt vanilla proof: a compound Merkle proof with too few levels");
    const std::span<const PathLevel> all(m.path);
    path(all.first(all.size() - tail));
    for (size_t i = all.size() - tail; i < all.size(); i++) path(all.subspan(i, 1));
    fr(m.root);
    fr(m.leaf);
  }
};

// The root `p` hashes up to from `leaf`, and the leaf's index (mixed radix), natively.
Fr native_root(const Fr& leaf, std::span<const PathLevel> p) {
  Fr cur = leaf;
  std::vector<Fr> children;
  for (const PathLevel& l : p) {
    children = l.siblings;
    children.insert(children.begin() + l.index, cur);
    cur = poseidon_hash(children, poseidon_constants((int)children.size()));
  }
  return cur;
}

}  // namespace

PostVanillaProof read_post_vanilla_proof(std::span<const uint8_t> bytes, const TreeShape& tree,
                                         const std::string& source) {
  Reader r(bytes, source);
  PostVanillaProof p;
  p.sector_id = r.u64("sector_id");
  p.comm_r = r.fr("comm_r");
  // A SectorProof is at least 8 + 32 + 32 bytes, a Single MerkleProof at least 4 + 64 + 8.
  const uint64_t n = r.len("vanilla_proof.sectors", 72);
  for (uint64_t s = 0; s < n; s++) {
    const std::string at = "vanilla_proof.sectors[" + std::to_string(s) + "]";
    PostSectorProof sp;
    const uint64_t c = r.len(at + ".inclusion_proofs", 76);
    for (uint64_t i = 0; i < c; i++)
      sp.inclusion_proofs.push_back(
          read_merkle(r, at + ".inclusion_proofs[" + std::to_string(i) + "]", tree));
    sp.comm_c = r.fr(at + ".comm_c");
    sp.comm_r_last = r.fr(at + ".comm_r_last");
    p.sectors.push_back(std::move(sp));
  }
  if (!r.done())
    r.fail("FallbackPoStSectorProof",
           std::to_string(bytes.size() - r.pos()) + " trailing bytes after the proof");
  return p;
}

std::vector<uint8_t> write_post_vanilla_proof(const PostVanillaProof& p) {
  Writer w;
  w.u64(p.sector_id);
  w.fr(p.comm_r);
  w.u64(p.sectors.size());
  for (const PostSectorProof& s : p.sectors) {
    w.u64(s.inclusion_proofs.size());
    for (const C1MerkleProof& m : s.inclusion_proofs) w.merkle(m);
    w.fr(s.comm_c);
    w.fr(s.comm_r_last);
  }
  return std::move(w.out);
}

namespace {

using json = nlohmann::json;

// A DOM walker that names the JSON path of every problem.
struct JsonReader {
  std::string source;
  [[noreturn]] void fail(const std::string& at, const std::string& what) const {
    throw Error(ErrorCode::kInvalidFile, source + ": " + at + ": " + what);
  }
  const json& get(const json& j, const std::string& at, const char* key, json::value_t type) const {
    if (!j.is_object()) fail(at, "not an object");
    auto it = j.find(key);
    if (it == j.end()) fail(at.empty() ? key : at + "." + key, "missing");
    if (it->type() != type && !(type == json::value_t::number_unsigned && it->is_number_unsigned()))
      fail(at.empty() ? key : at + "." + key,
           std::string("not ") + (type == json::value_t::array    ? "an array"
                                  : type == json::value_t::object ? "an object"
                                                                  : "an unsigned integer"));
    return *it;
  }
  Fr fr(const json& j, const std::string& at) const {
    if (!j.is_array() || j.size() != 32) fail(at, "not an array of 32 bytes");
    uint8_t b[32];
    for (size_t i = 0; i < 32; i++) {
      if (!j[i].is_number_unsigned() || j[i].get<uint64_t>() > 255) fail(at, "not an array of 32 bytes");
      b[i] = (uint8_t)j[i].get<uint64_t>();
    }
    Fr r;
    if (!fr_from_bytes(b, r)) fail(at, "not a field element (≥ r)");
    return r;
  }
  void path(const json& j, const std::string& at, uint32_t arity, size_t levels,
            std::vector<PathLevel>& out) const {
    const json& p = get(j, at, "path", json::value_t::array);
    if (p.size() != levels)
      fail(at + ".path", std::to_string(p.size()) + " levels; the tree has " + std::to_string(levels));
    for (size_t i = 0; i < p.size(); i++) {
      const std::string e = at + ".path[" + std::to_string(i) + "]";
      const json& h = get(p[i], e, "hashes", json::value_t::array);
      if (h.size() + 1 != arity)
        fail(e + ".hashes", std::to_string(h.size()) + " siblings for arity " + std::to_string(arity));
      PathLevel l;
      for (size_t k = 0; k < h.size(); k++)
        l.siblings.push_back(fr(h[k], e + ".hashes[" + std::to_string(k) + "]"));
      const uint64_t index = get(p[i], e, "index", json::value_t::number_unsigned).get<uint64_t>();
      if (index >= arity) fail(e + ".index", std::to_string(index) + " ≥ arity " + std::to_string(arity));
      l.index = (uint32_t)index;
      out.push_back(std::move(l));
    }
  }
  C1MerkleProof merkle(const json& j, const std::string& at, const TreeShape& t) const {
    const json& d = get(j, at, "data", json::value_t::object);
    if (d.size() != 1) fail(at + ".data", "not one of Single, Sub, Top");
    const std::string variant = d.begin().key();
    C1MerkleProof m;
    if (variant == "Single")
      m.kind = MerkleProofKind::kSingle;
    else if (variant == "Sub")
      m.kind = MerkleProofKind::kSub;
    else if (variant == "Top")
      m.kind = MerkleProofKind::kTop;
    else
      fail(at + ".data", "unknown MerkleProof variant '" + variant + "' (Single, Sub or Top)");
    const std::string v = at + ".data." + variant;
    if (m.kind != merkle_proof_kind(t))
      fail(at + ".data", "a " + variant + " proof for a tree that takes " +
                             (t.top_arity   ? "Top"
                              : t.sub_arity ? "Sub"
                                            : "Single"));
    const json::const_iterator only = d.begin();  // named: GCC 13 flags a reference through a temporary
    const json& body = only.value();
    if (m.kind == MerkleProofKind::kSingle) {
      path(get(body, v, "path", json::value_t::object), v + ".path", t.base_arity, t.base_levels, m.path);
    } else {
      path(get(body, v, "base_proof", json::value_t::object), v + ".base_proof", t.base_arity, t.base_levels,
           m.path);
      path(get(body, v, "sub_proof", json::value_t::object), v + ".sub_proof", t.sub_arity, 1, m.path);
      if (m.kind == MerkleProofKind::kTop)
        path(get(body, v, "top_proof", json::value_t::object), v + ".top_proof", t.top_arity, 1, m.path);
    }
    if (!body.contains("root")) fail(v + ".root", "missing");
    if (!body.contains("leaf")) fail(v + ".leaf", "missing");
    m.root = fr(body["root"], v + ".root");
    m.leaf = fr(body["leaf"], v + ".leaf");
    return m;
  }
};

json fr_json(const Fr& x) {
  const auto b = fr_to_bytes(x);
  return json(std::vector<int>(b.begin(), b.end()));
}

json path_json(std::span<const PathLevel> p) {
  json levels = json::array();
  for (const PathLevel& l : p) {
    json h = json::array();
    for (const Fr& s : l.siblings) h.push_back(fr_json(s));
    json e = json::object();
    e["hashes"] = std::move(h);
    e["index"] = l.index;
    levels.push_back(std::move(e));
  }
  json o = json::object();
  o["path"] = std::move(levels);
  return o;
}

}  // namespace

PostVanillaProof read_post_vanilla_proof_json(std::span<const uint8_t> bytes, const TreeShape& tree,
                                              const std::string& source) {
  const json j = json::parse(bytes.begin(), bytes.end(), nullptr, false);
  JsonReader r{source};
  if (j.is_discarded()) r.fail("(document)", "malformed or truncated JSON");
  PostVanillaProof p;
  p.sector_id = r.get(j, "", "sector_id", json::value_t::number_unsigned).get<uint64_t>();
  if (!j.contains("comm_r")) r.fail("comm_r", "missing");
  p.comm_r = r.fr(j["comm_r"], "comm_r");
  const json& vp = r.get(j, "", "vanilla_proof", json::value_t::object);
  const json& sectors = r.get(vp, "vanilla_proof", "sectors", json::value_t::array);
  for (size_t s = 0; s < sectors.size(); s++) {
    const std::string at = "vanilla_proof.sectors[" + std::to_string(s) + "]";
    PostSectorProof sp;
    const json& inc = r.get(sectors[s], at, "inclusion_proofs", json::value_t::array);
    for (size_t i = 0; i < inc.size(); i++)
      sp.inclusion_proofs.push_back(
          r.merkle(inc[i], at + ".inclusion_proofs[" + std::to_string(i) + "]", tree));
    for (const char* k : {"comm_c", "comm_r_last"})
      if (!sectors[s].contains(k)) r.fail(at + "." + k, "missing");
    sp.comm_c = r.fr(sectors[s]["comm_c"], at + ".comm_c");
    sp.comm_r_last = r.fr(sectors[s]["comm_r_last"], at + ".comm_r_last");
    p.sectors.push_back(std::move(sp));
  }
  return p;
}

std::string write_post_vanilla_proof_json(const PostVanillaProof& p) {
  // nlohmann's object keeps keys sorted; serde writes struct order, so the text is assembled by hand.
  std::string out = "{\"sector_id\":" + std::to_string(p.sector_id) +
                    ",\"comm_r\":" + fr_json(p.comm_r).dump() + ",\"vanilla_proof\":{\"sectors\":[";
  for (size_t s = 0; s < p.sectors.size(); s++) {
    const PostSectorProof& sp = p.sectors[s];
    out += (s ? ",{" : "{") + std::string("\"inclusion_proofs\":[");
    for (size_t i = 0; i < sp.inclusion_proofs.size(); i++) {
      const C1MerkleProof& m = sp.inclusion_proofs[i];
      const std::span<const PathLevel> all(m.path);
      out += i ? "," : "";
      if (m.kind == MerkleProofKind::kSingle) {
        out += "{\"data\":{\"Single\":{\"root\":" + fr_json(m.root).dump() +
               ",\"leaf\":" + fr_json(m.leaf).dump() + ",\"path\":" + path_json(all).dump() + "}}}";
        continue;
      }
      const size_t tail = m.kind == MerkleProofKind::kSub ? 1 : 2;
      if (all.size() < tail)
        throw Error(ErrorCode::kInvalidArgument,
                    "PoSt vanilla proof: a compound Merkle proof with too few levels");
      out += std::string("{\"data\":{\"") + (tail == 1 ? "Sub" : "Top") +
             "\":{\"base_proof\":" + path_json(all.first(all.size() - tail)).dump() +
             ",\"sub_proof\":" + path_json(all.subspan(all.size() - tail, 1)).dump();
      if (tail == 2) out += ",\"top_proof\":" + path_json(all.last(1)).dump();
      out += ",\"root\":" + fr_json(m.root).dump() + ",\"leaf\":" + fr_json(m.leaf).dump() + "}}}";
    }
    out += "],\"comm_c\":" + fr_json(sp.comm_c).dump() +
           ",\"comm_r_last\":" + fr_json(sp.comm_r_last).dump() + "}";
  }
  return out + "]}}";
}

PostPartition post_partition(const RegisteredPostProof& proof, std::span<const PostVanillaProof> vanilla,
                             const std::array<uint8_t, 32>& randomness, size_t partition_index,
                             ThreadPool* pool) {
  const PostShape shape = proof.shape();
  auto fail = [&](const std::string& what) {
    throw Error(ErrorCode::kInvalidArgument, std::string(proof.name) + ": " + what);
  };
  auto name = [&](size_t i) {
    return "vanilla proof " + std::to_string(i) + " (sector " + std::to_string(vanilla[i].sector_id) + ")";
  };
  if (vanilla.empty()) fail("no vanilla proofs");
  std::set<uint64_t> ids;
  for (size_t i = 0; i < vanilla.size(); i++)
    if (!ids.insert(vanilla[i].sector_id).second) fail(name(i) + ": the sector id appears twice");

  PostPartition out;
  // Checks one SectorProof as FallbackPoSt::verify does; `challenge(n)` is inclusion proof n's leaf.
  auto check = [&](size_t i, const PostSectorProof& sp, auto&& challenge) {
    const Fr root = sp.inclusion_proofs.at(0).root;
    // The circuit takes comm_r_last from the field, the verifier from the first opening: they must agree.
    if (sp.comm_r_last != root) fail(name(i) + ": comm_r_last is not the root of its inclusion proofs");
    const Fr pre[2] = {sp.comm_c, root};
    if (poseidon_hash(pre, poseidon_constants(2)) != vanilla[i].comm_r)
      fail(name(i) + ": comm_r is not Poseidon(comm_c, comm_r_last)");
    for (size_t n = 0; n < sp.inclusion_proofs.size(); n++) {
      const C1MerkleProof& m = sp.inclusion_proofs[n];
      const std::string at = name(i) + ", challenge " + std::to_string(n) + ": ";
      if (m.root != root) fail(at + "the inclusion proof's root is not comm_r_last");
      const uint64_t want = challenge(n);
      if (m.path_index() != want)
        fail(at + "opens leaf " + std::to_string(m.path_index()) + "; the challenge is leaf " +
             std::to_string(want));
      if (native_root(m.leaf, m.path) != root) fail(at + "the inclusion path does not hash to comm_r_last");
    }
  };
  auto add_sector = [&](const PostVanillaProof& v, const PostSectorProof& sp, size_t first, size_t count) {
    circuits::PostSectorWitness w;
    w.comm_r = v.comm_r;
    w.comm_c = sp.comm_c;
    w.comm_r_last = sp.comm_r_last;
    for (size_t n = first; n < first + count; n++) {
      w.leafs.push_back(sp.inclusion_proofs[n].leaf);
      w.paths.push_back(sp.inclusion_proofs[n].path);
    }
    out.witness.sectors.push_back(std::move(w));
  };

  if (proof.type == PostType::kWinning) {
    if (vanilla.size() != 1) fail(std::to_string(vanilla.size()) + " vanilla proofs; WinningPoSt takes 1");
    if (partition_index != 0)
      fail("WinningPoSt has one partition; partition " + std::to_string(partition_index));
    const PostVanillaProof& v = vanilla[0];
    if (v.sectors.size() != 1)
      fail(name(0) + ": " + std::to_string(v.sectors.size()) + " sector proofs; WinningPoSt takes 1");
    const PostSectorProof& sp = v.sectors[0];
    if (sp.inclusion_proofs.size() != shape.sectors)
      fail(name(0) + ": " + std::to_string(sp.inclusion_proofs.size()) +
           " inclusion proofs; WinningPoSt takes " + std::to_string(shape.sectors));
    // The verifier's sector list repeats the sector: challenge n is that of circuit sector n.
    check(0, sp, [&](size_t n) {
      return circuits::post_leaf_challenge(randomness, v.sector_id,
                                           circuits::post_challenge_index(proof.api, n, 1, 0), shape.nodes());
    });
    for (size_t n = 0; n < shape.sectors; n++) add_sector(v, sp, n, 1);
    out.public_sectors = circuits::winning_post_public_sectors(shape, {v.sector_id, v.comm_r});
    out.partition = 0;
    return out;
  }

  if (vanilla.size() > shape.sectors)
    fail(std::to_string(vanilla.size()) + " vanilla proofs; a WindowPoSt partition takes at most " +
         std::to_string(shape.sectors));
  // Sectors are checked independently (on `pool` when given); the error reported is the first sector's,
  // as a check in order would report.
  auto check_sector = [&](size_t i) {
    const PostVanillaProof& v = vanilla[i];
    if (v.sectors.size() != 1)
      fail(name(i) + ": " + std::to_string(v.sectors.size()) +
           " sector proofs; WindowPoSt takes 1 per sector");
    const PostSectorProof& sp = v.sectors[0];
    if (sp.inclusion_proofs.size() != shape.challenges)
      fail(name(i) + ": " + std::to_string(sp.inclusion_proofs.size()) +
           " inclusion proofs; WindowPoSt takes " + std::to_string(shape.challenges));
    const uint64_t sector_index = partition_index * shape.sectors + i;
    check(i, sp, [&](size_t n) {
      return circuits::post_leaf_challenge(
          randomness, v.sector_id,
          circuits::post_challenge_index(proof.api, sector_index, shape.challenges, n), shape.nodes());
    });
  };
  std::vector<std::string> errors(vanilla.size());
  auto check_range = [&](size_t lo, size_t hi) {
    for (size_t i = lo; i < hi; i++) try {
        check_sector(i);
      } catch (const Error& e) {
        errors[i] = e.what();
      }
  };
  if (pool)
    pool->parallel_for(vanilla.size(), check_range, 1);
  else
    check_range(0, vanilla.size());
  for (const std::string& e : errors)
    if (!e.empty()) throw Error(ErrorCode::kInvalidArgument, e);
  for (const PostVanillaProof& v : vanilla) add_sector(v, v.sectors[0], 0, shape.challenges);
  while (out.witness.sectors.size() < shape.sectors)
    out.witness.sectors.push_back(out.witness.sectors.back());
  for (const PostVanillaProof& v : vanilla) out.public_sectors.push_back({v.sector_id, v.comm_r});
  out.partition = partition_index;
  return out;
}

std::array<uint8_t, 32> post_prover_id(uint64_t miner_id) {
  std::array<uint8_t, 32> id{};
  size_t i = 0;
  do {
    const uint8_t byte = miner_id & 0x7f;
    miner_id >>= 7;
    id[i++] = miner_id ? byte | 0x80 : byte;
  } while (miner_id);
  return id;
}

std::string post_param_stem(const PostShape& shape) {
  const TreeShape& t = shape.tree_r;
  const std::string arities =
      std::to_string(t.base_arity) + "-" + std::to_string(t.sub_arity) + "-" + std::to_string(t.top_arity);
  const std::string id = shape.identifier();
  const Sha256::Digest d = Sha256::hash({reinterpret_cast<const uint8_t*>(id.data()), id.size()});
  static const char* hex = "0123456789abcdef";
  std::string h;
  for (uint8_t b : d) {
    h.push_back(hex[b >> 4]);
    h.push_back(hex[b & 15]);
  }
  return "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-" + arities + "-" + h;
}

}  // namespace cuzk
