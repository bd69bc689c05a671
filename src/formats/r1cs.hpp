// circom's .r1cs v1 (format spec: iden3/r1csfile doc/r1cs_bin_format.md; reader: r1csfile's
// src/r1csfile.js). Section 1 header `n8 u32 | prime[n8] | nWires u32 | nPubOut u32 | nPubIn u32 |
// nPrvIn u32 | nLabels u64 | nConstraints u32`; section 2 the constraints, each three linear
// combinations A, B, C written `nTerms u32 | {wire u32, coeff[n8]}` with coefficients plain
// (non-Montgomery) little-endian; section 3 (optional) wire → label u64. Wire 0 is the constant 1,
// then the public outputs, the public inputs, the private inputs and the internal wires. Sections 4/5
// (PLONK custom gates) are ignored.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <vector>

#include "ff/bls12_381.hpp"
#include "groth16/r1cs.hpp"

namespace cuzk {

class BinFile;

/// Reads an .r1cs v1 file. Throws Error(kIo) if it cannot be read, Error(kInvalidFile) naming the path
/// and the problem: wrong magic/version, truncation, a prime other than BLS12-381's r (the message
/// names it, e.g. "the bn128 scalar field prime r"), a wire index ≥ nWires, a coefficient ≥ r,
/// inconsistent counts, or bytes left over in a section.
R1cs read_r1cs(const std::filesystem::path& path);
/// The same on an opened container (magic "r1cs", version 1).
R1cs read_r1cs(const BinFile& file);

}  // namespace cuzk
