// PoRep-shaped synthetic circuits (groth16/synthetic.hpp): the shape of REFERENCE.md §2 (counts,
// densities, value mix, nnz per row) at 2^10..2^16, every row satisfied, determinism in the seed and
// independence from the thread count.
#include <gtest/gtest.h>

#include "groth16/synthetic.hpp"
#include "util/error.hpp"

namespace cuzk::test {
namespace {

double pct(size_t part, size_t whole) { return 100.0 * (double)part / (double)whole; }

TEST(Groth16Synthetic, ConstraintCounts) {
  EXPECT_EQ(synthetic_constraints(10), 680u);
  EXPECT_EQ(synthetic_constraints(13), 7736u);
  EXPECT_EQ(synthetic_constraints(14), 15892u);  // ⌊0.97·2^14⌋ from here on
  EXPECT_EQ(synthetic_constraints(24), 16273899u);
  EXPECT_EQ(synthetic_constraints(27), 130191196u);
  for (int k = 10; k <= 28; k++)
    EXPECT_LE(synthetic_constraints(k) + kSyntheticInputs, uint64_t{1} << k) << k;
  EXPECT_THROW(synthetic_constraints(9), Error);
  EXPECT_THROW(synthetic_constraints(29), Error);
}

TEST(Groth16Synthetic, ShapeAt2To10Through16) {
  ThreadPool pool(2);
  for (int k = 10; k <= 16; k++) {
    SCOPED_TRACE(k);
    const SyntheticCircuit sc = synthetic_porep(k, 42, pool);
    const ConstraintSystem& cs = sc.cs;
    const uint32_t n = synthetic_constraints(k);
    EXPECT_EQ(cs.convention, HConvention::kBellperson);
    EXPECT_EQ(cs.log_n, k);
    EXPECT_EQ(cs.n_inputs, 328u);
    EXPECT_EQ(cs.n_aux, n);
    ASSERT_EQ(sc.witness.size(), (size_t)cs.n_vars());
    for (const SparseMatrix* m : {&cs.a, &cs.b, &cs.c}) EXPECT_EQ(m->rows(), (size_t)n + 328);
    EXPECT_LE(cs.a.rows(), cs.domain_size());

    EXPECT_NEAR(pct(cs.a_aux.popcount(), n), 99.7, 0.5);
    EXPECT_NEAR(pct(cs.b_aux.popcount(), n), 25.0, 0.5);
    EXPECT_EQ(cs.b_inp.popcount(), 1u);
    EXPECT_TRUE(cs.b_inp.test(0));

    size_t zeros = 0, ones = 0;
    for (uint32_t i = 0; i < n; i++) {
      const Fr& x = sc.witness[328 + i];
      zeros += x.is_zero();
      ones += x.is_one();
    }
    EXPECT_NEAR(pct(zeros, n), 45.0, 0.5);
    EXPECT_NEAR(pct(ones, n), 45.0, 0.5);
    EXPECT_NEAR(pct(n - zeros - ones, n), 10.0, 0.5);
    EXPECT_TRUE(sc.witness[0].is_one());

    // nnz per constraint row (the input rows excluded)
    EXPECT_NEAR((double)cs.a.row_offsets[n] / n, 2.4, 0.01);
    EXPECT_EQ(cs.b.row_offsets[n], n);
    EXPECT_NEAR((double)cs.c.row_offsets[n] / n, 2.2, 0.01);
    // bellperson's input rows: A = input k, B and C empty
    for (uint32_t k2 = 0; k2 < 328; k2++) {
      const size_t row = n + k2;
      ASSERT_EQ(cs.a.row_offsets[row + 1] - cs.a.row_offsets[row], 1u);
      EXPECT_EQ(cs.a.cols[cs.a.row_offsets[row]], k2);
      EXPECT_TRUE(cs.a.vals[cs.a.row_offsets[row]].is_one());
      EXPECT_EQ(cs.b.row_offsets[row + 1], cs.b.row_offsets[row]);
      EXPECT_EQ(cs.c.row_offsets[row + 1], cs.c.row_offsets[row]);
    }
    // every variable occurs in some row of the constraints, no column out
    // of range, no variable twice in one row of A or C
    std::vector<char> seen(cs.n_vars(), 0);
    for (const SparseMatrix* m : {&cs.a, &cs.b, &cs.c})
      for (size_t i = 0; i < n; i++)
        for (uint64_t t = m->row_offsets[i]; t < m->row_offsets[i + 1]; t++) {
          ASSERT_LT(m->cols[t], cs.n_vars());
          seen[m->cols[t]] = 1;
          for (uint64_t t2 = m->row_offsets[i]; t2 < t; t2++)
            ASSERT_NE(m->cols[t2], m->cols[t]) << "row " << i;
        }
    for (uint32_t v = 0; v < cs.n_vars(); v++) ASSERT_TRUE(seen[v]) << "variable " << v << " occurs nowhere";
  }
}

TEST(Groth16Synthetic, EveryRowSatisfied) {
  ThreadPool pool(2);
  for (int k = 10; k <= 16; k++) {
    SCOPED_TRACE(k);
    const SyntheticCircuit sc = synthetic_porep(k, 1000 + k, pool);
    const ConstraintSystem& cs = sc.cs;
    for (size_t j = 0; j < cs.a.rows(); j++)
      ASSERT_EQ(cs.a.dot_row(j, sc.witness) * cs.b.dot_row(j, sc.witness), cs.c.dot_row(j, sc.witness))
          << "row " << j;
  }
}

void expect_same(const SyntheticCircuit& x, const SyntheticCircuit& y) {
  EXPECT_EQ(x.witness, y.witness);
  EXPECT_EQ(x.cs.a, y.cs.a);
  EXPECT_EQ(x.cs.b, y.cs.b);
  EXPECT_EQ(x.cs.c, y.cs.c);
  EXPECT_EQ(x.cs.a_aux, y.cs.a_aux);
  EXPECT_EQ(x.cs.b_inp, y.cs.b_inp);
  EXPECT_EQ(x.cs.b_aux, y.cs.b_aux);
}

TEST(Groth16Synthetic, DeterministicInSeedNotThreads) {
  ThreadPool one(1), two(2), five(5);
  // 2^16 has several chunks of 16384 rows, so the pools split the work differently
  const SyntheticCircuit ref = synthetic_porep(16, 7, one);
  expect_same(ref, synthetic_porep(16, 7, two));
  expect_same(ref, synthetic_porep(16, 7, five));
  const SyntheticCircuit other = synthetic_porep(16, 8, two);
  EXPECT_NE(ref.witness, other.witness);
  EXPECT_NE(ref.cs.a, other.cs.a);
  EXPECT_NE(ref.cs.c, other.cs.c);
}

}  // namespace
}  // namespace cuzk::test
