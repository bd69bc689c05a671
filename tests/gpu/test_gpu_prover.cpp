// The CUDA prover backend against the CPU backend: for the same r, s the proofs must be byte-identical
// (both H conventions: the circom fixtures through their zkeys, synthetic PoRep circuits through a
// bellperson setup), every proof verifies, workers share one GPU, streamed keys (a tiny memory budget)
// prove the same, g2 on the CPU proves the same, and injected allocation failures are errors after
// which the next proof succeeds.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <thread>

#include "cuda/gpu.hpp"
#include "cuda/gpu_backend.hpp"
#include "formats/params.hpp"
#include "formats/wtns.hpp"
#include "formats/zkey.hpp"
#include "gpu_support.hpp"
#include "groth16/compact_cs.hpp"
#include "groth16/cpu_backend.hpp"
#include "groth16/device_plan.hpp"
#include "groth16/prover.hpp"
#include "groth16/r1cs.hpp"
#include "groth16/setup.hpp"
#include "groth16/synthesis.hpp"
#include "groth16/synthetic.hpp"
#include "groth16/verifier.hpp"
#include "util/error.hpp"

namespace cuzk::test {
namespace {

std::string data(const std::string& rel) { return std::string(CUZK_SOURCE_DIR) + "/tests/data/" + rel; }

CpuBackend& cpu() {
  static CpuBackend b;
  return b;
}

ProveOptions fixed_rs() {
  ProveOptions o;
  o.r = Fr::from_u64(11);
  o.s = Fr::from_u64(13);
  return o;
}

/// A circuit ready to prove: key, rows, witness.
struct Circuit {
  std::shared_ptr<const ProvingKey> key;
  ConstraintSystem rows;
  std::vector<Fr> w;
  Assignment assignment() const { return synthesize(rows, w, cpu().pool()); }
};

Circuit zkey_circuit(const std::string& zkey, const std::string& wtns) {
  Circuit c;
  Zkey zk = read_zkey(data(zkey));
  c.rows = zkey_constraint_system(zk);
  c.key = std::make_shared<const ProvingKey>(proving_key(std::move(zk), c.rows));
  c.w = read_wtns(data(wtns));
  return c;
}

Circuit synthetic_circuit(int log2, uint64_t seed) {
  Circuit c;
  SyntheticCircuit s = synthetic_porep(log2, seed, cpu().pool());
  c.rows = std::move(s.cs);
  c.w = std::move(s.witness);
  c.key = std::make_shared<const ProvingKey>(setup(c.rows, ToxicWaste::from_seed(seed), cpu().pool()));
  return c;
}

/// The GPU's proof equals the CPU's for the same r, s, both from a synthesized assignment and from a
/// deferred one (a, b, c evaluated on the device from the resident compact rows), and verifies.
void expect_same_as_cpu(const Circuit& c, ProverBackend& gpu) {
  const Groth16Proof want = prove(*c.key, c.assignment(), cpu(), fixed_rs()).proof;
  const ProveResult got = prove_finalize(prove_start(c.key, {c.assignment()}, gpu, fixed_rs()))[0];
  EXPECT_EQ(got.proof, want);
  EXPECT_TRUE(verify(c.key->verifying_key(), got.public_inputs, got.proof));
  auto rows = std::make_shared<const CompactCs>(compact(c.rows, cpu().pool()));
  const ProveResult deferred =
      prove_finalize(prove_start(c.key, {deferred_assignment(rows, c.w, cpu().pool())}, gpu, fixed_rs()))[0];
  EXPECT_EQ(deferred.proof, want) << "a, b, c on the device";
}

TEST(GpuProver, CircomFixturesByteIdenticalToCpu) {
  CUZK_REQUIRE_GPU();
  GpuBackend gpu;
  for (auto [z, w] :
       {std::pair{"mimc/mimc_dev.zkey", "mimc/mimc.wtns"}, {"tiny/mul_final.zkey", "tiny/mul.wtns"}}) {
    SCOPED_TRACE(z);
    expect_same_as_cpu(zkey_circuit(z, w), gpu);
  }
}

TEST(GpuProver, SyntheticPorepBothWaysByteIdentical) {
  CUZK_REQUIRE_GPU();
  GpuBackend gpu;
  for (int k = 10; k <= 20; k += 2) {
    SCOPED_TRACE(k);
    expect_same_as_cpu(synthetic_circuit(k, 100 + k), gpu);
  }
}

/// A circuit whose public inputs are 0 and r − 1 and whose private values are mostly 0 and 1: wires
/// 1 = 0 and 2 = r − 1 (public), then `bits` private bits b_i (a fixed pseudo-random pattern) and
/// y_i = −b_i; rows (w1 + b_i)·b_i = b_i, w2·b_i = y_i, and w2·1 = w2.
R1cs edge_value_r1cs(uint32_t bits, std::vector<Fr>& w) {
  R1cs r;
  r.n_pub_in = 2;
  r.n_wires = 3 + 2 * bits;
  r.n_labels = r.n_wires;
  const Fr one = Fr::one();
  w.assign(r.n_wires, Fr::zero());
  w[0] = one;
  w[2] = -one;
  uint64_t x = 0x9e3779b97f4a7c15ull;
  for (uint32_t i = 0; i < bits; i++) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    const uint32_t b = 3 + i, y = 3 + bits + i;
    w[b] = (x & 1) ? one : Fr::zero();
    w[y] = -w[b];
    r.a.push_row(std::vector<uint32_t>{1, b}, std::vector<Fr>{one, one});
    r.b.push_row(std::vector<uint32_t>{b}, std::vector<Fr>{one});
    r.c.push_row(std::vector<uint32_t>{b}, std::vector<Fr>{one});
    r.a.push_row(std::vector<uint32_t>{2}, std::vector<Fr>{one});
    r.b.push_row(std::vector<uint32_t>{b}, std::vector<Fr>{one});
    r.c.push_row(std::vector<uint32_t>{y}, std::vector<Fr>{one});
  }
  r.a.push_row(std::vector<uint32_t>{2}, std::vector<Fr>{one});
  r.b.push_row(std::vector<uint32_t>{0}, std::vector<Fr>{one});
  r.c.push_row(std::vector<uint32_t>{2}, std::vector<Fr>{one});
  r.n_constraints = (uint32_t)r.a.rows();
  return r;
}

TEST(GpuProver, PublicInputsZeroAndMinusOneByteIdentical) {
  CUZK_REQUIRE_GPU();
  GpuBackend gpu;
  for (HConvention conv : {HConvention::kBellperson, HConvention::kSnarkjs}) {
    SCOPED_TRACE(conv == HConvention::kBellperson ? "bellperson" : "snarkjs");
    Circuit c;
    const R1cs r1cs = edge_value_r1cs(3000, c.w);
    ASSERT_FALSE(first_unsatisfied(r1cs, c.w).has_value());
    c.rows = constraint_system(r1cs, conv);
    c.key = std::make_shared<const ProvingKey>(setup(c.rows, ToxicWaste::from_seed(5), cpu().pool()));
    const ProveResult got = prove_finalize(prove_start(c.key, {c.assignment()}, gpu, fixed_rs()))[0];
    ASSERT_EQ(got.public_inputs.size(), 2u);
    EXPECT_TRUE(got.public_inputs[0].is_zero());
    EXPECT_EQ(got.public_inputs[1], -Fr::one());
    expect_same_as_cpu(c, gpu);
  }
}

TEST(GpuProver, StreamedKeyAndCpuG2ProveTheSame) {
  CUZK_REQUIRE_GPU();
  const Circuit c = synthetic_circuit(14, 7);
  GpuBackendOptions o;
  o.mem_budget = 1 << 20;  // below what one partition needs: an error result, and the backend stays usable
  GpuBackend tiny(o);
  EXPECT_THROW(prove_finalize(prove_start(c.key, {c.assignment()}, tiny, fixed_rs())), Error);
  o.mem_budget = plan_device(device_shape(*c.key), 0).min_budget;  // the least it proves in: all streamed
  GpuBackend streamed(o);
  EXPECT_TRUE(streamed.plan(*c.key).fits);
  EXPECT_EQ(streamed.plan(*c.key).resident_bytes, 0u);
  expect_same_as_cpu(c, streamed);
  EXPECT_FALSE(streamed.resident(c.key.get()));
  GpuBackendOptions g;
  g.g2_on_cpu = true;
  g.g2_threads = 4;
  GpuBackend g2cpu(g);
  expect_same_as_cpu(c, g2cpu);
  EXPECT_TRUE(g2cpu.resident(c.key.get()));
  EXPECT_GT(g2cpu.evict(c.key.get()), 0u);
  EXPECT_FALSE(g2cpu.resident(c.key.get()));
}

TEST(GpuProver, ReleasedKeyIsUploadedFromItsFileAndProvesTheSame) {
  // A key read with the vectors the GPU keeps resident released (issue 35 item 3): the GPU uploads them
  // from the .params file, proves byte-identically to the CPU with the whole key, again after an eviction
  // (read back once more), and a backend whose plan streams them reads them back and holds them itself.
  CUZK_REQUIRE_GPU();
  const Circuit c = synthetic_circuit(14, 9);
  const std::string path = ::testing::TempDir() + "/cuzk_released_" + std::to_string(::getpid()) + ".params";
  write_params(path, *c.key, &cpu().pool());
  GpuBackend gpu;
  ParamsReadOptions o;
  o.release = [&gpu](const ProvingKey& shape, const CompactCs* rows) {
    return gpu.device_resident(shape, rows);
  };
  Circuit r = c;
  r.key = std::make_shared<const ProvingKey>(read_params(path, o));
  KeyVectorSet all;
  all.fill(true);
  ASSERT_EQ(gpu.device_resident(*c.key, nullptr), all);
  EXPECT_EQ(r.key->point_bytes(), r.key->ic.size() * sizeof(G1Affine));
  const Groth16Proof want = prove(*c.key, c.assignment(), cpu(), fixed_rs()).proof;
  auto gpu_proof = [&](GpuBackend& b) {
    return prove_finalize(prove_start(r.key, {r.assignment()}, b, fixed_rs()))[0].proof;
  };
  EXPECT_EQ(gpu_proof(gpu), want);
  EXPECT_TRUE(gpu.resident(r.key.get()));
  EXPECT_GT(gpu.evict(r.key.get()), 0u);
  EXPECT_EQ(gpu_proof(gpu), want) << "uploaded again from the file";
  GpuBackendOptions so;
  so.mem_budget = plan_device(device_shape(*c.key), 0).min_budget;  // everything streams
  GpuBackend streamed(so);
  EXPECT_EQ(gpu_proof(streamed), want) << "streamed from vectors read back";
  GpuBackendOptions g;
  g.g2_on_cpu = true;
  GpuBackend g2cpu(g);
  EXPECT_FALSE(g2cpu.device_resident(*c.key, nullptr)[(int)KeyVector::kBG2]);
  EXPECT_EQ(gpu_proof(g2cpu), want) << "b_g2 read back for the CPU";
  std::remove(path.c_str());
}

/// Sets an environment variable for the life of the object (restored after).
struct ScopedEnv {
  std::string name;
  ScopedEnv(const char* n, const std::string& v) : name(n) { setenv(n, v.c_str(), 1); }
  ~ScopedEnv() { unsetenv(name.c_str()); }
};

TEST(GpuProver, EveryDevicePlanProvesTheSame) {
  // Budgets from the planner's own model for this circuit with its rows: from the least it proves in
  // (everything streamed, rows too, a lean H, no slot) through partial residency to the whole key,
  // each proof byte-identical to the CPU's, synthesized and deferred. Chunks of 5,001 points
  // (CUZK_STREAM_CHUNK_BYTES) make every streamed MSM run over several chunks and a short last one.
  CUZK_REQUIRE_GPU();
  ScopedEnv chunk("CUZK_STREAM_CHUNK_BYTES", std::to_string(5001 * 192));
  const Circuit c = synthetic_circuit(16, 21);
  auto rows = std::make_shared<const CompactCs>(compact(c.rows, cpu().pool()));
  DeviceShape sh = device_shape(*c.key);
  sh.rows_bytes = rows->bytes();
  sh.rows_table_bytes = rows->table.size() * sizeof(Fr);
  sh.ntt_table_bytes = cuda::GpuNtt::max_table_bytes(sh.log_n);
  const size_t lo = plan_device(sh, 0).min_budget;
  size_t hi = lo;
  while (!plan_device(sh, hi).all_resident() || plan_device(sh, hi).witness_slots < 2) hi += hi / 8;
  // One budget for each kind of layout between the two (witness slots, where the rows are, a/b/c at once
  // or in sequence; none, part or all of the key resident), found by the planner alone in 256 KiB steps.
  std::vector<size_t> budgets;
  std::string last;
  for (size_t b = lo; b <= hi; b += 256 << 10) {
    const DevicePlan p = plan_device(sh, b);
    const int residency = p.all_resident()       ? 2
                          : p.resident_bytes > 0 ? 1
                                                 : 0;  // none, part or all of the key
    const std::string sig = std::to_string(p.witness_slots * 16 + p.h_lean * 8 + p.rows_resident * 4 +
                                           p.rows_streamed * 2 + p.abc_in_sequence) +
                            (p.side_l ? "l" : "") + (p.side_a ? "a" : "") + "/" + std::to_string(residency);
    if (sig != last) budgets.push_back(b), last = sig;
  }
  bool saw_rows_streamed = false, saw_lean = false, saw_partial = false, saw_all = false, saw_side = false,
       saw_side_a = false;
  for (const size_t b : budgets) {
    const DevicePlan p = plan_device(sh, b);
    SCOPED_TRACE(p.describe());
    saw_rows_streamed |= p.rows_streamed && !p.h_lean;
    saw_lean |= p.h_lean;
    saw_partial |= p.resident_bytes > 0 && p.streamed_bytes > 0;
    saw_all |= p.all_resident();
    GpuBackendOptions o;
    o.mem_budget = b;
    GpuBackend gpu(o);
    expect_same_as_cpu(c, gpu);
    if (p.rows_streamed && !p.h_lean) {  // a small circuit never needs the lean H: force it
      ScopedEnv lean("CUZK_H_LEAN", "1");
      GpuBackend lean_gpu(o);
      expect_same_as_cpu(c, lean_gpu);
      saw_lean = true;
    }
    if (p.side_l || p.side_a) {  // L and A beside the H MSM; and the same budget planned without them
      saw_side = true;
      ScopedEnv no_side("CUZK_SIDE_STREAM", "0");
      GpuBackend plain(o);
      expect_same_as_cpu(c, plain);
    }
    if (p.side_a) {  // L only beside it
      saw_side_a = true;
      ScopedEnv l_only("CUZK_SIDE_STREAM", "l");
      GpuBackend l_gpu(o);
      expect_same_as_cpu(c, l_gpu);
    }
  }
  EXPECT_TRUE(saw_rows_streamed);
  EXPECT_TRUE(saw_lean);
  EXPECT_TRUE(saw_partial);
  EXPECT_TRUE(saw_all);
  EXPECT_TRUE(saw_side);
  EXPECT_TRUE(saw_side_a);
}

TEST(GpuProver, SideStreamBesideTheHMsmProvesTheSame) {
  // The least budget whose plan streams L and A beside the H MSM (their chunks on a second engine, A's
  // scalars gathered by density a chunk at a time, across the inputs' head), with small chunks so that
  // every vector takes several; byte-identical to the CPU, and so is the same budget planned with L only
  // beside it, at the default priority, and without the side stream.
  CUZK_REQUIRE_GPU();
  ScopedEnv chunk("CUZK_STREAM_CHUNK_BYTES", std::to_string(777 * 192));
  const Circuit c = synthetic_circuit(14, 11);
  const DeviceShape sh = device_shape(*c.key);
  ASSERT_LT(c.key->count(KeyVector::kA), c.key->n_inputs + c.key->n_aux) << "A's density should be partial";
  size_t b = plan_device(sh, 0).min_budget;
  while (!(plan_device(sh, b).side_l && plan_device(sh, b).side_a)) {
    ASSERT_FALSE(plan_device(sh, b).all_resident()) << "no budget plans the side stream";
    b += 64 << 10;
  }
  GpuBackendOptions o;
  o.mem_budget = b;
  // one backend at a time, as a daemon has one per device
  {
    GpuBackend side(o);
    ASSERT_TRUE(side.plan(*c.key).side_a) << side.plan(*c.key).describe();
    expect_same_as_cpu(c, side);
  }
  {
    ScopedEnv l_only("CUZK_SIDE_STREAM", "l");
    GpuBackend l_gpu(o);
    EXPECT_FALSE(l_gpu.plan(*c.key).side_a) << l_gpu.plan(*c.key).describe();
    expect_same_as_cpu(c, l_gpu);
  }
  ScopedEnv off("CUZK_SIDE_STREAM", "0");
  GpuBackend plain(o);
  EXPECT_EQ(plain.plan(*c.key).side_chunk_bytes, 0u) << plain.plan(*c.key).describe();
  expect_same_as_cpu(c, plain);
}

TEST(GpuProver, WitnessOverwrittenAfterItsLastReadProvesTheSame) {
  // ProveOptions::aux_read, where the engine frees a partition's witness while its MSMs run: here every
  // aux value is overwritten in the callback, so a read after it would change the proof, or the values
  // are freed as the engine frees them (a size read after it would change the call). Resident and
  // side-stream plans and the floor, witness and deferred assignments, byte-identical to the CPU; with B_G2
  // on the CPU (which reads the witness after start()) the callback never comes.
  CUZK_REQUIRE_GPU();
  ScopedEnv chunk("CUZK_STREAM_CHUNK_BYTES", std::to_string(777 * 192));
  const Circuit c = synthetic_circuit(14, 11);
  const Groth16Proof want = prove(*c.key, c.assignment(), cpu(), fixed_rs()).proof;
  auto rows = std::make_shared<const CompactCs>(compact(c.rows, cpu().pool()));
  const DeviceShape sh = device_shape(*c.key);
  size_t side = plan_device(sh, 0).min_budget;
  while (!plan_device(sh, side).side_l && !plan_device(sh, side).all_resident()) side += 64 << 10;
  // and the floor with the rows: rows streamed, the witness crossing under the GPU mutex (packed ahead
  // of it with CUZK_UPLOAD_PACK=2)
  DeviceShape with_rows = sh;
  with_rows.rows_bytes = rows->bytes();
  with_rows.rows_table_bytes = rows->table.size() * sizeof(Fr);
  with_rows.ntt_table_bytes = cuda::GpuNtt::max_table_bytes(sh.log_n);
  const size_t floor = plan_device(with_rows, 0).min_budget;
  ASSERT_TRUE(plan_device(with_rows, floor).rows_streamed);
  for (size_t budget : {size_t{0}, side, floor})
    for (bool g2_on_cpu : {false, true})
      for (bool deferred : {false, true})
        for (bool free : {false, true}) {
          SCOPED_TRACE(testing::Message() << "budget " << budget << " g2_on_cpu " << g2_on_cpu << " deferred "
                                          << deferred << (free ? " freed" : " overwritten"));
          GpuBackendOptions o;
          o.mem_budget = budget;
          o.g2_on_cpu = g2_on_cpu;
          GpuBackend gpu(o);
          auto asg = std::make_shared<Assignment>(deferred ? deferred_assignment(rows, c.w, cpu().pool())
                                                           : c.assignment());
          ProveOptions opt = fixed_rs();
          int calls = 0;
          opt.aux_read = [&](size_t) {
            calls++;
            if (free)
              asg->aux = Scalars();
            else
              for (Fr& v : asg->aux.vec()) v = Fr::from_u64(7);
          };
          EXPECT_EQ(prove_finalize(prove_start(c.key, {asg}, gpu, opt))[0].proof, want);
          EXPECT_EQ(calls, g2_on_cpu ? 0 : 1);
        }
}

TEST(GpuProver, WorkersShareOneGpu) {
  CUZK_REQUIRE_GPU();
  const Circuit c = synthetic_circuit(16, 9);
  const Groth16Proof want = prove(*c.key, c.assignment(), cpu(), fixed_rs()).proof;
  auto asg = std::make_shared<const Assignment>(c.assignment());
  auto rows = std::make_shared<const CompactCs>(compact(c.rows, cpu().pool()));
  auto deferred = std::make_shared<const Assignment>(deferred_assignment(rows, c.w, cpu().pool()));
  for (int gw : {2, 3}) {
    GpuBackendOptions o;
    o.g2_on_cpu = gw == 3;
    GpuBackend gpu(o);
    std::vector<std::thread> t;
    std::atomic<int> bad{0};
    for (int i = 0; i < gw; i++)
      t.emplace_back([&] {
        for (int k = 0; k < 4; k++)
          if (prove_finalize(prove_start(c.key, {k % 2 ? deferred : asg}, gpu, fixed_rs()))[0].proof != want)
            bad++;
      });
    for (auto& th : t) th.join();
    EXPECT_EQ(bad.load(), 0) << "gw = " << gw;
  }
}

TEST(GpuProver, RepeatedProofsIdentical) {
  CUZK_REQUIRE_GPU();
  const Circuit c = synthetic_circuit(15, 3);
  GpuBackend gpu;
  auto asg = std::make_shared<const Assignment>(c.assignment());
  const Groth16Proof first = prove_finalize(prove_start(c.key, {asg}, gpu, fixed_rs()))[0].proof;
  for (int i = 0; i < 20; i++)
    ASSERT_EQ(prove_finalize(prove_start(c.key, {asg}, gpu, fixed_rs()))[0].proof, first);
}

TEST(GpuProver, InjectedAllocationFailureIsAnErrorAndTheNextProofWorks) {
  CUZK_REQUIRE_GPU();
  const Circuit c = synthetic_circuit(14, 5);
  GpuBackend gpu;
  for (uint64_t nth : {1, 3, 6}) {
    SCOPED_TRACE(nth);
    gpu.evict(c.key.get());
    cuda::inject_alloc_failure(nth);
    try {
      prove_finalize(prove_start(c.key, {c.assignment()}, gpu, fixed_rs()));
      cuda::inject_alloc_failure(0);
      // the failure may land after the last allocation of a proof: then it did not fire
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::kCuda) << e.what();
    }
    cuda::inject_alloc_failure(0);
    expect_same_as_cpu(c, gpu);
  }
}

}  // namespace
}  // namespace cuzk::test
