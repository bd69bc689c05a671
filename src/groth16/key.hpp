// The format-neutral Groth16 keys and proof. The prover, verifier and setup work on these types only;
// src/formats turns a snarkjs .zkey or a bellperson .params/.vk file into them and back.
//
// Variables are numbered as both bellperson and circom do: the n_inputs public inputs first, input 0
// being the constant ONE (circom's wire 0), then the n_aux auxiliary (private) variables. A full witness
// is inputs ‖ aux.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "ec/curves.hpp"
#include "util/huge_alloc.hpp"

namespace cuzk {

/// How the H polynomial is computed and which H points pair with it (REFERENCE.md §5).
enum class HConvention {
  /// bellperson / SupraSeal (.params): roots of unity from generator 7; H = (a·b − c)/Z evaluated on the
  /// coset 7·⟨ω⟩ and brought back to its n − 1 coefficients; h points τⁱ·Z(τ)/δ, i < n − 1.
  kBellperson,
  /// snarkjs (.zkey): roots from generator 5; hⱼ = a·b − c at the odd points of the 2n-domain, no
  /// division by Z; h points = odd-index Lagrange basis of the 2n-domain over δ, n of them.
  kSnarkjs,
};

/// "bellperson" or "snarkjs".
const char* to_string(HConvention c);

/// A Groth16 proof: three affine points, ∞ = (0, 0), Montgomery-form coordinates.
struct Groth16Proof {
  G1Affine a;
  G2Affine b;
  G1Affine c;
  friend bool operator==(const Groth16Proof&, const Groth16Proof&) = default;
};

/// What a verifier needs (snarkjs's verification_key.json minus e(α₁, β₂); bellperson's .vk minus β₁
/// and δ₁). ic has n_inputs points: vk_x = IC₀ + Σ publicᵢ·ICᵢ over the public inputs 1..n_inputs − 1.
struct VerifyingKey {
  G1Affine alpha1;
  G2Affine beta2, gamma2, delta2;
  std::vector<G1Affine> ic;
  /// Public inputs, the constant ONE not counted.
  uint32_t n_public() const { return (uint32_t)ic.size() - 1; }
  friend bool operator==(const VerifyingKey&, const VerifyingKey&) = default;
};

/// The five point vectors of a key, in the order a partition's MSMs use them.
enum class KeyVector { kH = 0, kA = 1, kBG1 = 2, kL = 3, kBG2 = 4 };
inline constexpr int kKeyVectors = 5;
/// "h", "a", "b_g1", "l", "b_g2".
const char* key_vector_name(KeyVector v);
/// A subset of a key's point vectors, indexed by KeyVector.
using KeyVectorSet = std::array<bool, kKeyVectors>;

/// Where the point vectors a ProvingKey does not hold in host memory (ProvingKey::released) are read
/// from again when a backend needs them: its .params file (formats/params.hpp, ParamsVectorSource).
/// Implementations are thread-safe (reads may come from several backends at once).
class KeyVectorSource {
 public:
  virtual ~KeyVectorSource() = default;
  /// Reads G1 vector `v` (h, a, b_g1 or l) in full. Throws Error(kIo) when the file cannot be read or
  /// changed since the key was loaded, Error(kInvalidFile) for a malformed point, Error(kInvalidArgument)
  /// for v = kBG2.
  virtual BigVector<G1Affine> read_g1(KeyVector v) const = 0;
  /// Reads b_g2 in full. Throws like read_g1.
  virtual BigVector<G2Affine> read_g2() const = 0;
  /// What the vectors are read from, for messages (the file's path).
  virtual std::string describe() const = 0;
};

/// A Groth16 proving key in either H convention.
///
/// Point vectors (affine, ∞ = (0, 0)):
///  - a:    one point per input, then one per aux variable whose a_aux density bit is set;
///  - b_g1, b_g2: one per input whose b_inp bit is set, then one per aux whose b_aux bit is set;
///  - l:    one per aux variable ((β·uᵢ + α·vᵢ + wᵢ)/δ; snarkjs's section 8 "C");
///  - h:    n − 1 points (kBellperson) or n points (kSnarkjs), n = 2^log_n.
/// The densities themselves belong to the circuit (ConstraintSystem, Assignment): a .params file stores
/// only the compacted vectors, and the prover checks their lengths against the assignment's bitmaps.
///
/// Released vectors: a key loaded for GPUs that keep some vectors in device memory need not hold them in
/// host memory too (the daemon's host-memory bound, docs/CONFIG.md [memory]). Such a vector is empty here,
/// `released` records its length and `source` reads it again for whoever needs its points (a CPU backend,
/// a GPU uploading it after an eviction); count() gives every vector's length either way.
struct ProvingKey {
  HConvention convention = HConvention::kBellperson;
  int log_n = 0;          ///< the domain has n = 2^log_n points
  uint32_t n_inputs = 0;  ///< public inputs including ONE (= vk.ic.size())
  uint32_t n_aux = 0;     ///< auxiliary variables (= l.size())
  G1Affine alpha1, beta1, delta1;
  G2Affine beta2, gamma2, delta2;
  std::vector<G1Affine> ic;
  BigVector<G1Affine> a, b_g1, l, h;
  BigVector<G2Affine> b_g2;
  /// Per KeyVector, the length of a vector not held in host memory (its BigVector is empty); 0 when held.
  std::array<uint64_t, kKeyVectors> released{};
  /// Reads the released vectors again; set whenever one is released.
  std::shared_ptr<const KeyVectorSource> source;

  /// Points of vector v, whether held or released.
  size_t count(KeyVector v) const;
  /// Whether vector v is released (not in host memory; read it from `source`).
  bool is_released(KeyVector v) const { return released[(int)v] != 0; }
  /// Whether every point vector is held in host memory.
  bool complete() const;
  /// The host vector of G1 vector v (h, a, b_g1 or l; empty when released). Throws
  /// Error(kInvalidArgument) for kBG2.
  const BigVector<G1Affine>& g1(KeyVector v) const;
  BigVector<G1Affine>& g1(KeyVector v);
  size_t domain_size() const { return size_t{1} << log_n; }
  /// The number of h points this convention uses: n − 1 or n.
  size_t h_size() const { return convention == HConvention::kBellperson ? domain_size() - 1 : domain_size(); }
  /// The verifying key: α₁, β₂, γ₂, δ₂, IC.
  VerifyingKey verifying_key() const { return {alpha1, beta2, gamma2, delta2, ic}; }
  /// Bytes the point vectors occupy in host memory (released vectors count 0).
  size_t point_bytes() const;
  friend bool operator==(const ProvingKey&, const ProvingKey&) = default;
};

/// `key` with every point vector in host memory: `key` itself when none is released, else a copy that
/// holds its vectors and the released ones read from key->source (for a backend that reads every point,
/// the CPU's: it costs the time of decoding those vectors and their host memory while the copy lives).
/// Throws the source's Error, or Error(kInternal) when vectors are released and there is no source.
std::shared_ptr<const ProvingKey> with_host_vectors(std::shared_ptr<const ProvingKey> key);

}  // namespace cuzk
