// Inserting a node among its Merkle siblings by its index bits (rust-fil-proofs storage-proofs-core
// src/gadgets/insertion.rs): pick, select, and insert with upstream's hand-optimised sizes 2, 4, 8.
#pragma once

#include <span>
#include <vector>

#include "circuits/num.hpp"
#include "util/error.hpp"

namespace cuzk::circuits {

/// `cond ? a : b` (insertion.rs `pick`): alloc c, then (b − a)·cond = b − c. One constraint.
template <class CS>
AllocatedNum pick(CS& cs, const Boolean& cond, const AllocatedNum& a, const AllocatedNum& b) {
  AllocatedNum c = AllocatedNum::alloc(cs, [&] { return cond.value ? a.value : b.value; });
  cs.enforce([&](Lc& A, Lc& B, Lc& C) {
    A.add(b.var).sub(a.var);
    cond.add_to(B);
    C.add(b.var).sub(c.var);
  });
  return c;
}

/// from[n] with n = Σ bits[j]·2^j (insertion.rs `select`): a binary tree of picks, most significant
/// bit first; from.size() − 1 constraints. from.size() must be 2^bits.size().
template <class CS>
AllocatedNum select(CS& cs, std::span<const AllocatedNum> from, std::span<const Boolean> bits) {
  if (from.size() != (size_t{1} << bits.size()))
    throw Error(ErrorCode::kInvalidArgument, "select: " + std::to_string(from.size()) + " elements for " +
                                                 std::to_string(bits.size()) + " index bits");
  std::vector<AllocatedNum> state(from.begin(), from.end());
  size_t half = from.size() / 2;
  for (size_t i = bits.size(); i-- > 0;) {
    std::vector<AllocatedNum> next;
    next.reserve(half);
    for (size_t j = 0; j < half; j++) next.push_back(pick(cs, bits[i], state[half + j], state[j]));
    state = std::move(next);
    half /= 2;
  }
  return state[0];
}

/// `element` inserted among `elements` at position n = Σ bits[j]·2^j (insertion.rs `insert`);
/// elements.size() + 1 must be 2^bits.size(). Sizes 2, 4 and 8 use upstream's hand-made pick
/// networks (2, 8 and 22 constraints; size 8 needs unnegated allocated bits b0, b1); other sizes
/// select every position (size·(size − 1) constraints).
template <class CS>
std::vector<AllocatedNum> insert(CS& cs, const AllocatedNum& element, std::span<const Boolean> bits,
                                 std::span<const AllocatedNum> elements) {
  const size_t size = elements.size() + 1;
  if (size != (size_t{1} << bits.size()))
    throw Error(ErrorCode::kInvalidArgument, "insert: " + std::to_string(elements.size()) + " siblings for " +
                                                 std::to_string(bits.size()) + " index bits");
  const AllocatedNum& a = element;
  if (size == 2) return {pick(cs, bits[0], elements[0], a), pick(cs, bits[0], a, elements[0])};
  if (size == 4) {
    const Boolean &b0 = bits[0], &b1 = bits[1];
    const AllocatedNum &b = elements[0], &c = elements[1], &d = elements[2];
    AllocatedNum p0_x0 = pick(cs, b0, b, a);
    AllocatedNum p0 = pick(cs, b1, b, p0_x0);
    AllocatedNum p1_x0 = pick(cs, b0, a, b);
    AllocatedNum p1 = pick(cs, b1, c, p1_x0);
    AllocatedNum p2_x1 = pick(cs, b0, d, a);
    AllocatedNum p2 = pick(cs, b1, p2_x1, c);
    AllocatedNum p3_x1 = pick(cs, b0, a, d);
    AllocatedNum p3 = pick(cs, b1, p3_x1, d);
    return {p0, p1, p2, p3};
  }
  if (size == 8) {
    const Boolean &b0 = bits[0], &b1 = bits[1], &b2 = bits[2];
    if (b0.kind != Boolean::Kind::kIs || b1.kind != Boolean::Kind::kIs)
      throw Error(ErrorCode::kInvalidArgument,
                  "insert: the low index bits of an 8-way insert must be allocated");
    const AllocatedNum &b = elements[0], &c = elements[1], &d = elements[2], &e = elements[3],
                       &f = elements[4], &g = elements[5], &h = elements[6];
    const Boolean b0_nor_b1 = Boolean::is(AllocatedBit::nor(cs, b0.bit(), b1.bit()));
    const Boolean b0_and_b1 = Boolean::is(AllocatedBit::and_(cs, b0.bit(), b1.bit()));
    AllocatedNum p0_xx0 = pick(cs, b0_nor_b1, a, b);
    AllocatedNum p0 = pick(cs, b2, b, p0_xx0);
    AllocatedNum p1_x00 = pick(cs, b0, a, b);
    AllocatedNum p1_xx0 = pick(cs, b1, c, p1_x00);
    AllocatedNum p1 = pick(cs, b2, c, p1_xx0);
    AllocatedNum p2_x10 = pick(cs, b0, d, a);
    AllocatedNum p2_xx0 = pick(cs, b1, p2_x10, c);
    AllocatedNum p2 = pick(cs, b2, d, p2_xx0);
    AllocatedNum p3_xx0 = pick(cs, b0_and_b1, a, d);
    AllocatedNum p3 = pick(cs, b2, e, p3_xx0);
    AllocatedNum p4_xx1 = pick(cs, b0_nor_b1, a, f);
    AllocatedNum p4 = pick(cs, b2, p4_xx1, e);
    AllocatedNum p5_x01 = pick(cs, b0, a, f);
    AllocatedNum p5_xx1 = pick(cs, b1, g, p5_x01);
    AllocatedNum p5 = pick(cs, b2, p5_xx1, f);
    AllocatedNum p6_x11 = pick(cs, b0, h, a);
    AllocatedNum p6_xx1 = pick(cs, b1, p6_x11, g);
    AllocatedNum p6 = pick(cs, b2, p6_xx1, g);
    AllocatedNum p7_xx1 = pick(cs, b0_and_b1, a, h);
    AllocatedNum p7 = pick(cs, b2, p7_xx1, h);
    return {p0, p1, p2, p3, p4, p5, p6, p7};
  }
  // General case: position pos takes potential_results[index][pos] for the selected index.
  std::vector<AllocatedNum> out;
  std::vector<AllocatedNum> choices(size);
  for (size_t pos = 0; pos < size; pos++) {
    for (size_t index = 0; index < size; index++)
      choices[index] = pos < index ? elements[pos] : pos == index ? element : elements[pos - 1];
    out.push_back(select(cs, std::span<const AllocatedNum>(choices), bits));
  }
  return out;
}

}  // namespace cuzk::circuits
