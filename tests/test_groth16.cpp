// The Groth16 prover, verifier and setup on the circom/snarkjs fixtures (tests/data): the byte-exact
// snarkjs proof of mimc with r = 11, s = 13, H against snarkjs's intermediates, proofs on real
// ceremony keys, our own setup, and every failure mode the prover must catch.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "formats/binfile.hpp"
#include "formats/decimal.hpp"
#include "formats/r1cs.hpp"
#include "formats/snarkjs_json.hpp"
#include "formats/wtns.hpp"
#include "formats/zkey.hpp"
#include "groth16/cpu_backend.hpp"
#include "groth16/prover.hpp"
#include "groth16/setup.hpp"
#include "groth16/synthesis.hpp"
#include "groth16/verifier.hpp"
#include "support.hpp"
#include "util/error.hpp"

namespace cuzk::test {
namespace {

std::string data(const std::string& rel) { return std::string(CUZK_SOURCE_DIR) + "/tests/data/" + rel; }
std::string slurp(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}
Fr dec(const std::string& s) {
  Fr v;
  EXPECT_EQ(from_decimal(s, v), DecimalParse::kOk) << s;
  return v;
}

CpuBackend& backend() {
  static CpuBackend b(2);
  return b;
}

/// The zkey path of the CLI: rows from section 4, compacted key, synthesis, prove.
ProveResult prove_zkey(const Zkey& zk, std::span<const Fr> w, const ProveOptions& opt = {}) {
  const ConstraintSystem rows = zkey_constraint_system(zk);
  const ProvingKey key = proving_key(zk, rows);
  return prove(key, synthesize(rows, w, backend().pool()), backend(), opt);
}

TEST(Groth16, MimcByteExactWithSnarkjs) {
  Zkey zk = read_zkey(data("mimc/mimc_dev.zkey"));
  std::vector<Fr> w = read_wtns(data("mimc/mimc.wtns"));
  ProveOptions opt;
  opt.r = Fr::from_u64(11);
  opt.s = Fr::from_u64(13);
  ProveResult res = prove_zkey(zk, w, opt);
  EXPECT_EQ(proof_to_json(res.proof), slurp(data("mimc/snarkjs_patched_proof_r11_s13.json")));
  EXPECT_EQ(public_to_json(res.public_inputs), slurp(data("mimc/public.json")));
  auto vk = read_vk_json(data("mimc/mimc_dev_vk.json"));
  EXPECT_TRUE(verify(vk.vk, res.public_inputs, res.proof));
  EXPECT_EQ(verifying_key(zk), vk.vk);
  EXPECT_EQ(alphabeta(vk.vk), vk.alphabeta_12);
}

TEST(Groth16, MimcHMatchesSnarkjs) {
  Zkey zk = read_zkey(data("mimc/mimc_dev.zkey"));
  std::vector<Fr> w = read_wtns(data("mimc/mimc.wtns"));
  std::vector<Fr> a(zk.domain_size, Fr::zero()), b(zk.domain_size, Fr::zero());
  for (const auto& c : zk.coefs) (c.matrix == 0 ? a : b)[c.constraint] += c.value * w[c.signal];
  auto ref = json::parse(slurp(data("mimc/mimc_ref_intermediates.json")));
  for (size_t i = 0; i < a.size(); i++) {
    ASSERT_EQ(a[i], dec(ref["A_eval_domain"][i])) << i;
    ASSERT_EQ(b[i], dec(ref["B_eval_domain"][i])) << i;
  }
  auto h = h_snarkjs(a, b, 9, backend().pool());
  auto hj = json::parse(slurp(data("mimc/snarkjs_h.json")));
  ASSERT_EQ(h.size(), hj.size());
  for (size_t i = 0; i < h.size(); i++) ASSERT_EQ(h[i], dec(hj[i])) << i;
}

TEST(Groth16, TinyCeremonyKeysBothSectionOrders) {
  std::vector<Fr> w = read_wtns(data("tiny/mul.wtns"));
  auto vk = read_vk_json(data("tiny/verification_key.json"));
  Zkey final_key = read_zkey(data("tiny/mul_final.zkey"));
  ProveResult res = prove_zkey(final_key, w);  // random r, s
  EXPECT_TRUE(verify(vk.vk, res.public_inputs, res.proof));
  ASSERT_EQ(res.public_inputs.size(), 1u);
  EXPECT_EQ(res.public_inputs[0], Fr::from_u64(33));
  // snarkjs's own proofs verify with our verifier
  EXPECT_TRUE(
      verify(vk.vk, read_public_json(data("tiny/public.json")), read_proof_json(data("tiny/proof.json"))));
  EXPECT_TRUE(verify(vk.vk, read_public_json(data("tiny/ref_public2.json")),
                     read_proof_json(data("tiny/ref_proof2.json"))));
  // the key in `groth16 setup` section order (delta = 1) proves too, under its own vk
  Zkey first_key = read_zkey(data("tiny/mul_0000.zkey"));
  ProveResult res0 = prove_zkey(first_key, w);
  EXPECT_TRUE(verify(verifying_key(first_key), res0.public_inputs, res0.proof));
  EXPECT_FALSE(verify(vk.vk, res0.public_inputs, res0.proof));  // other key
}

TEST(Groth16, RandomBlindingGivesDifferentValidProofs) {
  Zkey zk = read_zkey(data("tiny/mul_final.zkey"));
  std::vector<Fr> w = read_wtns(data("tiny/mul.wtns"));
  ProveResult p1 = prove_zkey(zk, w), p2 = prove_zkey(zk, w);
  EXPECT_NE(p1.proof, p2.proof);
}

TEST(Groth16, VerifierRejectsTamperedInputs) {
  Zkey zk = read_zkey(data("mimc/mimc_dev.zkey"));
  std::vector<Fr> w = read_wtns(data("mimc/mimc.wtns"));
  VerifyingKey vk = verifying_key(zk);
  ProveResult res = prove_zkey(zk, w);
  ASSERT_TRUE(verify(vk, res.public_inputs, res.proof));
  auto pub = res.public_inputs;
  pub[1] += Fr::one();
  EXPECT_FALSE(verify(vk, pub, res.proof));
  pub.pop_back();
  EXPECT_FALSE(verify(vk, pub, res.proof));  // wrong count
  Groth16Proof bad = res.proof;
  bad.a = (-bad.a);
  EXPECT_FALSE(verify(vk, res.public_inputs, bad));
  bad = res.proof;
  bad.c.y += Fp::one();  // off the curve
  EXPECT_FALSE(verify(vk, res.public_inputs, bad));
  bad = res.proof;
  bad.a = {Fp::zero(), Fp::from_u64(2)};  // on the curve, outside G1
  EXPECT_FALSE(verify(vk, res.public_inputs, bad));
  bad = res.proof;
  std::swap(bad.a, bad.c);
  EXPECT_FALSE(verify(vk, res.public_inputs, bad));
}

TEST(Groth16, WrongWitnessIsNeverAProof) {
  Zkey zk = read_zkey(data("mimc/mimc_dev.zkey"));
  R1cs cs = read_r1cs(data("mimc/mimc_test.r1cs"));
  std::vector<Fr> w = read_wtns(data("mimc/mimc.wtns"));
  w[100] += Fr::one();
  auto expected = first_unsatisfied(cs, w);
  ASSERT_TRUE(expected.has_value());
  ProveOptions opt;
  opt.r1cs = &cs;
  try {
    prove_zkey(zk, w, opt);
    FAIL() << "a proof came back for a wrong witness";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kUnsatisfied);
    EXPECT_NE(std::string(e.what()).find("first unsatisfied constraint: #" + std::to_string(*expected)),
              std::string::npos)
        << e.what();
  }
  // witness of another length, and w[0] ≠ 1
  std::vector<Fr> shorter(w.begin(), w.end() - 1);
  EXPECT_THROW(prove_zkey(zk, shorter), Error);
  std::vector<Fr> w0 = read_wtns(data("mimc/mimc.wtns"));
  w0[0] = Fr::from_u64(2);
  EXPECT_THROW(prove_zkey(zk, w0), Error);
  // --r1cs is only consulted when the proof fails: a valid witness proves whatever it names
  R1cs tiny = read_r1cs(data("tiny/mul.r1cs"));
  opt.r1cs = &tiny;
  try {
    prove_zkey(zk, read_wtns(data("mimc/mimc.wtns")), opt);
  } catch (const Error&) {
    FAIL() << "a valid witness must prove even with an unrelated --r1cs";
  }
}

TEST(Groth16, OwnSetupProvesAndVerifies) {
  ThreadPool pool(2);
  for (const char* name : {"tiny/mul", "mimc/mimc_test"}) {
    SCOPED_TRACE(name);
    R1cs cs = read_r1cs(data(std::string(name) + ".r1cs"));
    Zkey zk = setup_zkey(cs, ToxicWaste::from_seed(7), pool);
    EXPECT_EQ(zk.n_vars, cs.n_wires);
    EXPECT_EQ(zk.n_public, cs.n_public());
    std::vector<Fr> w = read_wtns(data(std::string(name) == "tiny/mul" ? "tiny/mul.wtns" : "mimc/mimc.wtns"));
    ProveOptions opt;
    opt.verify = false;
    ProveResult res = prove_zkey(zk, w, opt);
    EXPECT_TRUE(verify(verifying_key(zk), res.public_inputs, res.proof));
    // the key round-trips through the file format
    EXPECT_EQ(read_zkey(BinFile::from_bytes(zkey_bytes(zk), "mem.zkey", "zkey", 1)), zk);
    // same seed → same key; another seed → another key
    EXPECT_EQ(setup_zkey(cs, ToxicWaste::from_seed(7), pool).delta1, zk.delta1);
    EXPECT_NE(setup_zkey(cs, ToxicWaste::from_seed(8), pool).delta1, zk.delta1);
  }
}

}  // namespace
}  // namespace cuzk::test
