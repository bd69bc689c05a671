// A Groth16 round trip on a gadget circuit: one Poseidon-8 Merkle inclusion (the 32 GiB tree shape),
// recorded by the circuit builder, set up with cuzk's own single-party setup, proved on the CPU and
// verified; a wrong public input is rejected.
#include <gtest/gtest.h>

#include <random>

#include "circuits/filecoin_hashers.hpp"
#include "circuits/por.hpp"
#include "circuits/porep_witness.hpp"
#include "groth16/cpu_backend.hpp"
#include "groth16/prover.hpp"
#include "groth16/setup.hpp"
#include "groth16/synthesis.hpp"
#include "groth16/verifier.hpp"
#include "hash/poseidon.hpp"
#include "random.hpp"

namespace cuzk::circuits {
namespace {

TEST(GadgetGroth16, PoseidonMerkleInclusionProvesAndVerifies) {
  std::mt19937_64 rng(31);
  const TreeShape shape = stacked_shape("32GiB").tree_rc;
  std::vector<PathLevel> path(shape.levels());
  Fr cur = cuzk::test::random_fe<Fr>(rng);
  const Fr leaf = cur;
  uint64_t index = 0, mult = 1;
  for (size_t i = 0; i < path.size(); i++) {
    const uint32_t arity = shape.arity(i);
    path[i].index = (uint32_t)(rng() % arity);
    for (uint32_t k = 0; k + 1 < arity; k++) path[i].siblings.push_back(cuzk::test::random_fe<Fr>(rng));
    std::vector<Fr> children = path[i].siblings;
    children.insert(children.begin() + path[i].index, cur);
    cur = poseidon_hash(children, poseidon_constants((int)arity));
    index += path[i].index * mult;
    mult *= arity;
  }
  const Fr root = cur;

  RecordCs rec;
  por_circuit<PoseidonHasher>(rec, shape, {}, Fr::zero(), Fr::zero(), false);
  const ConstraintSystem cs = rec.take_recording().to_constraint_system();
  WitnessCs wit;
  por_circuit<PoseidonHasher>(wit, shape, path, leaf, root, false);
  const Witness w = wit.take_witness();
  std::vector<Fr> full(w.inputs);
  full.insert(full.end(), w.aux.begin(), w.aux.end());

  CpuBackend backend(2);
  const ProvingKey key = setup(cs, ToxicWaste::from_seed(5), backend.pool());
  ProveOptions opt;
  opt.r = Fr::from_u64(3);
  opt.s = Fr::from_u64(4);
  ProveResult res = prove(key, synthesize(cs, full, backend.pool()), backend, opt);
  ASSERT_EQ(res.public_inputs.size(), 2u);
  EXPECT_EQ(res.public_inputs[0], Fr::from_u64(index));
  EXPECT_EQ(res.public_inputs[1], root);
  const VerifyingKey vk = key.verifying_key();
  EXPECT_TRUE(verify(vk, res.public_inputs, res.proof));
  std::vector<Fr> wrong = res.public_inputs;
  wrong[0] += Fr::one();
  EXPECT_FALSE(verify(vk, wrong, res.proof));

  // A witness for another root does not satisfy the rows: the prover refuses it.
  WitnessCs bad;
  por_circuit<PoseidonHasher>(bad, shape, path, leaf, root + Fr::one(), false);
  Witness bw = bad.take_witness();
  std::vector<Fr> bfull(bw.inputs);
  bfull.insert(bfull.end(), bw.aux.begin(), bw.aux.end());
  EXPECT_GE(first_unsatisfied_row(synthesize(cs, bfull, backend.pool())), 0);
  EXPECT_THROW(prove(key, synthesize(cs, bfull, backend.pool()), backend, opt), Error);
}

}  // namespace
}  // namespace cuzk::circuits
