// read_c1 (formats/c1.hpp): a large raw C1 is read on several threads (formats/c1/parallel.hpp), else a
// raw C1 is streamed through the SAX reader; Curio's envelope is parsed
// with its Phase1Out skipped, then Phase1Out is decoded and parsed in one pass.
#include <algorithm>
#include <nlohmann/json.hpp>
#include <thread>

#include "formats/c1.hpp"
#include "formats/c1/envelope.hpp"
#include "formats/c1/parallel.hpp"
#include "formats/c1/sax.hpp"

namespace cuzk {

using c1_detail::C1Sax;
using c1_detail::SkipIter;

namespace {
/// A raw C1 from this size on is read on several threads first (c1_detail::read_c1_parallel): a 32 GiB
/// sector's C1 is 37.5 MB, ~0.9 s serially on a 16-core host (docs/PERFORMANCE.md §32).
constexpr size_t kParallelBytes = size_t{1} << 20;
/// At most this many threads a read (a daemon may read several C1s at once).
constexpr unsigned kMaxThreads = 8;
}  // namespace

C1Output read_c1(std::span<const uint8_t> bytes, const std::string& source) {
  const char* b = reinterpret_cast<const char*>(bytes.data());
  const auto phase1_out = c1_detail::find_phase1_out(std::string_view(b, bytes.size()));
  if (!phase1_out && bytes.size() >= kParallelBytes)
    if (auto c1 =
            c1_detail::read_c1_parallel(std::string_view(b, bytes.size()), source,
                                        std::clamp(std::thread::hardware_concurrency(), 1u, kMaxThreads)))
      return std::move(*c1);
  C1Sax sax(source, true);
  if (const auto& r = phase1_out) {
    // Curio's envelope: parse it with the (large) Phase1Out string skipped, then decode and parse
    // that string in one pass.
    sax.set_phase1_out(b + r->first, b + r->second, r->first);
    const SkipIter::Ranges skip{{b + r->first, b + r->second}};
    nlohmann::json::sax_parse(SkipIter(b, &skip), SkipIter(b + bytes.size(), &skip), &sax);
  } else {
    nlohmann::json::sax_parse(b, b + bytes.size(), &sax);
  }
  return sax.has_phase1_out() ? c1_detail::read_envelope(sax, source) : sax.finish();
}

}  // namespace cuzk
