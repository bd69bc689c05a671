// The format-neutral single-party setup (groth16/setup.hpp) in both H conventions: every point of a
// tiny circuit's key against an independent recomputation of its scalar (Lagrange basis by the product
// formula), proofs made with the key by a schoolbook prover and checked with the pairing, the snarkjs
// .zkey that formats' setup_zkey makes of it (byte for byte against a recomputation from the R1cs, and
// section 4 against `snarkjs groth16 setup`'s own files), the refusals, and the fixed-base tables.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "ec/pairing.hpp"
#include "formats/r1cs.hpp"
#include "formats/wtns.hpp"
#include "formats/zkey.hpp"
#include "groth16/cpu_backend.hpp"
#include "groth16/prover.hpp"
#include "groth16/r1cs.hpp"
#include "groth16/setup.hpp"
#include "groth16/setup_detail.hpp"
#include "groth16/synthesis.hpp"
#include "groth16/synthetic.hpp"
#include "groth16/verifier.hpp"
#include "msm/pippenger.hpp"
#include "random.hpp"
#include "util/error.hpp"

namespace cuzk::test {
namespace {

using Row = std::vector<std::pair<uint32_t, Fr>>;

/// A circuit as lists of constraint rows and a witness that satisfies them (inputs ‖ aux).
struct Circuit {
  uint32_t n_inputs = 0, n_aux = 0;
  std::vector<Row> a, b, c;
  std::vector<Fr> witness;
};

/// Random satisfiable circuit: A has two random terms, B one, C one term on aux j mod n_aux whose
/// coefficient makes the row hold (so every aux variable occurs when m ≥ n_aux).
Circuit tiny_circuit(uint32_t n_inputs, uint32_t n_aux, uint32_t m, uint64_t seed) {
  std::mt19937_64 rng(seed);
  Circuit ct{n_inputs, n_aux, {}, {}, {}, {}};
  const uint32_t n_vars = n_inputs + n_aux;
  ct.witness.push_back(Fr::one());
  for (uint32_t i = 1; i < n_vars; i++) ct.witness.push_back(random_fe<Fr>(rng));
  for (uint32_t j = 0; j < m; j++) {
    Row a{{(uint32_t)(rng() % n_vars), random_fe<Fr>(rng)}, {(uint32_t)(rng() % n_vars), random_fe<Fr>(rng)}};
    Row b{{(uint32_t)(rng() % n_vars), Fr::one()}};
    Fr ab = (a[0].second * ct.witness[a[0].first] + a[1].second * ct.witness[a[1].first]) *
            ct.witness[b[0].first];
    const uint32_t cv = n_inputs + j % n_aux;
    ct.a.push_back(a);
    ct.b.push_back(b);
    ct.c.push_back({{cv, ab * ct.witness[cv].inverse()}});
  }
  return ct;
}

SparseMatrix csr(const std::vector<Row>& rows) {
  SparseMatrix m;
  for (const Row& r : rows) {
    std::vector<uint32_t> c;
    std::vector<Fr> v;
    for (auto [col, val] : r) c.push_back(col), v.push_back(val);
    m.push_row(c, v);
  }
  return m;
}

int log2_ceil(size_t rows) {
  int k = 1;
  while ((size_t{1} << k) < rows) k++;
  return k;
}

/// The circuit's rows in `conv`: bellperson appends `input · 0 = 0` for every input; snarkjs appends
/// A = w_s for every input s (B: as many empty rows) and keeps only the constraints' C rows.
ConstraintSystem constraint_system_of(const Circuit& ct, HConvention conv) {
  ConstraintSystem cs;
  cs.convention = conv;
  cs.n_inputs = ct.n_inputs;
  cs.n_aux = ct.n_aux;
  std::vector<Row> a = ct.a, b = ct.b, c = ct.c;
  for (uint32_t s = 0; s < ct.n_inputs; s++) {
    a.push_back({{s, Fr::one()}});
    b.push_back({});
    if (conv == HConvention::kBellperson) c.push_back({});
  }
  cs.a = csr(a);
  cs.b = csr(b);
  cs.c = csr(c);
  cs.log_n = log2_ceil(a.size());
  compute_densities(cs);
  return cs;
}

RootConvention roots_of(HConvention c) {
  return c == HConvention::kBellperson ? RootConvention::kGenerator7 : RootConvention::kSnarkjs5;
}

/// L_i(τ) = Π_{k≠i} (τ − x_k)/(x_i − x_k) over the 2^log_m points x_k = ω^k (schoolbook, O(m²)).
std::vector<Fr> lagrange_naive(const Fr& tau, int log_m, RootConvention conv) {
  const size_t m = size_t{1} << log_m;
  const Fr omega = root_of_unity(log_m, conv);
  std::vector<Fr> x(m), out(m);
  x[0] = Fr::one();
  for (size_t i = 1; i < m; i++) x[i] = x[i - 1] * omega;
  for (size_t i = 0; i < m; i++) {
    Fr num = Fr::one(), den = Fr::one();
    for (size_t k = 0; k < m; k++)
      if (k != i) num = num * (tau - x[k]), den = den * (x[i] - x[k]);
    out[i] = num * den.inverse();
  }
  return out;
}

std::vector<Fr> columns_at(const SparseMatrix& m, const std::vector<Fr>& lag, uint32_t n_vars) {
  std::vector<Fr> out(n_vars, Fr::zero());
  for (size_t i = 0; i < m.rows(); i++)
    for (uint64_t k = m.row_offsets[i]; k < m.row_offsets[i + 1]; k++) out[m.cols[k]] += m.vals[k] * lag[i];
  return out;
}

/// Witness indices of the compacted A and B vectors (key.hpp).
std::vector<uint32_t> a_vars(const ConstraintSystem& cs) {
  std::vector<uint32_t> v;
  for (uint32_t i = 0; i < cs.n_inputs; i++) v.push_back(i);
  for (uint32_t i = 0; i < cs.n_aux; i++)
    if (cs.a_aux.test(i)) v.push_back(cs.n_inputs + i);
  return v;
}
std::vector<uint32_t> b_vars(const ConstraintSystem& cs) {
  std::vector<uint32_t> v;
  for (uint32_t i = 0; i < cs.n_inputs; i++)
    if (cs.b_inp.test(i)) v.push_back(i);
  for (uint32_t i = 0; i < cs.n_aux; i++)
    if (cs.b_aux.test(i)) v.push_back(cs.n_inputs + i);
  return v;
}

G1Affine g1(const Fr& k) { return scalar_mul(Curve<Fp>::generator(), k).to_affine(); }
G2Affine g2(const Fr& k) { return scalar_mul(Curve<Fp2>::generator(), k).to_affine(); }

/// Checks every point of `pk` against its defining scalar, recomputed independently.
void expect_key_matches_definition(const ConstraintSystem& cs, const ProvingKey& pk, const ToxicWaste& tw) {
  const bool bp = cs.convention == HConvention::kBellperson;
  const size_t n = cs.domain_size();
  ASSERT_EQ(pk.convention, cs.convention);
  ASSERT_EQ(pk.log_n, cs.log_n);
  ASSERT_EQ(pk.n_inputs, cs.n_inputs);
  ASSERT_EQ(pk.n_aux, cs.n_aux);
  EXPECT_EQ(pk.alpha1, g1(tw.alpha));
  EXPECT_EQ(pk.beta1, g1(tw.beta));
  EXPECT_EQ(pk.delta1, g1(tw.delta));
  EXPECT_EQ(pk.beta2, g2(tw.beta));
  EXPECT_EQ(pk.gamma2, g2(tw.gamma));
  EXPECT_EQ(pk.delta2, g2(tw.delta));

  const auto lag = lagrange_naive(tw.tau, cs.log_n, roots_of(cs.convention));
  const auto u = columns_at(cs.a, lag, cs.n_vars()), v = columns_at(cs.b, lag, cs.n_vars()),
             w = columns_at(cs.c, lag, cs.n_vars());
  auto ext = [&](uint32_t j) { return tw.beta * u[j] + tw.alpha * v[j] + w[j]; };
  ASSERT_EQ(pk.ic.size(), cs.n_inputs);
  for (uint32_t j = 0; j < cs.n_inputs; j++)
    EXPECT_EQ(pk.ic[j], g1(ext(j) * tw.gamma.inverse())) << "ic " << j;
  ASSERT_EQ(pk.l.size(), cs.n_aux);
  for (uint32_t i = 0; i < cs.n_aux; i++)
    EXPECT_EQ(pk.l[i], g1(ext(cs.n_inputs + i) * tw.delta.inverse())) << "l " << i;
  const auto av = a_vars(cs), bv = b_vars(cs);
  ASSERT_EQ(pk.a.size(), av.size());
  for (size_t k = 0; k < av.size(); k++) EXPECT_EQ(pk.a[k], g1(u[av[k]])) << "a " << k;
  ASSERT_EQ(pk.b_g1.size(), bv.size());
  ASSERT_EQ(pk.b_g2.size(), bv.size());
  for (size_t k = 0; k < bv.size(); k++) {
    EXPECT_EQ(pk.b_g1[k], g1(v[bv[k]])) << "b_g1 " << k;
    EXPECT_EQ(pk.b_g2[k], g2(v[bv[k]])) << "b_g2 " << k;
  }
  ASSERT_EQ(pk.h.size(), pk.h_size());
  if (bp) {
    const Fr z = tw.tau.pow_u64(n) - Fr::one();
    for (size_t i = 0; i + 1 < n; i++)
      EXPECT_EQ(pk.h[i], g1(tw.tau.pow_u64(i) * z * tw.delta.inverse())) << "h " << i;
  } else {
    const auto lag2 = lagrange_naive(tw.tau, cs.log_n + 1, RootConvention::kSnarkjs5);
    for (size_t j = 0; j < n; j++) EXPECT_EQ(pk.h[j], g1(lag2[2 * j + 1] * tw.delta.inverse())) << "h " << j;
  }
}

// ---- a schoolbook prover: polynomials by O(n²) interpolation, the proof checked with the pairing ----

/// Coefficients of the polynomial of degree < n through (ω^i, vals[i]).
std::vector<Fr> interpolate(const std::vector<Fr>& vals, const Fr& omega) {
  const size_t n = vals.size();
  const Fr omega_inv = omega.inverse(), n_inv = Fr::from_u64(n).inverse();
  std::vector<Fr> pw(n);  // ω^{-k}
  pw[0] = Fr::one();
  for (size_t k = 1; k < n; k++) pw[k] = pw[k - 1] * omega_inv;
  std::vector<Fr> out(n, Fr::zero());
  for (size_t k = 0; k < n; k++) {
    Fr acc = Fr::zero();
    for (size_t i = 0; i < n; i++) acc += vals[i] * pw[(i * k) % n];
    out[k] = acc * n_inv;
  }
  return out;
}
Fr eval_poly(const std::vector<Fr>& p, const Fr& x) {
  Fr acc = Fr::zero();
  for (size_t k = p.size(); k-- > 0;) acc = acc * x + p[k];
  return acc;
}

/// Proves `witness` with `pk` the way each convention's prover does and checks
/// e(A, B) = e(α, β)·e(vk_x, γ)·e(C, δ).
bool schoolbook_proof_verifies(const ConstraintSystem& cs, const ProvingKey& pk,
                               const std::vector<Fr>& witness, ThreadPool& pool) {
  const size_t n = cs.domain_size();
  const Fr omega = root_of_unity(cs.log_n, roots_of(cs.convention));
  std::vector<Fr> av(n, Fr::zero()), bv(n, Fr::zero()), cv(n, Fr::zero());
  for (size_t i = 0; i < cs.a.rows(); i++) av[i] = cs.a.dot_row(i, witness);
  for (size_t i = 0; i < cs.b.rows(); i++) bv[i] = cs.b.dot_row(i, witness);
  for (size_t i = 0; i < cs.c.rows(); i++) cv[i] = cs.c.dot_row(i, witness);
  const auto ap = interpolate(av, omega), bp = interpolate(bv, omega), cp = interpolate(cv, omega);
  std::vector<Fr> p(2 * n, Fr::zero());  // a·b − c
  for (size_t i = 0; i < n; i++)
    for (size_t k = 0; k < n; k++) p[i + k] += ap[i] * bp[k];
  for (size_t i = 0; i < n; i++) p[i] -= cp[i];
  std::vector<Fr> h;
  if (cs.convention == HConvention::kBellperson) {  // h = p / (X^n − 1), remainder dropped
    h.assign(n - 1, Fr::zero());
    for (size_t k = 2 * n - 1; k >= n; k--) {
      if (k - n < n - 1) h[k - n] = p[k];
      p[k - n] += p[k];
    }
  } else {  // p at the odd points of the 2n-domain
    const Fr w2 = root_of_unity(cs.log_n + 1, RootConvention::kSnarkjs5);
    for (size_t j = 0; j < n; j++) h.push_back(eval_poly(p, w2.pow_u64(2 * j + 1)));
  }

  auto gather = [&](const std::vector<uint32_t>& vars) {
    std::vector<Fr> s;
    for (uint32_t j : vars) s.push_back(witness[j]);
    return s;
  };
  const std::vector<Fr> sa = gather(a_vars(cs)), sb = gather(b_vars(cs));
  const std::vector<Fr> aux(witness.begin() + cs.n_inputs, witness.end()),
      inputs(witness.begin(), witness.begin() + cs.n_inputs);
  std::mt19937_64 rng(99);
  const Fr r = random_fe<Fr>(rng), s = random_fe<Fr>(rng);
  const G1 A = G1::from_affine(pk.alpha1) + msm<Fp>(pk.a, sa, pool) + scalar_mul(pk.delta1, r);
  const G2 B = G2::from_affine(pk.beta2) + msm<Fp2>(pk.b_g2, sb, pool) + scalar_mul(pk.delta2, s);
  const G1 B1 = G1::from_affine(pk.beta1) + msm<Fp>(pk.b_g1, sb, pool) + scalar_mul(pk.delta1, s);
  const G1 C = msm<Fp>(pk.l, aux, pool) + msm<Fp>(pk.h, h, pool) + scalar_mul(A, s) + scalar_mul(B1, r) -
               scalar_mul(pk.delta1, r * s);
  const G1 vk_x = msm<Fp>(pk.ic, inputs, pool);
  return pairing_product_is_one({{(-A).to_affine(), B.to_affine()},
                                 {pk.alpha1, pk.beta2},
                                 {vk_x.to_affine(), pk.gamma2},
                                 {C.to_affine(), pk.delta2}});
}

constexpr HConvention kBoth[] = {HConvention::kBellperson, HConvention::kSnarkjs};

TEST(Groth16Setup, KeyMatchesDefinitionBothConventions) {
  ThreadPool pool(2);
  const Circuit ct = tiny_circuit(3, 7, 9, 1);
  const ToxicWaste tw = ToxicWaste::from_seed(5);
  for (HConvention conv : kBoth) {
    SCOPED_TRACE(conv == HConvention::kBellperson ? "bellperson" : "snarkjs");
    const ConstraintSystem cs = constraint_system_of(ct, conv);
    const ProvingKey pk = setup(cs, tw, pool);
    expect_key_matches_definition(cs, pk, tw);
    EXPECT_EQ(pk.h.size(), conv == HConvention::kBellperson ? 15u : 16u);
  }
}

TEST(Groth16Setup, SchoolbookProofsVerifyBothConventions) {
  ThreadPool pool(2);
  const Circuit ct = tiny_circuit(4, 12, 20, 2);
  for (HConvention conv : kBoth) {
    SCOPED_TRACE(conv == HConvention::kBellperson ? "bellperson" : "snarkjs");
    const ConstraintSystem cs = constraint_system_of(ct, conv);
    const ProvingKey pk = setup(cs, ToxicWaste::from_seed(6), pool);
    EXPECT_TRUE(schoolbook_proof_verifies(cs, pk, ct.witness, pool));
    std::vector<Fr> bad = ct.witness;
    bad[cs.n_inputs + 3] += Fr::one();  // no longer satisfies its rows: no valid proof
    EXPECT_FALSE(schoolbook_proof_verifies(cs, pk, bad, pool));
  }
}

TEST(Groth16Setup, SyntheticPorepKeyProves) {
  ThreadPool pool(2);
  const SyntheticCircuit sc = synthetic_porep(10, 3, pool);
  const ToxicWaste tw = ToxicWaste::from_seed(4);
  const ProvingKey pk = setup(sc.cs, tw, pool);
  EXPECT_EQ(pk.a.size(), sc.cs.n_inputs + sc.cs.a_aux.popcount());
  EXPECT_EQ(pk.b_g1.size(), sc.cs.b_inp.popcount() + sc.cs.b_aux.popcount());
  EXPECT_EQ(pk.l.size(), sc.cs.n_aux);
  EXPECT_EQ(pk.h.size(), 1023u);
  EXPECT_TRUE(schoolbook_proof_verifies(sc.cs, pk, sc.witness, pool));
  // spot checks against the definition
  const auto lag = lagrange_naive(tw.tau, 10, RootConvention::kGenerator7);
  const auto u = columns_at(sc.cs.a, lag, sc.cs.n_vars());
  const auto av = a_vars(sc.cs);
  for (size_t k : {size_t{0}, size_t{327}, size_t{328}, av.size() / 2, av.size() - 1})
    EXPECT_EQ(pk.a[k], g1(u[av[k]])) << k;
  EXPECT_EQ(pk.h[1022], g1(tw.tau.pow_u64(1022) * (tw.tau.pow_u64(1024) - Fr::one()) * tw.delta.inverse()));
}

std::string data(const std::string& rel) { return std::string(CUZK_SOURCE_DIR) + "/tests/data/" + rel; }

/// The .zkey of `r1cs` recomputed from the definition, straight from the R1cs as snarkjs 0.7.6
/// (src/zkey_new.js) does: the public-input rows A = w_s (s ≤ nPublic) after the constraints, section 4
/// row by row (A terms, then B terms), every scalar from the schoolbook Lagrange basis, each point by
/// scalar_mul, csHash zero and no contributions.
Zkey reference_zkey(const R1cs& r1cs, const ToxicWaste& tw) {
  const uint32_t n_pub = r1cs.n_public(), n_vars = r1cs.n_wires;
  const int log_n = log2_ceil((size_t)r1cs.n_constraints + n_pub + 1);
  const size_t n = size_t{1} << log_n;
  Zkey zk;
  zk.n_vars = n_vars;
  zk.n_public = n_pub;
  zk.domain_size = (uint32_t)n;
  zk.mpc_params.assign(64 + 4, 0);
  const auto lag = lagrange_naive(tw.tau, log_n, RootConvention::kSnarkjs5);
  std::vector<Fr> u = columns_at(r1cs.a, lag, n_vars), v = columns_at(r1cs.b, lag, n_vars),
                  w = columns_at(r1cs.c, lag, n_vars);
  for (uint32_t j = 0; j < r1cs.n_constraints; j++) {
    for (uint64_t k = r1cs.a.row_offsets[j]; k < r1cs.a.row_offsets[j + 1]; k++)
      zk.coefs.push_back({0, j, r1cs.a.cols[k], r1cs.a.vals[k]});
    for (uint64_t k = r1cs.b.row_offsets[j]; k < r1cs.b.row_offsets[j + 1]; k++)
      zk.coefs.push_back({1, j, r1cs.b.cols[k], r1cs.b.vals[k]});
  }
  for (uint32_t s = 0; s <= n_pub; s++) {
    u[s] += lag[r1cs.n_constraints + s];
    zk.coefs.push_back({0, r1cs.n_constraints + s, s, Fr::one()});
  }
  zk.alpha1 = g1(tw.alpha);
  zk.beta1 = g1(tw.beta);
  zk.delta1 = g1(tw.delta);
  zk.beta2 = g2(tw.beta);
  zk.gamma2 = g2(tw.gamma);
  zk.delta2 = g2(tw.delta);
  for (uint32_t j = 0; j < n_vars; j++) {
    const Fr ext = tw.beta * u[j] + tw.alpha * v[j] + w[j];
    if (j <= n_pub)
      zk.ic.push_back(g1(ext * tw.gamma.inverse()));
    else
      zk.c.push_back(g1(ext * tw.delta.inverse()));
    zk.a.push_back(g1(u[j]));
    zk.b1.push_back(g1(v[j]));
    zk.b2.push_back(g2(v[j]));
  }
  const auto lag2 = lagrange_naive(tw.tau, log_n + 1, RootConvention::kSnarkjs5);
  for (size_t j = 0; j < n; j++) zk.h.push_back(g1(lag2[2 * j + 1] * tw.delta.inverse()));
  return zk;
}

TEST(Groth16Setup, SetupZkeyHasSnarkjsLayout) {
  ThreadPool pool(2);
  for (const char* name : {"tiny/mul", "mimc/mimc_test"}) {
    SCOPED_TRACE(name);
    const ToxicWaste tw = ToxicWaste::from_seed(11);
    const R1cs r1cs = read_r1cs(data(std::string(name) + ".r1cs"));
    const Zkey zk = setup_zkey(r1cs, tw, pool);
    EXPECT_TRUE(zkey_bytes(zk) == zkey_bytes(reference_zkey(r1cs, tw)));
    // the shape and section 4 of the same circuit through `snarkjs groth16 setup` itself
    const Zkey sj = read_zkey(
        data(std::string(name) == "tiny/mul" ? "tiny/mul_0000.zkey" : "mimc/mimc_snarkjs_0000.zkey"));
    EXPECT_EQ(zk.n_vars, sj.n_vars);
    EXPECT_EQ(zk.n_public, sj.n_public);
    EXPECT_EQ(zk.domain_size, sj.domain_size);
    EXPECT_TRUE(zk.coefs == sj.coefs);
    EXPECT_EQ(zk.n_contributions(), 0u);
  }
}

TEST(Groth16Setup, ProverProvesWithTheKeyBothConventions) {
  ThreadPool pool(2);
  CpuBackend backend(2);
  const R1cs r1cs = read_r1cs(data("mimc/mimc_test.r1cs"));
  const std::vector<Fr> w = read_wtns(data("mimc/mimc.wtns"));
  for (HConvention conv : kBoth) {
    SCOPED_TRACE(conv == HConvention::kBellperson ? "bellperson" : "snarkjs");
    const ConstraintSystem cs = constraint_system(r1cs, conv);
    const ProvingKey pk = setup(cs, ToxicWaste::from_seed(12), pool);
    Assignment asg = synthesize(cs, w, pool);
    const std::vector<Fr> pub(asg.public_inputs().begin(), asg.public_inputs().end());
    ProveOptions opt;
    opt.verify = false;
    const ProveResult res = prove(pk, std::move(asg), backend, opt);
    EXPECT_TRUE(verify(pk.verifying_key(), pub, res.proof));
  }
  // a synthetic PoRep-shaped circuit (bellperson convention)
  const SyntheticCircuit sc = synthetic_porep(11, 5, pool);
  const ProvingKey pk = setup(sc.cs, ToxicWaste::from_seed(13), pool);
  Assignment asg = synthesize(sc.cs, sc.witness, pool);
  const std::vector<Fr> pub(asg.public_inputs().begin(), asg.public_inputs().end());
  ProveOptions opt;
  opt.verify = false;
  const ProveResult res = prove(pk, std::move(asg), backend, opt);
  EXPECT_TRUE(verify(pk.verifying_key(), pub, res.proof));
  std::vector<Fr> wrong = pub;
  wrong[3] += Fr::one();
  EXPECT_FALSE(verify(pk.verifying_key(), wrong, res.proof));
}

TEST(Groth16Setup, BellpersonRefusesUnconstrainedAux) {
  ThreadPool pool(1);
  Circuit ct = tiny_circuit(2, 5, 6, 3);
  ct.n_aux++;  // aux variable 5 occurs in no row
  ct.witness.push_back(Fr::from_u64(9));
  try {
    setup(constraint_system_of(ct, HConvention::kBellperson), ToxicWaste::from_seed(1), pool);
    FAIL() << "an unconstrained aux variable must be refused";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kInvalidArgument);
    EXPECT_NE(std::string(e.what()).find("aux variable 5 (witness index 7)"), std::string::npos) << e.what();
  }
  // snarkjs accepts it: its C point is simply the identity
  const ProvingKey pk =
      setup(constraint_system_of(ct, HConvention::kSnarkjs), ToxicWaste::from_seed(1), pool);
  EXPECT_TRUE(pk.l[5].is_inf());
}

TEST(Groth16Setup, RejectsMalformedSystems) {
  ThreadPool pool(1);
  const ToxicWaste tw = ToxicWaste::from_seed(2);
  const ConstraintSystem good = constraint_system_of(tiny_circuit(2, 4, 5, 4), HConvention::kBellperson);
  auto expect_invalid = [&](ConstraintSystem cs, const ToxicWaste& t, const char* what) {
    SCOPED_TRACE(what);
    try {
      setup(cs, t, pool);
      ADD_FAILURE() << "accepted";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::kInvalidArgument);
      EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
    }
  };
  ConstraintSystem cs = good;
  cs.log_n = 29;
  expect_invalid(cs, tw, "log_n 29");
  cs.log_n = 2;  // 7 rows do not fit 4
  expect_invalid(cs, tw, "rows, more than the 4");
  cs = good;
  cs.a.cols[0] = cs.n_vars();
  expect_invalid(cs, tw, "names variable 6 of 6");
  cs = good;
  cs.b_aux = Density(3);
  expect_invalid(cs, tw, "density bitmaps");
  ToxicWaste t0 = tw;
  t0.delta = Fr::zero();
  expect_invalid(good, t0, "non-zero");
  t0 = tw;
  t0.tau = root_of_unity(good.log_n, RootConvention::kGenerator7).pow_u64(3);
  expect_invalid(good, t0, "τ lies on the domain");
}

