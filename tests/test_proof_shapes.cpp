// engine/proof_shapes.hpp: the table of Filecoin proof kinds that `cuzk info gpu` plans, checked against the
// circuits' counts (cheap: CountCs), the one small kind measured in full, and device_shape against a key.
#include <gtest/gtest.h>

#include "circuits/cs.hpp"
#include "circuits/empty_sector_update.hpp"
#include "circuits/fallback_post.hpp"
#include "circuits/stacked.hpp"
#include "engine/proof_shapes.hpp"
#include "groth16/setup.hpp"
#include "groth16/synthetic.hpp"

namespace cuzk::engine {
namespace {

/// The counts of one partition of `circuit_id`'s circuit: inputs, aux and the domain of its rows.
struct Counts {
  size_t n_inputs, n_aux;
  int log_n;
};

Counts counts(const std::string& id) {
  circuits::CountCs cs;
  if (id == "porep-32g" || id == "porep-64g")
    circuits::synthesize_stacked(cs, circuits::stacked_shape(id == "porep-32g" ? "32GiB" : "64GiB"), nullptr);
  else if (id == "wpost-32g" || id == "winning-32g")
    circuits::synthesize_fallback_post(
        cs,
        circuits::post_shape(id == "wpost-32g" ? circuits::PostType::kWindow : circuits::PostType::kWinning,
                             "32GiB"),
        nullptr);
  else
    circuits::synthesize_empty_sector_update(cs, circuits::update_shape("32GiB"), nullptr);
  const size_t rows = cs.num_constraints() + cs.num_inputs();
  int log_n = 1;
  while ((size_t{1} << log_n) < rows) log_n++;
  return {cs.num_inputs(), cs.num_aux(), log_n};
}

TEST(ProofShapes, TableAgreesWithTheCircuitCounts) {
  const auto& kinds = filecoin_proof_kinds();
  ASSERT_EQ(kinds.size(), 5u);
  for (const ProofKindShape& k : kinds) {
    SCOPED_TRACE(k.circuit_id);
    const Counts c = counts(k.circuit_id);
    const DeviceShape& s = k.shape;
    EXPECT_EQ(s.n_inputs, c.n_inputs);
    EXPECT_EQ(s.n_aux, c.n_aux);
    EXPECT_EQ(s.log_n, c.log_n);
    EXPECT_EQ(s.l, s.n_aux);
    EXPECT_EQ(s.h, (size_t{1} << s.log_n) - 1);
    EXPECT_GE(s.a, s.n_inputs);
    EXPECT_LE(s.a, s.n_inputs + s.n_aux);
    EXPECT_EQ(s.b_g1, s.b_g2);
    EXPECT_LE(s.b_g1, s.n_inputs + s.n_aux);
    EXPECT_GT(s.rows_bytes, s.rows_table_bytes);
  }
  EXPECT_EQ(kinds[0].shape.n_aux, 130169893u);  // POREP_CIRCUIT.md §1: the 32 GiB partition's aux
}

TEST(ProofShapes, WinningPostRowIsWhatMeasuringGives) {
  ThreadPool pool(2);
  const ProofKindShape m = measure_proof_kind("winning-32g", pool);
  const ProofKindShape& t = filecoin_proof_kinds()[3];
  ASSERT_EQ(t.circuit_id, "winning-32g");
  EXPECT_EQ(m.name, t.name);
  for (const auto& [got, want] : {std::pair{m.shape.n_inputs, t.shape.n_inputs},
                                  {m.shape.n_aux, t.shape.n_aux},
                                  {m.shape.a, t.shape.a},
                                  {m.shape.b_g1, t.shape.b_g1},
                                  {m.shape.b_g2, t.shape.b_g2},
                                  {m.shape.l, t.shape.l},
                                  {m.shape.h, t.shape.h},
                                  {m.shape.rows_bytes, t.shape.rows_bytes},
                                  {m.shape.rows_table_bytes, t.shape.rows_table_bytes}})
    EXPECT_EQ(got, want);
  EXPECT_EQ(m.shape.log_n, t.shape.log_n);
  EXPECT_EQ(t.key_host_bytes(),
            (t.shape.n_inputs + t.shape.a + t.shape.b_g1 + t.shape.l + t.shape.h) * 96 + t.shape.b_g2 * 192);
  EXPECT_THROW(measure_proof_kind("porep-2k", pool), Error);
}

TEST(ProofShapes, DeviceShapeOfRowsIsTheKeysShape) {
  ThreadPool pool(2);
  const SyntheticCircuit sc = synthetic_porep(10, 3, pool);
  const ProvingKey key = setup(sc.cs, ToxicWaste::from_seed(5), pool);
  const DeviceShape want = cuzk::device_shape(key), got = device_shape(compact(sc.cs, pool));
  EXPECT_EQ(got.log_n, want.log_n);
  EXPECT_EQ(got.n_inputs, want.n_inputs);
  EXPECT_EQ(got.n_aux, want.n_aux);
  EXPECT_EQ(got.a, want.a);
  EXPECT_EQ(got.b_g1, want.b_g1);
  EXPECT_EQ(got.b_g2, want.b_g2);
  EXPECT_EQ(got.l, want.l);
  EXPECT_EQ(got.h, want.h);
  ProofKindShape k;
  k.shape = got;
  EXPECT_EQ(k.key_host_bytes(), key.point_bytes());
}

TEST(ProofShapes, PoRep32GiBStreamsOn16GiBAndIsResidentOn141GiB) {
  DeviceShape s = filecoin_proof_kinds()[0].shape;
  const DevicePlan small = plan_device(s, size_t{16} << 30), big = plan_device(s, size_t{141} << 30);
  EXPECT_TRUE(small.fits);
  EXPECT_GT(small.streamed_bytes, 0u);
  EXPECT_TRUE(big.fits && big.all_resident());
  EXPECT_FALSE(plan_device(s, size_t{8} << 30).fits);
}

}  // namespace
}  // namespace cuzk::engine
