// SDR labeling (src/circuits/sdr/labels.hpp) against the last-node label known answers of
// rust-fil-proofs storage-proofs-porep/tests/stacked_vanilla.rs test_stacked_porep_generate_labels
// (11 layers, replica_id [9; 32]; 2 KiB and 4 KiB; porep_id [0; 32] with v1.0, [123; 32] with v1.1/v1.2).
#include <gtest/gtest.h>

#include <cstring>

#include "circuits/sdr/labels.hpp"
#include "hash/sha256.hpp"
#include "util/error.hpp"

namespace cuzk::sdr {
namespace {

Label limbs(uint64_t a, uint64_t b, uint64_t c, uint64_t d) {
  Label l;
  const uint64_t v[4] = {a, b, c, d};
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 8; j++) l[8 * i + j] = uint8_t(v[i] >> (8 * j));
  return l;
}

struct Kat {
  uint64_t sector_size;
  uint8_t porep_byte;
  ApiVersion api;
  Label last;
};

TEST(SdrLabels, UpstreamLastNodeKats) {
  const Kat kats[] = {
      {2048, 0, ApiVersion::kV1_0_0,
       limbs(0xd3faa96b9a0fba04, 0xea81a283d106485e, 0xe3d51b9afa5ac2b3, 0x0462f4f4f1a68d37)},
      {4096, 0, ApiVersion::kV1_0_0,
       limbs(0x7e191e52c4a8da86, 0x5ae8a1c9e6fac148, 0xce239f3b88a894b8, 0x234c00d1dc1d53be)},
      {2048, 123, ApiVersion::kV1_1_0,
       limbs(0xabb3f38bb70defcf, 0x777a2e4d7769119f, 0x3448959d495490bc, 0x06021188c7a71cb5)},
      {4096, 123, ApiVersion::kV1_1_0,
       limbs(0x22ab81cf68c4676d, 0x7a77a82fc7c9c189, 0xc6c03d32c1e42d23, 0x0f777c18cc2c55bd)},
      {2048, 123, ApiVersion::kV1_2_0,
       limbs(0xabb3f38bb70defcf, 0x777a2e4d7769119f, 0x3448959d495490bc, 0x06021188c7a71cb5)},
      {4096, 123, ApiVersion::kV1_2_0,
       limbs(0x22ab81cf68c4676d, 0x7a77a82fc7c9c189, 0xc6c03d32c1e42d23, 0x0f777c18cc2c55bd)},
  };
  Label replica_id;
  replica_id.fill(9);
  for (const auto& k : kats) {
    PoRepId id;
    id.fill(k.porep_byte);
    SdrGraph g(k.sector_size / kNodeSize, id, k.api);
    auto layers = label_all_layers(g, replica_id, 11);
    EXPECT_EQ(layers.back().back(), k.last) << k.sector_size << " porep " << int(k.porep_byte);
  }
}

TEST(SdrLabels, NodeZeroAndParentForm) {
  Label rid;
  rid.fill(9);
  PoRepId id;
  id.fill(123);
  SdrGraph g(64, id, ApiVersion::kV1_1_0);
  auto layers = label_all_layers(g, rid, 3);
  // Node 0 of layer 2: SHA-256(replica_id ‖ BE32(2) ‖ BE64(0) ‖ 0^20), top bits cleared.
  uint8_t msg[64] = {};
  std::memcpy(msg, rid.data(), 32);
  msg[35] = 2;
  auto d = Sha256::hash({msg, 64});
  d[31] &= 0x3f;
  EXPECT_EQ(layers[1][0], d);
  // Any node of layer 3 from its parents' labels alone (what a labeling proof opens).
  for (uint64_t node : {1, 2, 22, 63}) {
    uint32_t p[kDegree];
    g.parents(node, p);
    Label drg[6], exp[8];
    for (int i = 0; i < 6; i++) drg[i] = layers[2][p[i]];
    for (int i = 0; i < 8; i++) exp[i] = layers[1][p[6 + i]];
    EXPECT_EQ(label_from_parents(rid, 3, node, drg, exp), layers[2][node]) << node;
    for (int i = 0; i < 6; i++) drg[i] = layers[0][p[i]];
    EXPECT_EQ(label_from_parents(rid, 1, node, drg, {}), layers[0][node]) << node;
  }
  for (const auto& layer : layers)
    for (const auto& l : layer) EXPECT_EQ(l[31] & 0xc0, 0);
  Label drg[6] = {};
  EXPECT_THROW(label_from_parents(rid, 0, 5, drg, {}), Error);
  EXPECT_THROW(label_from_parents(rid, 2, 5, drg, {}), Error);
}

}  // namespace
}  // namespace cuzk::sdr
