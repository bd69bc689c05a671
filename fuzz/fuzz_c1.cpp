// libFuzzer target: the C1 output reader (formats/c1.hpp: filecoin-ffi's JSON and Curio's envelope).
// Property: what it accepts writes back (write_c1_json) to JSON that reads back and writes the same text.
#include <cstdint>
#include <span>
#include <string>

#include "formats/c1.hpp"
#include "fuzz.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace cuzk;
  C1Output c1;
  if (!fuzz::accepts([&] { c1 = read_c1(std::span<const uint8_t>(data, size), "fuzz.json"); })) return 0;
  std::string once, twice;
  if (!fuzz::accepts([&] { once = write_c1_json(c1); })) fuzz::finding("an accepted C1 cannot be written");
  const auto* p = reinterpret_cast<const uint8_t*>(once.data());
  if (!fuzz::accepts(
          [&] { twice = write_c1_json(read_c1(std::span<const uint8_t>(p, once.size()), "again.json")); }))
    fuzz::finding("write_c1_json of an accepted C1 does not read back");
  if (once != twice) fuzz::finding("write_c1_json → read_c1 → write_c1_json is not a fixed point");
  return 0;
}
