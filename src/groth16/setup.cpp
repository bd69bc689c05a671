#include "groth16/setup.hpp"

#include <random>

#include "ff/bytes.hpp"
#include "ff/roots.hpp"
#include "formats/r1cs.hpp"
#include "formats/zkey.hpp"
#include "groth16/prover.hpp"
#include "groth16/setup_detail.hpp"
#include "util/error.hpp"

namespace cuzk {
namespace {

using setup_detail::FixedBase;
using setup_detail::lagrange_at;

template <class T>
BigVector<T> big(const std::vector<T>& v) {
  return {v.begin(), v.end()};
}

Fr seeded(std::mt19937_64& rng) {
  uint8_t b[64];
  for (auto& x : b) x = (uint8_t)rng();
  Fr v = reduce_bytes_le<Fr>(b, sizeof b);
  return v.is_zero() ? Fr::one() : v;
}

}  // namespace

ToxicWaste ToxicWaste::from_seed(uint64_t seed) {
  std::mt19937_64 rng(seed);
  ToxicWaste t;
  t.tau = seeded(rng);
  t.alpha = seeded(rng);
  t.beta = seeded(rng);
  t.gamma = seeded(rng);
  t.delta = seeded(rng);
  return t;
}

ToxicWaste ToxicWaste::random() {
  return {random_fr_nonzero(), random_fr_nonzero(), random_fr_nonzero(), random_fr_nonzero(),
          random_fr_nonzero()};
}

Zkey setup(const R1cs& cs, const ToxicWaste& tw, ThreadPool& pool) {
  const uint32_t n_pub = cs.n_public();
  const uint64_t rows = (uint64_t)cs.n_constraints + n_pub + 1;
  int log_n = 1;
  while ((uint64_t{1} << log_n) < rows) log_n++;
  if (log_n > 28) throw Error(ErrorCode::kInvalidArgument, "setup: the circuit needs a domain above 2^28");
  const size_t n = size_t{1} << log_n;

  Zkey zk;
  zk.n_vars = cs.n_wires;
  zk.n_public = n_pub;
  zk.domain_size = (uint32_t)n;
  zk.mpc_params.assign(64 + 4, 0);  // csHash left zero, no contributions

  // QAP polynomials at τ
  BigVector<Fr> lag = lagrange_at(tw.tau, log_n, RootConvention::kSnarkjs5, 0, 1, n, pool);
  std::vector<Fr> u(cs.n_wires, Fr::zero()), v(cs.n_wires, Fr::zero()), w(cs.n_wires, Fr::zero());
  for (uint32_t j = 0; j < cs.n_constraints; j++) {
    for (uint64_t k = cs.a.row_offsets[j]; k < cs.a.row_offsets[j + 1]; k++) {
      u[cs.a.cols[k]] += cs.a.vals[k] * lag[j];
      zk.coefs.push_back({0, j, cs.a.cols[k], cs.a.vals[k]});
    }
    for (uint64_t k = cs.b.row_offsets[j]; k < cs.b.row_offsets[j + 1]; k++) {
      v[cs.b.cols[k]] += cs.b.vals[k] * lag[j];
      zk.coefs.push_back({1, j, cs.b.cols[k], cs.b.vals[k]});
    }
    for (uint64_t k = cs.c.row_offsets[j]; k < cs.c.row_offsets[j + 1]; k++)
      w[cs.c.cols[k]] += cs.c.vals[k] * lag[j];
  }
  for (uint32_t s = 0; s <= n_pub; s++) {  // public-input rows: A = w_s
    u[s] += lag[cs.n_constraints + s];
    zk.coefs.push_back({0, cs.n_constraints + s, s, Fr::one()});
  }

  FixedBase<Fp> g1(Curve<Fp>::generator(), pool);
  FixedBase<Fp2> g2(Curve<Fp2>::generator(), pool);
  zk.alpha1 = g1.mul(tw.alpha).to_affine();
  zk.beta1 = g1.mul(tw.beta).to_affine();
  zk.delta1 = g1.mul(tw.delta).to_affine();
  zk.beta2 = g2.mul(tw.beta).to_affine();
  zk.gamma2 = g2.mul(tw.gamma).to_affine();
  zk.delta2 = g2.mul(tw.delta).to_affine();

  const Fr gamma_inv = tw.gamma.inverse(), delta_inv = tw.delta.inverse();
  std::vector<Fr> ic_s(n_pub + 1), c_s(cs.n_wires - n_pub - 1);
  for (uint32_t j = 0; j < cs.n_wires; j++) {
    Fr t = tw.beta * u[j] + tw.alpha * v[j] + w[j];
    if (j <= n_pub)
      ic_s[j] = t * gamma_inv;
    else
      c_s[j - n_pub - 1] = t * delta_inv;
  }
  zk.ic = big(g1.mul_all(ic_s, pool));
  zk.a = big(g1.mul_all(u, pool));
  zk.b1 = big(g1.mul_all(v, pool));
  zk.b2 = big(g2.mul_all(v, pool));
  zk.c = big(g1.mul_all(c_s, pool));

  // H_j = L'_{2j+1}(τ)/δ over the domain 2n
  BigVector<Fr> lag2 = lagrange_at(tw.tau, log_n + 1, RootConvention::kSnarkjs5, 1, 2, n, pool);
  std::vector<Fr> h_s(n);
  for (size_t j = 0; j < n; j++) h_s[j] = lag2[j] * delta_inv;
  zk.h = big(g1.mul_all(h_s, pool));
  return zk;
}

}  // namespace cuzk
