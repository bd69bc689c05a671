// a, b, c on the device (cuda::DeviceRows, and the rows streamed from host memory by
// cuda::evaluate_rows_streamed, src/cuda/spmv.cu) against the CPU's CSR products: byte-identical
// for random circuits with edge coefficients and repeated columns in both conventions, for a synthetic
// PoRep partition and for the Filecoin PoRep circuit of 2 KiB with a fake sector's witness.
#include <gtest/gtest.h>

#include <cstring>

#include "cuda/gpu.hpp"
#include "cuda/rows_stream.hpp"
#include "engine/porep.hpp"
#include "formats/fake_c1.hpp"
#include "gpu_support.hpp"
#include "groth16/compact_cs.hpp"
#include "groth16/synthetic.hpp"
#include "random_cs.hpp"

namespace cuzk::test {
namespace {

bool same(std::span<const Fr> x, std::span<const Fr> y) {
  return x.size() == y.size() && (x.empty() || std::memcmp(x.data(), y.data(), x.size() * sizeof(Fr)) == 0);
}

/// a, b, c of `rows` for witness w evaluated on device 0, downloaded.
void device_abc(const CompactCs& rows, std::span<const Fr> w, std::vector<Fr> out[3]) {
  std::vector<cuda::HostCsr> mats;
  for (const CompactMatrix* m : {&rows.a, &rows.b, &rows.c})
    mats.push_back({m->row_offsets.data(), m->cols.data(), m->coeffs.data(), m->rows()});
  const cuda::DeviceRows dev(rows.table.data(), rows.table.size(), mats);
  EXPECT_EQ(dev.matrices(), 3u);
  EXPECT_GE(dev.bytes(), rows.nnz() * 8);
  cuda::DeviceFrVec dw(w.size());
  dw.upload(w.data());
  for (size_t i = 0; i < 3; i++) {
    cuda::DeviceFrVec o(rows.domain_size());
    dev.evaluate(i, dw.data(), o);
    out[i] = o.download();
  }
  // The same rows streamed from host memory (cuda::evaluate_rows_streamed, the budgeted plans' path), in
  // 64 KiB slices so that every matrix crosses in many, long rows among them: the same bytes.
  cuda::DeviceFrVec table(rows.table.size());
  table.upload(rows.table.data());
  cuda::ChunkPipe pipe(64 << 10, 0);
  for (size_t i = 0; i < 3; i++) {
    SCOPED_TRACE("streamed matrix " + std::to_string(i));
    cuda::DeviceFrVec o(rows.domain_size());
    cuda::evaluate_rows_streamed(mats[i], table.data(), dw.data(), o, pipe);
    EXPECT_TRUE(same(o.download(), out[i]));
  }
}

/// Device a, b, c of cs for w equal synthesize()'s.
void expect_device_equals_cpu(const ConstraintSystem& cs, std::span<const Fr> w) {
  ThreadPool pool;
  const Assignment want = synthesize(cs, w, pool);
  const CompactCs rows = compact(cs, pool);
  std::vector<Fr> got[3];
  device_abc(rows, w, got);
  EXPECT_TRUE(same(got[0], want.a));
  EXPECT_TRUE(same(got[1], want.b));
  if (cs.convention == HConvention::kBellperson) {
    EXPECT_TRUE(same(got[2], want.c));
  } else {
    for (const Fr& x : got[2]) ASSERT_TRUE(x.is_zero());  // no C rows: all zero
  }
}

TEST(GpuSpmv, RandomCircuitsByteIdenticalToCpu) {
  CUZK_REQUIRE_GPU();
  for (HConvention conv : {HConvention::kBellperson, HConvention::kSnarkjs})
    for (uint64_t seed = 1; seed <= 3; seed++) {
      SCOPED_TRACE(seed);
      const ConstraintSystem cs = random_rows::random_cs(conv, 12 + (int)seed, 7, 3000, seed);
      expect_device_equals_cpu(cs, random_rows::random_witness(cs, seed * 31));
    }
}

TEST(GpuSpmv, SyntheticPorepByteIdenticalToCpu) {
  CUZK_REQUIRE_GPU();
  ThreadPool pool;
  const SyntheticCircuit sc = synthetic_porep(18, 4, pool);
  expect_device_equals_cpu(sc.cs, sc.witness);
}

TEST(GpuSpmv, FakeSector2KiBPartitionsByteIdenticalToCpu) {
  CUZK_REQUIRE_GPU();
  ThreadPool pool;
  const C1Output c1 = make_fake_sector("StackedDrg2KiBV1_1", 3, &pool).c1;
  auto circuit = engine::porep_circuit("2KiB", pool);
  const ConstraintSystem cs = expand(*circuit->rows, pool);
  for (size_t k = 0; k < c1.vanilla_proofs.size(); k++) {
    SCOPED_TRACE(k);
    const std::vector<Fr> w = engine::porep_partition_witness(c1, k, *circuit, pool);
    expect_device_equals_cpu(cs, w);
  }
}

}  // namespace
}  // namespace cuzk::test
