// Random constraint systems with edge coefficients, for the tests of the compact rows on the CPU
// (test_compact_cs.cpp) and on the device (gpu/test_gpu_spmv.cpp).
#pragma once

#include <random>
#include <vector>

#include "groth16/r1cs.hpp"

namespace cuzk::random_rows {

inline Fr random_fr(std::mt19937_64& rng) {
  Fr x;
  for (auto& l : x.l) l = rng();
  x.l[3] &= 0x0fffffffffffffffULL;  // below r (r > 2^254)
  return x;
}

/// A random constraint system on 2^log_n rows (some rows fewer): terms with coefficients drawn from
/// {0, 1, −1, 2, random}, columns possibly repeated within a row, some rows empty, every 97th row long
/// (17–316 terms).
inline ConstraintSystem random_cs(HConvention conv, int log_n, uint32_t n_inputs, uint32_t n_aux,
                                  uint64_t seed) {
  std::mt19937_64 rng(seed);
  ConstraintSystem cs;
  cs.convention = conv;
  cs.log_n = log_n;
  cs.n_inputs = n_inputs;
  cs.n_aux = n_aux;
  const Fr edge[] = {Fr::zero(), Fr::one(), -Fr::one(), Fr::from_u64(2)};
  const size_t rows = (size_t{1} << log_n) - 3;
  for (SparseMatrix* m : {&cs.a, &cs.b, &cs.c}) {
    if (conv == HConvention::kSnarkjs && m == &cs.c) break;  // a zkey's system has no C rows
    for (size_t j = 0; j < rows; j++) {
      // mostly short rows, some empty, and every 97th long (the device's warp-per-row kernel)
      const int terms = j % 7 == 0 ? 0 : j % 97 == 5 ? 17 + (int)(rng() % 300) : (int)(rng() % 6);
      std::vector<uint32_t> c;
      std::vector<Fr> v;
      for (int t = 0; t < terms; t++) {
        c.push_back(t > 0 && rng() % 4 == 0 ? c.back() : (uint32_t)(rng() % (n_inputs + n_aux)));
        const unsigned pick = (unsigned)(rng() % 6);
        v.push_back(pick < 4 ? edge[pick] : random_fr(rng));
      }
      m->push_row(c, v);
    }
  }
  compute_densities(cs);
  return cs;
}

inline std::vector<Fr> random_witness(const ConstraintSystem& cs, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<Fr> w(cs.n_vars());
  w[0] = Fr::one();
  for (size_t i = 1; i < w.size(); i++) {
    const unsigned pick = (unsigned)(rng() % 4);
    w[i] = pick == 0 ? Fr::zero() : pick == 1 ? Fr::one() : pick == 2 ? -Fr::one() : random_fr(rng);
  }
  return w;
}

}  // namespace cuzk::random_rows
