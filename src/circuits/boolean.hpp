// Booleans with bellpepper's structural constant folding (bellpepper-core src/gadgets/boolean.rs):
// AllocatedBit (one boolean-constrained variable) and Boolean = Constant(b) | Is(bit) | Not(bit).
// Folding depends only on which operands are constants, never on witness values, so the blank
// (count, record) and witness circuits coincide. POREP_CIRCUIT.md §3 "Booleans".
#pragma once

#include "circuits/cs.hpp"

namespace cuzk::circuits {

/// A variable constrained to 0 or 1, with its value (false in the blank modes).
struct AllocatedBit {
  Var var;
  bool value = false;

  /// alloc v, then (ONE − v)·v = 0 (boolean.rs `AllocatedBit::alloc`). One constraint.
  template <class CS>
  static AllocatedBit alloc(CS& cs, bool value) {
    AllocatedBit b{cs.alloc_bit(value), value};
    cs.enforce([&](Lc& A, Lc& B, Lc&) {
      A.add(kOne).sub(b.var);
      B.add(b.var);
    });
    return b;
  }
  /// a ⊕ b: alloc r, then (2a)·b = a + b − r.
  template <class CS>
  static AllocatedBit xor_(CS& cs, const AllocatedBit& a, const AllocatedBit& b) {
    AllocatedBit r{cs.alloc_bit(a.value != b.value), a.value != b.value};
    cs.enforce([&](Lc& A, Lc& B, Lc& C) {
      A.add(a.var).add(a.var);
      B.add(b.var);
      C.add(a.var).add(b.var).sub(r.var);
    });
    return r;
  }
  /// a ∧ b: alloc r, then a·b = r.
  template <class CS>
  static AllocatedBit and_(CS& cs, const AllocatedBit& a, const AllocatedBit& b) {
    AllocatedBit r{cs.alloc_bit(a.value && b.value), a.value && b.value};
    cs.enforce([&](Lc& A, Lc& B, Lc& C) {
      A.add(a.var);
      B.add(b.var);
      C.add(r.var);
    });
    return r;
  }
  /// a ∧ ¬b: alloc r, then a·(ONE − b) = r.
  template <class CS>
  static AllocatedBit and_not(CS& cs, const AllocatedBit& a, const AllocatedBit& b) {
    AllocatedBit r{cs.alloc_bit(a.value && !b.value), a.value && !b.value};
    cs.enforce([&](Lc& A, Lc& B, Lc& C) {
      A.add(a.var);
      B.add(kOne).sub(b.var);
      C.add(r.var);
    });
    return r;
  }
  /// ¬a ∧ ¬b: alloc r, then (ONE − a)·(ONE − b) = r.
  template <class CS>
  static AllocatedBit nor(CS& cs, const AllocatedBit& a, const AllocatedBit& b) {
    AllocatedBit r{cs.alloc_bit(!a.value && !b.value), !a.value && !b.value};
    cs.enforce([&](Lc& A, Lc& B, Lc& C) {
      A.add(kOne).sub(a.var);
      B.add(kOne).sub(b.var);
      C.add(r.var);
    });
    return r;
  }
};

/// A boolean: a constant, an allocated bit, or the negation of one. `value` is the boolean's own
/// value (negation applied; meaningful for constants always, for bits in the witness modes only).
struct Boolean {
  enum class Kind : uint8_t { kConstant, kIs, kNot };
  Kind kind = Kind::kConstant;
  bool value = false;
  Var var;  ///< the underlying bit (kIs, kNot)

  static Boolean constant(bool b) { return {Kind::kConstant, b, Var()}; }
  static Boolean is(const AllocatedBit& b) { return {Kind::kIs, b.value, b.var}; }

  bool is_constant() const { return kind == Kind::kConstant; }
  bool is_const(bool b) const { return kind == Kind::kConstant && value == b; }
  /// The underlying allocated bit (kIs / kNot only).
  AllocatedBit bit() const { return {var, kind == Kind::kNot ? !value : value}; }

  /// ¬this (free).
  Boolean negate() const {
    switch (kind) {
      case Kind::kConstant:
        return constant(!value);
      case Kind::kIs:
        return {Kind::kNot, !value, var};
      case Kind::kNot:
        break;
    }
    return {Kind::kIs, !value, var};
  }