TEST(Groth16Setup, DeterministicAcrossPoolSizes) {
  const ConstraintSystem cs = constraint_system_of(tiny_circuit(3, 40, 50, 5), HConvention::kBellperson);
  ThreadPool one(1), three(3);
  EXPECT_EQ(setup(cs, ToxicWaste::from_seed(3), one), setup(cs, ToxicWaste::from_seed(3), three));
  EXPECT_NE(setup(cs, ToxicWaste::from_seed(3), one).delta1, setup(cs, ToxicWaste::from_seed(4), one).delta1);
}

TEST(Groth16Setup, FixedBaseMatchesScalarMul) {
  ThreadPool pool(2);
  std::mt19937_64 rng(8);
  auto check = [&](auto generator, int bits) {
    using F = decltype(generator.x);
    SCOPED_TRACE(bits);
    const setup_detail::FixedBase<F> fb(generator, pool, bits);
    std::vector<Fr> ks = {Fr::zero(),
                          Fr::one(),
                          -Fr::one(),
                          Fr::from_u64((uint64_t{1} << bits) - 1),
                          Fr::from_u64(uint64_t{1} << (bits - 1)),
                          Fr::from_u64((uint64_t{1} << (bits - 1)) + 1)};
    uint64_t top[4] = {~0ull, ~0ull, ~0ull, (1ull << 62) - 1};  // 2^254 − 1: every window full
    Fr t;
    ASSERT_TRUE(Fr::from_canonical(top, t));
    ks.push_back(t);
    // A scalar whose running sum meets ±(the next window's entry) for c = 4, 6, 7, 9, 12, 14, 18 (the
    // x-coordinates equal: mul_into's affine additions cannot add it and must take another route).
    uint64_t meet[4] = {0x00000000ffffffffull, 0xac425bfd0001a401ull, 0xccc627f7f65e27faull,
                        0x6c1258acd66282b7ull};
    ASSERT_TRUE(Fr::from_canonical(meet, t));
    ks.push_back(t);
    for (int i = 0; i < 8; i++) ks.push_back(random_fe<Fr>(rng));
    for (const Fr& k : ks) EXPECT_EQ(fb.mul(k).to_affine(), scalar_mul(generator, k).to_affine());
    std::vector<Affine<F>> all(ks.size());
    fb.mul_into(
        ks.size(), [&](size_t i) { return ks[i]; }, all.data(), pool);
    for (size_t i = 0; i < ks.size(); i++) EXPECT_EQ(all[i], scalar_mul(generator, ks[i]).to_affine());
  };
  for (int bits : {2, 3, 4, 5, 8, 11, 12, 16}) check(Curve<Fp>::generator(), bits);
  for (int bits : {2, 7, 10}) check(Curve<Fp2>::generator(), bits);
  EXPECT_EQ(setup_detail::FixedBase<Fp>::window_bits_for(10), 4);
  EXPECT_EQ(setup_detail::FixedBase<Fp>::window_bits_for(size_t{1} << 27), 16);
}

}  // namespace
}  // namespace cuzk::test
