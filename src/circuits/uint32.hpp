// UInt32: 32 Booleans read as an unsigned integer, with SHA-256's operations (bellpepper
// crates/bellpepper/src/gadgets/uint32.rs). POREP_CIRCUIT.md §3 "UInt32".
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>

#include "circuits/boolean.hpp"
#include "circuits/cs.hpp"
#include "circuits/multieq.hpp"
#include "util/error.hpp"

namespace cuzk::circuits {

/// 32 Booleans, least significant bit first, and the integer's value where upstream knows it.
///
/// `known` mirrors upstream's `value: Option<u32>` being Some: always in the value modes (every bit has a
/// value), and in the blank modes only for values computed from constants alone. It matters for one
/// structural decision, addmany's folding of all-constant operands, which upstream takes only when the
/// value is known; `value` is meaningful only when `known`.
struct UInt32 {
  std::array<Boolean, 32> bits{};  ///< LSB first
  uint32_t value = 0;
  bool known = false;

  /// The value when known (upstream's `value`).
  std::optional<uint32_t> get_value() const { return known ? std::optional<uint32_t>(value) : std::nullopt; }

  /// The constant v: 32 constant bits, no variables (uint32.rs `UInt32::constant`).
  static UInt32 constant(uint32_t v) {
    UInt32 r;
    for (int i = 0; i < 32; i++) r.bits[i] = Boolean::constant((v >> i) & 1);
    r.value = v;
    r.known = true;
    return r;
  }

  /// 32 new AllocatedBits, LSB first, each followed by its boolean constraint (uint32.rs `alloc`):
  /// 32 aux, 32 constraints. `v` is read in the value modes only.
  template <class CS>
  static UInt32 alloc(CS& cs, uint32_t v) {
    UInt32 r;
    for (int i = 0; i < 32; i++)
      r.bits[i] = Boolean::is(AllocatedBit::alloc(cs, CS::kValues && ((v >> i) & 1)));
    r.value = CS::kValues ? v : 0;
    r.known = CS::kValues;
    return r;
  }

  /// The bits MSB first (uint32.rs `into_bits_be`).
  std::array<Boolean, 32> into_bits_be() const {
    std::array<Boolean, 32> r;
    for (int i = 0; i < 32; i++) r[i] = bits[31 - i];
    return r;
  }
  /// The bits LSB first (uint32.rs `into_bits`).
  const std::array<Boolean, 32>& into_bits() const { return bits; }

  /// From 32 bits MSB first (uint32.rs `from_bits_be`); the value is known when every bit's is (always
  /// in the value modes; `cs` only tells the mode). Throws Error(kInvalidArgument) unless 32 bits.
  template <class CS>
  static UInt32 from_bits_be(const CS& cs, std::span<const Boolean> be) {
    check32(be.size(), "from_bits_be");
    UInt32 r;
    for (int i = 0; i < 32; i++) r.bits[i] = be[31 - i];
    r.set_value_from_bits(cs);
    return r;
  }
  /// From 32 bits LSB first (uint32.rs `from_bits`), value as in from_bits_be.
  template <class CS>
  static UInt32 from_bits(const CS& cs, std::span<const Boolean> le) {
    check32(le.size(), "from_bits");
    UInt32 r;
    for (int i = 0; i < 32; i++) r.bits[i] = le[i];
    r.set_value_from_bits(cs);
    return r;
  }

  /// Rotation right by `by` mod 32 (free rewiring; uint32.rs `rotr`).
  UInt32 rotr(unsigned by) const {
    by %= 32;
    UInt32 r;
    for (unsigned i = 0; i < 32; i++) r.bits[i] = bits[(i + by) % 32];
    r.value = std::rotr(value, (int)by);
    r.known = known;
    return r;
  }
  /// Logical shift right by `by` mod 32, filling with constant false (free; uint32.rs `shr`, which
  /// also reduces the amount mod 32).
  UInt32 shr(unsigned by) const {
    by %= 32;
    UInt32 r;
    for (unsigned i = 0; i < 32; i++) r.bits[i] = i + by < 32 ? bits[i + by] : Boolean::constant(false);
    r.value = value >> by;
    r.known = known;
    return r;
  }

  /// this ⊕ other, bitwise through Boolean::xor in bit order 0..31 (uint32.rs `xor`): one constraint
  /// per bit pair with no constant.
  template <class CS>
  UInt32 xor_(CS& cs, const UInt32& other) const {
    UInt32 r;
    for (int i = 0; i < 32; i++) r.bits[i] = boolean_xor(cs, bits[i], other.bits[i]);
    r.known = known && other.known;
    r.value = value ^ other.value;
    return r;
  }

