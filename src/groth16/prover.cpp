#include "groth16/prover.hpp"

#include <sys/random.h>

#include "ff/bytes.hpp"
#include "groth16/verifier.hpp"
#include "util/error.hpp"

namespace cuzk {
namespace {

void report(const ProveOptions& opt, const char* phase) {
  if (opt.progress) opt.progress(phase);
}

/// A·w and B·w on the domain (rows ≥ nConstraints + nPublic + 1 stay 0).
void evaluate_ab(const Zkey& zk, std::span<const Fr> w, BigVector<Fr>& a, BigVector<Fr>& b) {
  a.assign(zk.domain_size, Fr::zero());
  b.assign(zk.domain_size, Fr::zero());
  for (const ZkeyCoef& c : zk.coefs) {
    Fr t = c.value * w[c.signal];
    auto& dst = c.matrix == 0 ? a : b;
    dst[c.constraint] += t;
  }
}

}  // namespace

Fr random_fr_nonzero() {
  for (;;) {
    uint8_t buf[64];
    size_t got = 0;
    while (got < sizeof buf) {
      ssize_t k = getrandom(buf + got, sizeof buf - got, 0);
      if (k < 0) throw Error(ErrorCode::kIo, "getrandom failed: cannot draw the blinding scalars");
      got += (size_t)k;
    }
    Fr x = reduce_bytes_le<Fr>(buf, sizeof buf);
    if (!x.is_zero()) return x;
  }
}

ProveResult prove(const Zkey& zk, std::span<const Fr> w, ProverBackend& backend, const ProveOptions& opt) {
  if (w.size() != zk.n_vars)
    throw Error(ErrorCode::kInvalidArgument,
                "witness has " + std::to_string(w.size()) +
                    " values but the zkey expects nVars = " + std::to_string(zk.n_vars));
  if (!w[0].is_one()) throw Error(ErrorCode::kInvalidArgument, "witness[0] must be 1 (the constant wire)");
  int log_n = 0;
  while ((size_t{1} << log_n) < zk.domain_size) log_n++;

  report(opt, "evaluating A·w, B·w");
  BigVector<Fr> a, b;
  evaluate_ab(zk, w, a, b);
  report(opt, "computing H (NTTs)");
  BigVector<Fr> h = backend.h_snarkjs(a, b, log_n);
  a = {};
  b = {};

  report(opt, "MSM A, B1 (G1)");
  G1 sum_a = backend.msm_g1(zk.a, w);
  G1 sum_b1 = backend.msm_g1(zk.b1, w);
  report(opt, "MSM C, H (G1)");
  G1 sum_c = backend.msm_g1(zk.c, w.subspan(zk.n_public + 1));
  G1 sum_h = backend.msm_g1(zk.h, h);
  report(opt, "MSM B2 (G2)");
  G2 sum_b2 = backend.msm_g2(zk.b2, w);

  report(opt, "epilogue");
  const Fr r = opt.r ? *opt.r : random_fr_nonzero();
  const Fr s = opt.s ? *opt.s : random_fr_nonzero();
  G1 pi_a = G1::from_affine(zk.alpha1) + sum_a + scalar_mul(zk.delta1, r);
  G2 pi_b = G2::from_affine(zk.beta2) + sum_b2 + scalar_mul(zk.delta2, s);
  G1 b1 = G1::from_affine(zk.beta1) + sum_b1 + scalar_mul(zk.delta1, s);
  G1 pi_c = sum_c + sum_h + scalar_mul(pi_a, s) + scalar_mul(b1, r) - scalar_mul(zk.delta1, r * s);

  std::vector<G1> g1s = {pi_a, pi_c};
  auto g1a = batch_to_affine(g1s);
  ProveResult out;
  out.proof = {g1a[0], pi_b.to_affine(), g1a[1]};
  out.public_signals.assign(w.begin() + 1, w.begin() + 1 + zk.n_public);

  if (opt.verify) {
    report(opt, "verifying");
    if (!verify(verifying_key(zk), out.public_signals, out.proof)) {
      std::string msg = "the proof does not verify: the witness does not satisfy the circuit";
      if (opt.r1cs) {
        if (opt.r1cs->n_wires != zk.n_vars)
          msg += " (and the .r1cs has " + std::to_string(opt.r1cs->n_wires) + " wires but the zkey " +
                 std::to_string(zk.n_vars) + " variables: they belong to different circuits)";
        else if (auto bad = first_unsatisfied(*opt.r1cs, w))
          msg += "; first unsatisfied constraint: #" + std::to_string(*bad);
        else
          msg += "; the .r1cs is satisfied, so the zkey does not belong to this circuit";
      }
      throw Error(ErrorCode::kUnsatisfied, msg);
    }
  }
  return out;
}

}  // namespace cuzk
