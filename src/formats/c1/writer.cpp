// Writing a C1 back as serde_json::to_vec writes it, raw or in Curio's envelope (formats/c1.hpp
// write_c1_json, write_c1_envelope_json).
#include <charconv>
#include <string>

#include "ff/bytes.hpp"
#include "formats/c1.hpp"
#include "formats/c1/json_tree.hpp"
#include "util/error.hpp"

namespace cuzk {

using c1_detail::kind_name;

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

}  // namespace cuzk
