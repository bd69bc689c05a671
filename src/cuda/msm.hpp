// GPU multi-scalar multiplication on G1 and G2: the host API. Host-only (no CUDA headers), so plain
// C++ code can include it; the implementation lives in src/cuda/msm_*.cu and the algorithm in
// src/cuda/msm_engine.hpp.
//
// Algorithm (Pippenger's bucket method, signed digits): the bases stay resident on the GPU. Per call
// the scalars (Fr, Montgomery form, on the device or uploaded) are turned into signed c-bit window
// digits, (bucket, point) pairs are radix-sorted by bucket, each bucket is summed in XYZZ coordinates
// with mixed additions by a segmented reduction in which every thread owns an equal slice of the
// sorted pairs (so one huge bucket, e.g. all scalars equal, costs the same as many small ones), the
// buckets of each window are combined by the running-sum trick in parallel segments, and the window
// sums are combined on the host (Horner in 2^c). `msm_split01` first classifies the scalars: zeros
// are dropped, ones are summed by the same load-balanced segmented reduction, and only the rest go
// through Pippenger on a compacted index list.
//
// Environment: CUZK_MSM_PROFILE=1 prints per-phase GPU times of every call to stderr;
// CUZK_MSM_VARIANT=0|1 overrides the point-operation policy of the bucket kernels (msm_engine.hpp),
// read when an Msm is constructed; CUZK_MSM_SCRATCH_MB overrides MsmConfig::max_scratch_bytes (MiB, 0 =
// unbounded), read likewise.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "ec/curves.hpp"
#include "ff/bls12_381.hpp"

namespace cuzk::cuda {

/// Tuning knobs of a GPU MSM. The defaults suit an H200-class GPU.
struct MsmConfig {
  int device = 0;                         ///< CUDA device ordinal the bases live on
  int window_bits = 0;                    ///< Pippenger window c; 0 picks it from the size
  size_t max_pairs_per_batch = 1u << 28;  ///< (bucket, point) pairs sorted at once; bounds scratch memory
  /// Bound on the scratch of one call in bytes (digits, sort, buckets, partial sums, and the 0/1 split's
  /// flags and indices): fewer windows are sorted at a time to stay below it, down to one (2^26 G1
  /// scalars, window 22: two windows per batch, 3.6 GiB measured on an H200, 3 % slower than all four
  /// that max_pairs_per_batch allows in 8.2 GiB). 0: only max_pairs_per_batch bounds it.
  size_t max_scratch_bytes = size_t{4} << 30;
  /// Queue the engine's work on a stream of the device's greatest priority: where its kernels share the
  /// device with another engine's (the side stream beside the H MSM, GpuBackend), its blocks are scheduled
  /// first as the other's retire, so its own transfers and kernels are not starved.
  bool high_priority = false;
};

/// How `msm_split01` classified the scalars.
struct MsmSplitCounts {
  size_t zeros = 0;   ///< scalars equal to 0 (skipped)
  size_t ones = 0;    ///< scalars equal to 1 (summed without Pippenger)
  size_t others = 0;  ///< scalars that went through Pippenger
};

/// A GPU MSM engine over one resident vector of bases, for F = Fp (G1) or F = Fp2 (G2).
///
/// Upload the bases once (`set_bases`), then call `msm`/`msm_split01` any number of times with
/// n ≤ size() scalars: the i-th scalar multiplies the i-th base. Scratch buffers are kept between
/// calls (grow-only; `release_scratch` frees them). One object is not thread-safe; objects on the
/// same or different devices can be used from different threads. Every CUDA failure (including a
/// missing GPU or driver and out-of-memory) throws cuzk::Error with ErrorCode::kCuda.
template <class F>
class Msm {
 public:
  /// Binds to cfg.device and creates a stream there; throws kCuda when no such device exists.
  explicit Msm(MsmConfig cfg = {});
  ~Msm();
  Msm(Msm&&) noexcept;
  Msm& operator=(Msm&&) noexcept;
  Msm(const Msm&) = delete;
  Msm& operator=(const Msm&) = delete;

