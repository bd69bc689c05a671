// Conversions between snarkjs's Zkey and the format-neutral ProvingKey / ConstraintSystem, and the
// single-party setup that writes its result as a Zkey (zkey.hpp).
#include <algorithm>

#include "formats/zkey.hpp"
#include "util/error.hpp"

namespace cuzk {
namespace {

/// CSR rows of one matrix of section 4 (0 = A, 1 = B), `rows` rows, terms in file order per row.
SparseMatrix zkey_matrix(const Zkey& zk, uint32_t matrix, size_t rows) {
  SparseMatrix m;
  m.row_offsets.assign(rows + 1, 0);
  for (const ZkeyCoef& c : zk.coefs)
    if (c.matrix == matrix) m.row_offsets[c.constraint + 1]++;
  for (size_t j = 0; j < rows; j++) m.row_offsets[j + 1] += m.row_offsets[j];
  m.cols.resize(m.row_offsets[rows]);
  m.vals.resize(m.row_offsets[rows]);
  std::vector<uint64_t> next(m.row_offsets.begin(), m.row_offsets.end() - 1);
  for (const ZkeyCoef& c : zk.coefs)
    if (c.matrix == matrix) {
      m.cols[next[c.constraint]] = c.signal;
      m.vals[next[c.constraint]++] = c.value;
    }
  return m;
}

size_t rows_of(const Zkey& zk, uint32_t matrix) {
  size_t rows = 0;
  for (const ZkeyCoef& c : zk.coefs)
    if (c.matrix == matrix) rows = std::max(rows, (size_t)c.constraint + 1);
  return rows;
}

template <class P>
void compact(const BigVector<P>& all, uint32_t n_inputs, const Density* inp, const Density& aux,
             BigVector<P>& out) {
  out.clear();
  for (uint32_t i = 0; i < n_inputs; i++)
    if (!inp || inp->test(i)) out.push_back(all[i]);
  for (size_t i = 0; i < aux.size(); i++)
    if (aux.test(i)) out.push_back(all[n_inputs + i]);
}

template <class P>
BigVector<P> expand(const BigVector<P>& packed, uint32_t n_inputs, const Density* inp, const Density& aux) {
  BigVector<P> out(n_inputs + aux.size(), P::infinity());
  size_t k = 0;
  for (uint32_t i = 0; i < n_inputs; i++)
    if (!inp || inp->test(i)) out[i] = packed[k++];
  for (size_t i = 0; i < aux.size(); i++)
    if (aux.test(i)) out[n_inputs + i] = packed[k++];
  return out;
}

}  // namespace

ConstraintSystem zkey_constraint_system(const Zkey& zk) {
  ConstraintSystem cs;
  cs.convention = HConvention::kSnarkjs;
  cs.log_n = (int)zk.power();
  cs.n_inputs = zk.n_public + 1;
  cs.n_aux = zk.n_vars - cs.n_inputs;
  cs.a = zkey_matrix(zk, 0, rows_of(zk, 0));
  cs.b = zkey_matrix(zk, 1, rows_of(zk, 1));
  compute_densities(cs);
  for (uint32_t i = 0; i < cs.n_aux; i++) {
    if (!zk.a[cs.n_inputs + i].is_inf()) cs.a_aux.set(i);
    if (!zk.b1[cs.n_inputs + i].is_inf() || !zk.b2[cs.n_inputs + i].is_inf()) cs.b_aux.set(i);
  }
  for (uint32_t i = 0; i < cs.n_inputs; i++)
    if (!zk.b1[i].is_inf() || !zk.b2[i].is_inf()) cs.b_inp.set(i);
  return cs;
}

ProvingKey proving_key(Zkey zk, const ConstraintSystem& cs) {
  if (cs.n_vars() != zk.n_vars || cs.n_inputs != zk.n_public + 1)
    throw Error(ErrorCode::kInvalidArgument,
                "proving_key: the constraint system does not belong to this zkey");
  ProvingKey k;
  k.convention = HConvention::kSnarkjs;
  k.log_n = cs.log_n;
  k.n_inputs = cs.n_inputs;
  k.n_aux = cs.n_aux;
  k.alpha1 = zk.alpha1;
  k.beta1 = zk.beta1;
  k.delta1 = zk.delta1;
  k.beta2 = zk.beta2;
  k.gamma2 = zk.gamma2;
  k.delta2 = zk.delta2;
  k.ic.assign(zk.ic.begin(), zk.ic.end());
  compact(zk.a, cs.n_inputs, nullptr, cs.a_aux, k.a);
  compact(zk.b1, cs.n_inputs, &cs.b_inp, cs.b_aux, k.b_g1);
  compact(zk.b2, cs.n_inputs, &cs.b_inp, cs.b_aux, k.b_g2);
  k.l = std::move(zk.c);
  k.h = std::move(zk.h);
  return k;
}

Zkey to_zkey(const ProvingKey& key, const ConstraintSystem& cs) {
  if (key.convention != HConvention::kSnarkjs)
    throw Error(ErrorCode::kInvalidArgument, "to_zkey: a bellperson-convention key has no zkey form");
  if (cs.n_inputs != key.n_inputs || cs.n_aux != key.n_aux || cs.log_n != key.log_n)
    throw Error(ErrorCode::kInvalidArgument, "to_zkey: the constraint system does not belong to this key");
  Zkey zk;
  zk.n_vars = cs.n_vars();
  zk.n_public = cs.n_inputs - 1;
  zk.domain_size = (uint32_t)cs.domain_size();
  zk.alpha1 = key.alpha1;
  zk.beta1 = key.beta1;
  zk.delta1 = key.delta1;
  zk.beta2 = key.beta2;
  zk.gamma2 = key.gamma2;
  zk.delta2 = key.delta2;
  zk.ic.assign(key.ic.begin(), key.ic.end());
  for (size_t j = 0; j < std::max(cs.a.rows(), cs.b.rows()); j++) {
    for (uint32_t m = 0; m < 2; m++) {
      const SparseMatrix& mat = m == 0 ? cs.a : cs.b;
      if (j >= mat.rows()) continue;
      for (uint64_t t = mat.row_offsets[j]; t < mat.row_offsets[j + 1]; t++)
        zk.coefs.push_back({m, (uint32_t)j, mat.cols[t], mat.vals[t]});
    }
  }
  zk.a = expand(key.a, cs.n_inputs, nullptr, cs.a_aux);
  zk.b1 = expand(key.b_g1, cs.n_inputs, &cs.b_inp, cs.b_aux);
  zk.b2 = expand(key.b_g2, cs.n_inputs, &cs.b_inp, cs.b_aux);
  zk.c = key.l;
  zk.h = key.h;
  zk.mpc_params.assign(64 + 4, 0);
  return zk;
}

Zkey setup_zkey(const R1cs& r1cs, const ToxicWaste& tw, ThreadPool& pool, const SetupAccel* accel) {
  const ConstraintSystem cs = constraint_system(r1cs, HConvention::kSnarkjs);
  return to_zkey(setup(cs, tw, pool, accel), cs);
}

}  // namespace cuzk
