// Recognising the prime fields named in iden3 file headers (.r1cs/.wtns "prime", .zkey q and r), so a
// file for another curve is rejected with a message that says which curve it is for.
#pragma once

#include <cstdint>
#include <span>
#include <string>

namespace cuzk {

/// A human description of a little-endian prime: "the bn128 scalar field prime r = 2188…",
/// "the BLS12-381 base field prime p = 4002…", or "the unknown prime <decimal>".
std::string describe_prime(std::span<const uint8_t> le);

/// True when the little-endian bytes (any length; high bytes must be zero) equal the modulus of F.
template <class F>
bool is_modulus_of(std::span<const uint8_t> le) {
  for (size_t i = 0; i < le.size(); i++) {
    size_t limb = i / 8;
    uint8_t want = limb < (size_t)F::N ? (uint8_t)(F::Params::mod((int)limb) >> (8 * (i % 8))) : 0;
    if (le[i] != want) return false;
  }
  return le.size() >= (size_t)F::kBytes;
}

class ByteReader;

/// Reads the `n8 u32 | prime[n8]` field header shared by .r1cs and .wtns (section 1) and throws through
/// `rd` unless it names BLS12-381's scalar field r with n8 = 32 (a bn128 file says so in the message).
void expect_scalar_field_header(ByteReader& rd);

}  // namespace cuzk
