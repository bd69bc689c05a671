#include "service/proof_encoding.hpp"

#include "ec/encoding.hpp"
#include "util/error.hpp"

namespace cuzk::service {

std::vector<uint8_t> zcash_proofs(const std::vector<Groth16Proof>& proofs) {
  std::vector<uint8_t> out(proofs.size() * kZcashProofBytes);
  for (size_t i = 0; i < proofs.size(); i++) {
    uint8_t* p = out.data() + i * kZcashProofBytes;
    g1_to_zcash(proofs[i].a, true, p);
    g2_to_zcash(proofs[i].b, true, p + 48);
    g1_to_zcash(proofs[i].c, true, p + 144);
  }
  return out;
}

std::vector<Groth16Proof> zcash_proofs_from_bytes(const uint8_t* data, size_t len) {
  if (len % kZcashProofBytes)
    throw Error(ErrorCode::kInvalidEncoding, "proof bytes: " + std::to_string(len) +
                                                 " is not a multiple of 192 (zcash-encoded Groth16 proofs)");
  std::vector<Groth16Proof> out;
  for (size_t off = 0; off < len; off += kZcashProofBytes)
    out.push_back({g1_from_zcash(data + off, 48), g2_from_zcash(data + off + 48, 96),
                   g1_from_zcash(data + off + 144, 48)});
  return out;
}

}  // namespace cuzk::service
