#include "formats/c1/parallel.hpp"

#include <nlohmann/json.hpp>

#include "formats/c1/dom_builder.hpp"
#include "formats/c1/envelope.hpp"
#include "formats/c1/sax.hpp"
#include "formats/c1/validate.hpp"
#include "util/error.hpp"
#include "util/thread_pool.hpp"

namespace cuzk::c1_detail {

namespace {

/// The index just past the string that starts at t[i] == '"', or npos if it does not end.
size_t string_end(std::string_view t, size_t i) {
  for (size_t j = i + 1; j < t.size(); j++) {
    if (t[j] == '\\')
      j++;
    else if (t[j] == '"')
      return j + 1;
  }
  return std::string_view::npos;
}

/// Whether the string ending before t[i] is a key: the next non-blank byte is ':'.
bool is_key(std::string_view t, size_t i) {
  while (i < t.size() && (t[i] == ' ' || t[i] == '\n' || t[i] == '\r' || t[i] == '\t')) i++;
  return i < t.size() && t[i] == ':';
}

/// Builds one object's JSON tree as the serial reader does (DomBuilder: a duplicate key is an error, where
/// json::parse would keep the last value); sax_parse returns false on a duplicate or malformed JSON.
class TreeSax {
 public:
  TreeSax() { dom_.begin(); }
  bool null() { return add(json(nullptr)); }
  bool boolean(bool b) { return add(json(b)); }
  bool number_integer(int64_t v) { return add(json(v)); }
  bool number_unsigned(uint64_t v) { return add(json(v)); }
  bool number_float(double v, const std::string&) { return add(json(v)); }
  bool binary(json::binary_t&) { return add(json()); }
  bool string(std::string& s) { return add(json(std::move(s))); }
  bool start_object(size_t) { return dom_.start(json::object()), true; }
  bool start_array(size_t) { return dom_.start(json::array()), true; }
  bool key(std::string& k) { return dom_.key(std::move(k)); }
  bool end_object() { return dom_.end(), true; }
  bool end_array() { return dom_.end(), true; }
  bool parse_error(size_t, const std::string&, const nlohmann::detail::exception&) { return false; }
  json take() { return dom_.take(); }

 private:
  bool add(json&& v) { return dom_.value(std::move(v)), true; }
  DomBuilder dom_;
};

}  // namespace

std::optional<ChallengeRanges> find_challenge_objects(std::string_view t) {
  ChallengeRanges r;
  // depth 1: the top object; 2: vanilla_proofs' object; 3: the partitions; 4: a partition; 5: a challenge
  int depth = 0, vp_depth = 0, vp_seen = 0;
  std::string_view last_key;
  size_t open = 0;
  for (size_t i = 0; i < t.size();) {
    const char c = t[i];
    if (c == '"') {
      const size_t e = string_end(t, i);
      if (e == std::string_view::npos) return std::nullopt;
      const std::string_view s = t.substr(i + 1, e - i - 2);
      if (is_key(t, e)) {
        if (depth == 1) last_key = s;
        if (vp_depth && depth == 2) {
          if (!r.shape_key.empty()) return std::nullopt;
          r.shape_key = std::string(s);
        }
      }
      i = e;
      continue;
    }
    if (c == '{' || c == '[') {
      depth++;
      if (depth == 2 && last_key == "vanilla_proofs") {
        if (c != '{' || vp_seen++) return std::nullopt;
        vp_depth = 2;
      } else if (vp_depth && ((depth == 3 || depth == 4) && c != '[')) {
        return std::nullopt;
      } else if (vp_depth && depth == 5) {
        if (c != '{') return std::nullopt;
        open = i;
      }
    } else if (c == '}' || c == ']') {
      if (vp_depth && depth == 5) r.objects.emplace_back(open, i);
      if (vp_depth && depth == 2) vp_depth = 0;
      if (--depth < 0) return std::nullopt;
      if (depth == 1) last_key = {};
    }
    i++;
  }
  if (depth != 0 || !vp_seen || r.shape_key.empty() || r.objects.empty()) return std::nullopt;
  return r;
}

std::optional<C1Output> read_c1_parallel(std::string_view text, const std::string& source, unsigned threads) {
  const std::optional<ChallengeRanges> ranges = find_challenge_objects(text);
  if (!ranges) return std::nullopt;
  const RegisteredSealProof* rp = nullptr;
  for (const RegisteredSealProof& p : registered_seal_proofs())
    if (ranges->shape_key == p.shape_key()) rp = &p;
  if (!rp) return std::nullopt;
  const circuits::StackedShape shape = circuits::stacked_shape(std::string(rp->size));
  try {
    std::vector<C1VanillaProof> proofs(ranges->objects.size());
    ThreadPool pool(threads);
    pool.parallel_for(
        proofs.size(),
        [&](size_t begin, size_t end) {
          const ProofReader reader(source, shape);
          for (size_t k = begin; k < end; k++) {
            const auto [first, last] = ranges->objects[k];
            TreeSax tree;
            if (!json::sax_parse(text.data() + first, text.data() + last + 1, &tree))
              throw Error(ErrorCode::kInvalidFile, "malformed or duplicate");  // the serial read words it
            JsonPath p;
            proofs[k] = reader.read(tree.take(), p);
          }
        },
        1);
    C1Sax sax(source, true);  // as read_c1's: envelope fields read (and an envelope left to it)
    sax.set_read_ahead(&proofs);
    const char* b = text.data();
    SkipIter::Ranges skip;  // each object's inside: the parser sees {}
    for (const auto& [first, last] : ranges->objects) skip.emplace_back(b + first + 1, b + last);
    json::sax_parse(SkipIter(b, &skip), SkipIter(b + text.size(), &skip), &sax);
    if (sax.has_phase1_out() || sax.read_ahead_taken() != proofs.size()) return std::nullopt;
    return sax.finish();
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

}  // namespace cuzk::c1_detail
