// Msm<F>'s member functions, instantiated once per curve (msm_g1.cu, msm_g2.cu).
#pragma once

#include <cstdlib>
#include <string>
#include <type_traits>
#include <utility>

#include "cuda/msm.hpp"
#include "cuda/msm_engine.hpp"
#include "cuda/msm_util.cuh"

namespace cuzk::cuda {
namespace msm_detail {
/// G2's bucket sums are compiled for three blocks of 128 threads per SM (168 registers, 1–2 KB stack
/// frames) instead of two (254 registers): G2 2^24 407.6 → 393.0 ms on an H200, and four blocks (128
/// registers) gave the same 393.4 (docs/PERFORMANCE.md §20). G1's stay uncapped (168 registers, three
/// blocks): capped at 128 registers they spilled and ran 4 % slower.
template <class Src>
inline constexpr int kMinBlocks<AccumulateK<Fp2, Src>> = 3;
}  // namespace msm_detail

template <class F>
struct Msm<F>::Impl {
  MsmConfig cfg;
  msm_detail::DeviceBackend be;  // declared first: destroyed last
  msm_detail::Engine<msm_detail::DeviceBackend, F> eng;
  msm_detail::DeviceBackend::Buffer bases;
  msm_detail::DeviceBackend::Buffer scalars;  // upload area for host scalars
  size_t n = 0;

  explicit Impl(const MsmConfig& c) : cfg(c), be(c.device, c.high_priority), eng(be) {
    eng.set_variant(variant());
    eng.set_scratch_budget(scratch_budget(c.max_scratch_bytes));
  }

  /// cfg.max_scratch_bytes, or CUZK_MSM_SCRATCH_MB (MiB; 0 = unbounded) from the environment when set
  /// (for benchmarks). Throws kInvalidArgument when the variable is not a decimal number of MiB.
  static size_t scratch_budget(size_t configured) {
    const char* e = std::getenv("CUZK_MSM_SCRATCH_MB");
    if (!e || !*e) return configured;
    char* end = nullptr;
    const unsigned long long mib = std::strtoull(e, &end, 10);
    if (*end || *e == '-' || mib > (size_t{1} << 40))
      throw Error(ErrorCode::kInvalidArgument,
                  std::string("CUZK_MSM_SCRATCH_MB = '") + e + "': expected a number of MiB (0 = no bound)");
    return (size_t)mib << 20;
  }

  /// Point-operation policy of the bucket kernels (msm_engine.hpp: OpsCall = 0, the alternative = 1);
  /// the environment variable CUZK_MSM_VARIANT overrides the default (for benchmarks).
  static int variant() {
    if (const char* e = std::getenv("CUZK_MSM_VARIANT"); e && (e[0] == '0' || e[0] == '1')) return e[0] - '0';
    return std::is_same_v<F, Fp2> ? kDefaultVariantG2 : kDefaultVariantG1;
  }
  // Measured on an H200 (2^24, median of 5): G1 OpsCall 141.8 ms, OpsInline 135.0 ms; G2 OpsCall
  // 670 ms, OpsOol 510 ms.
  static constexpr int kDefaultVariantG1 = 1;
  static constexpr int kDefaultVariantG2 = 1;

