// AllocatedNum: one aux (or input) variable with its value (bellpepper-core src/gadgets/num.rs).
#pragma once

#include <vector>

#include "circuits/boolean.hpp"

namespace cuzk::circuits {

/// A field element held by one variable. `value` is meaningful only when the builder keeps values
/// (CS::kValues); in the blank modes it is zero.
struct AllocatedNum {
  Var var;
  Fr value = Fr::zero();

  /// A new aux variable, no constraint (num.rs `alloc`). `value` is an Fr or a callable returning
  /// one, evaluated only in the value modes.
  template <class CS, class V>
  static AllocatedNum alloc(CS& cs, V&& value) {
    AllocatedNum n;
    if constexpr (CS::kValues) {
      if constexpr (std::is_invocable_v<V>)
        n.value = value();
      else
        n.value = Fr(value);
    }
    n.var = cs.alloc(n.value);
    return n;
  }
};

/// Makes `x` public (num.rs `inputize`): allocates input x′ and enforces x′ · ONE = x. One constraint.
template <class CS>
AllocatedNum inputize(CS& cs, const AllocatedNum& x) {
  AllocatedNum in{cs.alloc_input(x.value), x.value};
  cs.enforce([&](Lc& a, Lc& b, Lc& c) {
    a.add(in.var);
    b.add(kOne);
    c.add(x.var);
  });
  return in;
}

/// Enforces x = y as x · ONE = y (rust-fil-proofs storage-proofs-core gadgets/constraint.rs `equal`).
template <class CS>
void enforce_equal(CS& cs, const AllocatedNum& x, const AllocatedNum& y) {
  cs.enforce([&](Lc& a, Lc& b, Lc& c) {
    a.add(x.var);
    b.add(kOne);
    c.add(y.var);
  });
}

/// The 255 bits of x, least significant first (num.rs `to_bits_le` via boolean.rs
/// `field_into_allocated_bits_le`): 255 AllocatedBits allocated LSB first, each with its boolean
/// constraint, then one packing row A = ∅, B = ∅, C = Σ 2^i·b_i − x. Not range-strict; the witness is
/// the canonical bits. 256 constraints, 255 aux.
template <class CS>
std::vector<Boolean> to_bits_le(CS& cs, const AllocatedNum& x) {
  constexpr int kBits = 255;
  uint64_t limbs[4] = {};
  if constexpr (CS::kValues) x.value.to_canonical(limbs);
  std::vector<Boolean> bits;
  bits.reserve(kBits + 1);
  for (int i = 0; i < kBits; i++)
    bits.push_back(Boolean::is(AllocatedBit::alloc(cs, (limbs[i / 64] >> (i % 64)) & 1)));
  cs.enforce([&](Lc&, Lc&, Lc& c) {
    Fr coeff = Fr::one();
    for (int i = 0; i < kBits; i++) {
      c.add(bits[i].var, coeff);
      coeff += coeff;
    }
    c.sub(x.var);
  });
  return bits;
}

/// key + value as a new variable (rust-fil-proofs storage-proofs-core gadgets/constraint.rs `add`,
/// used by gadgets/encode.rs `encode`): alloc r, then (key + value)·ONE = r. One constraint.
template <class CS>
AllocatedNum add(CS& cs, const AllocatedNum& key, const AllocatedNum& value) {
  AllocatedNum r = AllocatedNum::alloc(cs, [&] { return key.value + value.value; });
  cs.enforce([&](Lc& a, Lc& b, Lc& c) {
    a.add(key.var).add(value.var);
    b.add(kOne);
    c.add(r.var);
  });
  return r;
}

}  // namespace cuzk::circuits
