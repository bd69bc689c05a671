// The streaming C1 reader: an nlohmann SAX handler that walks the top level and vanilla_proofs itself
// and builds a JSON tree only for one top-level value or one vanilla proof at a time, which it hands to
// the validation (formats/c1/validate.hpp). Internal to src/formats/c1.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "formats/c1.hpp"
#include "formats/c1/dom_builder.hpp"
#include "formats/c1/json_tree.hpp"
#include "formats/c1/validate.hpp"

namespace cuzk::c1_detail {

/// The SAX handler of one C1 JSON text (raw, or Curio's envelope when `allow_envelope`). Every error
/// throws Error(kInvalidFile, "<source>: <JSON path>: …") from inside the parse.
class C1Sax {
 public:
  /// `source` prefixes every error and must outlive the handler; `allow_envelope` accepts Curio's
  /// envelope fields (Phase1Out, SectorNum, SectorSize) at the top level.
  C1Sax(const std::string& source, bool allow_envelope)
      : source_(source), allow_envelope_(allow_envelope), tree_(source) {}
  /// The Phase1Out string lies at [begin, end) of the input, `offset` bytes in, and the parser sees it
  /// as "" (envelope.hpp SkipIter).
  void set_phase1_out(const char* begin, const char* end, size_t offset);
  /// The challenges' vanilla proofs were read ahead (read_c1_parallel), in document order, and the
  /// parser sees each as {}: the handler takes them in turn and checks their roots in order. Throws
  /// if a challenge's object is not empty or there are more challenges than proofs read.
  void set_read_ahead(std::vector<C1VanillaProof>* proofs) { ahead_ = proofs; }
  /// How many of the proofs read ahead were taken.
  size_t read_ahead_taken() const { return ahead_taken_; }

  // nlohmann SAX interface.
  bool null() { return scalar(json(nullptr)); }
  bool boolean(bool b) { return scalar(json(b)); }
  bool number_integer(int64_t v) { return scalar(json(v)); }
  bool number_unsigned(uint64_t v) { return scalar(json(v)); }
  bool number_float(double v, const std::string&) { return scalar(json(v)); }
  bool binary(json::binary_t&) { return scalar(json()); }  // not produced by JSON text
  bool string(std::string& s);
  bool start_object(size_t);
  bool start_array(size_t);
  bool key(std::string& k);
  bool end_object();
  bool end_array();
  bool parse_error(size_t pos, const std::string&, const nlohmann::detail::exception& e);

  /// After a successful parse of a raw C1: the C1, validated (check_c1).
  C1Output finish();

  /// After a successful parse: whether the top level held a Phase1Out string (an envelope).
  bool has_phase1_out() const { return have_phase1_out_; }
  /// The top-level keys seen.
  const std::set<std::string>& top_keys() const { return top_keys_; }
  /// The Phase1Out string's contents (base64, escape-free), in the input or the lexer's copy.
  std::string_view phase1_out() const { return {phase1_begin_, (size_t)(phase1_end_ - phase1_begin_)}; }
  /// Frees the lexer's copy of Phase1Out, if one was taken; phase1_out() is then invalid.
  void release_phase1_out() { std::string().swap(phase1_out_); }
  /// The envelope's SectorNum and SectorSize (0 if absent).
  uint64_t sector_num() const { return sector_num_; }
  uint64_t sector_size() const { return sector_size_; }

 private:
  enum class St { kStart, kTop, kTopValue, kVp, kVpValue, kParts, kChallenges, kDone };

  [[noreturn]] void fail(const std::string& path, const std::string& what) const {
    c1_detail::fail(source_, path, what);
  }
  std::string where() const;
  bool unexpected(const char* found);
  bool scalar(json&& v);
  void dispatch();

  const std::string& source_;
  bool allow_envelope_;
  TreeReader tree_;
  St st_ = St::kStart;
  std::set<std::string> top_keys_;
  std::string top_key_;
  DomBuilder dom_;
  circuits::StackedShape shape_;
  std::optional<ProofReader> proofs_;
  C1Output out_;
  std::string phase1_out_;  // the lexer's copy of Phase1Out, when it was not located in the input
  const char *phase1_begin_ = nullptr, *phase1_end_ = nullptr;
  std::vector<C1VanillaProof>* ahead_ = nullptr;
  size_t ahead_taken_ = 0;
  size_t skipped_at_ = 0, skipped_ = 0;
  bool have_phase1_out_ = false;
  uint64_t sector_num_ = 0, sector_size_ = 0;
};

}  // namespace cuzk::c1_detail
