#include "groth16/verifier.hpp"

#include "ec/pairing.hpp"
#include "msm/pippenger.hpp"
#include "util/thread_pool.hpp"

namespace cuzk {

bool verify(const VerifyingKey& vk, std::span<const Fr> pub, const Groth16Proof& proof) {
  if (pub.size() + 1 != vk.ic.size()) return false;
  for (const G1Affine* p : {&proof.a, &proof.c})
    if (!is_on_curve(*p) || !is_in_subgroup(*p)) return false;
  if (!is_on_curve(proof.b) || !is_in_subgroup(proof.b)) return false;
  G1 vk_x = G1::from_affine(vk.ic[0]);
  if (pub.size() <= 8) {
    for (size_t i = 0; i < pub.size(); i++) vk_x += scalar_mul(vk.ic[i + 1], pub[i]);
  } else {  // Filecoin circuits have hundreds of inputs: one Pippenger MSM on the calling thread
    ThreadPool one(1);
    vk_x += msm<Fp>(std::span<const G1Affine>(vk.ic).subspan(1), pub, one);
  }
  return pairing_product_is_one(
      {{-proof.a, proof.b}, {vk_x.to_affine(), vk.gamma2}, {proof.c, vk.delta2}, {vk.alpha1, vk.beta2}});
}

Fp12 alphabeta(const VerifyingKey& vk) { return pairing(vk.alpha1, vk.beta2); }

}  // namespace cuzk
