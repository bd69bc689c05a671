// libFuzzer target: the .wtns reader (formats/wtns.hpp). Property: what it accepts writes back
// (wtns_bytes) to a file that reads back to the same witness.
#include <cstdint>
#include <vector>

#include "formats/binfile.hpp"
#include "formats/wtns.hpp"
#include "fuzz.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace cuzk;
  std::vector<Fr> w;
  if (!fuzz::accepts([&] {
        w = read_wtns(BinFile::from_bytes(std::vector<uint8_t>(data, data + size), "fuzz.wtns", "wtns", 2));
      }))
    return 0;
  std::vector<Fr> again;
  if (!fuzz::accepts(
          [&] { again = read_wtns(BinFile::from_bytes(wtns_bytes(w), "rewritten.wtns", "wtns", 2)); }))
    fuzz::finding("a witness that was read does not read back after wtns_bytes");
  if (again != w) fuzz::finding("wtns_bytes of a witness reads back differently");
  return 0;
}
