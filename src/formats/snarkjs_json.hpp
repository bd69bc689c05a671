// snarkjs 0.7.6's JSON files for Groth16 over BLS12-381, read and written byte-for-byte as snarkjs
// does: `JSON.stringify(stringifyBigInts(x), null, 1)` (one-space indentation, no trailing newline;
// snarkjs cli.js groth16Prove / zkeyExportVKey, src/zkey_export_verificationkey.js). Numbers are
// decimal strings of plain (non-Montgomery) canonical values. Points are affine with a third
// coordinate: G1 [x, y, "1"], G2 [[x.c0, x.c1], [y.c0, y.c1], ["1", "0"]]; ∞ is G1 ["0", "1", "0"],
// G2 [["0","0"], ["1","0"], ["0","0"]] (ffjavascript's G.toObject).
//   proof.json   {"pi_a", "pi_b", "pi_c", "protocol": "groth16", "curve": "bls12381"}
//   public.json  ["w1", …, "w_nPublic"]
//   verification_key.json {"protocol", "curve", "nPublic", "vk_alpha_1", "vk_beta_2", "vk_gamma_2",
//                "vk_delta_2", "vk_alphabeta_12", "IC"}
// Parsing checks the structure, the protocol/curve strings, canonical decimals (a value ≥ the modulus
// is an error naming the field, Fp or Fr) and that points are on the curve (proof points also in their
// prime-order subgroup); it throws Error(kInvalidFile, "<name>: <where>: <problem>").
#pragma once

#include <filesystem>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "ec/curves.hpp"
#include "ff/fp6.hpp"
#include "groth16/key.hpp"

namespace cuzk {

/// A verification_key.json: the key plus vk_alphabeta_12, the Fp12 value e(α₁, β₂) that snarkjs
/// stores (Fp12 = c0 + c1·w, Fp6 = c0 + c1·v + c2·v², Fp2 = c0 + c1·u, written
/// [[[c000, c001], [c010, c011], [c020, c021]], [[c100, c101], …]]). snarkjs's value equals
/// cuzk::pairing(α₁, β₂) (ec/pairing.hpp) — checked by the tests on the fixtures.
struct SnarkjsVerificationKey {
  VerifyingKey vk;
  Fp12 alphabeta_12;
};

/// proof.json text, byte-identical to snarkjs's.
std::string proof_to_json(const Groth16Proof& p);
/// Parses proof.json text; `name` (e.g. the path) prefixes errors. A point off the curve or outside its
/// prime-order subgroup is malformed input, not an invalid proof: Error(kInvalidFile, "<name>: .pi_a: πA
/// is not in G1 (…)") / "…: .pi_b: πB is not on the curve".
Groth16Proof proof_from_json(std::string_view text, std::string_view name = "proof.json");

/// public.json text for public signals w[1..nPublic] (Fr, Montgomery form).
std::string public_to_json(std::span<const Fr> signals);
/// Parses public.json; a value ≥ r is an error naming Fr and the index.
std::vector<Fr> public_from_json(std::string_view text, std::string_view name = "public.json");

/// verification_key.json text, byte-identical to snarkjs's `zkey export verificationkey`.
/// `alphabeta_12` is e(α₁, β₂), computed by the caller with cuzk::pairing.
std::string vk_to_json(const VerifyingKey& vk, const Fp12& alphabeta_12);
/// Parses verification_key.json (nPublic must equal len(IC) − 1).
SnarkjsVerificationKey vk_from_json(std::string_view text, std::string_view name = "verification_key.json");

/// File wrappers: read the file (Error(kIo) if it cannot be read) and parse it with its path as the name;
/// writers go through write_file_atomic.
Groth16Proof read_proof_json(const std::filesystem::path& path);
void write_proof_json(const std::filesystem::path& path, const Groth16Proof& p);
std::vector<Fr> read_public_json(const std::filesystem::path& path);
void write_public_json(const std::filesystem::path& path, std::span<const Fr> signals);
/// Writes proof.json and public.json as one (write_files_atomically): however many provers write the
/// same two paths at once, the pair left on disk always comes from one of them.
void write_proof_and_public_json(const std::filesystem::path& proof_path, const Groth16Proof& p,
                                 const std::filesystem::path& public_path, std::span<const Fr> signals);
SnarkjsVerificationKey read_vk_json(const std::filesystem::path& path);
void write_vk_json(const std::filesystem::path& path, const VerifyingKey& vk, const Fp12& alphabeta_12);

}  // namespace cuzk
