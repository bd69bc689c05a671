#include "groth16/synthesis.hpp"

#include <algorithm>
#include <atomic>
#include <string>

#include "util/error.hpp"
#include "util/plural.hpp"

namespace cuzk {
namespace {

/// Terms ahead of the current one whose witness value is prefetched: the column indices are random in
/// PoRep-sized circuits, so without it every term waits on a cache miss into a witness of gigabytes.
constexpr uint64_t kPrefetchAhead = 16;

/// out[j] = ⟨row j of m, w⟩ for j < m.rows(), 0 for the rest of out; rows split across the pool.
/// Coefficients ±1 (the common case in real circuits) cost an addition instead of a product.
void spmv(const SparseMatrix& m, std::span<const Fr> w, BigVector<Fr>& out, size_t n, ThreadPool& pool) {
  out.resize(n);
  const Fr one = Fr::one(), minus_one = -Fr::one();
  const size_t rows = m.rows();
  pool.parallel_for(
      n,
      [&](size_t lo, size_t hi) {
        const size_t row_end = std::min(hi, rows);
        const uint64_t k_end = lo < row_end ? m.row_offsets[row_end] : 0;
        for (size_t j = lo; j < row_end; j++) {
          Fr acc = Fr::zero();
          for (uint64_t k = m.row_offsets[j]; k < m.row_offsets[j + 1]; k++) {
            if (k + kPrefetchAhead < k_end) __builtin_prefetch(&w[m.cols[k + kPrefetchAhead]]);
            const Fr& v = m.vals[k];
            const Fr& x = w[m.cols[k]];
            if (v == one)
              acc += x;
            else if (v == minus_one)
              acc -= x;
            else
              acc += v * x;
          }
          out[j] = acc;
        }
        for (size_t j = std::max(lo, row_end); j < hi; j++) out[j] = Fr::zero();
      },
      4096);
}

}  // namespace

Assignment synthesize(const ConstraintSystem& cs, std::span<const Fr> witness, ThreadPool& pool) {
  if (witness.size() != cs.n_vars())
    throw Error(ErrorCode::kInvalidArgument, "witness has " + counted(witness.size(), "value") +
                                                 " but the circuit has " + counted(cs.n_vars(), "variable") +
                                                 " (" + counted(cs.n_inputs, "input") + " + " +
                                                 std::to_string(cs.n_aux) + " aux)");
  if (witness.empty() || !witness[0].is_one())
    throw Error(ErrorCode::kInvalidArgument, "witness[0] must be 1 (the constant ONE)");
  Assignment asg;
  asg.log_n = cs.log_n;
  asg.inputs.assign(witness.begin(), witness.begin() + cs.n_inputs);
  asg.aux.vec().assign(witness.begin() + cs.n_inputs, witness.end());
  const size_t n = cs.domain_size();
  spmv(cs.a, witness, asg.a.vec(), n, pool);
  spmv(cs.b, witness, asg.b.vec(), n, pool);
  if (cs.convention == HConvention::kBellperson) spmv(cs.c, witness, asg.c.vec(), n, pool);
  asg.a_aux = cs.a_aux;
  asg.b_inp = cs.b_inp;
  asg.b_aux = cs.b_aux;
  return asg;
}

long first_unsatisfied_row(const Assignment& asg) {
  if (asg.c.empty()) return -1;
  for (size_t j = 0; j < asg.a.size(); j++)
    if (asg.a[j] * asg.b[j] != asg.c[j]) return (long)j;
  return -1;
}

}  // namespace cuzk
