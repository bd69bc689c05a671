// The compact constraint system (groth16/compact_cs.hpp) and the row function the GPU kernel runs
// (cuda/spmv_row.hpp): for the same witness, a, b, c evaluated from the compact rows are byte-identical to
// synthesize()'s CSR products, on random circuits with edge coefficients (0, 1, −1 = r − 1, 2, random),
// repeated columns, empty rows, in both conventions; and proofs from deferred assignments equal the
// proofs from synthesized ones.
#include <gtest/gtest.h>

#include <cstring>

#include "groth16/compact_cs.hpp"
#include "groth16/cpu_backend.hpp"
#include "groth16/prover.hpp"
#include "groth16/setup.hpp"
#include "groth16/synthetic.hpp"
#include "random_cs.hpp"
#include "util/error.hpp"

namespace cuzk {
namespace {

using random_rows::random_cs;
using random_rows::random_witness;

bool same_bytes(std::span<const Fr> x, std::span<const Fr> y) {
  // (memcmp of empty vectors: their data() may be null, which memcmp must not be given)
  return x.size() == y.size() && (x.empty() || std::memcmp(x.data(), y.data(), x.size() * sizeof(Fr)) == 0);
}

TEST(Groth16CompactCs, EvaluatesLikeTheCsrProducts) {
  ThreadPool pool(3);
  for (HConvention conv : {HConvention::kBellperson, HConvention::kSnarkjs}) {
    for (uint64_t seed = 1; seed <= 4; seed++) {
      const ConstraintSystem cs = random_cs(conv, 10 + (int)seed % 2, 5, 900, seed);
      const std::vector<Fr> w = random_witness(cs, seed + 100);
      const Assignment want = synthesize(cs, w, pool);
      const CompactCs rows = compact(cs, pool);
      EXPECT_EQ(rows.nnz(), cs.nnz());
      EXPECT_EQ(rows.table[kCoeffOne], Fr::one());
      EXPECT_EQ(rows.table[kCoeffMinusOne], -Fr::one());
      BigVector<Fr> a, b, c;
      evaluate_abc(rows, w, a, b, c, pool);
      EXPECT_TRUE(same_bytes(a, want.a)) << "seed " << seed;
      EXPECT_TRUE(same_bytes(b, want.b)) << "seed " << seed;
      EXPECT_TRUE(same_bytes(c, want.c)) << "seed " << seed;
      EXPECT_EQ(rows.a_aux, cs.a_aux);
      EXPECT_EQ(rows.b_inp, cs.b_inp);
      EXPECT_EQ(rows.b_aux, cs.b_aux);
      // Every term keeps its column and coefficient.
      for (size_t k = 0; k < cs.a.nnz(); k++) {
        ASSERT_EQ(rows.a.cols[k], cs.a.cols[k]);
        ASSERT_EQ(rows.table[rows.a.coeffs[k]], cs.a.vals[k]);
      }
    }
  }
}

TEST(Groth16CompactCs, EmulatedWarpPerRowSumsEqualTheRowDot) {
  // The device's long-row kernel emulated: 32 lanes' csr_row_partial shares added by the same shuffle
  // tree (__shfl_down_sync: lane i takes lane i + d's value, a source past lane 31 gives its own), lane 0
  // keeping the row's value; it must equal csr_row_dot byte for byte on every row, long ones included.
  ThreadPool pool(2);
  const ConstraintSystem cs = random_cs(HConvention::kBellperson, 12, 5, 2000, 77);
  const std::vector<Fr> w = random_witness(cs, 78);
  const CompactCs rows = compact(cs, pool);
  size_t long_rows = 0;
  for (const CompactMatrix* m : {&rows.a, &rows.b, &rows.c}) {
    const CsrView v = m->view();
    for (uint64_t j = 0; j < v.rows; j++) {
      Fr lane[32];
      for (unsigned l = 0; l < 32; l++) lane[l] = csr_row_partial(v, rows.table.data(), w.data(), j, l, 32);
      for (unsigned d = 16; d > 0; d >>= 1) {
        Fr next[32];
        for (unsigned l = 0; l < 32; l++) next[l] = lane[l] + (l + d < 32 ? lane[l + d] : lane[l]);
        std::copy(next, next + 32, lane);
      }
      const Fr want = csr_row_dot(v, rows.table.data(), w.data(), j);
      ASSERT_EQ(0, std::memcmp(&lane[0], &want, sizeof(Fr))) << "row " << j;
      long_rows += v.offsets[j + 1] - v.offsets[j] > 16;
    }
  }
  EXPECT_GT(long_rows, 50u);  // the random circuit has long rows
}

TEST(Groth16CompactCs, InternsAcrossBlocksOfTerms) {
  // More than one interning block (2^20 terms) per matrix, with a few distinct coefficients: the table
  // stays small (one entry per block and value) and every index points at its coefficient.
  ThreadPool pool(2);
  ConstraintSystem cs;
  cs.log_n = 22;
  cs.n_inputs = 1;
  cs.n_aux = 1000;
  const Fr vals[] = {Fr::one(), -Fr::one(), Fr::from_u64(3), Fr::from_u64(5), Fr::zero()};
  for (size_t j = 0; j < (size_t{5} << 19); j++) {
    const uint32_t c[1] = {(uint32_t)(j % 1001)};
    const Fr v[1] = {vals[j % 5]};
    cs.a.push_row(c, v);
    cs.b.push_row({}, {});
    cs.c.push_row({}, {});
  }
  compute_densities(cs);
  const CompactCs rows = compact(cs, pool);
  EXPECT_LE(rows.table.size(), 2 + 3 * 3u);  // 3 non-±1 values in each of the 3 blocks of A
  for (size_t k = 0; k < cs.a.nnz(); k += 997) ASSERT_EQ(rows.table[rows.a.coeffs[k]], cs.a.vals[k]);
}

TEST(Groth16CompactCs, DeferredAssignmentChecksItsWitness) {
  ThreadPool pool(2);
  const ConstraintSystem cs = random_cs(HConvention::kBellperson, 10, 3, 100, 7);
  auto rows = std::make_shared<const CompactCs>(compact(cs, pool));
  std::vector<Fr> w = random_witness(cs, 8);
  EXPECT_THROW(deferred_assignment(rows, std::span<const Fr>(w).first(w.size() - 1), pool), Error);
  w[0] = Fr::from_u64(2);
  EXPECT_THROW(deferred_assignment(rows, w, pool), Error);
  w[0] = Fr::one();
  const Assignment asg = deferred_assignment(rows, w, pool);
  EXPECT_TRUE(asg.a.empty() && asg.b.empty() && asg.c.empty());
  EXPECT_EQ(asg.aux.size(), cs.n_aux);
  EXPECT_EQ(0, std::memcmp(asg.aux.data(), w.data() + cs.n_inputs, cs.n_aux * sizeof(Fr)));
  EXPECT_EQ(asg.rows, rows);
}

TEST(Groth16CompactCs, DeferredProofsEqualSynthesizedOnes) {
  // The same r, s: a deferred assignment (a, b, c made by the backend from the rows) proves to the same
  // bytes as the synthesized one, and the proof verifies; a wrong witness is refused.
  ThreadPool pool(2);
  SyntheticCircuit sc = synthetic_porep(10, 5, pool);
  const ProvingKey key = setup(sc.cs, ToxicWaste::from_seed(9), pool);
  auto rows = std::make_shared<const CompactCs>(compact(sc.cs, pool));
  check_key_fits(key, *rows, "the key and the rows");
  CpuBackend backend(2);
  ProveOptions opt;
  opt.r = Fr::from_u64(11);
  opt.s = Fr::from_u64(13);
  const ProveResult want = prove(key, synthesize(sc.cs, sc.witness, pool), backend, opt);
  const ProveResult got = prove(key, deferred_assignment(rows, sc.witness, pool), backend, opt);
  EXPECT_EQ(got.proof.a, want.proof.a);
  EXPECT_EQ(got.proof.b, want.proof.b);
  EXPECT_EQ(got.proof.c, want.proof.c);
  std::vector<Fr> bad = sc.witness;
  bad[sc.cs.n_inputs + 17] += Fr::one();
  try {
    prove(key, deferred_assignment(rows, bad, pool), backend, opt);
    FAIL() << "a witness that does not satisfy the circuit proved";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kUnsatisfied);
    EXPECT_NE(std::string(e.what()).find("first unsatisfied row"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace cuzk
