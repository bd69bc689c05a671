#include "formats/snarkjs_json.hpp"

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "formats/atomic_file.hpp"
#include "formats/decimal.hpp"
#include "util/error.hpp"
#include "util/plural.hpp"

namespace cuzk {
namespace {

using ojson = nlohmann::ordered_json;  // keeps snarkjs's key order when writing
using json = nlohmann::json;

constexpr const char* kCurve = "bls12381";
constexpr const char* kProtocol = "groth16";

// ---- writing ------------------------------------------------------------------------------------

/// snarkjs's JSON.stringify(x, null, 1) and nlohmann's dump(1) agree on every construct these files
/// use (objects, arrays, ASCII strings, small integers): one space per level, ": " after keys, "[]"
/// for empty arrays, no trailing newline.
std::string dump(const ojson& j) { return j.dump(1); }

template <class F>
ojson dec(const F& a) {
  return to_decimal(a);
}
ojson g1_json(const G1Affine& p) {
  if (p.is_inf()) return ojson::array({"0", "1", "0"});
  return ojson::array({dec(p.x), dec(p.y), "1"});
}
ojson fp2_json(const Fp2& a) { return ojson::array({dec(a.c0), dec(a.c1)}); }
ojson g2_json(const G2Affine& p) {
  if (p.is_inf())
    return ojson::array({ojson::array({"0", "0"}), ojson::array({"1", "0"}), ojson::array({"0", "0"})});
  return ojson::array({fp2_json(p.x), fp2_json(p.y), ojson::array({"1", "0"})});
}
ojson fp6_json(const Fp6& a) { return ojson::array({fp2_json(a.c0), fp2_json(a.c1), fp2_json(a.c2)}); }
ojson fp12_json(const Fp12& a) { return ojson::array({fp6_json(a.c0), fp6_json(a.c1)}); }

// ---- parsing ------------------------------------------------------------------------------------

/// Error context: the file name and a JSON-path-like location.
struct Where {
  std::string_view file;
  std::string path;
  Where operator[](const std::string& key) const { return {file, path + "." + key}; }
  Where operator[](size_t i) const { return {file, path + "[" + std::to_string(i) + "]"}; }
  [[noreturn]] void fail(const std::string& what) const {
    throw Error(ErrorCode::kInvalidFile, std::string(file) + ": " + (path.empty() ? "" : path + ": ") + what);
  }
};

/// The parser's message with the bytes it quotes from the input made printable (control and non-ASCII
/// bytes as \xNN: the input may be binary or ill-formed UTF-8).
std::string ascii_only(std::string_view msg) {
  static const char kHex[] = "0123456789abcdef";
  std::string out;
  for (const char ch : msg) {
    const auto c = (unsigned char)ch;
    if (c >= 0x20 && c < 0x7f) {
      out += ch;
    } else {
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

json parse_text(std::string_view text, std::string_view name) {
  try {
    return json::parse(text.begin(), text.end());
  } catch (const json::exception& e) {
    throw Error(ErrorCode::kInvalidFile, std::string(name) + ": not valid JSON: " + ascii_only(e.what()));
  }
}

const json& member(const json& j, const Where& w, const char* key) {
  if (!j.is_object()) w.fail("expected an object");
  auto it = j.find(key);
  if (it == j.end()) w.fail(std::string("missing \"") + key + "\"");
  return *it;
}

const json& array_of(const json& j, const Where& w, size_t n) {
  if (!j.is_array()) w.fail("expected an array");
  if (j.size() != n) w.fail("expected " + std::to_string(n) + " elements, got " + std::to_string(j.size()));
  return j;
}

template <class F>
const char* field_name() {
  return std::is_same_v<F, Fp> ? "Fp (modulus p)" : "Fr (modulus r)";
}

template <class F>
F parse_fe(const json& j, const Where& w) {
  if (!j.is_string()) w.fail("expected a decimal string");
  const std::string& s = j.get_ref<const std::string&>();
  F out;
  switch (from_decimal(s, out)) {
    case DecimalParse::kOk:
      return out;
    case DecimalParse::kMalformed:
      w.fail("\"" + s.substr(0, 100) + "\" is not a decimal integer");
    case DecimalParse::kNotBelowModulus:
      break;
  }
  w.fail("value " + s.substr(0, 120) + " is not below the modulus of " + field_name<F>());
}

Fp2 parse_fp2(const json& j, const Where& w) {
  array_of(j, w, 2);
  return {parse_fe<Fp>(j[0], w[0]), parse_fe<Fp>(j[1], w[1])};
}
Fp6 parse_fp6(const json& j, const Where& w) {
  array_of(j, w, 3);
  return {parse_fp2(j[0], w[0]), parse_fp2(j[1], w[1]), parse_fp2(j[2], w[2])};
}
Fp12 parse_fp12(const json& j, const Where& w) {
  array_of(j, w, 2);
  return {parse_fp6(j[0], w[0]), parse_fp6(j[1], w[1])};
}

/// A proof point (`name` is πA, πB or πC) must also lie in its prime-order subgroup: a point outside it
/// is not the encoding of a G1/G2 element, so the proof is malformed (not merely invalid).
struct ProofPoint {
  const char* name;
};

G1Affine parse_g1(const json& j, const Where& w, std::optional<ProofPoint> proof = {}) {
  array_of(j, w, 3);
  Fp z = parse_fe<Fp>(j[2], w[2]);
  if (z.is_zero()) return G1Affine::infinity();
  if (!z.is_one()) w.fail("third coordinate must be \"1\" (affine) or \"0\" (infinity)");
  G1Affine p{parse_fe<Fp>(j[0], w[0]), parse_fe<Fp>(j[1], w[1])};
  const std::string name = proof ? proof->name : "G1 point";
  if (p.is_inf() || !is_on_curve(p)) w.fail(name + " is not on the curve");
  if (proof && !is_in_subgroup(p))
    w.fail(name + " is not in G1 (on the curve, outside the prime-order subgroup)");
  return p;
}
G2Affine parse_g2(const json& j, const Where& w, std::optional<ProofPoint> proof = {}) {
  array_of(j, w, 3);
  Fp2 z = parse_fp2(j[2], w[2]);
  if (z.is_zero()) return G2Affine::infinity();
  if (!(z == Fp2::one()))
    w.fail("third coordinate must be [\"1\", \"0\"] (affine) or [\"0\", \"0\"] (infinity)");
  G2Affine p{parse_fp2(j[0], w[0]), parse_fp2(j[1], w[1])};
  const std::string name = proof ? proof->name : "G2 point";
  if (p.is_inf() || !is_on_curve(p)) w.fail(name + " is not on the curve");
  if (proof && !is_in_subgroup(p))
    w.fail(name + " is not in G2 (on the curve, outside the prime-order subgroup)");
  return p;
}

/// "protocol" and "curve", when present, must name Groth16 on BLS12-381.
void check_tags(const json& j, const Where& w, bool required) {
  for (auto [key, want] : {std::pair{"protocol", kProtocol}, std::pair{"curve", kCurve}}) {
    auto it = j.find(key);
    if (it == j.end()) {
      if (required) w.fail(std::string("missing \"") + key + "\"");
      continue;
    }
    if (!it->is_string() || it->get_ref<const std::string&>() != want)
      w[key].fail("is " + it->dump() + ", expected \"" + want + "\"");
  }
}

std::string read_text(const std::filesystem::path& path) {
  auto b = read_file_bytes(path);
  return std::string(b.begin(), b.end());
}

}  // namespace

std::string proof_to_json(const Groth16Proof& p) {
  ojson j = ojson::object();
  j["pi_a"] = g1_json(p.a);
  j["pi_b"] = g2_json(p.b);
  j["pi_c"] = g1_json(p.c);
  j["protocol"] = kProtocol;
  j["curve"] = kCurve;
  return dump(j);
}

Groth16Proof proof_from_json(std::string_view text, std::string_view name) {
  json j = parse_text(text, name);
  Where w{name, ""};
  if (!j.is_object()) w.fail("expected an object");
  check_tags(j, w, false);
  return {parse_g1(member(j, w, "pi_a"), w["pi_a"], ProofPoint{"πA"}),
          parse_g2(member(j, w, "pi_b"), w["pi_b"], ProofPoint{"πB"}),
          parse_g1(member(j, w, "pi_c"), w["pi_c"], ProofPoint{"πC"})};
}

std::string public_to_json(std::span<const Fr> signals) {
  ojson j = ojson::array();
  for (const Fr& s : signals) j.push_back(to_decimal(s));
  return dump(j);
}

std::vector<Fr> public_from_json(std::string_view text, std::string_view name) {
  json j = parse_text(text, name);
  Where w{name, ""};
  if (!j.is_array()) w.fail("expected an array of decimal strings");
  std::vector<Fr> out;
  out.reserve(j.size());
  for (size_t i = 0; i < j.size(); i++) out.push_back(parse_fe<Fr>(j[i], w[i]));
  return out;
}

std::string vk_to_json(const VerifyingKey& vk, const Fp12& alphabeta_12) {
  if (vk.ic.empty()) throw Error(ErrorCode::kInvalidArgument, "vk_to_json: IC is empty");
  ojson j = ojson::object();
  j["protocol"] = kProtocol;
  j["curve"] = kCurve;
  j["nPublic"] = vk.n_public();
  j["vk_alpha_1"] = g1_json(vk.alpha1);
  j["vk_beta_2"] = g2_json(vk.beta2);
  j["vk_gamma_2"] = g2_json(vk.gamma2);
  j["vk_delta_2"] = g2_json(vk.delta2);
  j["vk_alphabeta_12"] = fp12_json(alphabeta_12);
  ojson ic = ojson::array();
  for (const auto& p : vk.ic) ic.push_back(g1_json(p));
  j["IC"] = std::move(ic);
  return dump(j);
}

SnarkjsVerificationKey vk_from_json(std::string_view text, std::string_view name) {
  json j = parse_text(text, name);
  Where w{name, ""};
  if (!j.is_object()) w.fail("expected an object");
  check_tags(j, w, true);
  SnarkjsVerificationKey out;
  out.vk.alpha1 = parse_g1(member(j, w, "vk_alpha_1"), w["vk_alpha_1"]);
  out.vk.beta2 = parse_g2(member(j, w, "vk_beta_2"), w["vk_beta_2"]);
  out.vk.gamma2 = parse_g2(member(j, w, "vk_gamma_2"), w["vk_gamma_2"]);
  out.vk.delta2 = parse_g2(member(j, w, "vk_delta_2"), w["vk_delta_2"]);
  out.alphabeta_12 = parse_fp12(member(j, w, "vk_alphabeta_12"), w["vk_alphabeta_12"]);
  const json& ic = member(j, w, "IC");
  if (!ic.is_array() || ic.empty()) w["IC"].fail("expected a non-empty array of G1 points");
  for (size_t i = 0; i < ic.size(); i++) out.vk.ic.push_back(parse_g1(ic[i], w["IC"][i]));
  const json& np = member(j, w, "nPublic");
  if (!np.is_number_unsigned() || np.get<uint64_t>() != ic.size() - 1)
    w["nPublic"].fail("is " + np.dump() + ", but IC has " + counted(ic.size(), "point") +
                      " (expected nPublic = " + std::to_string(ic.size() - 1) + ")");
  return out;
}

Groth16Proof read_proof_json(const std::filesystem::path& path) {
  return proof_from_json(read_text(path), path.string());
}
void write_proof_json(const std::filesystem::path& path, const Groth16Proof& p) {
  write_file_atomic(path, proof_to_json(p));
}
std::vector<Fr> read_public_json(const std::filesystem::path& path) {
  return public_from_json(read_text(path), path.string());
}
void write_public_json(const std::filesystem::path& path, std::span<const Fr> signals) {
  write_file_atomic(path, public_to_json(signals));
}
void write_proof_and_public_json(const std::filesystem::path& proof_path, const Groth16Proof& p,
                                 const std::filesystem::path& public_path, std::span<const Fr> signals) {
  write_files_atomically({{proof_path, proof_to_json(p)}, {public_path, public_to_json(signals)}});
}
SnarkjsVerificationKey read_vk_json(const std::filesystem::path& path) {
  return vk_from_json(read_text(path), path.string());
}
void write_vk_json(const std::filesystem::path& path, const VerifyingKey& vk, const Fp12& alphabeta_12) {
  write_file_atomic(path, vk_to_json(vk, alphabeta_12));
}

}  // namespace cuzk
