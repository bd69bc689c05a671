// Packing bits into field elements (bellpepper src/gadgets/multipack.rs) and Filecoin's per-byte
// bit reversal (rust-fil-proofs storage-proofs-core src/util.rs `reverse_bit_numbering`).
#pragma once

#include <algorithm>
#include <span>
#include <vector>

#include "circuits/num.hpp"

namespace cuzk::circuits {

/// Bits a field element holds without reduction (Fr::CAPACITY = 254).
inline constexpr size_t kFrCapacity = 254;

namespace detail {
// Σ 2^i·bits[i] as the value of the packed number (witness modes).
inline Fr pack_value(std::span<const Boolean> bits) {
  uint64_t l[4] = {};
  for (size_t i = 0; i < bits.size(); i++)
    if (bits[i].value) l[i / 64] |= uint64_t{1} << (i % 64);
  Fr r;
  Fr::from_canonical(l, r);  // < 2^254 < r
  return r;
}
// lc += Σ 2^i·bits[i] (num.rs `Num::add_bool_with_coeff`, i.e. Boolean::lc per bit).
inline void add_packed(Lc& lc, std::span<const Boolean> bits) {
  Fr coeff = Fr::one();
  for (const Boolean& b : bits) {
    b.add_to(lc, coeff);
    coeff += coeff;
  }
}
}  // namespace detail

/// Exposes `bits` as public inputs (multipack.rs `pack_into_inputs`): per chunk of 254 bits, alloc
/// input y, then (Σ 2^i·bit_i)·ONE = y. One input and one constraint per chunk.
template <class CS>
void pack_into_inputs(CS& cs, std::span<const Boolean> bits) {
  for (size_t at = 0; at < bits.size(); at += kFrCapacity) {
    auto chunk = bits.subspan(at, std::min(kFrCapacity, bits.size() - at));
    Var y = cs.alloc_input([&] { return detail::pack_value(chunk); });
    cs.enforce([&](Lc& a, Lc& b, Lc& c) {
      detail::add_packed(a, chunk);
      b.add(kOne);
      c.add(y);
    });
  }
}

/// The first 254 of `bits` as one aux number (multipack.rs `pack_bits`): alloc y, then
/// (Σ 2^i·bit_i)·ONE = y. One constraint.
template <class CS>
AllocatedNum pack_bits(CS& cs, std::span<const Boolean> bits) {
  auto used = bits.first(std::min(kFrCapacity, bits.size()));
  AllocatedNum y = AllocatedNum::alloc(cs, [&] { return detail::pack_value(used); });
  cs.enforce([&](Lc& a, Lc& b, Lc& c) {
    detail::add_packed(a, used);
    b.add(kOne);
    c.add(y.var);
  });
  return y;
}

/// Pads `bits` with constant false to a whole number of bytes, then reverses the bit order inside
/// each byte (util.rs `reverse_bit_numbering`): little-endian field bits become the 32-byte
/// little-endian representation in SHA-256's most-significant-bit-first order. Free.
inline std::vector<Boolean> reverse_bit_numbering(std::vector<Boolean> bits) {
  while (bits.size() % 8) bits.push_back(Boolean::constant(false));
  for (size_t i = 0; i < bits.size(); i += 8) std::reverse(bits.begin() + i, bits.begin() + i + 8);
  return bits;
}

}  // namespace cuzk::circuits
