// Point encodings.
//  * zcash/bellperson/blst ("zcash" below): big-endian coordinates; G1 48 B compressed / 96 B
//    uncompressed, G2 96 / 192 B with Fp2 written (c1, c0). The three top bits of the first byte are
//    flags: 0x80 compressed, 0x40 infinity, 0x20 sign of y (set when y is lexicographically largest;
//    compressed only). Spec: zkcrypto/pairing "serialization" notes, also used by blst and bellperson.
//  * snarkjs binary: little-endian Montgomery coordinates, affine, G2 as (c0, c1); all-zero = ∞.
//    G1 96 B, G2 192 B (snarkjs/src/zkey_utils.js, ffjavascript's toRprLEM).
// Decoders throw cuzk::Error(kInvalidEncoding) naming the problem: wrong length, bad flags,
// non-canonical coordinate, point not on the curve, or (when asked) not in the r-order subgroup.
#pragma once

#include <cstddef>
#include <cstdint>

#include "ec/curves.hpp"

namespace cuzk {

/// Whether a decoder runs the prime-order subgroup check (the endomorphism tests of ec/subgroup.hpp,
/// the time of ~1500 Fp multiplications for G1: the costly part of decoding).
enum class SubgroupCheck { kYes, kNo };

/// Encoded sizes in bytes.
inline constexpr size_t kG1Compressed = 48, kG1Uncompressed = 96, kG2Compressed = 96,
                        kG2Uncompressed = 192, kG1Snarkjs = 96, kG2Snarkjs = 192;

/// Decodes a zcash-format G1 point of 48 (compressed) or 96 (uncompressed) bytes.
G1Affine g1_from_zcash(const uint8_t* in, size_t len, SubgroupCheck check = SubgroupCheck::kYes);
/// Decodes a zcash-format G2 point of 96 (compressed) or 192 (uncompressed) bytes.
G2Affine g2_from_zcash(const uint8_t* in, size_t len, SubgroupCheck check = SubgroupCheck::kYes);
/// Encodes a G1 point in zcash format into 48 or 96 bytes (`compressed` picks which).
void g1_to_zcash(const G1Affine& p, bool compressed, uint8_t* out);
/// Encodes a G2 point in zcash format into 96 or 192 bytes.
void g2_to_zcash(const G2Affine& p, bool compressed, uint8_t* out);

/// Decodes a snarkjs binary G1 point (96 bytes, LE Montgomery); checks canonical and on-curve.
G1Affine g1_from_snarkjs(const uint8_t* in, SubgroupCheck check = SubgroupCheck::kNo);
/// Decodes a snarkjs binary G2 point (192 bytes).
G2Affine g2_from_snarkjs(const uint8_t* in, SubgroupCheck check = SubgroupCheck::kNo);
/// Encodes a G1 point in snarkjs binary form (96 bytes).
void g1_to_snarkjs(const G1Affine& p, uint8_t* out);
/// Encodes a G2 point in snarkjs binary form (192 bytes).
void g2_to_snarkjs(const G2Affine& p, uint8_t* out);

}  // namespace cuzk
