// What the libFuzzer targets of fuzz/ (scripts/fuzz.sh) share: what counts as a finding. A parser may
// refuse its input only with a cuzk::Error (which names the input and the problem); any other exception,
// a crash, a sanitizer report, a leak, a timeout or a failed property below is a finding, and libFuzzer
// keeps the input that caused it.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <exception>

#include "ec/curves.hpp"
#include "util/error.hpp"

namespace cuzk::fuzz {

/// Ends the run with a finding: prints `what` and aborts (libFuzzer saves the input as crash-…).
[[noreturn]] inline void finding(const char* what) {
  std::fprintf(stderr, "FINDING: %s\n", what);
  std::abort();
}

/// Runs parse(). True when it returned, false when it threw cuzk::Error (the expected refusal of bad
/// input); any other exception is a finding.
template <class F>
bool accepts(F&& parse) {
  try {
    parse();
    return true;
  } catch (const Error&) {
    return false;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "FINDING: not a cuzk::Error: %s\n", e.what());
    std::abort();
  }
}

/// An accepted point must be on its curve and in the order-r subgroup (∞ included), checked here by the
/// reference r·P test of ec/curves.hpp, independently of the decoder's own (endomorphism) check.
template <class F>
void expect_in_group(const Affine<F>& p, const char* what) {
  if (!p.is_inf() && (!is_on_curve(p) || !is_in_subgroup(p))) finding(what);
}

/// expect_in_group for the first `limit` points of a vector (r·P costs ~0.2 ms a point).
template <class V>
void expect_all_in_group(const V& points, const char* what, size_t limit = 32) {
  for (size_t i = 0; i < points.size() && i < limit; i++) expect_in_group(points[i], what);
}

}  // namespace cuzk::fuzz
