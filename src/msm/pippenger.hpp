// CPU multi-scalar multiplication Σ kᵢ·Pᵢ on G1 (F = Fp) and G2 (F = Fp2).
//
// Algorithm: Pippenger's bucket method (N. Pippenger, "On the evaluation of powers and monomials",
// SIAM J. Comput. 1980; the form used in practice is described in Bernstein et al., "Faster batch forgery
// identification", INDOCRYPT 2012, §4) with signed window digits (Booth recoding, so a c-bit window needs
// 2^(c−1) buckets), buckets accumulated either in XYZZ coordinates with mixed additions or in affine
// coordinates with batched inversions (Montgomery's simultaneous-inversion trick, "Speeding the Pollard
// and elliptic curve methods of factorization", Math. Comp. 1987), and the running-sum bucket reduction.
// Before Pippenger, scalars equal to 0 and bases at infinity are dropped and scalars equal to 1 are summed
// by plain mixed additions (REFERENCE.md §1 "0/1 split"); only the remaining tail goes through buckets.
#pragma once

#include <cstddef>
#include <span>

#include "ec/curves.hpp"
#include "util/thread_pool.hpp"

namespace cuzk {

/// How Pippenger's buckets accumulate points.
enum class MsmBuckets {
  kAuto,         ///< pick by the cost model (batch-affine for large inputs, XYZZ for small ones)
  kXyzz,         ///< XYZZ buckets, one mixed addition (8M + 2S) per point
  kBatchAffine,  ///< affine buckets, additions batched behind one shared inversion (~6M per point)
};

/// Tuning knobs of msm; the defaults are what production uses. Tests and benchmarks override them.
struct MsmConfig {
  /// Pippenger window c in 1..20; 0 picks c by the cost model (msm_plan).
  int window_bits = 0;
  /// Bucket accumulation method; kAuto picks by the cost model.
  MsmBuckets buckets = MsmBuckets::kAuto;
  /// Sum the scalars equal to 1 by plain additions (false: they go through the buckets like the others).
  bool split01 = true;
  /// Batch-affine buckets with AVX-512 IFMA (8 additions per vector stream) when the CPU has it;
  /// false forces the scalar code. Same result either way.
  bool simd = true;
};

/// Σ scalars[i]·bases[i] as a Jacobian point (∞ for empty input).
///
/// bases: affine points (Montgomery-form coordinates; ∞ encoded as (0, 0)) of the prime-order subgroup;
/// scalars: Fr elements in Montgomery form (converted to canonical integers internally). Both spans must
/// have the same length (else Error(kInvalidArgument)) below 2^32. Zero scalars and infinity bases are
/// skipped. The work is spread over the pool by windows and point ranges; the result is the same group
/// element for any pool size and configuration. Memory: 36 bytes per point (plus 128 bytes per G1 point,
/// 256 per G2 point for the vector buckets), kept by the calling thread for its next MSM, and per running
/// task one bucket array (2^(c−1) points).
template <class F>
Jacobian<F> msm(std::span<const Affine<F>> bases, std::span<const Fr> scalars, ThreadPool& pool,
                const MsmConfig& cfg = {});

/// Same result as msm with the 0/1 split forced on: scalars equal to 0 are skipped, scalars equal to 1
/// are summed by mixed additions in parallel, and only the others go through Pippenger on the compacted
/// (index-gathered) bases.
template <class F>
Jacobian<F> msm_split01(std::span<const Affine<F>> bases, std::span<const Fr> scalars, ThreadPool& pool);

/// The window size c and bucket method that msm picks for `n` Pippenger points (after the split) on
/// `threads` threads: the minimum of a cost model counting field multiplications (XYZZ mixed add 10,
/// XYZZ add 14, batch-affine add 6 + inversion/batch, ⌈256/c⌉ windows of n additions + 2^(c−1)-bucket
/// reductions). Exposed for benchmarks and reports.
template <class F>
MsmConfig msm_plan(size_t n, unsigned threads);

extern template Jacobian<Fp> msm<Fp>(std::span<const Affine<Fp>>, std::span<const Fr>, ThreadPool&,
                                     const MsmConfig&);
extern template Jacobian<Fp2> msm<Fp2>(std::span<const Affine<Fp2>>, std::span<const Fr>, ThreadPool&,
                                       const MsmConfig&);
extern template Jacobian<Fp> msm_split01<Fp>(std::span<const Affine<Fp>>, std::span<const Fr>, ThreadPool&);
extern template Jacobian<Fp2> msm_split01<Fp2>(std::span<const Affine<Fp2>>, std::span<const Fr>,
                                               ThreadPool&);
extern template MsmConfig msm_plan<Fp>(size_t, unsigned);
extern template MsmConfig msm_plan<Fp2>(size_t, unsigned);

}  // namespace cuzk
