// Curio's envelope around a C1 ({"SectorNum", "Phase1Out": base64(C1 JSON), "SectorSize"}; curio
// lib/proof/porep_vproof_test.go): locating Phase1Out in the input so the outer parse skips it, then
// decoding and parsing it in one pass. Internal to src/formats/c1.
#pragma once

#include <cstddef>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "formats/c1.hpp"
#include "formats/c1/sax.hpp"

namespace cuzk::c1_detail {

/// Where the string value of a top-level "Phase1Out" lies in `b` ([first, second) between the quotes)
/// if `b` looks like Curio's envelope with an escape-free Phase1Out; nullopt otherwise, and at once for
/// a raw C1 (its first key is a C1 field). A heuristic pre-scan only: the SAX parse validates.
std::optional<std::pair<size_t, size_t>> find_phase1_out(std::string_view b);

/// Iterates over the input but jumps over each of the ranges [from, to) of `skip` (in increasing order,
/// disjoint): the Phase1Out string's contents, or the insides of the objects read ahead
/// (read_c1_parallel). `skip` must outlive the iterator.
class SkipIter {
 public:
  using iterator_category = std::input_iterator_tag;
  using value_type = char;
  using difference_type = std::ptrdiff_t;
  using pointer = const char*;
  using reference = const char&;
  using Ranges = std::vector<std::pair<const char*, const char*>>;

  SkipIter(const char* p, const Ranges* skip) : p_(p), skip_(skip) {}
  reference operator*() const { return *p_; }
  SkipIter& operator++() {
    ++p_;
    while (next_ < skip_->size() && p_ == (*skip_)[next_].first) p_ = (*skip_)[next_++].second;
    return *this;
  }
  SkipIter operator++(int) {
    SkipIter t = *this;
    ++*this;
    return t;
  }
  bool operator==(const SkipIter& o) const { return p_ == o.p_; }

 private:
  const char* p_;
  const Ranges* skip_;
  size_t next_ = 0;
};

/// The C1 inside an envelope whose outer JSON `outer` (allow_envelope) has parsed: no C1 field next to
/// Phase1Out, SectorNum and SectorSize present, Phase1Out valid base64 (checked before its JSON), its
/// C1 read and validated as read_c1 does with "<source>: Phase1Out" as the source, SectorSize equal to
/// the registered proof's. Sets C1Output::envelope. Throws Error(kInvalidFile, "<source>: …").
C1Output read_envelope(C1Sax& outer, const std::string& source);

}  // namespace cuzk::c1_detail