  /// Copies the bases to the GPU (replacing any previous ones). Points at infinity are (0, 0).
  void set_bases(std::span<const Affine<F>> bases);
  /// Generates the bases a + i·b (i = 0..n−1) on the GPU: fast synthetic bases for tests and
  /// benchmarks, whose MSM has the closed form (Σ sᵢ)·a + (Σ i·sᵢ)·b.
  void set_bases_progression(const Affine<F>& a, const Affine<F>& b, size_t n);
  /// Number of resident bases.
  size_t size() const;
  /// Copies bases [first, first + count) back to the host.
  std::vector<Affine<F>> download_bases(size_t first, size_t count) const;

  /// Σ scalars[i]·bases[i] for i < scalars.size() (≤ size()); scalars are uploaded first.
  Jacobian<F> msm(std::span<const Fr> scalars);
  /// Same, with the n scalars already in device memory (on this object's device).
  Jacobian<F> msm_device(const Fr* d_scalars, size_t n);
  /// Same result as `msm`, computed with the 0/1 split: zeros skipped, ones summed by a
  /// load-balanced parallel reduction, the rest by Pippenger over compacted indices. Faster when
  /// most scalars are 0 or 1 (Groth16 witnesses). `counts`, if given, receives the classification.
  Jacobian<F> msm_split01(std::span<const Fr> scalars, MsmSplitCounts* counts = nullptr);
  /// `msm_split01` with the scalars already in device memory.
  Jacobian<F> msm_split01_device(const Fr* d_scalars, size_t n, MsmSplitCounts* counts = nullptr);
  /// `msm_split01_device` over n bases that lie on this object's device at `d_bases` instead of the
  /// resident ones: a chunk of a key streamed from the host (GpuBackend), owned by the caller. Every
  /// kernel that reads `d_bases` has finished when the call returns, so the caller may then overwrite it.
  /// The resident bases, if any, are neither read nor changed.
  Jacobian<F> msm_split01_device_bases(const Affine<F>* d_bases, const Fr* d_scalars, size_t n,
                                       MsmSplitCounts* counts = nullptr);

  /// Bytes of device memory this object holds (bases + cached scratch).
  size_t device_bytes() const;
  /// Bytes of cached scratch (digits, sort, buckets, partial sums, CUB temporaries): device memory held
  /// beyond the bases and the scalar upload area. Bounded per call by MsmConfig::max_scratch_bytes.
  size_t scratch_bytes() const;
  /// Frees the cached scratch buffers (the bases stay).
  void release_scratch();
  /// The resident bases (a device pointer; nullptr before set_bases).
  const Affine<F>* device_bases() const;
  /// The configuration this object was built with.
  const MsmConfig& config() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

extern template class Msm<Fp>;
extern template class Msm<Fp2>;
using MsmG1 = Msm<Fp>;
using MsmG2 = Msm<Fp2>;

/// A buffer of scalars in device memory, for callers (and benchmarks) that keep scalars on the GPU.
class DeviceScalars {
 public:
  DeviceScalars() = default;
  /// Allocates room for n scalars on `device` (contents undefined).
  DeviceScalars(size_t n, int device = 0);
  ~DeviceScalars();
  DeviceScalars(DeviceScalars&&) noexcept;
  DeviceScalars& operator=(DeviceScalars&&) noexcept;
  DeviceScalars(const DeviceScalars&) = delete;
  DeviceScalars& operator=(const DeviceScalars&) = delete;

  /// Copies host scalars in (reallocating when they do not fit).
  void upload(std::span<const Fr> scalars);
  const Fr* data() const { return ptr_; }
  Fr* data() { return ptr_; }
  size_t size() const { return n_; }

 private:
  Fr* ptr_ = nullptr;
  size_t n_ = 0, cap_ = 0;
  int device_ = 0;
};

/// Number of CUDA devices usable by this process (0 when there is no GPU or no driver).
int msm_device_count();

/// Free and total memory of a device, in bytes.
struct MsmMemInfo {
  size_t free = 0, total = 0;
};
/// Reads the device's free/total memory (throws kCuda on failure).
MsmMemInfo msm_mem_info(int device = 0);

namespace debug {
/// out[i] = a[i]·b[i] computed by the GPU's Fp multiplication (a diagnostic for the field layer).
void fp_mul(std::span<const Fp> a, std::span<const Fp> b, std::span<Fp> out, int device = 0);
}  // namespace debug

}  // namespace cuzk::cuda
