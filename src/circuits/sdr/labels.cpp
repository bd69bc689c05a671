#include "circuits/sdr/labels.hpp"

#include <string>

#include "hash/sha256.hpp"
#include "util/error.hpp"

namespace cuzk::sdr {

namespace {

[[noreturn]] void invalid(const std::string& msg) {
  throw Error(ErrorCode::kInvalidArgument, "sdr labels: " + msg);
}

Sha256 label_prefix(const Label& replica_id, uint32_t layer, uint64_t node) {
  uint8_t buf[32] = {};
  for (int i = 0; i < 4; i++) buf[i] = uint8_t(layer >> (24 - 8 * i));
  for (int i = 0; i < 8; i++) buf[4 + i] = uint8_t(node >> (56 - 8 * i));
  Sha256 h;
  h.update(replica_id.data(), 32);
  h.update(buf, 32);
  return h;
}

Label finish_label(Sha256& h) {
  Label l = h.finish();
  l[31] &= 0x3f;
  return l;
}

}  // namespace

Label label_from_parents(const Label& replica_id, uint32_t layer, uint64_t node, std::span<const Label> drg,
                         std::span<const Label> exp) {
  if (layer == 0) invalid("layers are numbered from 1");
  if (layer == 1 ? !exp.empty() : exp.size() != kExpDegree)
    invalid("layer " + std::to_string(layer) + " needs " + (layer == 1 ? "no" : "8") + " expander parents");
  Sha256 h = label_prefix(replica_id, layer, node);
  if (node == 0) return finish_label(h);
  if (drg.size() != kBaseDegree) invalid("6 DRG parents needed");
  const Label* p[kDegree];
  unsigned n = 0;
  for (const auto& l : drg) p[n++] = &l;
  for (const auto& l : exp) p[n++] = &l;
  // 37 parent labels: the n parents cycled (n = 6 in layer 1, 14 after).
  for (unsigned i = 0; i < 37; i++) h.update(p[i % n]->data(), 32);
  return finish_label(h);
}

void label_layer(const SdrGraph& graph, const Label& replica_id, uint32_t layer, std::span<const Label> prev,
                 std::span<Label> out) {
  const uint64_t nodes = graph.nodes();
  if (layer == 0) invalid("layers are numbered from 1");
  if (out.size() != nodes) invalid("output must hold one label per node");
  if (layer == 1 ? !prev.empty() : prev.size() != nodes)
    invalid("previous layer must hold one label per node");
  Label drg[kBaseDegree], exp[kExpDegree];
  uint32_t parents[kDegree];
  for (uint64_t node = 0; node < nodes; node++) {
    graph.parents(node, parents);
    for (unsigned i = 0; i < kBaseDegree; i++) drg[i] = out[parents[i]];
    if (layer > 1)
      for (unsigned i = 0; i < kExpDegree; i++) exp[i] = prev[parents[kBaseDegree + i]];
    out[node] = label_from_parents(replica_id, layer, node, drg,
                                   layer > 1 ? std::span<const Label>(exp) : std::span<const Label>());
  }
}

std::vector<std::vector<Label>> label_all_layers(const SdrGraph& graph, const Label& replica_id,
                                                 uint32_t layers) {
  std::vector<std::vector<Label>> all(layers, std::vector<Label>(graph.nodes()));
  for (uint32_t l = 1; l <= layers; l++)
    label_layer(graph, replica_id, l, l == 1 ? std::span<const Label>() : std::span<const Label>(all[l - 2]),
                all[l - 1]);
  return all;
}

}  // namespace cuzk::sdr
