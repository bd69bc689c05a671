// CUDA side of the MSM: checked CUDA calls (every failure becomes cuzk::Error with kCuda, through the
// CUDA layer's throw_cuda_error of context.cuh) and the device backend that runs msm_engine.hpp's
// kernels on a stream of its own.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "cuda/context.cuh"
#include "util/error.hpp"

/// Checks a cudaError_t-returning expression; throws cuzk::Error(kCuda, …) with CUDA's text.
#define CUZK_MSM_CHECK(expr) ::cuzk::cuda::msm_detail::check_cuda((expr), #expr, __FILE__, __LINE__)

namespace cuzk::cuda::msm_detail {

/// Throws cuzk::Error(kCuda) for any status but cudaSuccess.
inline void check_cuda(cudaError_t e, const char* what, const char* file, int line) {
  if (e != cudaSuccess) throw_cuda_error(e, what, file, line);
}

inline constexpr int kThreads = 128;

/// Blocks per SM a kernel is compiled for (__launch_bounds__'s second argument): 1 (no register cap)
/// unless specialized.
template <class Kern>
inline constexpr int kMinBlocks = 1;

/// One thread per index: the launch form of every engine kernel.
template <class Kern>
__global__ void __launch_bounds__(kThreads, kMinBlocks<Kern>) run_kernel(Kern k, size_t n) {
  const size_t i = (size_t)blockIdx.x * kThreads + threadIdx.x;
  if (i < n) k(i);
}

/// Runs the engine on one device and one stream. Buffers are device memory, grown on demand and
/// kept; reads back to the host synchronise the stream.
class DeviceBackend {
 public:
  /// An owning, grow-only device allocation.
  struct Buffer {
    void* p = nullptr;
    size_t bytes = 0;
    Buffer() = default;
    Buffer(const Buffer&) = delete;
    Buffer& operator=(const Buffer&) = delete;
    ~Buffer() {
      if (p) cudaFree(p);  // no throw from a destructor; a failure here has nowhere to go
    }
  };

  /// Selects `device` and creates a non-blocking stream on it, of the device's greatest priority when
  /// `high_priority` (MsmConfig::high_priority), else of the default one.
  explicit DeviceBackend(int device, bool high_priority = false);
  ~DeviceBackend();
  DeviceBackend(const DeviceBackend&) = delete;
  DeviceBackend& operator=(const DeviceBackend&) = delete;

  /// Makes this backend's device current for the calling thread.
  void activate() const;

  template <class T>
  T* ensure(Buffer& b, size_t n) {
    const size_t need = n * sizeof(T);
    if (need > b.bytes) grow(b, need);
    return static_cast<T*>(b.p);
  }
  /// Replaces b by an allocation of at least `bytes` (contents are not kept).
  void grow(Buffer& b, size_t bytes);
  void free(Buffer& b);
  void* data(Buffer& b) const { return b.p; }
  size_t buffer_bytes(const Buffer& b) const { return b.bytes; }

  template <class T>
  void zero(T* p, size_t n) {
    zero_bytes(p, n * sizeof(T));
  }
  void zero_bytes(void* p, size_t bytes);

  template <class Kern>
  void launch(const Kern& k, size_t n) {
    if (n == 0) return;
    const size_t blocks = (n + kThreads - 1) / kThreads;
    run_kernel<Kern><<<(unsigned)blocks, kThreads, 0, stream_>>>(k, n);
    // Launch errors; with CUZK_CUDA_SYNC_CHECK=1 also faults, reported at this kernel.
    check_launch(__PRETTY_FUNCTION__, stream_, __FILE__, __LINE__);
  }

  /// Sorts n (key, value) pairs by the low `bits` bits of the key (CUB radix sort); the sorted
  /// arrays end up in keys/vals (the pointers are swapped with the alternates when needed).
  void sort_pairs(uint32_t*& keys, uint32_t*& keys_alt, uint32_t*& vals, uint32_t*& vals_alt, size_t n,
                  int bits);
  /// Exclusive prefix sum of n counts (counts[n − 1] must be 0); returns the total.
  size_t scan(const uint32_t* counts, uint32_t* offsets, size_t n);

  template <class T>
  void to_host(T* dst, const T* src, size_t n) {
    to_host_bytes(dst, src, n * sizeof(T));
  }
  /// Device → host copy, complete on return.
  void to_host_bytes(void* dst, const void* src, size_t bytes);
  /// Host → device copy, complete on return.
  void to_device_bytes(void* dst, const void* src, size_t bytes);
  /// Waits for the stream (and reports asynchronous kernel errors).
  void sync();

  /// Phase timing (environment CUZK_MSM_PROFILE=1): `phase(name)` records an event that starts the
  /// named phase and ends the previous one (nullptr only ends it); `phase_report` prints the totals
  /// per phase name to stderr and clears them. Without the variable both do nothing.
  void phase(const char* name);
  void phase_report(size_t m, int c, int windows, int windows_per_batch);

  cudaStream_t stream() const { return stream_; }
  int device() const { return device_; }
  /// Bytes of CUB temporary storage held.
  size_t temp_bytes() const { return temp_.bytes; }
  void release_temp() { free(temp_); }

 private:
  int device_;
  cudaStream_t stream_ = nullptr;
  Buffer temp_;
  bool profile_ = false;
  std::vector<std::pair<const char*, cudaEvent_t>> marks_;
};

}  // namespace cuzk::cuda::msm_detail
