#include "groth16/setup.hpp"

#include <random>

#include "ff/bytes.hpp"
#include "ff/roots.hpp"
#include "groth16/prover.hpp"
#include "util/error.hpp"

namespace cuzk {
namespace {

template <class T>
BigVector<T> big(const std::vector<T>& v) {
  return {v.begin(), v.end()};
}

/// Table of d·2^(8w)·G for windows w = 0..31 and digits d = 0..255 (affine), for k·G with 32 mixed
/// additions.
template <class F>
class FixedBase {
 public:
  FixedBase(const Affine<F>& g, ThreadPool& pool) : table_(32 * 256) {
    std::vector<Jacobian<F>> base(32);
    base[0] = Jacobian<F>::from_affine(g);
    for (int w = 1; w < 32; w++) {
      base[w] = base[w - 1];
      for (int i = 0; i < 8; i++) base[w] = base[w].dbl();
    }
    std::vector<Jacobian<F>> all(32 * 256);
    pool.parallel_for(32, [&](size_t lo, size_t hi) {
      for (size_t w = lo; w < hi; w++) {
        all[w * 256] = Jacobian<F>::infinity();
        for (int d = 1; d < 256; d++) all[w * 256 + d] = all[w * 256 + d - 1] + base[w];
      }
    });
    table_ = batch_to_affine(all);
  }
  Jacobian<F> mul(const Fr& k) const {
    uint64_t c[4];
    k.to_canonical(c);
    Jacobian<F> acc = Jacobian<F>::infinity();
    for (int w = 0; w < 32; w++) {
      unsigned d = (c[w / 8] >> (8 * (w % 8))) & 0xff;
      if (d) acc = acc.add_affine(table_[w * 256 + d]);
    }
    return acc;
  }
  /// k_i·G for every i, in parallel, affine.
  std::vector<Affine<F>> mul_all(const std::vector<Fr>& ks, ThreadPool& pool) const {
    std::vector<Affine<F>> out(ks.size());
    pool.parallel_for(ks.size(), [&](size_t lo, size_t hi) {
      std::vector<Jacobian<F>> tmp(hi - lo);
      for (size_t i = lo; i < hi; i++) tmp[i - lo] = mul(ks[i]);
      auto aff = batch_to_affine(tmp);
      std::copy(aff.begin(), aff.end(), out.begin() + lo);
    });
    return out;
  }

 private:
  std::vector<Affine<F>> table_;
};

/// L_i(τ) for i < n over the domain of size n = 2^log_n (snarkjs roots):
/// L_i(τ) = (τ^n − 1)/n · ω^i/(τ − ω^i).
std::vector<Fr> lagrange_at(const Fr& tau, int log_n, ThreadPool& pool) {
  const size_t n = size_t{1} << log_n;
  const Fr omega = root_of_unity(log_n, RootConvention::kSnarkjs5);
  std::vector<Fr> pw(n), den(n);
  pw[0] = Fr::one();
  for (size_t i = 1; i < n; i++) pw[i] = pw[i - 1] * omega;
  for (size_t i = 0; i < n; i++) {
    den[i] = tau - pw[i];
    if (den[i].is_zero())
      throw Error(ErrorCode::kInvalidArgument, "setup: τ lies on the domain; pick another seed");
  }
  // batch inversion (Montgomery's trick), in chunks per thread
  pool.parallel_for(n, [&](size_t lo, size_t hi) {
    std::vector<Fr> pre(hi - lo);
    Fr acc = Fr::one();
    for (size_t i = lo; i < hi; i++) {
      pre[i - lo] = acc;
      acc = acc * den[i];
    }
    Fr inv = acc.inverse();
    for (size_t i = hi; i-- > lo;) {
      Fr d = den[i];
      den[i] = inv * pre[i - lo];
      inv = inv * d;
    }
  });
  Fr zn = tau.pow_u64(n) - Fr::one();
  Fr factor = zn * Fr::from_u64(n).inverse();
  std::vector<Fr> l(n);
  pool.parallel_for(n, [&](size_t lo, size_t hi) {
    for (size_t i = lo; i < hi; i++) l[i] = factor * pw[i] * den[i];
  });
  return l;
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
  std::vector<Fr> lag = lagrange_at(tw.tau, log_n, pool);
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
  std::vector<Fr> lag2 = lagrange_at(tw.tau, log_n + 1, pool);
  std::vector<Fr> h_s(n);
  for (size_t j = 0; j < n; j++) h_s[j] = lag2[2 * j + 1] * delta_inv;
  zk.h = big(g1.mul_all(h_s, pool));
  return zk;
}

}  // namespace cuzk