  /// SHA-256's ch(a, b, c) = (a ∧ b) ⊕ (¬a ∧ c), bitwise through Boolean sha256_ch in bit order
  /// (uint32.rs `sha256_ch`, via `triop`).
  template <class CS>
  static UInt32 sha256_ch(CS& cs, const UInt32& a, const UInt32& b, const UInt32& c) {
    UInt32 r;
    for (int i = 0; i < 32; i++) r.bits[i] = circuits::sha256_ch(cs, a.bits[i], b.bits[i], c.bits[i]);
    r.known = a.known && b.known && c.known;
    r.value = (a.value & b.value) ^ (~a.value & c.value);
    return r;
  }
  /// SHA-256's maj(a, b, c) = (a ∧ b) ⊕ (a ∧ c) ⊕ (b ∧ c), bitwise through Boolean sha256_maj
  /// (uint32.rs `sha256_maj`, via `triop`).
  template <class CS>
  static UInt32 sha256_maj(CS& cs, const UInt32& a, const UInt32& b, const UInt32& c) {
    UInt32 r;
    for (int i = 0; i < 32; i++) r.bits[i] = circuits::sha256_maj(cs, a.bits[i], b.bits[i], c.bits[i]);
    r.known = a.known && b.known && c.known;
    r.value = (a.value & b.value) ^ (a.value & c.value) ^ (b.value & c.value);
    return r;
  }

  /// The sum of 2..10 operands mod 2^32 (uint32.rs `addmany`):
  ///  - every bit of every operand constant (and the sum known): the constant sum, no constraint;
  ///  - otherwise bitlen(n·(2^32 − 1)) result bits r_i are allocated, LSB first, each with its boolean
  ///    constraint (all of them, whatever is known), then m.enforce_equal(bitlen, Σ_ops Σ_i 2^i·bit,
  ///    Σ_i 2^i·r_i), constant operand bits landing in ONE's coefficient; the low 32 result bits are
  ///    returned.
  /// Throws Error(kInvalidArgument) for fewer than 2 or more than 10 operands (upstream asserts).
  template <class CS>
  static UInt32 addmany(MultiEq<CS>& m, std::span<const UInt32> ops) {
    if (ops.size() < 2 || ops.size() > 10)
      throw Error(ErrorCode::kInvalidArgument,
                  "UInt32::addmany takes 2 to 10 operands, not " + std::to_string(ops.size()));
    uint64_t max_value = uint64_t(ops.size()) * 0xffffffffull;
    uint64_t sum = 0;
    bool known = true, all_constants = true;
    for (const UInt32& op : ops) {
      sum += op.value;
      known &= op.known;
      for (const Boolean& b : op.bits) all_constants &= b.is_constant();
    }
    if (all_constants && known) return constant(uint32_t(sum));

    CS& cs = m.cs();
    const size_t nbits = size_t(std::bit_width(max_value));
    std::array<Var, 64> result{};
    UInt32 r;
    for (size_t i = 0; i < nbits; i++) {
      AllocatedBit b = AllocatedBit::alloc(cs, CS::kValues && ((sum >> i) & 1));
      result[i] = b.var;
      if (i < 32) r.bits[i] = Boolean::is(b);
    }
    m.enforce_equal_with(nbits, [&](Lc& lhs, Lc& rhs, size_t shift) {
      const std::array<Fr, 256>& p2 = pow2_table();
      for (const UInt32& op : ops)
        for (size_t i = 0; i < 32; i++) op.bits[i].add_to(lhs, p2[shift + i]);
      for (size_t i = 0; i < nbits; i++) rhs.add(result[i], p2[shift + i]);
    });
    r.value = uint32_t(sum);
    r.known = known;
    return r;
  }
  /// addmany over an initializer list of operands.
  template <class CS>
  static UInt32 addmany(MultiEq<CS>& m, std::initializer_list<UInt32> ops) {
    return addmany(m, std::span<const UInt32>(ops.begin(), ops.size()));
  }

 private:
  static void check32(size_t n, const char* what) {
    if (n != 32)
      throw Error(ErrorCode::kInvalidArgument,
                  std::string("UInt32::") + what + " takes 32 bits, not " + std::to_string(n));
  }
  // Upstream reads each bit's value and gives None when any is unknown: constants always know theirs,
  // allocated bits only in the value modes.
  template <class CS>
  void set_value_from_bits(const CS&) {
    value = 0;
    known = true;
    for (int i = 0; i < 32; i++) {
      if (!bits[i].is_constant() && !CS::kValues) known = false;
      value |= uint32_t(bits[i].value) << i;
    }
    if (!known) value = 0;
  }
};

}  // namespace cuzk::circuits
