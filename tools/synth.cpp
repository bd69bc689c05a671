#include "synth.hpp"

#include <chrono>
#include <cstdio>

#include "groth16/synthesis.hpp"
#include "groth16/synthetic.hpp"
#include "util/error.hpp"
#include "util/thread_pool.hpp"

namespace cuzk::cli {

int run_synth(const std::string& kind, int log2, uint64_t seed, unsigned threads) {
  if (kind != "porep")
    throw Error(ErrorCode::kInvalidArgument, "synth: only porep is known, not \"" + kind + "\"");
  ThreadPool pool(threads);
  using Clock = std::chrono::steady_clock;
  auto t0 = Clock::now();
  const SyntheticCircuit c = synthetic_porep(log2, seed, pool);
  const double gen = std::chrono::duration<double>(Clock::now() - t0).count();
  const ConstraintSystem& cs = c.cs;
  t0 = Clock::now();
  const Assignment asg = synthesize(cs, c.witness, pool);
  const double syn = std::chrono::duration<double>(Clock::now() - t0).count();
  const long bad = first_unsatisfied_row(asg);
  if (bad >= 0)
    throw Error(ErrorCode::kInternal,
                "synth: the generated witness does not satisfy row " + std::to_string(bad));
  size_t zeros = 0, ones = 0;
  for (const Fr& v : asg.aux) {
    if (v.is_zero())
      zeros++;
    else if (v.is_one())
      ones++;
  }
  const double rows = (double)cs.a.rows(), naux = cs.n_aux ? (double)cs.n_aux : 1.0;
  std::printf(
      "synthetic PoRep 2^%d, seed %llu: %zu rows (%zu constraints + %u input rows), %u inputs, %u aux\n",
      log2, (unsigned long long)seed, cs.a.rows(), cs.a.rows() - cs.n_inputs, cs.n_inputs, cs.n_inputs,
      cs.n_aux);
  std::printf("densities: a_aux %.2f%%, b_aux %.2f%%, b_inp %zu of %u\n", 100.0 * cs.a_aux.popcount() / naux,
              100.0 * cs.b_aux.popcount() / naux, cs.b_inp.popcount(), cs.n_inputs);
  std::printf("aux values: %.1f%% zero, %.1f%% one, %.1f%% other\n", 100.0 * zeros / naux,
              100.0 * ones / naux, 100.0 * (cs.n_aux - zeros - ones) / naux);
  std::printf("nonzeros per row: A %.2f, B %.2f, C %.2f\n", cs.a.nnz() / rows, cs.b.nnz() / rows,
              cs.c.nnz() / rows);
  std::printf("generated in %.2f s; synthesis (A·w, B·w, C·w) %.3f s = %.2e nonzeros/s; every row holds\n",
              gen, syn, cs.nnz() / syn);
  return 0;
}

}  // namespace cuzk::cli
