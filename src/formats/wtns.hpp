// circom/snarkjs witness files, .wtns v2 (snarkjs src/wtns_utils.js, circom_runtime's witness
// calculator writeWtns): section 1 `n8 u32 | prime[n8] | nWitness u32`, section 2 nWitness values of n8
// bytes, plain (non-Montgomery) little-endian. Value 0 is the constant 1 (not checked here).
#pragma once

#include <filesystem>
#include <span>
#include <vector>

#include "ff/bls12_381.hpp"

namespace cuzk {

class BinFile;

/// Reads a .wtns v2 file into Fr values (Montgomery form). Throws Error(kIo) if unreadable and
/// Error(kInvalidFile) naming the path for a wrong magic/version, truncation, a prime other than
/// BLS12-381's r (named, e.g. "the bn128 scalar field prime r"), a section 2 size ≠ nWitness·n8, or a
/// value ≥ r (the message gives its index).
std::vector<Fr> read_wtns(const std::filesystem::path& path);
/// The same on an opened container (magic "wtns", version 2).
std::vector<Fr> read_wtns(const BinFile& file);

/// Writes `witness` (Montgomery form) as a .wtns v2 file for BLS12-381 (n8 = 32, prime r, values plain
/// LE), atomically (temporary file + rename). Byte-identical to what snarkjs writes for the same values.
/// Throws Error(kIo).
void write_wtns(const std::filesystem::path& path, std::span<const Fr> witness);
/// The bytes of that file.
std::vector<uint8_t> wtns_bytes(std::span<const Fr> witness);

}  // namespace cuzk