  const Affine<F>* base_ptr() const { return static_cast<const Affine<F>*>(bases.p); }
  void check_n(size_t m) const {
    if (m > n)
      throw Error(ErrorCode::kInvalidArgument, "GPU MSM: " + std::to_string(m) + " scalars but only " +
                                                   std::to_string(n) + " bases are resident");
    if (m >= (size_t{1} << 31))
      throw Error(ErrorCode::kInvalidArgument, "GPU MSM: at most 2^31 − 1 scalars per call");
  }
  const Fr* upload(std::span<const Fr> s) {
    Fr* d = be.ensure<Fr>(scalars, s.size() ? s.size() : 1);
    be.to_device_bytes(d, s.data(), s.size_bytes());
    return d;
  }
};

template <class F>
Msm<F>::Msm(MsmConfig cfg) : impl_(std::make_unique<Impl>(cfg)) {}
template <class F>
Msm<F>::~Msm() = default;
template <class F>
Msm<F>::Msm(Msm&&) noexcept = default;
template <class F>
Msm<F>& Msm<F>::operator=(Msm&&) noexcept = default;

template <class F>
void Msm<F>::set_bases(std::span<const Affine<F>> b) {
  Impl& I = *impl_;
  I.be.activate();
  I.n = 0;
  Affine<F>* d = I.be.template ensure<Affine<F>>(I.bases, b.size() ? b.size() : 1);
  I.be.to_device_bytes(d, b.data(), b.size_bytes());
  I.n = b.size();
}

template <class F>
void Msm<F>::set_bases_progression(const Affine<F>& a, const Affine<F>& b, size_t n) {
  Impl& I = *impl_;
  I.be.activate();
  I.n = 0;
  Affine<F>* d = I.be.template ensure<Affine<F>>(I.bases, n ? n : 1);
  I.eng.progression(d, a, b, n);
  I.be.sync();
  I.n = n;
}

template <class F>
size_t Msm<F>::size() const {
  return impl_->n;
}

template <class F>
std::vector<Affine<F>> Msm<F>::download_bases(size_t first, size_t count) const {
  Impl& I = *impl_;
  if (first > I.n || count > I.n - first)
    throw Error(ErrorCode::kInvalidArgument, "GPU MSM: download_bases range out of bounds");
  I.be.activate();
  std::vector<Affine<F>> out(count);
  I.be.to_host(out.data(), I.base_ptr() + first, count);
  return out;
}

template <class F>
Jacobian<F> Msm<F>::msm(std::span<const Fr> s) {
  Impl& I = *impl_;
  I.check_n(s.size());
  I.be.activate();
  if (s.empty()) return Jacobian<F>::infinity();
  const Fr* d = I.upload(s);
  return I.eng.pippenger(I.base_ptr(), d, nullptr, s.size(), I.cfg.window_bits, I.cfg.max_pairs_per_batch);
}

template <class F>
Jacobian<F> Msm<F>::msm_device(const Fr* d_scalars, size_t n) {
  Impl& I = *impl_;
  I.check_n(n);
  I.be.activate();
  if (n == 0) return Jacobian<F>::infinity();
  return I.eng.pippenger(I.base_ptr(), d_scalars, nullptr, n, I.cfg.window_bits, I.cfg.max_pairs_per_batch);
}

template <class F>
Jacobian<F> Msm<F>::msm_split01(std::span<const Fr> s, MsmSplitCounts* counts) {
  Impl& I = *impl_;
  I.check_n(s.size());
  I.be.activate();
  const Fr* d = s.empty() ? nullptr : I.upload(s);
  return msm_split01_device(d, s.size(), counts);
}

template <class F>
Jacobian<F> Msm<F>::msm_split01_device(const Fr* d_scalars, size_t n, MsmSplitCounts* counts) {
  Impl& I = *impl_;
  I.check_n(n);
  I.be.activate();
  size_t z = 0, o = 0, r = 0;
  Jacobian<F> res =
      I.eng.split01(I.base_ptr(), d_scalars, n, &z, &o, &r, I.cfg.window_bits, I.cfg.max_pairs_per_batch);
  if (counts) *counts = MsmSplitCounts{z, o, r};
  return res;
}

template <class F>
Jacobian<F> Msm<F>::msm_split01_device_bases(const Affine<F>* d_bases, const Fr* d_scalars, size_t n,
                                             MsmSplitCounts* counts) {
  Impl& I = *impl_;
  if (n >= (size_t{1} << 31))
    throw Error(ErrorCode::kInvalidArgument, "GPU MSM: at most 2^31 − 1 scalars per call");
  if (n > 0 && !d_bases) throw Error(ErrorCode::kInvalidArgument, "GPU MSM: no bases given");
  I.be.activate();
  size_t z = 0, o = 0, r = 0;
  Jacobian<F> res = I.eng.split01(d_bases, d_scalars, n, &z, &o, &r, I.cfg.window_bits, I.cfg.max_pairs_per_batch);
  if (counts) *counts = MsmSplitCounts{z, o, r};
  return res;
}

template <class F>
size_t Msm<F>::device_bytes() const {
  const Impl& I = *impl_;
  return I.bases.bytes + I.scalars.bytes + I.eng.scratch_bytes() + I.be.temp_bytes();
}

template <class F>
size_t Msm<F>::scratch_bytes() const {
  const Impl& I = *impl_;
  return I.eng.scratch_bytes() + I.be.temp_bytes();
}

template <class F>
void Msm<F>::release_scratch() {
  Impl& I = *impl_;
  I.be.activate();
  I.eng.release();
  I.be.free(I.scalars);
  I.be.release_temp();
}

template <class F>
const Affine<F>* Msm<F>::device_bases() const {
  return impl_->n ? impl_->base_ptr() : nullptr;
}

template <class F>
const MsmConfig& Msm<F>::config() const {
  return impl_->cfg;
}

}  // namespace cuzk::cuda
