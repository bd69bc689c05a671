#include "formats/c1/json_tree.hpp"

#include "ff/bytes.hpp"
#include "util/error.hpp"

namespace cuzk::c1_detail {

JsonPath::Guard JsonPath::key(std::string_view k) {
  size_t n = s.size();
  if (n) s += '.';
  s += k;
  return Guard(*this, n);
}

JsonPath::Guard JsonPath::index(size_t i) {
  size_t n = s.size();
  s += '[';
  s += std::to_string(i);
  s += ']';
  return Guard(*this, n);
}

void fail(const std::string& source, const std::string& path, const std::string& what) {
  throw Error(ErrorCode::kInvalidFile, source + ": " + (path.empty() ? "" : path + ": ") + what);
}

std::string describe(const json& j) {
  if (j.is_array()) return "an array of " + std::to_string(j.size());
  if (j.is_object()) return "an object";
  if (j.is_string()) return "a string";
  if (j.is_null()) return "null";
  if (j.is_boolean()) return "a boolean";
  if (j.is_number_unsigned()) return std::to_string(j.get<uint64_t>());
  if (j.is_number_integer()) return std::to_string(j.get<int64_t>());
  return "the number " + j.dump();
}

const char* kind_name(MerkleProofKind k) {
  return k == MerkleProofKind::kSingle ? "Single" : k == MerkleProofKind::kSub ? "Sub" : "Top";
}

bool is_zero(const Bytes32& b) {
  for (uint8_t x : b)
    if (x) return false;
  return true;
}

void TreeReader::fail(const JsonPath& p, const std::string& what) const {
  c1_detail::fail(source_, p.s, what);
}

void TreeReader::expect_object(const json& j, const JsonPath& p) const {
  if (!j.is_object()) fail(p, "expected an object, found " + describe(j));
}

const json& TreeReader::expect_array(const json& j, const JsonPath& p) const {
  if (!j.is_array()) fail(p, "expected an array, found " + describe(j));
  return j;
}

const json& TreeReader::field(const json& obj, const char* name, const JsonPath& p) const {
  auto it = obj.find(name);
  if (it == obj.end()) fail(p, std::string("missing field '") + name + "'");
  return *it;
}

uint64_t TreeReader::uint(const json& j, const JsonPath& p, uint64_t max) const {
  if (!j.is_number_unsigned()) fail(p, "expected an unsigned integer, found " + describe(j));
  uint64_t v = j.get<uint64_t>();
  if (v > max) fail(p, std::to_string(v) + " is out of range (at most " + std::to_string(max) + ")");
  return v;
}

Bytes32 TreeReader::bytes32(const json& j, JsonPath& p) const {
  if (!j.is_array() || j.size() != 32)
    fail(p, "expected an array of 32 integers 0..255, found " + describe(j));
  Bytes32 b;
  for (size_t i = 0; i < 32; i++) {
    const json& e = j[i];
    if (!e.is_number_unsigned() || e.get<uint64_t>() > 255) {
      auto g = p.index(i);
      fail(p, "expected a byte 0..255, found " + describe(e));
    }
    b[i] = (uint8_t)e.get<uint64_t>();
  }
  return b;
}

Fr TreeReader::fr(const json& j, JsonPath& p) const {
  Bytes32 b = bytes32(j, p);
  Fr f;
  if (!from_bytes_le(b.data(), f))
    fail(p, "not a field element: the 32-byte little-endian value is ≥ r (BLS12-381's scalar field)");
  return f;
}

std::vector<Fr> TreeReader::fr_array(const json& j, JsonPath& p, size_t want, const char* what) const {
  expect_array(j, p);
  if (j.size() != want) fail(p, std::to_string(j.size()) + " " + what + "; expected " + std::to_string(want));
  std::vector<Fr> v(want);
  for (size_t i = 0; i < want; i++) {
    auto g = p.index(i);
    v[i] = fr(j[i], p);
  }
  return v;
}

}  // namespace cuzk::c1_detail
