// Per-GPU context for the CUDA layer (device code and .cu files only): error checking, the context's
// streams and events, a caching device-memory pool and launch helpers. The public, CUDA-free face of
// this is src/cuda/gpu.hpp.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <map>
#include <mutex>
#include <string>

#include "util/error.hpp"

namespace cuzk::cuda {

/// Throws cuzk::Error(kCuda) naming the call, CUDA's error name and string, and the source location.
[[noreturn]] void throw_cuda_error(cudaError_t err, const char* call, const char* file, int line);

/// Checks a CUDA runtime call: any result other than cudaSuccess becomes cuzk::Error(kCuda).
#define CUZK_CUDA_CHECK(expr)                                                          \
  do {                                                                                 \
    const cudaError_t cuzk_err_ = (expr);                                              \
    if (cuzk_err_ != cudaSuccess) ::cuzk::cuda::throw_cuda_error(cuzk_err_, #expr, __FILE__, __LINE__); \
  } while (0)

/// Checks the kernel launch just made (cudaGetLastError); with the environment variable
/// CUZK_CUDA_SYNC_CHECK=1 it also synchronizes the stream so that a fault is reported at its kernel.
void check_launch(const char* kernel, cudaStream_t stream, const char* file, int line);
#define CUZK_CUDA_CHECK_LAUNCH(kernel, stream) ::cuzk::cuda::check_launch(kernel, stream, __FILE__, __LINE__)

/// A caching allocator over cudaMalloc for one device. Blocks are kept by size on free and handed out
/// again for requests of the same rounded size, so a steady-state workload calls neither cudaMalloc
/// nor cudaFree. Sizes round up to 512 B below 1 MiB and to 2 MiB above; a cached block is reused for a
/// request when its size is within 1/8 above the rounded request. When cudaMalloc runs out of memory
/// the cache is released and the allocation retried once. Thread-safe.
class DevicePool {
 public:
  explicit DevicePool(int device) : device_(device) {}
  ~DevicePool();
  DevicePool(const DevicePool&) = delete;
  DevicePool& operator=(const DevicePool&) = delete;

  /// Device memory of at least `bytes` (256-byte aligned); throws kCuda when the device has none.
  void* alloc(size_t bytes);
  /// Returns a block from alloc (nullptr is ignored). Work using it must be ordered before any later
  /// user of the same block: the context stream serializes all of this layer's work.
  void free(void* p);
  /// Gives every cached block back to the driver.
  void release_cached();

  size_t in_use() const;
  size_t reserved() const;
  size_t peak() const;

 private:
  static size_t round_size(size_t bytes);
  int device_;
  mutable std::mutex mu_;
  std::multimap<size_t, void*> cache_;  // size → block
  std::map<void*, size_t> live_;        // block → size
  size_t in_use_ = 0, reserved_ = 0, peak_ = 0;
};

/// One GPU: its index, properties, a non-blocking compute stream, a copy stream, and the memory pool.
/// Created on first use by Context::get and kept for the life of the process.
class Context {
 public:
  /// The context of `device` (created on first call; throws kCuda if the device does not exist).
  static Context& get(int device = 0);

  int device() const { return device_; }
  const cudaDeviceProp& props() const { return props_; }
  cudaStream_t stream() const { return stream_; }
  cudaStream_t copy_stream() const { return copy_stream_; }
  DevicePool& pool() { return pool_; }
  /// Makes this context's device current for the calling thread.
  void activate() const;

 private:
  explicit Context(int device);
  int device_;
  cudaDeviceProp props_{};
  cudaStream_t stream_ = nullptr;
  cudaStream_t copy_stream_ = nullptr;
  DevicePool pool_;
};

/// RAII device buffer from a context's pool, typed.
template <class T>
class PoolBuffer {
 public:
  PoolBuffer() = default;
  PoolBuffer(Context& ctx, size_t n) : ctx_(&ctx), n_(n) {
    ptr_ = static_cast<T*>(ctx.pool().alloc(n * sizeof(T) > 0 ? n * sizeof(T) : 1));
  }
  ~PoolBuffer() { reset(); }
  PoolBuffer(PoolBuffer&& o) noexcept : ctx_(o.ctx_), ptr_(o.ptr_), n_(o.n_) {
    o.ptr_ = nullptr;
    o.n_ = 0;
  }
  PoolBuffer& operator=(PoolBuffer&& o) noexcept {
    if (this != &o) {
      reset();
      ctx_ = o.ctx_;
      ptr_ = o.ptr_;
      n_ = o.n_;
      o.ptr_ = nullptr;
      o.n_ = 0;
    }
    return *this;
  }
  PoolBuffer(const PoolBuffer&) = delete;
  PoolBuffer& operator=(const PoolBuffer&) = delete;
  void reset() {
    if (ptr_) ctx_->pool().free(ptr_);
    ptr_ = nullptr;
    n_ = 0;
  }
  T* get() const { return ptr_; }
  size_t size() const { return n_; }
  /// Host → device copy of size() elements on the context stream (pageable memory: returns when the
  /// source may be reused).
  void upload(const T* host) {
    CUZK_CUDA_CHECK(cudaMemcpyAsync(ptr_, host, n_ * sizeof(T), cudaMemcpyHostToDevice, ctx_->stream()));
  }
  /// Device → host copy of size() elements; synchronizes the context stream.
  void download(T* host) const {
    CUZK_CUDA_CHECK(cudaMemcpyAsync(host, ptr_, n_ * sizeof(T), cudaMemcpyDeviceToHost, ctx_->stream()));
    CUZK_CUDA_CHECK(cudaStreamSynchronize(ctx_->stream()));
  }

 private:
  Context* ctx_ = nullptr;
  T* ptr_ = nullptr;
  size_t n_ = 0;
};

/// Blocks for a grid-stride launch over n items: enough to fill the device several times over.
inline unsigned grid_for(const Context& ctx, size_t n, unsigned threads) {
  size_t blocks = (n + threads - 1) / threads;
  const size_t cap = (size_t)ctx.props().multiProcessorCount * 32;
  if (blocks > cap) blocks = cap;
  return blocks == 0 ? 1u : (unsigned)blocks;
}

}  // namespace cuzk::cuda
