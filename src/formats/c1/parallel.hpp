// read_c1's fast path for a raw C1: the challenges' vanilla proofs (nearly all of a C1's text: 37.5 MB
// for a 32 GiB sector) parsed and read on several threads. Internal to src/formats/c1.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "formats/c1.hpp"

namespace cuzk::c1_detail {

/// The byte ranges [first, second] (from '{' to its '}') of the objects inside
/// vanilla_proofs.<shape key>[i][j] of a raw C1's text, in document order, and the shape key: a
/// structural pre-scan (strings and escapes skipped, brackets matched) that checks nothing else.
/// nullopt where the text is not so shaped (no vanilla_proofs object, not one key in it, unbalanced).
struct ChallengeRanges {
  std::string shape_key;
  std::vector<std::pair<size_t, size_t>> objects;
};
std::optional<ChallengeRanges> find_challenge_objects(std::string_view text);

/// read_c1 of a raw C1 with the vanilla proofs located by find_challenge_objects, each parsed and read
/// (ProofReader::read) on `threads` threads (0: the hardware's), then the rest of the text parsed as
/// read_c1 does with each of them seen as {}, their roots checked in document order. nullopt where the
/// pre-scan finds no such shape or anything fails: read_c1 then reads the text serially, which gives
/// the same C1 or the error, so this path never decides an error's wording.
std::optional<C1Output> read_c1_parallel(std::string_view text, const std::string& source, unsigned threads);

}  // namespace cuzk::c1_detail
