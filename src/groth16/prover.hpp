// The Groth16 prover for snarkjs proving keys (.zkey), following snarkjs 0.7.6 src/groth16_prove.js:
//   1. A·w and B·w on the domain from the zkey's coefficient section (section 4),
//   2. H at the odd coset (backend.h_snarkjs: 3 inverse NTTs, 3 coset NTTs, no division by Z),
//   3. the five MSMs (A, B1 and C/H on G1, B2 on G2),
//   4. the epilogue with blinding scalars r, s:
//        πA = α₁ + Σwᵢ·Aᵢ + r·δ₁,  πB = β₂ + Σwᵢ·B2ᵢ + s·δ₂,  B1 = β₁ + Σwᵢ·B1ᵢ + s·δ₁,
//        πC = Σ_{i>nPublic} wᵢ·Cᵢ + Σ hⱼ·Hⱼ + s·πA + r·B1 − r·s·δ₁   (REFERENCE.md §5).
// Every proof is verified with the pairing before it is returned (unless disabled), so a witness
// that does not satisfy the circuit never comes back as a proof.
#pragma once

#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "formats/r1cs.hpp"
#include "formats/snarkjs_json.hpp"
#include "formats/zkey.hpp"
#include "groth16/backend.hpp"

namespace cuzk {

/// Options of one proof.
struct ProveOptions {
  /// Blinding scalars; when unset they are drawn from the OS CSPRNG (getrandom). Set both for a
  /// deterministic, byte-comparable proof (tests, cross-checks against snarkjs).
  std::optional<Fr> r, s;
  /// Verify the proof with the pairing before returning it (a few ms); on by default.
  bool verify = true;
  /// When given and the proof does not verify, the error names the first unsatisfied constraint.
  const R1cs* r1cs = nullptr;
  /// Progress callback (phase name), e.g. for a terminal status line. May be empty.
  std::function<void(const std::string&)> progress;
};

/// A proof and its public signals w[1..nPublic].
struct ProveResult {
  Groth16Proof proof;
  std::vector<Fr> public_signals;
};

/// Proves with a snarkjs zkey and a full witness (w[0] = 1, length nVars, Fr Montgomery).
/// Throws Error(kInvalidArgument) if the witness length differs from nVars or w[0] ≠ 1, and
/// Error(kUnsatisfied) if the proof does not verify (naming the first unsatisfied constraint when
/// `opt.r1cs` is given, and reporting a zkey/r1cs mismatch when their sizes disagree).
ProveResult prove(const Zkey& zk, std::span<const Fr> witness, ProverBackend& backend,
                  const ProveOptions& opt = {});

/// A uniformly random non-zero Fr element from the OS CSPRNG (getrandom(2)).
Fr random_fr_nonzero();

}  // namespace cuzk
