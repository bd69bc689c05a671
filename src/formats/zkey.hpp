// snarkjs's Groth16 proving key, .zkey v1 (snarkjs src/zkey_utils.js readHeaderGroth16/writeHeader/
// writeZKey, src/zkey_new.js for the layout `groth16 setup` writes, src/groth16_prove.js for how the
// sections are used). An iden3 container (formats/binfile.hpp), magic "zkey", version 1:
//   s1  u32 protocol (1 = groth16)
//   s2  n8q u32 | q[n8q] | n8r u32 | r[n8r] | nVars u32 | nPublic u32 | domainSize u32 |
//       α₁ G1 | β₁ G1 | β₂ G2 | γ₂ G2 | δ₁ G1 | δ₂ G2
//   s3  IC[nPublic + 1] G1
//   s4  nCoef u32, then nCoef × {matrix u32 (0 = A, 1 = B), constraint u32, signal u32, value[n8r]}
//       where value is the little-endian integer coeff·R² mod r (R = 2^256)
//   s5  A[nVars] G1   s6 B1[nVars] G1   s7 B2[nVars] G2   s8 C[nVars − nPublic − 1] G1
//   s9  H[domainSize] G1 (odd-coset Lagrange basis over δ; see docs/REFERENCE.md §5)
//   s10 MPC parameters: csHash[64] | nContributions u32 | contribution records
// Points are snarkjs binary (ec/encoding.hpp): affine, LE Montgomery coordinates, all-zero = ∞.
// Sections may come in any order (`groth16 setup` writes 1,2,4,3,9,8,5,6,7,10).
#pragma once

#include <cstdint>
#include <filesystem>
#include <vector>

#include "ec/curves.hpp"
#include "ec/encoding.hpp"
#include "ff/bls12_381.hpp"
#include "groth16/key.hpp"
#include "groth16/r1cs.hpp"
#include "groth16/setup.hpp"
#include "util/huge_alloc.hpp"

namespace cuzk {

class BinFile;

/// One entry of section 4: `value` multiplies witness[signal] in row `constraint` of matrix A or B.
struct ZkeyCoef {
  uint32_t matrix;      ///< 0 = A, 1 = B (C is not stored: snarkjs computes C·w as (A·w)∘(B·w))
  uint32_t constraint;  ///< row, < domainSize; rows nConstraints..nConstraints+nPublic are the
                        ///< public-input rows (A = w_i) that `groth16 setup` appends
  uint32_t signal;      ///< witness index, < nVars
  Fr value;             ///< the coefficient itself, as an Fr element (Montgomery form, like every Fr
                        ///< here); the file holds value·R² mod r, converted on read and write
  friend bool operator==(const ZkeyCoef&, const ZkeyCoef&) = default;
};

/// A Groth16 proving key as snarkjs stores it. Points are affine, ∞ = (0, 0).
struct Zkey {
  uint32_t n_vars = 0;       ///< witness length (wire 0 = 1 included)
  uint32_t n_public = 0;     ///< public signals, not counting wire 0
  uint32_t domain_size = 0;  ///< power of two > nConstraints + nPublic
  G1Affine alpha1, beta1, delta1;
  G2Affine beta2, gamma2, delta2;
  BigVector<G1Affine> ic;       ///< n_public + 1 points (s3)
  std::vector<ZkeyCoef> coefs;  ///< s4, in file order
  BigVector<G1Affine> a;        ///< n_vars (s5)
  BigVector<G1Affine> b1;       ///< n_vars (s6)
  BigVector<G2Affine> b2;       ///< n_vars (s7)
  BigVector<G1Affine> c;  ///< n_vars − n_public − 1 (s8): c[i] belongs to witness index n_public+1+i
  BigVector<G1Affine> h;  ///< domain_size (s9)
  /// Section 10 payload verbatim (csHash[64] | nContributions u32 | records), empty when the file has
  /// no section 10. write_zkey writes it back unchanged, or an empty record (64 zero bytes + u32 0,
  /// what `groth16 setup` writes minus the real circuit hash) when empty.
  std::vector<uint8_t> mpc_params;

