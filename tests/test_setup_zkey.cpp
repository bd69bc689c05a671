// The formats side of setup_compat.hpp: runs the snarkjs .zkey setup on an .r1cs file and hands back
// its rows and points in neutral types (test_setup.cpp compares them with the ConstraintSystem setup).
#include "formats/r1cs.hpp"
#include "formats/zkey.hpp"
#include "setup_compat.hpp"

namespace cuzk::test {

ZkeySetupResult zkey_setup_of(const std::string& path, const ToxicWaste& tw, ThreadPool& pool) {
  const R1cs r1cs = read_r1cs(path);
  const Zkey zk = setup(r1cs, tw, pool);
  auto rows = [](const SparseMatrix& m) { return CsrRows{m.row_offsets, m.cols, m.vals}; };
  ZkeySetupResult out;
  out.n_wires = r1cs.n_wires;
  out.n_public = r1cs.n_public();
  out.n_constraints = r1cs.n_constraints;
  out.domain_size = zk.domain_size;
  out.a = rows(r1cs.a);
  out.b = rows(r1cs.b);
  out.c = rows(r1cs.c);
  out.alpha1 = zk.alpha1;
  out.beta1 = zk.beta1;
  out.delta1 = zk.delta1;
  out.beta2 = zk.beta2;
  out.gamma2 = zk.gamma2;
  out.delta2 = zk.delta2;
  out.ic.assign(zk.ic.begin(), zk.ic.end());
  out.zk_a.assign(zk.a.begin(), zk.a.end());
  out.b1.assign(zk.b1.begin(), zk.b1.end());
  out.zk_c.assign(zk.c.begin(), zk.c.end());
  out.h.assign(zk.h.begin(), zk.h.end());
  out.b2.assign(zk.b2.begin(), zk.b2.end());
  return out;
}

}  // namespace cuzk::test
