// libFuzzer target: the .zkey reader (formats/zkey.hpp) with every subgroup check on. Properties: every
// accepted point is in its group (reference r·P check), and what is accepted writes back (zkey_bytes) to
// bytes that read back to the same key.
#include <cstdint>
#include <vector>

#include "formats/binfile.hpp"
#include "formats/zkey.hpp"
#include "fuzz.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace cuzk;
  const ZkeyReadOptions all{SubgroupCheck::kYes, SubgroupCheck::kYes};
  Zkey zk;
  if (!fuzz::accepts([&] {
        zk = read_zkey(BinFile::from_bytes(std::vector<uint8_t>(data, data + size), "fuzz.zkey", "zkey", 1),
                       all);
      }))
    return 0;
  for (const G1Affine* p : {&zk.alpha1, &zk.beta1, &zk.delta1}) fuzz::expect_in_group(*p, "zkey header G1");
  for (const G2Affine* p : {&zk.beta2, &zk.gamma2, &zk.delta2}) fuzz::expect_in_group(*p, "zkey header G2");
  fuzz::expect_all_in_group(zk.ic, "zkey IC");
  fuzz::expect_all_in_group(zk.a, "zkey A");
  fuzz::expect_all_in_group(zk.b1, "zkey B1");
  fuzz::expect_all_in_group(zk.b2, "zkey B2");
  fuzz::expect_all_in_group(zk.c, "zkey C");
  fuzz::expect_all_in_group(zk.h, "zkey H");
  Zkey again;
  if (!fuzz::accepts(
          [&] { again = read_zkey(BinFile::from_bytes(zkey_bytes(zk), "rewritten.zkey", "zkey", 1), all); }))
    fuzz::finding("an accepted zkey does not read back after zkey_bytes");
  if (!(again == zk)) fuzz::finding("zkey_bytes of an accepted zkey reads back differently");
  return 0;
}