  /// log2(domain_size).
  uint32_t power() const;
  /// nContributions from section 10 (0 when there is none).
  uint32_t n_contributions() const;
  friend bool operator==(const Zkey&, const Zkey&) = default;
};

/// Subgroup checks while reading. On-curve and canonical-coordinate checks always run.
struct ZkeyReadOptions {
  SubgroupCheck header_points = SubgroupCheck::kYes;  ///< α₁, β₁, β₂, γ₂, δ₁, δ₂ (6 points, cheap)
  SubgroupCheck vector_points = SubgroupCheck::kNo;  ///< IC, A, B1, B2, C, H (costly: ~r·P each)
};

/// Reads a Groth16 .zkey v1. Throws Error(kIo) if unreadable and Error(kInvalidFile) naming the path,
/// the section and the problem for: wrong magic/version, truncation, a missing/duplicated section, a
/// protocol other than groth16, q or r other than BLS12-381's (named, e.g. "the bn128 base field prime
/// q"), a domainSize that is not a power of two, nPublic + 1 > nVars, a section size that disagrees
/// with the counts, a coefficient with matrix > 1 / constraint ≥ domainSize / signal ≥ nVars / value ≥ r,
/// or a point that is non-canonical, off the curve, or (when asked) outside the subgroup.
/// Point decoding runs on all hardware threads for large sections.
Zkey read_zkey(const std::filesystem::path& path, const ZkeyReadOptions& opt = {});
/// The same on an opened container (magic "zkey", version 1).
Zkey read_zkey(const BinFile& file, const ZkeyReadOptions& opt = {});

/// Writes `zk` as a .zkey v1 with sections 1..10 in order (the layout `snarkjs zkey contribute` and
/// `beacon` produce), atomically. A key read from such a file is written back byte-identical.
/// Throws Error(kInvalidArgument) if the vector lengths disagree with the counts or domain_size is not
/// a power of two, Error(kIo) on write failure.
void write_zkey(const std::filesystem::path& path, const Zkey& zk);
/// The bytes write_zkey would write.
std::vector<uint8_t> zkey_bytes(const Zkey& zk);

/// The verifying key of a proving key.
VerifyingKey verifying_key(const Zkey& zk);

/// The prover's rows of a zkey (snarkjs convention, groth16/r1cs.hpp): A and B from section 4 (public-input
/// rows included), no C. A density bit is set for a variable with a coefficient in that matrix, or whose
/// A (B1/B2) point is not ∞, so compacting the points never drops a term snarkjs would add.
ConstraintSystem zkey_constraint_system(const Zkey& zk);

/// The format-neutral proving key of a zkey: the A, B1, B2 points compacted by cs's densities (the
/// dropped ones are ∞), C as L, H as is (moved out of zk). `cs` must be zkey_constraint_system(zk).
ProvingKey proving_key(Zkey zk, const ConstraintSystem& cs);

/// The zkey of a snarkjs-convention key and its rows: A/B1/B2 expanded back to one point per variable
/// (∞ where the density bit is clear), section 4 from cs.a (every row, public-input rows included) and
/// cs.b, row by row (A terms, then B terms), an empty MPC section. Throws Error(kInvalidArgument) for a
/// bellperson-convention key or sizes that disagree.
Zkey to_zkey(const ProvingKey& key, const ConstraintSystem& cs);

/// A single-party setup of `r1cs` as a snarkjs .zkey (for development and benchmarks only: whoever
/// runs it knows the toxic waste `tw`), laid out as snarkjs 0.7.6 `groth16 setup` writes it
/// (src/zkey_new.js): setup() of constraint_system(r1cs, HConvention::kSnarkjs) — the constraints, then
/// the public-input rows A = w_s for s ≤ nPublic — turned into a Zkey by to_zkey: nVars = n_wires,
/// domainSize the smallest power of two ≥ nConstraints + nPublic + 1, section 4 row by row (A terms,
/// then B terms), C[nVars − nPublic − 1], H[domainSize], csHash zero and no contributions. `accel` as
/// in setup(). Throws Error(kInvalidArgument) when the circuit has more public signals than wires, its
/// domain would exceed 2^28, or τ lies on the 2·domainSize-point domain (pick another seed).
Zkey setup_zkey(const R1cs& r1cs, const ToxicWaste& tw, ThreadPool& pool, const SetupAccel* accel = nullptr);

}  // namespace cuzk
