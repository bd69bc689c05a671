// libFuzzer target: the bellperson .params reader (formats/params.hpp), subgroup checks on, one thread.
// Properties: every accepted point is in its group (reference r·P check), and params_bytes of what was
// accepted is the input itself (the format has one encoding per key).
#include <cstdint>
#include <cstring>
#include <span>

#include "formats/params.hpp"
#include "fuzz.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace cuzk;
  ParamsReadOptions opt;
  opt.threads = 1;
  ProvingKey key;
  if (!fuzz::accepts([&] { key = read_params(std::span<const uint8_t>(data, size), "fuzz.params", opt); }))
    return 0;
  for (const G1Affine* p : {&key.alpha1, &key.beta1, &key.delta1})
    fuzz::expect_in_group(*p, "params header G1");
  for (const G2Affine* p : {&key.beta2, &key.gamma2, &key.delta2})
    fuzz::expect_in_group(*p, "params header G2");
  fuzz::expect_all_in_group(key.ic, "params IC");
  fuzz::expect_all_in_group(key.h, "params H");
  fuzz::expect_all_in_group(key.l, "params L");
  fuzz::expect_all_in_group(key.a, "params A");
  fuzz::expect_all_in_group(key.b_g1, "params B_G1");
  fuzz::expect_all_in_group(key.b_g2, "params B_G2");
  const std::vector<uint8_t> again = params_bytes(key);
  if (again.size() != size || std::memcmp(again.data(), data, size) != 0)
    fuzz::finding("params_bytes of an accepted .params differs from the input");
  return 0;
}
