// Typed reads of small nlohmann JSON trees (one vanilla proof, or one top-level value of a C1) whose
// errors name the JSON path of the offending value. Internal to src/formats/c1.
#pragma once

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "formats/c1.hpp"

namespace cuzk::c1_detail {

using json = nlohmann::json;

/// A JSON path under construction, written like `vanilla_proofs.StackedDrg2KiBV1[0][1].comm_d_proofs`:
/// segments are appended while descending (key, index) and removed when the returned guard goes.
struct JsonPath {
  std::string s;
  /// Restores the path's length at the end of a scope.
  struct [[nodiscard]] Guard {
    JsonPath& p;
    size_t n;
    Guard(JsonPath& p_, size_t n_) : p(p_), n(n_) {}
    Guard(const Guard&) = delete;
    ~Guard() { p.s.resize(n); }
  };
  /// Appends ".k" (or "k" at the root).
  Guard key(std::string_view k);
  /// Appends "[i]".
  Guard index(size_t i);
};

/// Throws Error(kInvalidFile, "<source>: <path>: <what>"), or "<source>: <what>" for an empty path.
[[noreturn]] void fail(const std::string& source, const std::string& path, const std::string& what);

/// A JSON value as an error message names it: "an array of 3", "an object", "a string", "null",
/// "a boolean", the integer itself, or "the number 1.5".
std::string describe(const json& j);

/// The serde variant name of a MerkleProof kind: "Single", "Sub" or "Top".
const char* kind_name(MerkleProofKind k);

/// Whether all 32 bytes are zero.
bool is_zero(const Bytes32& b);

/// Typed reads with error paths; every failure throws Error(kInvalidFile) through fail() with the
/// reader's source and the path given.
class TreeReader {
 public:
  /// `source` (e.g. the file's path) prefixes every error; it must outlive the reader.
  explicit TreeReader(const std::string& source) : source_(source) {}

  /// Throws Error(kInvalidFile, "<source>: <p>: <what>").
  [[noreturn]] void fail(const JsonPath& p, const std::string& what) const;
  /// Throws unless `j` is an object.
  void expect_object(const json& j, const JsonPath& p) const;
  /// `j`, after throwing unless it is an array.
  const json& expect_array(const json& j, const JsonPath& p) const;
  /// The member `name` of object `obj` (whose path is p); throws "missing field '<name>'".
  const json& field(const json& obj, const char* name, const JsonPath& p) const;
  /// An unsigned integer ≤ max.
  uint64_t uint(const json& j, const JsonPath& p, uint64_t max) const;
  /// An array of 32 integers 0..255 (a serde `[u8; 32]`).
  Bytes32 bytes32(const json& j, JsonPath& p) const;
  /// A field element written as 32 little-endian bytes, < r.
  Fr fr(const json& j, JsonPath& p) const;
  /// An array of exactly `want` field elements; `what` names them in the count error.
  std::vector<Fr> fr_array(const json& j, JsonPath& p, size_t want, const char* what) const;

 protected:
  const std::string& source_;
};

}  // namespace cuzk::c1_detail
