#include "formats/proof_zcash.hpp"

#include "ec/encoding.hpp"
#include "formats/atomic_file.hpp"
#include "util/error.hpp"

namespace cuzk {
namespace {

constexpr size_t kOffB = kG1Compressed, kOffC = kG1Compressed + kG2Compressed;

/// Decodes one element of the proof with `decode`, prefixing any error with its name.
template <class A, class Decode>
A element(const char* name, const uint8_t* in, size_t len, Decode decode) {
  A p;
  try {
    p = decode(in, len, SubgroupCheck::kYes);
  } catch (const Error& e) {
    throw Error(ErrorCode::kInvalidEncoding, std::string(name) + ": " + e.what());
  }
  if (p.is_inf()) throw Error(ErrorCode::kInvalidEncoding, std::string(name) + ": the point at infinity");
  return p;
}

}  // namespace

std::array<uint8_t, kProofZcashBytes> encode_proof_zcash(const Groth16Proof& proof) {
  std::array<uint8_t, kProofZcashBytes> out;
  g1_to_zcash(proof.a, true, out.data());
  g2_to_zcash(proof.b, true, out.data() + kOffB);
  g1_to_zcash(proof.c, true, out.data() + kOffC);
  return out;
}

Groth16Proof decode_proof_zcash(std::span<const uint8_t> bytes) {
  if (bytes.size() != kProofZcashBytes)
    throw Error(ErrorCode::kInvalidEncoding,
                "a zcash-encoded Groth16 proof has 192 bytes, got " + std::to_string(bytes.size()));
  return {element<G1Affine>("πA", bytes.data(), kG1Compressed, g1_from_zcash),
          element<G2Affine>("πB", bytes.data() + kOffB, kG2Compressed, g2_from_zcash),
          element<G1Affine>("πC", bytes.data() + kOffC, kG1Compressed, g1_from_zcash)};
}

std::vector<Groth16Proof> decode_proofs_zcash(std::span<const uint8_t> bytes, const std::string& name) {
  if (bytes.empty() || bytes.size() % kProofZcashBytes != 0)
    throw Error(ErrorCode::kInvalidFile, name + ": " + std::to_string(bytes.size()) +
                                             " bytes: a proofs file holds one or more proofs of 192 bytes");
  std::vector<Groth16Proof> out;
  out.reserve(bytes.size() / kProofZcashBytes);
  for (size_t off = 0; off < bytes.size(); off += kProofZcashBytes) {
    try {
      out.push_back(decode_proof_zcash(bytes.subspan(off, kProofZcashBytes)));
    } catch (const Error& e) {
      throw Error(ErrorCode::kInvalidFile, name + ": proof " + std::to_string(off / kProofZcashBytes) +
                                               " at byte " + std::to_string(off) + ": " + e.what());
    }
  }
  return out;
}

std::vector<Groth16Proof> read_proofs_file(const std::filesystem::path& path) {
  return decode_proofs_zcash(read_file_bytes(path), path.string());
}

void write_proofs_file(const std::filesystem::path& path, std::span<const Groth16Proof> proofs) {
  if (proofs.empty()) throw Error(ErrorCode::kInvalidArgument, path.string() + ": no proof to write");
  AtomicFile file(path);
  for (const Groth16Proof& p : proofs) file.append(encode_proof_zcash(p));
  file.commit();
}

}  // namespace cuzk
