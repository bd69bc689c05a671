// The values of one of an Assignment's vectors (aux, a, b, c): owned, or borrowed from the caller. The
// SupraSeal drop-in (src/capi/supraseal.cpp) proves from the caller's buffers this way, as SupraSeal C2
// does, instead of copying gigabytes into new vectors on every call.
#pragma once

#include <algorithm>
#include <cstddef>
#include <span>
#include <utility>

#include "ff/bls12_381.hpp"
#include "util/huge_alloc.hpp"

namespace cuzk {

/// A read-only vector of Fr (Montgomery form) that owns its values (a BigVector: the default, and what
/// every writer makes) or borrows n values at a caller's pointer. A borrowed buffer is never written and
/// must stay valid and unchanged for as long as anything reads it; for an Assignment that is until
/// prove_start returns (backends read borrowed values only inside start(), and prove_start forgets them).
/// Copies of a borrowed Scalars borrow the same buffer.
class Scalars {
 public:
  Scalars() = default;
  /// Owns v (implicit, so that `asg.a = std::move(vec)` reads as before).
  Scalars(BigVector<Fr> v) : own_(std::move(v)) {}  // NOLINT(google-explicit-constructor)

  /// Borrows p[0..n) (p may be NULL only when n is 0).
  static Scalars borrow(const Fr* p, size_t n) {
    Scalars s;
    s.ext_ = p;
    s.n_ = n;
    s.borrowed_ = true;
    return s;
  }

  /// Whether the values are a caller's buffer.
  bool borrowed() const { return borrowed_; }
  const Fr* data() const { return borrowed_ ? ext_ : own_.data(); }
  size_t size() const { return borrowed_ ? n_ : own_.size(); }
  bool empty() const { return size() == 0; }
  const Fr& operator[](size_t i) const { return data()[i]; }
  const Fr* begin() const { return data(); }
  const Fr* end() const { return data() + size(); }
  std::span<const Fr> span() const { return {data(), size()}; }
  operator std::span<const Fr>() const { return span(); }  // NOLINT(google-explicit-constructor)

  /// The owned vector, for writing. A borrowed Scalars first forgets the caller's buffer (and is then
  /// empty): the caller's memory is never written.
  BigVector<Fr>& vec() {
    if (borrowed_) *this = Scalars();
    return own_;
  }

  /// Equal values (owned or borrowed alike).
  friend bool operator==(const Scalars& x, const Scalars& y) {
    return std::ranges::equal(x.span(), y.span());
  }

 private:
  BigVector<Fr> own_;
  const Fr* ext_ = nullptr;
  size_t n_ = 0;
  bool borrowed_ = false;
};

}  // namespace cuzk
