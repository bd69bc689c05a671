// The device-memory planner (groth16/device_plan.hpp): what stays resident, what streams, and how a
// partition is arranged, for the cards storage providers own (12–32 GiB) and ours (80, 141 GiB).
#include <gtest/gtest.h>

#include <algorithm>

#include "groth16/device_plan.hpp"

namespace cuzk {
namespace {

constexpr size_t kGiB = size_t{1} << 30;

/// A 32 GiB PoRep partition: 2^27 domain, 130,169,893 aux, 328 inputs (POREP_CIRCUIT.md), A dense over
/// every variable, B over a quarter, 8.9 GB of compact rows (PERFORMANCE.md §12), ~40 MiB NTT tables.
DeviceShape porep_32g() {
  DeviceShape s;
  s.log_n = 27;
  s.n_inputs = 328;
  s.n_aux = 130'169'893;
  s.a = s.n_aux + s.n_inputs;
  s.b_g1 = s.b_g2 = 32'542'473;
  s.l = s.n_aux;
  s.h = (size_t{1} << 27) - 1;
  s.rows_bytes = 8'900'000'000;
  s.ntt_table_bytes = size_t{40} << 20;
  return s;
}

size_t total_key_bytes(const DeviceShape& s) {
  size_t t = 0;
  for (int v = 0; v < kKeyVectors; v++) t += key_vector_bytes(s, (KeyVector)v);
  return t;
}

/// The invariants every fitting plan keeps: its peak is within the budget, the streamed and resident
/// bytes partition the key, chunks exist exactly when something streams.
void expect_consistent(const DeviceShape& s, const DevicePlan& p) {
  ASSERT_TRUE(p.fits) << p.describe();
  EXPECT_LE(p.resident_bytes + std::max(p.ntt_phase_bytes, p.msm_phase_bytes), p.budget - kDeviceReserve)
      << p.describe();
  EXPECT_EQ(p.resident_bytes + p.streamed_bytes, total_key_bytes(s));
  size_t res = 0;
  for (int v = 0; v < kKeyVectors; v++)
    if (p.resident[v]) res += key_vector_bytes(s, (KeyVector)v);
  EXPECT_EQ(res, p.resident_bytes);
  if (p.streamed_bytes) {
    EXPECT_GE(p.chunk_bytes, std::min(size_t{64} << 20, total_key_bytes(s) / 16 / 192 * 192));
    EXPECT_LE(p.chunk_bytes, size_t{2} << 30);
    EXPECT_EQ(p.chunk_bytes % 192, 0u);  // whole G1 and G2 points
  } else {
    EXPECT_EQ(p.chunk_bytes, 0u);
  }
  EXPECT_GE(p.msm_scratch_bytes, size_t{16} << 20);
  EXPECT_LE(p.msm_scratch_bytes, size_t{4} << 30);
  // the side stream carries L only when L streams
  // the side stream carries L and A only when they stream
  EXPECT_EQ(p.side_chunk_bytes > 0, p.side_l || p.side_a);
  EXPECT_FALSE(p.side_l && p.resident[(int)KeyVector::kL]) << p.describe();
  EXPECT_FALSE(p.side_a && p.resident[(int)KeyVector::kA]) << p.describe();
  EXPECT_EQ(p.side_chunk_bytes % (96 * 64), 0u);
  EXPECT_LE(p.side_chunk_bytes, size_t{512} << 20);
}

TEST(DevicePlan, PorepPartitionOnEveryCard) {
  const DeviceShape s = porep_32g();
  EXPECT_NEAR((double)total_key_bytes(s) / kGiB, 44.0, 1.0);  // §10: a 44 GiB key
  double prev_cost = 1e9;
  for (size_t gib : {12, 16, 20, 24, 32, 40, 48, 64, 80, 141}) {
    SCOPED_TRACE(gib);
    const DevicePlan p = plan_device(s, gib * kGiB);
    expect_consistent(s, p);
    EXPECT_LE(p.cost_seconds, prev_cost);  // more memory never costs more
    prev_cost = p.cost_seconds;
  }
  // Our H100 and H200: the whole key resident, with two witness slots and the rows on the device.
  for (size_t gib : {80, 141}) {
    const DevicePlan p = plan_device(s, gib * kGiB);
    EXPECT_TRUE(p.all_resident()) << p.describe();
    EXPECT_EQ(p.witness_slots, 2);
    EXPECT_TRUE(p.rows_resident);
    EXPECT_FALSE(p.abc_in_sequence);
  }
  // A 16 GiB card: most of the key streams, and so do the rows (a, b, c in sequence on the device, which
  // the model prefers to the host's 3.3 s a partition).
  const DevicePlan p16 = plan_device(s, 16 * kGiB);
  EXPECT_FALSE(p16.rows_resident);
  EXPECT_TRUE(p16.rows_streamed);
  EXPECT_TRUE(p16.abc_in_sequence);
  EXPECT_EQ(p16.witness_slots, 0);
  EXPECT_LT(p16.cost_seconds, 3.28);
  EXPECT_GT(p16.streamed_bytes, 30 * kGiB);
  // A 24 GiB card keeps part of the key: fewer bytes cross the link than at 16 GiB. From 32 GiB the rows
  // fit on the device, which the model prefers to resident points (host a, b, c cost 3.3 s a partition).
  EXPECT_LT(plan_device(s, 24 * kGiB).streamed_bytes, p16.streamed_bytes);
  const DevicePlan p32 = plan_device(s, 32 * kGiB);
  EXPECT_TRUE(p32.rows_resident) << p32.describe();
  EXPECT_LT(p32.cost_seconds, plan_device(s, 24 * kGiB).cost_seconds);
}

TEST(DevicePlan, SixteenGibCardSumsLAndABesideTheHMsm) {
  // L (the aux is its scalars) and A (the aux gathered by density) stream through the side stream while
  // the compute-bound H MSM runs, so their link time is mostly hidden: the model counts it at a quarter.
  const DeviceShape s = porep_32g();
  const DevicePlan p = plan_device(s, 16 * kGiB);
  expect_consistent(s, p);
  EXPECT_TRUE(p.side_l) << p.describe();
  EXPECT_TRUE(p.side_a) << p.describe();
  EXPECT_NE(p.describe().find("l, a beside H"), std::string::npos) << p.describe();
  const DevicePlan l_only = plan_device(s, 16 * kGiB, SideStream::kL);
  expect_consistent(s, l_only);
  EXPECT_TRUE(l_only.side_l);
  EXPECT_FALSE(l_only.side_a);
  EXPECT_NE(l_only.describe().find("; l beside H"), std::string::npos) << l_only.describe();
  const DevicePlan q = plan_device(s, 16 * kGiB, SideStream::kNone);
  expect_consistent(s, q);
  EXPECT_EQ(q.side_chunk_bytes, 0u);
  EXPECT_FALSE(q.side_l || q.side_a);
  EXPECT_LT(p.cost_seconds, l_only.cost_seconds);
  EXPECT_LT(l_only.cost_seconds, q.cost_seconds);
  // the MSM phase grows by the side buffers and scratch at most, and for A by a chunk's scalars and the
  // density's bitmap, word ranks and head
  const size_t a_extra = p.side_chunk_bytes / 96 * 32 + 2 * ((s.n_aux + 63) / 64) * 8 + s.n_inputs * 32;
  EXPECT_LE(p.msm_phase_bytes, q.msm_phase_bytes + 3 * p.side_chunk_bytes + a_extra) << p.describe() << "\n"
                                                                                     << q.describe();
  EXPECT_LE(l_only.msm_phase_bytes, q.msm_phase_bytes + 3 * l_only.side_chunk_bytes) << l_only.describe();
}

TEST(DevicePlan, TwelveGibCardProvesWithALeanH) {
  const DeviceShape s = porep_32g();
  const DevicePlan p = plan_device(s, 12 * kGiB);
  // Three 4 GiB vectors (two of H's and the NTT's scratch) and the tables exceed 12 GiB less the reserve:
  // a, b and c are parked in host memory and H is formed in two vectors.
  ASSERT_TRUE(p.fits) << p.describe();
  expect_consistent(s, p);
  EXPECT_TRUE(p.rows_streamed);
  EXPECT_TRUE(p.h_lean);
  EXPECT_LT(p.ntt_phase_bytes, 9 * kGiB);
  EXPECT_NE(p.describe().find("H lean"), std::string::npos);
  // it costs more than the 16 GiB card's arrangement, which does not need it
  const DevicePlan p16 = plan_device(s, 16 * kGiB);
  EXPECT_FALSE(p16.h_lean);
  EXPECT_GT(p.cost_seconds, p16.cost_seconds);
  // below the lean arrangement's floor the plan says what it needs
  EXPECT_LT(p.min_budget, 12 * kGiB);
  const DevicePlan low = plan_device(s, p.min_budget - (size_t{256} << 20));
  EXPECT_FALSE(low.fits);
  EXPECT_NE(low.describe().find("does not fit"), std::string::npos);
  EXPECT_TRUE(plan_device(s, p.min_budget).fits) << plan_device(s, p.min_budget).describe();
}

TEST(DevicePlan, SmallKeysAreResidentOnSmallCards) {
  // A 2 KiB PoRep partition (2^22 domain) and the synthetic shapes of the GPU tests.
  for (int log_n : {14, 20, 22}) {
    DeviceShape s;
    s.log_n = log_n;
    s.n_inputs = 40;
    s.n_aux = (size_t{1} << log_n) - 1000;
    s.a = s.l = s.n_aux;
    s.b_g1 = s.b_g2 = s.n_aux / 4;
    s.h = (size_t{1} << log_n) - 1;
    s.rows_bytes = (size_t{70} << log_n);
    for (size_t gib : {12, 16, 24}) {
      const DevicePlan p = plan_device(s, gib * kGiB);
      expect_consistent(s, p);
      EXPECT_TRUE(p.all_resident()) << log_n << " " << gib << ": " << p.describe();
      EXPECT_EQ(p.witness_slots, 2);
    }
  }
}

TEST(DevicePlan, TinyBudgetStreamsEverything) {
  DeviceShape s;
  s.log_n = 14;
  s.n_inputs = 3;
  s.n_aux = 16000;
  s.a = s.l = s.n_aux;
  s.b_g1 = s.b_g2 = 4000;
  s.h = (size_t{1} << 14) - 1;
  const DevicePlan p = plan_device(s, 0);
  EXPECT_FALSE(p.fits);
  EXPECT_EQ(p.resident_bytes, 0u);
  EXPECT_EQ(p.streamed_bytes, total_key_bytes(s));
  const DevicePlan q = plan_device(s, p.min_budget);
  expect_consistent(s, q);
}

TEST(DevicePlan, NoStreamedVectorWouldFitBesideTheResidentOnes) {
  // Between the 16 GiB card and the whole key, every plan is maximal: moving any streamed vector to the
  // resident set would exceed the budget in the same arrangement.
  const DeviceShape s = porep_32g();
  for (size_t gib = 16; gib <= 80; gib += 2) {
    SCOPED_TRACE(gib);
    const DevicePlan p = plan_device(s, gib * kGiB);
    expect_consistent(s, p);
    const size_t usable = p.budget - kDeviceReserve;
    const size_t msm_base = p.msm_phase_bytes - 2 * p.chunk_bytes;
    for (int v = 0; v < kKeyVectors; v++) {
      if (p.resident[v]) continue;
      const size_t res = p.resident_bytes + key_vector_bytes(s, (KeyVector)v);
      const bool still_streams = res < total_key_bytes(s);
      const size_t need =
          res + std::max(p.ntt_phase_bytes, msm_base + (still_streams ? size_t{128} << 20 : 0));
      EXPECT_GT(need, usable) << key_vector_name((KeyVector)v) << " would fit: " << p.describe();
    }
  }
}

}  // namespace
}  // namespace cuzk