  /// lc += coeff·this (boolean.rs `Boolean::lc`): a true constant adds coeff·ONE, a false one
  /// nothing, Not(v) adds coeff·ONE − coeff·v.
  void add_to(Lc& lc, const Fr& coeff) const {
    switch (kind) {
      case Kind::kConstant:
        if (value) lc.add(kOne, coeff);
        return;
      case Kind::kIs:
        lc.add(var, coeff);
        return;
      case Kind::kNot:
        lc.add(kOne, coeff).add(var, -coeff);
        return;
    }
  }
  void add_to(Lc& lc) const { add_to(lc, Fr::one()); }
  void sub_from(Lc& lc) const { add_to(lc, -Fr::one()); }
};

/// a ⊕ b with bellpepper's folding (boolean.rs `Boolean::xor`): a false constant returns the other
/// operand, a true one its negation; Is⊕Not = ¬(Is ⊕ underlying); Is⊕Is and Not⊕Not use
/// AllocatedBit::xor of the underlying bits (in that argument order).
template <class CS>
Boolean boolean_xor(CS& cs, const Boolean& a, const Boolean& b) {
  using K = Boolean::Kind;
  if (a.is_const(false)) return b;
  if (b.is_const(false)) return a;
  if (a.is_const(true)) return b.negate();
  if (b.is_const(true)) return a.negate();
  if (a.kind == K::kIs && b.kind == K::kNot) return boolean_xor(cs, a, b.negate()).negate();
  if (a.kind == K::kNot && b.kind == K::kIs) return boolean_xor(cs, b, a.negate()).negate();
  return Boolean::is(AllocatedBit::xor_(cs, a.bit(), b.bit()));
}

/// a ∧ b with bellpepper's folding (boolean.rs `Boolean::and`): false → false; true → the other
/// operand; Is∧Not → and_not(is, not); Not∧Not → nor; Is∧Is → and.
template <class CS>
Boolean boolean_and(CS& cs, const Boolean& a, const Boolean& b) {
  using K = Boolean::Kind;
  if (a.is_const(false) || b.is_const(false)) return Boolean::constant(false);
  if (a.is_const(true)) return b;
  if (b.is_const(true)) return a;
  if (a.kind == K::kIs && b.kind == K::kNot) return Boolean::is(AllocatedBit::and_not(cs, a.bit(), b.bit()));
  if (a.kind == K::kNot && b.kind == K::kIs) return Boolean::is(AllocatedBit::and_not(cs, b.bit(), a.bit()));
  if (a.kind == K::kNot && b.kind == K::kNot) return Boolean::is(AllocatedBit::nor(cs, a.bit(), b.bit()));
  return Boolean::is(AllocatedBit::and_(cs, a.bit(), b.bit()));
}

/// SHA-256's ch(a, b, c) = (a ∧ b) ⊕ (¬a ∧ c) (boolean.rs `Boolean::sha256_ch`), folding cases in
/// upstream's order: all constant; a = 0 → c; b = 0 → ¬a ∧ c; c = 0 → a ∧ b; c = 1 → ¬(a ∧ ¬b);
/// b = 1 → ¬(¬a ∧ ¬c); otherwise (a = 1 included) alloc ch and (b − c)·a = ch − c.
template <class CS>
Boolean sha256_ch(CS& cs, const Boolean& a, const Boolean& b, const Boolean& c) {
  const bool v = (a.value && b.value) != (!a.value && c.value);
  if (a.is_constant() && b.is_constant() && c.is_constant()) return Boolean::constant(v);
  if (a.is_const(false)) return c;
  if (b.is_const(false)) return boolean_and(cs, a.negate(), c);
  if (c.is_const(false)) return boolean_and(cs, a, b);
  if (c.is_const(true)) return boolean_and(cs, a, b.negate()).negate();
  if (b.is_const(true)) return boolean_and(cs, a.negate(), c.negate()).negate();
  AllocatedBit ch{cs.alloc_bit(v), v};
  cs.enforce([&](Lc& A, Lc& B, Lc& C) {
    b.add_to(A);
    c.sub_from(A);
    a.add_to(B);
    C.add(ch.var);
    c.sub_from(C);
  });
  return Boolean::is(ch);
}

/// SHA-256's maj(a, b, c) (boolean.rs `Boolean::sha256_maj`), folding cases in upstream's order:
/// all constant; a = 0 → b ∧ c; b = 0 → a ∧ c; c = 0 → a ∧ b; c = 1 → ¬(¬a ∧ ¬b);
/// b = 1 → ¬(¬a ∧ ¬c); a = 1 → ¬(¬b ∧ ¬c); otherwise alloc maj, bc = b ∧ c, then
/// (2bc − b − c)·a = bc − maj.
template <class CS>
Boolean sha256_maj(CS& cs, const Boolean& a, const Boolean& b, const Boolean& c) {
  const bool v = (int(a.value) + int(b.value) + int(c.value)) >= 2;
  if (a.is_constant() && b.is_constant() && c.is_constant()) return Boolean::constant(v);
  if (a.is_const(false)) return boolean_and(cs, b, c);
  if (b.is_const(false)) return boolean_and(cs, a, c);
  if (c.is_const(false)) return boolean_and(cs, a, b);
  if (c.is_const(true)) return boolean_and(cs, a.negate(), b.negate()).negate();
  if (b.is_const(true)) return boolean_and(cs, a.negate(), c.negate()).negate();
  if (a.is_const(true)) return boolean_and(cs, b.negate(), c.negate()).negate();
  AllocatedBit maj{cs.alloc_bit(v), v};
  const Boolean bc = boolean_and(cs, b, c);
  cs.enforce([&](Lc& A, Lc& B, Lc& C) {
    bc.add_to(A);
    bc.add_to(A);
    b.sub_from(A);
    c.sub_from(A);
    a.add_to(B);
    bc.add_to(C);
    C.sub(maj.var);
  });
  return Boolean::is(maj);
}

}  // namespace cuzk::circuits
