#include "formats/c1/envelope.hpp"

#include "formats/c1/base64.hpp"
#include "util/error.hpp"

namespace cuzk::c1_detail {

std::optional<std::pair<size_t, size_t>> find_phase1_out(std::string_view b) {
  size_t i = 0;
  const size_t n = b.size();
  auto ws = [&] {
    while (i < n && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r')) i++;
  };
  auto skip_string = [&] {  // at '"'
    for (i++; i < n && b[i] != '"'; i++)
      if (b[i] == '\\') i++;
    if (i >= n) return false;
    i++;
    return true;
  };
  auto skip_value = [&] {
    ws();
    if (i >= n) return false;
    if (b[i] == '"') return skip_string();
    if (b[i] == '{' || b[i] == '[') {
      for (int depth = 0; i < n;) {
        const char c = b[i];
        if (c == '"') {
          if (!skip_string()) return false;
          continue;
        }
        if (c == '{' || c == '[') depth++;
        if ((c == '}' || c == ']') && --depth == 0) {
          i++;
          return true;
        }
        i++;
      }
      return false;
    }
    while (i < n && b[i] != ',' && b[i] != '}') i++;
    return true;
  };
  ws();
  if (i >= n || b[i] != '{') return std::nullopt;
  i++;
  for (;;) {
    ws();
    if (i >= n || b[i] != '"') return std::nullopt;
    const size_t k0 = i + 1;
    if (!skip_string()) return std::nullopt;
    const std::string_view key = b.substr(k0, i - 1 - k0);
    ws();
    if (i >= n || b[i] != ':') return std::nullopt;
    i++;
    ws();
    if (key == "Phase1Out") {
      if (i >= n || b[i] != '"') return std::nullopt;
      size_t j = i + 1;
      while (j < n && b[j] != '"' && b[j] != '\\') j++;
      if (j >= n || b[j] != '"') return std::nullopt;
      return std::pair{i + 1, j};
    }
    if (key == "registered_proof" || key == "vanilla_proofs" || key == "comm_r" || key == "comm_d")
      return std::nullopt;
    if (!skip_value()) return std::nullopt;
    ws();
    if (i >= n || b[i] != ',') return std::nullopt;
    i++;
  }
}

C1Output read_envelope(C1Sax& outer, const std::string& source) {
  const std::set<std::string>& keys = outer.top_keys();
  for (const char* k :
       {"registered_proof", "vanilla_proofs", "comm_r", "comm_d", "replica_id", "seed", "ticket"})
    if (keys.count(k))
      fail(source, k, "a C1 field next to Phase1Out: neither a C1 output nor Curio's envelope");
  for (const char* k : {"SectorNum", "SectorSize"})
    if (!keys.count(k)) fail(source, "", std::string("Curio envelope: missing field '") + k + "'");
  const std::string inner_source = source + ": Phase1Out";
  C1Sax inner(inner_source, false);
  // The base64 is checked first (a JSON error must not mask a base64 one), then decoded while the
  // inner JSON is parsed: the decoded JSON is never held.
  const std::string_view b64 = outer.phase1_out();
  const char *begin = b64.data(), *end = b64.data() + b64.size();
  Base64Iter::check(begin, end, inner_source);
  nlohmann::json::sax_parse(Base64Iter(begin, end, &inner_source), Base64Iter(), &inner);
  outer.release_phase1_out();
  C1Output c1 = inner.finish();
  const uint64_t sector_size = outer.sector_size();
  if (sector_size != c1.registered_proof.sector_size)
    fail(source, "SectorSize",
         std::to_string(sector_size) + " differs from the sector size of " +
             std::string(c1.registered_proof.name) + " (" + std::to_string(c1.registered_proof.sector_size) +
             ")");
  c1.envelope = C1Envelope{outer.sector_num(), sector_size};
  return c1;
}

}  // namespace cuzk::c1_detail
