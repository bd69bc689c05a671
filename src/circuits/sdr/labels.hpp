// SDR labeling, natively (rust-fil-proofs storage-proofs-porep/src/stacked/vanilla/create_label/single.rs
// with graph.rs `copy_parents_data[_exp]`): the label of node n in layer L (1-based) is
//   SHA-256(replica_id ‖ BE32(L) ‖ BE64(n) ‖ 0^20 ‖ 37 parent labels)  with the top two bits cleared,
// and just SHA-256(replica_id ‖ BE32(L) ‖ BE64(n) ‖ 0^20) for n = 0. The 37 parent labels are
// - layer 1: the 6 DRG parents' labels (this layer) six times, then DRG parent 0's once more;
// - layer > 1: the 6 DRG parents' labels (this layer) and the 8 expander parents' labels (previous
//   layer), those 14 twice, then the first 9 of them.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "circuits/sdr/graph.hpp"

namespace cuzk::sdr {

/// A 32-byte label (a field element's little-endian bytes).
using Label = std::array<uint8_t, 32>;

/// The label of `node` in `layer` ≥ 1 from its parents' labels: `drg` = the 6 DRG parents' labels in
/// this layer; `exp` = the 8 expander parents' labels in layer − 1 (empty for layer 1). node 0 ignores
/// both. Throws kInvalidArgument for layer 0, or for `exp` not of size 8 when layer > 1 (or not empty
/// when layer = 1), or `drg` not of size 6 when node > 0.
/// This is what a prover's labeling proof (and the circuit's create_label) recomputes for one node.
Label label_from_parents(const Label& replica_id, uint32_t layer, uint64_t node, std::span<const Label> drg,
                         std::span<const Label> exp);

/// Labels all nodes of `layer` into `out` (graph.nodes() labels) in node order; `prev` is layer − 1's
/// labels (graph.nodes() of them), empty for layer 1 (single.rs `create_label` / `create_label_exp`).
/// Sequential by construction (each node needs node − 1). Throws kInvalidArgument on sizes or layer 0.
void label_layer(const SdrGraph& graph, const Label& replica_id, uint32_t layer, std::span<const Label> prev,
                 std::span<Label> out);

/// All `layers` layers of SDR labels (single.rs `create_labels_for_decoding`): result[L − 1] holds
/// layer L's graph.nodes() labels. Memory is layers · nodes · 32 bytes: meant for test sizes.
std::vector<std::vector<Label>> label_all_layers(const SdrGraph& graph, const Label& replica_id,
                                                 uint32_t layers);

}  // namespace cuzk::sdr
