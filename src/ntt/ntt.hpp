// CPU number-theoretic transforms over Fr on power-of-two domains, natural order in and out.
//
// Algorithm: bit-reversal permutation followed by iterative radix-2 decimation-in-time butterflies
// (Cooley–Tukey 1965; the iterative in-place form of Cormen et al., "Introduction to Algorithms", §30.3).
// The first stages run block-wise (blocks of 2^12 elements that stay in cache, one thread per block);
// the later stages split their butterflies across the pool. The inverse uses INTT(x)[i] =
// n⁻¹·NTT(x)[(n − i) mod n], so one twiddle table serves both directions.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "ff/roots.hpp"
#include "util/huge_alloc.hpp"
#include "util/thread_pool.hpp"

namespace cuzk {

/// An evaluation domain {ω^i : 0 ≤ i < n}, n = 2^log_n, ω = root_of_unity(log_n, conv), with the
/// precomputed twiddle table ω^j (0 ≤ j < n/2, Montgomery form, 32 bytes each: n·16 bytes in all, so
/// 4 GiB at log_n = 28; built on all hardware threads when n ≥ 2^17).
class Domain {
 public:
  /// The first log2 B stages run per block of B = 2^kLocalLog elements (128 KiB, kept in cache).
  static constexpr int kLocalLog = 12;

  /// Builds the domain; log_n must be in 1..28, otherwise throws Error(kInvalidArgument). With simd (and
  /// a CPU with AVX-512 IFMA) the transforms run their butterflies eight at a time in vector lanes
  /// (src/ntt/butterfly_ifma.hpp) and the domain keeps a second twiddle table for them (another n·16
  /// bytes); the results are the same either way.
  Domain(int log_n, RootConvention conv, bool simd = true);

  /// log2 of the domain size.
  int log_n() const { return log_n_; }
  /// n = 2^log_n.
  size_t size() const { return size_t{1} << log_n_; }
  /// The root-of-unity family ω was taken from.
  RootConvention convention() const { return conv_; }
  /// ω, a primitive n-th root of unity (Montgomery form, like every Fr here).
  const Fr& omega() const { return omega_; }
  /// ω⁻¹.
  const Fr& omega_inv() const { return omega_inv_; }
  /// n⁻¹ in Fr.
  const Fr& n_inv() const { return n_inv_; }
  /// ω^j for 0 ≤ j < n/2.
  const BigVector<Fr>& twiddles() const { return tw_; }
  /// ω_B^j for 0 ≤ j < B/2, B = 2^min(log_n, kLocalLog): the in-block stages' table, contiguous.
  const std::vector<Fr>& local_twiddles() const { return local_tw_; }
  /// Whether the transforms use the vector butterflies.
  bool simd() const { return !tw_x8_.empty(); }
  /// twiddles() and local_twiddles() in the vector butterflies' form (empty unless simd()).
  const BigVector<Fr>& twiddles_x8() const { return tw_x8_; }
  const std::vector<Fr>& local_twiddles_x8() const { return local_tw_x8_; }

 private:
  int log_n_;
  RootConvention conv_;
  Fr omega_, omega_inv_, n_inv_;
  BigVector<Fr> tw_, tw_x8_;
  std::vector<Fr> local_tw_, local_tw_x8_;
};

/// Forward NTT in place: data[i] ← Σ_k data[k]·ω^(i·k), i.e. the coefficients in natural order become the
/// values at ω^i in natural order. data.size() must equal d.size() (else Error(kInvalidArgument)).
/// Elements are Fr in Montgomery form. Result does not depend on the pool size.
void ntt(const Domain& d, std::span<Fr> data, ThreadPool& pool);

/// Inverse NTT in place: values at ω^i (natural order) → coefficients (natural order),
/// data[k] ← n⁻¹·Σ_i data[i]·ω^(−i·k). Same requirements as ntt.
void intt(const Domain& d, std::span<Fr> data, ThreadPool& pool);

/// Coset NTT in place: coefficients → values at shift·ω^i, computed as data[k] ← data[k]·shift^k followed
/// by ntt. Same requirements as ntt.
void coset_ntt(const Domain& d, std::span<Fr> data, const Fr& shift, ThreadPool& pool);

/// Inverse of coset_ntt: values at shift·ω^i → coefficients, computed as intt followed by
/// data[k] ← data[k]·shift^(−k) (the n⁻¹ and shift^(−k) factors applied in one pass). shift must be
/// non-zero (else Error(kInvalidArgument)).
void coset_intt(const Domain& d, std::span<Fr> data, const Fr& shift, ThreadPool& pool);

/// The factors n⁻¹·shift^k (k < n) of values_to_coset, in the form d's butterflies use (the vector
/// lane form when d.simd()); computed once, shared by every vector of a proof.
BigVector<Fr> coset_factors(const Domain& d, const Fr& shift, ThreadPool& pool);

/// Values at ω^i (natural order) → values at shift·ω^i: data ← coset_ntt(intt(data), shift), with the
/// n⁻¹ and shift^k factors of both steps applied in one pass. `factors` = coset_factors(d, shift).
/// Same requirements as ntt; factors.size() must be d.size() (else Error(kInvalidArgument)).
void values_to_coset(const Domain& d, std::span<Fr> data, std::span<const Fr> factors, ThreadPool& pool);

/// out[k] = a[k]·b[k] − c[k] for k < out.size() (c empty: out[k] = a[k]·b[k]); all spans the same length
/// (else Error(kInvalidArgument)), out may alias the inputs. Uses d's vector arithmetic when d.simd().
void mul_sub_pointwise(const Domain& d, std::span<Fr> out, std::span<const Fr> a, std::span<const Fr> b,
                       std::span<const Fr> c, ThreadPool& pool);

/// snarkjs's coset generator for a domain of size 2^log_n: ω_{2n} = root_of_unity(log_n + 1, kSnarkjs5),
/// whose coset ω_{2n}·⟨ω_n⟩ is the odd powers of ω_{2n} (REFERENCE.md §5). log_n in 0..31.
Fr coset_shift_snarkjs(int log_n);

}  // namespace cuzk
