// MultiEq: many small equalities Σ lhs = Σ rhs packed into few constraints (bellpepper
// crates/bellpepper/src/gadgets/multieq.rs). POREP_CIRCUIT.md §3 "MultiEq".
#pragma once

#include <array>
#include <cstddef>
#include <exception>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>

#include "circuits/cs.hpp"
#include "util/error.hpp"

namespace cuzk::circuits {

/// The powers 2^0 … 2^255 as field elements (coefficients of bit decompositions shifted into a MultiEq row).
inline const std::array<Fr, 256>& pow2_table() {
  static const std::array<Fr, 256> table = [] {
    std::array<Fr, 256> t;
    t[0] = Fr::one();
    for (size_t i = 1; i < t.size(); i++) t[i] = t[i - 1].dbl();
    return t;
  }();
  return table;
}

/// Accumulates equalities lhs_k = rhs_k, each known to hold over the integers with both sides below
/// 2^(num_bits_k), as one equality Σ 2^(s_k)·lhs_k = Σ 2^(s_k)·rhs_k with s_k the bits used before it
/// (multieq.rs `MultiEq`). A row is emitted as A = lhs, B = ONE, C = rhs:
///  - by enforce_equal, before adding a term, when 254 (Fr::CAPACITY) ≤ bits_used + num_bits;
///  - by finish(), when bits are pending (upstream's `Drop`). The destructor calls finish() too, unless an
///    exception is unwinding; gadgets call finish() explicitly where upstream's MultiEq is dropped.
/// The accumulated linear combinations exist in the recording modes only.
template <class CS>
class MultiEq {
 public:
  /// Fr::CAPACITY: the bits one row may hold.
  static constexpr size_t kCapacity = 254;

  /// Wraps `cs`, which must outlive this object.
  explicit MultiEq(CS& cs) : cs_(cs) {}
  MultiEq(const MultiEq&) = delete;
  MultiEq& operator=(const MultiEq&) = delete;
  ~MultiEq() {
    if (std::uncaught_exceptions() == 0) finish();
  }

  /// The wrapped builder (allocations and ordinary constraints go straight to it, as upstream's
  /// MultiEq forwards them).
  CS& cs() { return cs_; }

  /// Adds the equality lhs = rhs of two values below 2^num_bits (multieq.rs `enforce_equal`), first
  /// flushing the pending row when it would reach the capacity. `fill(Lc& lhs, Lc& rhs, size_t shift)`
  /// adds 2^shift·lhs and 2^shift·rhs to the accumulators (called in the recording modes only;
  /// pow2_table()[shift + i] is the coefficient of a term of weight 2^i). Throws
  /// Error(kInvalidArgument) when num_bits alone does not fit a row (upstream asserts).
  template <class F>
  void enforce_equal_with(size_t num_bits, F&& fill) {
    if (kCapacity <= bits_used_ + num_bits) accumulate();
    if (kCapacity <= bits_used_ + num_bits)
      throw Error(ErrorCode::kInvalidArgument,
                  "MultiEq::enforce_equal: " + std::to_string(num_bits) + " bits exceed a row's capacity");
    if constexpr (CS::kRecord) fill(lhs_, rhs_, bits_used_);
    bits_used_ += num_bits;
  }

  /// enforce_equal with ready linear combinations: adds 2^bits_used·lhs and 2^bits_used·rhs.
  void enforce_equal(size_t num_bits, const Lc& lhs, const Lc& rhs) {
    enforce_equal_with(num_bits, [&](Lc& l, Lc& r, size_t shift) {
      const Fr& c = pow2_table()[shift];
      l.add(lhs, c);
      r.add(rhs, c);
    });
  }

  /// Emits the pending row, if any bits are pending (upstream's `Drop`). Idempotent.
  void finish() {
    if (bits_used_ > 0) accumulate();
  }

  /// Bits accumulated in the pending row.
  size_t bits_used() const { return bits_used_; }
  /// Rows emitted so far.
  size_t rows_emitted() const { return ops_; }

 private:
  // One row: A = lhs, B = ONE, C = rhs; then start a new one (multieq.rs `accumulate`).
  void accumulate() {
    cs_.enforce([&](Lc& a, Lc& b, Lc& c) {
      if constexpr (CS::kRecord) {
        std::swap(a, lhs_);
        std::swap(c, rhs_);
        lhs_.clear();
        rhs_.clear();
      }
      b.add(kOne);
    });
    bits_used_ = 0;
    ops_++;
  }

  CS& cs_;
  size_t bits_used_ = 0;
  size_t ops_ = 0;
  [[no_unique_address]] std::conditional_t<CS::kRecord, Lc, std::monostate> lhs_{}, rhs_{};
};

}  // namespace cuzk::circuits
