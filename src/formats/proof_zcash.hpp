// Groth16 proofs in the zcash/bellperson encoding (bellperson's `Proof::write`/`Proof::read`,
// src/groth16/mod.rs): πA as a compressed G1 point (48 bytes) ‖ πB compressed G2 (96) ‖ πC compressed G1
// (48) = 192 bytes. Filecoin concatenates the proofs of a job's partitions in partition order (a PoRep
// commit is 10 × 192 bytes); a proofs file here is exactly that.
// Decoding checks what bellperson's Proof::read checks: flags, canonical coordinates, points on their
// curves and in the order-r subgroup, and none of the three the point at infinity.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include "groth16/key.hpp"

namespace cuzk {

/// Bytes of one encoded proof.
inline constexpr size_t kProofZcashBytes = 192;

/// Encodes a proof: A (48 B) ‖ B (96 B) ‖ C (48 B), compressed zcash points. A point at infinity is
/// encoded as such, although decode_proof_zcash (like bellperson) refuses it.
std::array<uint8_t, kProofZcashBytes> encode_proof_zcash(const Groth16Proof& proof);

/// Decodes 192 bytes into a proof. Throws Error(kInvalidEncoding) for a wrong length, or naming πA, πB
/// or πC and the problem: bad flags, a coordinate ≥ p, no curve point with that x, not in the subgroup,
/// the point at infinity.
Groth16Proof decode_proof_zcash(std::span<const uint8_t> bytes);

/// Decodes concatenated proofs (partition order). `name` stands for the file in error messages.
/// Throws Error(kInvalidFile) when the size is zero or not a multiple of 192, or when a proof does not
/// decode (the message names the proof's index and byte offset).
std::vector<Groth16Proof> decode_proofs_zcash(std::span<const uint8_t> bytes, const std::string& name);

/// Reads a proofs file (decode_proofs_zcash on its bytes). Throws Error(kIo) if it cannot be read.
std::vector<Groth16Proof> read_proofs_file(const std::filesystem::path& path);

/// Writes the proofs, concatenated in the given order, atomically (temporary file, fsync, rename).
/// Throws Error(kInvalidArgument) for an empty list, Error(kIo) when the OS refuses the write.
void write_proofs_file(const std::filesystem::path& path, std::span<const Groth16Proof> proofs);

}  // namespace cuzk
