// Decimal text for big unsigned integers and field elements, as snarkjs's JSON files write them
// (JSON.stringify of BigInt strings: base 10, no sign, no leading zeros; ffjavascript's Scalar.toString).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace cuzk {

/// Decimal of the unsigned integer held in `n` little-endian 64-bit limbs ("0" for zero).
std::string decimal_from_limbs(const uint64_t* limbs, size_t n);
/// Parses a non-empty string of ASCII digits (leading zeros allowed, no sign or spaces) into `n`
/// little-endian limbs. Returns false if a character is not a digit, the string is empty, or the value
/// does not fit in 64·n bits (`limbs` is then unspecified).
bool decimal_to_limbs(std::string_view dec, uint64_t* limbs, size_t n);

/// Decimal of a big-endian unsigned integer of any length.
std::string decimal_from_be_bytes(std::span<const uint8_t> be);
/// Parses decimal digits into a big-endian integer of exactly `out.size()` bytes; false if malformed or
/// too large for that width.
bool decimal_to_be_bytes(std::string_view dec, std::span<uint8_t> out);

/// Outcome of parsing a field element.
enum class DecimalParse { kOk, kMalformed, kNotBelowModulus };

/// Decimal of the canonical (plain, non-Montgomery) value of a Montgomery field element.
template <class F>
std::string to_decimal(const F& a) {
  uint64_t c[F::N];
  a.to_canonical(c);
  return decimal_from_limbs(c, F::N);
}
/// Parses the decimal of a canonical value into `out` (Montgomery form). Values ≥ the modulus are
/// rejected (kNotBelowModulus), never reduced.
template <class F>
DecimalParse from_decimal(std::string_view dec, F& out) {
  uint64_t l[F::N + 1];  // one spare limb: "too wide" is reported as "not below the modulus"
  if (dec.empty() || dec.find_first_not_of("0123456789") != std::string_view::npos) return DecimalParse::kMalformed;
  if (!decimal_to_limbs(dec, l, F::N + 1) || l[F::N] != 0) return DecimalParse::kNotBelowModulus;
  return F::from_canonical(l, out) ? DecimalParse::kOk : DecimalParse::kNotBelowModulus;
}

}  // namespace cuzk
