// libFuzzer target: zcash-encoded (compressed, 192-byte) proofs (formats/proof_zcash.hpp). Properties:
// every accepted point is in its group (reference r·P check), and the encoding of what was accepted is
// the input itself (a point has one compressed encoding; non-canonical ones must be refused).
#include <cstdint>
#include <cstring>
#include <span>
#include <vector>

#include "formats/proof_zcash.hpp"
#include "fuzz.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace cuzk;
  std::vector<Groth16Proof> proofs;
  if (!fuzz::accepts([&] { proofs = decode_proofs_zcash(std::span<const uint8_t>(data, size), "fuzz.bin"); }))
    return 0;
  if (proofs.size() * kProofZcashBytes != size) fuzz::finding("accepted bytes that are not whole proofs");
  for (size_t i = 0; i < proofs.size(); i++) {
    fuzz::expect_in_group(proofs[i].a, "proof A");
    fuzz::expect_in_group(proofs[i].b, "proof B");
    fuzz::expect_in_group(proofs[i].c, "proof C");
    const auto enc = encode_proof_zcash(proofs[i]);
    if (std::memcmp(enc.data(), data + i * kProofZcashBytes, kProofZcashBytes) != 0)
      fuzz::finding("an accepted proof re-encodes to other bytes (non-canonical encoding accepted)");
  }
  return 0;
}
