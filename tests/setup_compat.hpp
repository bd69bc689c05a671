// A bridge for test_setup.cpp to the snarkjs .zkey setup while formats/r1cs.hpp and groth16/r1cs.hpp
// still define the same types and cannot meet in one translation unit (test_setup_zkey.cpp includes
// the formats side). Only neutral types cross it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ec/curves.hpp"
#include "groth16/setup.hpp"

namespace cuzk::test {

/// One matrix of an .r1cs in CSR form (as SparseMatrix holds it).
struct CsrRows {
  std::vector<uint64_t> row_offsets;
  std::vector<uint32_t> cols;
  std::vector<Fr> vals;
};

/// An .r1cs file's counts and rows, and the points of the .zkey the snarkjs setup makes of it.
struct ZkeySetupResult {
  uint32_t n_wires = 0, n_public = 0, n_constraints = 0, domain_size = 0;
  CsrRows a, b, c;
  G1Affine alpha1, beta1, delta1;
  G2Affine beta2, gamma2, delta2;
  std::vector<G1Affine> ic, zk_a, b1, zk_c, h;
  std::vector<G2Affine> b2;
};

/// Reads the .r1cs at `path` and runs `Zkey setup(const R1cs&, …)` on it with `tw`.
ZkeySetupResult zkey_setup_of(const std::string& path, const ToxicWaste& tw, ThreadPool& pool);

}  // namespace cuzk::test
