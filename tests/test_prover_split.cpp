// The split prover API (prove_start → PendingProof → prove_finalize) on the CPU backend: several
// partitions per call, pending proofs finalized out of order from several threads, pending proofs
// dropped without finalize (the sanitizer run checks nothing leaks), per-partition blinding, and
// errors raised in start (bad shapes, a failing backend) and in finalize (a failing backend, a wrong
// witness).
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <thread>

#include "formats/wtns.hpp"
#include "formats/zkey.hpp"
#include "groth16/cpu_backend.hpp"
#include "groth16/prover.hpp"
#include "groth16/synthesis.hpp"
#include "groth16/verifier.hpp"
#include "util/error.hpp"

namespace cuzk::test {
namespace {

std::string data(const std::string& rel) { return std::string(CUZK_SOURCE_DIR) + "/tests/data/" + rel; }

/// The mimc fixture as key + rows + witness.
struct Mimc {
  ConstraintSystem rows;
  std::shared_ptr<const ProvingKey> key;
  std::vector<Fr> w;
  Mimc() {
    Zkey zk = read_zkey(data("mimc/mimc_dev.zkey"));
    rows = zkey_constraint_system(zk);
    key = std::make_shared<const ProvingKey>(proving_key(std::move(zk), rows));
    w = read_wtns(data("mimc/mimc.wtns"));
  }
};

const Mimc& mimc() {
  static Mimc m;
  return m;
}

CpuBackend& cpu() {
  static CpuBackend b(2);
  return b;
}

/// A backend that fails in start() or in wait() on request, else delegates to the CPU backend.
class FaultyBackend final : public ProverBackend {
 public:
  bool fail_start = false, fail_wait = false;
  std::string name() const override { return "faulty"; }
  std::unique_ptr<BackendPending> start(std::shared_ptr<const ProvingKey> key,
                                        std::shared_ptr<const Assignment> asg) override {
    if (fail_start) throw Error(ErrorCode::kCuda, "injected start failure");
    struct Failing final : BackendPending {
      std::unique_ptr<BackendPending> inner;
      bool fail;
      PartitionSums wait() override {
        PartitionSums s = inner->wait();
        if (fail) throw Error(ErrorCode::kCuda, "injected wait failure");
        return s;
      }
    };
    auto p = std::make_unique<Failing>();
    p->inner = cpu().start(std::move(key), std::move(asg));
    p->fail = fail_wait;
    return p;
  }
};

std::vector<Assignment> partitions(size_t n) {
  std::vector<Assignment> v;
  for (size_t i = 0; i < n; i++) v.push_back(synthesize(mimc().rows, mimc().w, cpu().pool()));
  return v;
}

TEST(Groth16Split, SeveralPartitionsPerCallAllVerify) {
  PendingProof p = prove_start(mimc().key, partitions(3), cpu());
  EXPECT_EQ(p.size(), 3u);
  std::vector<ProveResult> res = prove_finalize(std::move(p));
  ASSERT_EQ(res.size(), 3u);
  const VerifyingKey vk = mimc().key->verifying_key();
  for (const ProveResult& r : res) EXPECT_TRUE(verify(vk, r.public_inputs, r.proof));
  EXPECT_NE(res[0].proof, res[1].proof);  // fresh r, s per partition
  EXPECT_EQ(p.size(), 0u);                // consumed
  EXPECT_THROW(prove_finalize(std::move(p)), Error);
}

TEST(Groth16Split, PerPartitionBlindingMatchesSingleProofs) {
  ProveOptions opt;
  opt.r_each = {Fr::from_u64(11), Fr::from_u64(12)};
  opt.s_each = {Fr::from_u64(13), Fr::from_u64(14)};
  std::vector<ProveResult> res = prove_finalize(prove_start(mimc().key, partitions(2), cpu(), opt));
  for (size_t i = 0; i < 2; i++) {
    ProveOptions one;
    one.r = opt.r_each[i];
    one.s = opt.s_each[i];
    EXPECT_EQ(prove(*mimc().key, synthesize(mimc().rows, mimc().w, cpu().pool()), cpu(), one).proof,
              res[i].proof);
  }
  opt.r_each.pop_back();  // counts disagree
  EXPECT_THROW(prove_start(mimc().key, partitions(2), cpu(), opt), Error);
}

TEST(Groth16Split, FinalizedOutOfOrderFromSeveralThreads) {
  constexpr int kProofs = 6;
  ProveOptions opt;
  opt.r = Fr::from_u64(11);
  opt.s = Fr::from_u64(13);
  const Groth16Proof expected =
      prove(*mimc().key, synthesize(mimc().rows, mimc().w, cpu().pool()), cpu(), opt).proof;
  std::vector<PendingProof> pending;
  for (int i = 0; i < kProofs; i++) pending.push_back(prove_start(mimc().key, partitions(1), cpu(), opt));
  std::vector<int> order(kProofs);
  for (int i = 0; i < kProofs; i++) order[i] = i;
  std::shuffle(order.begin(), order.end(), std::mt19937(5));
  std::vector<Groth16Proof> got(kProofs);
  std::vector<std::thread> threads;
  for (int t = 0; t < 3; t++)
    threads.emplace_back([&, t] {
      for (int k = t; k < kProofs; k += 3)
        got[order[k]] = prove_finalize(std::move(pending[order[k]]))[0].proof;
    });
  for (auto& th : threads) th.join();
  for (const Groth16Proof& g : got) EXPECT_EQ(g, expected);
}

TEST(Groth16Split, DroppedWithoutFinalizeReleasesEverything) {
  std::weak_ptr<const ProvingKey> weak;
  {
    auto key = std::make_shared<const ProvingKey>(*mimc().key);
    weak = key;
    PendingProof p = prove_start(key, partitions(2), cpu());
    key.reset();
    EXPECT_FALSE(weak.expired());  // the pending proof keeps the key alive
  }
  EXPECT_TRUE(weak.expired());  // and lets it go when dropped
}

TEST(Groth16Split, ErrorsInStartLeaveNothingRunning) {
  std::vector<Assignment> parts = partitions(2);
  parts[1].aux.vec().pop_back();  // wrong shape: nothing starts
  try {
    prove_start(mimc().key, std::move(parts), cpu());
    FAIL() << "a bad shape was accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kInvalidArgument);
    EXPECT_NE(std::string(e.what()).find("partition 1"), std::string::npos) << e.what();
  }
  FaultyBackend bad;
  bad.fail_start = true;
  EXPECT_THROW(prove_start(mimc().key, partitions(1), bad), Error);
  bad.fail_start = false;  // the backend is usable afterwards
  EXPECT_EQ(prove_finalize(prove_start(mimc().key, partitions(1), bad)).size(), 1u);
}

TEST(Groth16Split, ErrorsInFinalize) {
  FaultyBackend bad;
  bad.fail_wait = true;
  PendingProof p = prove_start(mimc().key, partitions(1), bad);
  try {
    prove_finalize(std::move(p));
    FAIL() << "the backend failure was lost";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kCuda);
  }
  // a witness that does not satisfy the circuit fails in finalize, naming the partition
  std::vector<Assignment> parts = partitions(2);
  parts[1].aux.vec()[5] += Fr::one();
  try {
    prove_finalize(prove_start(mimc().key, std::move(parts), cpu()));
    FAIL() << "a wrong witness became a proof";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kUnsatisfied);
    EXPECT_NE(std::string(e.what()).find("partition 1"), std::string::npos) << e.what();
  }
}

TEST(Groth16Split, ShapeChecksNameTheMismatch) {
  Assignment a = synthesize(mimc().rows, mimc().w, cpu().pool());
  ProvingKey k = *mimc().key;
  k.a.pop_back();
  try {
    check_shapes(k, a);
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("inputs + popcount(a_aux)"), std::string::npos) << e.what();
  }
  k = *mimc().key;
  k.h.pop_back();
  EXPECT_THROW(check_shapes(k, a), Error);
  a.inputs[0] = Fr::from_u64(2);
  EXPECT_THROW(check_shapes(*mimc().key, a), Error);
}

}  // namespace
}  // namespace cuzk::test
