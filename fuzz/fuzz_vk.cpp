// libFuzzer target: the bellperson .vk reader (formats/params.hpp read_vk). Property: every accepted
// point is in its group (reference r·P check).
#include <cstdint>
#include <span>

#include "formats/params.hpp"
#include "fuzz.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace cuzk;
  VerifyingKey vk;
  if (!fuzz::accepts([&] { vk = read_vk(std::span<const uint8_t>(data, size), "fuzz.vk"); })) return 0;
  fuzz::expect_in_group(vk.alpha1, "vk alpha1");
  for (const G2Affine* p : {&vk.beta2, &vk.gamma2, &vk.delta2}) fuzz::expect_in_group(*p, "vk G2");
  fuzz::expect_all_in_group(vk.ic, "vk IC");
  return 0;
}
