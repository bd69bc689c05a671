// AllocatedNum: one aux (or input) variable with its value (bellpepper-core src/gadgets/num.rs).
#pragma once

#include "circuits/cs.hpp"

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

}  // namespace cuzk::circuits
