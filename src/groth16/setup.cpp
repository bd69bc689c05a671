#include "groth16/setup.hpp"

#include <random>
#include <string>
#include <vector>

#include "ff/bytes.hpp"
#include "ff/roots.hpp"
#include "groth16/prover.hpp"
#include "groth16/r1cs.hpp"
#include "groth16/setup_detail.hpp"
#include "util/error.hpp"

namespace cuzk {
namespace {

using setup_detail::FixedBase;
using setup_detail::lagrange_at;

[[noreturn]] void invalid(const std::string& msg) {
  throw Error(ErrorCode::kInvalidArgument, "setup: " + msg);
}

/// The column sums of `m` weighted by the row's Lagrange value: out[j] = Σ_i m[i][j]·lag[i], j < n_vars
/// (the QAP polynomial of variable j at τ). Columns are split into one range per pool thread and every
/// thread scans all rows for the terms of its range: no transposition, no atomics, deterministic.
/// Throws Error(kInvalidArgument) naming `name` for a column ≥ n_vars or inconsistent CSR arrays.
BigVector<Fr> eval_columns(const SparseMatrix& m, const char* name, const BigVector<Fr>& lag, uint32_t n_vars,
                           ThreadPool& pool) {
  if (m.row_offsets.empty() || m.row_offsets.front() != 0 || m.row_offsets.back() != m.cols.size() ||
      m.cols.size() != m.vals.size())
    invalid(std::string("matrix ") + name + ": inconsistent CSR arrays");
  BigVector<Fr> out(n_vars);
  const size_t parts = pool.size(), rows = m.rows();
  pool.parallel_for(
      parts,
      [&](size_t p0, size_t p1) {
        for (size_t p = p0; p < p1; p++) {
          const uint64_t lo = (uint64_t)n_vars * p / parts, hi = (uint64_t)n_vars * (p + 1) / parts;
          const bool last = p + 1 == parts;
          std::fill(out.begin() + lo, out.begin() + hi, Fr::zero());
          for (size_t i = 0; i < rows; i++)
            for (uint64_t k = m.row_offsets[i]; k < m.row_offsets[i + 1]; k++) {
              const uint64_t c = m.cols[k];
              if (c - lo < hi - lo)
                out[c] += m.vals[k] * lag[i];
              else if (last && c >= n_vars)
                invalid(std::string("matrix ") + name + " row " + std::to_string(i) + " names variable " +
                        std::to_string(c) + " of " + std::to_string(n_vars));
            }
        }
      },
      1);
  return out;
}

/// The variable indices (inputs ‖ aux numbering) of a compacted point vector: the inputs with a bit
/// in `inp` (all inputs when null), then the aux variables with a bit in `aux`.
std::vector<uint32_t> compacted(uint32_t n_inputs, const Density* inp, const Density& aux) {
  std::vector<uint32_t> idx;
  idx.reserve((inp ? inp->popcount() : n_inputs) + aux.popcount());
  for (uint32_t i = 0; i < n_inputs; i++)
    if (!inp || inp->test(i)) idx.push_back(i);
  for (size_t i = 0; i < aux.size(); i++)
    if (aux.test(i)) idx.push_back(n_inputs + (uint32_t)i);
  return idx;
}

template <class T>
void release(BigVector<T>& v) {
  BigVector<T>().swap(v);
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

ProvingKey setup(const ConstraintSystem& cs, const ToxicWaste& tw, ThreadPool& pool,
                 const SetupAccel* accel) {
  const bool bellperson = cs.convention == HConvention::kBellperson;
  if (cs.log_n < 1 || cs.log_n > 28) invalid("log_n " + std::to_string(cs.log_n) + " is outside 1..28");
  const size_t n = cs.domain_size();
  if (cs.n_inputs == 0) invalid("the circuit has no input (ONE is input 0)");
  if ((uint64_t)cs.n_inputs + cs.n_aux > UINT32_MAX) invalid("more than 2^32 − 1 variables");
  for (auto [m, name] : {std::pair{&cs.a, "A"}, {&cs.b, "B"}, {&cs.c, "C"}})
    if (m->rows() > n)
      invalid(std::string("matrix ") + name + " has " + std::to_string(m->rows()) + " rows, more than the " +
              std::to_string(n) + " of the domain");
  if (cs.a_aux.size() != cs.n_aux || cs.b_aux.size() != cs.n_aux || cs.b_inp.size() != cs.n_inputs)
    invalid("density bitmaps of the wrong length (a_aux, b_aux: n_aux bits; b_inp: n_inputs bits)");
  if (tw.gamma.is_zero() || tw.delta.is_zero()) invalid("γ and δ must be non-zero");
  const uint32_t n_vars = cs.n_vars();
  const RootConvention roots = bellperson ? RootConvention::kGenerator7 : RootConvention::kSnarkjs5;

  // u_j(τ), v_j(τ), w_j(τ)
  BigVector<Fr> u, v, w;
  {
    const BigVector<Fr> lag = lagrange_at(tw.tau, cs.log_n, roots, 0, 1, n, pool);
    u = eval_columns(cs.a, "A", lag, n_vars, pool);
    v = eval_columns(cs.b, "B", lag, n_vars, pool);
    w = eval_columns(cs.c, "C", lag, n_vars, pool);
  }
  // w becomes (β·u + α·v + w)/γ for inputs, /δ for aux: the IC and L scalars.
  const Fr gamma_inv = tw.gamma.inverse(), delta_inv = tw.delta.inverse();
  pool.parallel_for(n_vars, [&](size_t lo, size_t hi) {
    for (size_t j = lo; j < hi; j++)
      w[j] = (tw.beta * u[j] + tw.alpha * v[j] + w[j]) * (j < cs.n_inputs ? gamma_inv : delta_inv);
  });
  if (bellperson)
    for (uint32_t i = 0; i < cs.n_aux; i++)
      if (w[cs.n_inputs + i].is_zero())
        invalid("aux variable " + std::to_string(i) + " (witness index " + std::to_string(cs.n_inputs + i) +
                ") is unconstrained: its L point would be the identity (bellperson refuses such circuits)");

  const std::vector<uint32_t> a_idx = compacted(cs.n_inputs, nullptr, cs.a_aux);
  const std::vector<uint32_t> b_idx = compacted(cs.n_inputs, &cs.b_inp, cs.b_aux);
  const size_t h_count = bellperson ? n - 1 : n;
  const size_t g1_points = n_vars + a_idx.size() + b_idx.size() + h_count;
  const bool acc1 = accel && accel->g1, acc2 = accel && accel->g2;
  const FixedBase<Fp> g1(Curve<Fp>::generator(), pool, FixedBase<Fp>::window_bits_for(acc1 ? 1 : g1_points));
  const FixedBase<Fp2> g2(Curve<Fp2>::generator(), pool,
                          FixedBase<Fp2>::window_bits_for(acc2 ? 1 : b_idx.size()));
  // k_i·G for i < count into out: on the accelerator when there is one, else with the CPU tables
  auto mul_into = [&pool](const auto& table, const auto& accel_fn, const auto& gen, size_t count, auto scalar,
                          auto* out) {
    if (!accel_fn) return table.mul_into(count, scalar, out, pool);
    BigVector<Fr> k(count);
    pool.parallel_for(count, [&](size_t lo, size_t hi) {
      for (size_t i = lo; i < hi; i++) k[i] = scalar(i);
    });
    accel_fn(gen, k, out);
  };
  const std::function<void(const G1Affine&, std::span<const Fr>, G1Affine*)> no_g1;
  const std::function<void(const G2Affine&, std::span<const Fr>, G2Affine*)> no_g2;
  auto g1_into = [&](size_t count, auto scalar, G1Affine* out) {
    mul_into(g1, acc1 ? accel->g1 : no_g1, Curve<Fp>::generator(), count, scalar, out);
  };
  auto g2_into = [&](size_t count, auto scalar, G2Affine* out) {
    mul_into(g2, acc2 ? accel->g2 : no_g2, Curve<Fp2>::generator(), count, scalar, out);
  };

  ProvingKey pk;
  pk.convention = cs.convention;
  pk.log_n = cs.log_n;
  pk.n_inputs = cs.n_inputs;
  pk.n_aux = cs.n_aux;
  pk.alpha1 = g1.mul(tw.alpha).to_affine();
  pk.beta1 = g1.mul(tw.beta).to_affine();
  pk.delta1 = g1.mul(tw.delta).to_affine();
  pk.beta2 = g2.mul(tw.beta).to_affine();
  pk.gamma2 = g2.mul(tw.gamma).to_affine();
  pk.delta2 = g2.mul(tw.delta).to_affine();

  pk.ic.resize(cs.n_inputs);
  g1_into(
      cs.n_inputs, [&](size_t j) { return w[j]; }, pk.ic.data());
  pk.l.resize(cs.n_aux);
  g1_into(
      cs.n_aux, [&](size_t i) { return w[cs.n_inputs + i]; }, pk.l.data());
  release(w);
  pk.a.resize(a_idx.size());
  g1_into(
      a_idx.size(), [&](size_t k) { return u[a_idx[k]]; }, pk.a.data());
  release(u);
  pk.b_g1.resize(b_idx.size());
  g1_into(
      b_idx.size(), [&](size_t k) { return v[b_idx[k]]; }, pk.b_g1.data());
  pk.b_g2.resize(b_idx.size());
  g2_into(
      b_idx.size(), [&](size_t k) { return v[b_idx[k]]; }, pk.b_g2.data());
  release(v);

  BigVector<Fr> h_s;
  if (bellperson) {  // τ^i·Z(τ)/δ
    const Fr z = tw.tau.pow_u64(n) - Fr::one();
    if (z.is_zero()) invalid("τ lies on the domain; pick another seed");
    const Fr z_delta = z * delta_inv;
    h_s.resize(h_count);
    pool.parallel_for(h_count, [&](size_t lo, size_t hi) {
      Fr t = tw.tau.pow_u64(lo) * z_delta;
      for (size_t i = lo; i < hi; i++, t = t * tw.tau) h_s[i] = t;
    });
  } else {  // L'_{2j+1}(τ)/δ over the 2n-domain
    h_s = lagrange_at(tw.tau, cs.log_n + 1, roots, 1, 2, n, pool);
    pool.parallel_for(n, [&](size_t lo, size_t hi) {
      for (size_t j = lo; j < hi; j++) h_s[j] = h_s[j] * delta_inv;
    });
  }
  pk.h.resize(h_count);
  g1_into(
      h_count, [&](size_t i) { return h_s[i]; }, pk.h.data());
  return pk;
}

}  // namespace cuzk
