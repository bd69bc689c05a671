// libFuzzer target: snarkjs JSON (formats/snarkjs_json.hpp): the first byte picks proof.json,
// public.json or verification_key.json, the rest is the text. Properties: accepted points are in their
// groups (reference r·P check), and what was accepted writes back to JSON that reads back the same.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "formats/snarkjs_json.hpp"
#include "fuzz.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace cuzk;
  if (size == 0) return 0;
  const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  switch (data[0] % 3) {
    case 0: {
      Groth16Proof p;
      if (!fuzz::accepts([&] { p = proof_from_json(text); })) return 0;
      fuzz::expect_in_group(p.a, "proof.json A");
      fuzz::expect_in_group(p.b, "proof.json B");
      fuzz::expect_in_group(p.c, "proof.json C");
      Groth16Proof again;
      if (!fuzz::accepts([&] { again = proof_from_json(proof_to_json(p)); }) || !(again == p))
        fuzz::finding("proof_to_json of an accepted proof does not read back the same");
      break;
    }
    case 1: {
      std::vector<Fr> s;
      if (!fuzz::accepts([&] { s = public_from_json(text); })) return 0;
      std::vector<Fr> again;
      if (!fuzz::accepts([&] { again = public_from_json(public_to_json(s)); }) || again != s)
        fuzz::finding("public_to_json of accepted signals does not read back the same");
      break;
    }
    default: {
      SnarkjsVerificationKey vk;
      if (!fuzz::accepts([&] { vk = vk_from_json(text); })) return 0;
      fuzz::expect_in_group(vk.vk.alpha1, "vk.json alpha");
      for (const G2Affine* p : {&vk.vk.beta2, &vk.vk.gamma2, &vk.vk.delta2})
        fuzz::expect_in_group(*p, "vk.json G2");
      fuzz::expect_all_in_group(vk.vk.ic, "vk.json IC");
      break;
    }
  }
  return 0;
}
