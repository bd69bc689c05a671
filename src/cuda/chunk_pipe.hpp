// Streaming host arrays to the device in double-buffered chunks (ChunkPipe), for keys and rows larger
// than the device's memory budget (src/cuda/gpu_backend.cpp). Plain C++: no CUDA header.
#pragma once

#include <cstddef>

namespace cuzk::cuda {

/// Two device buffers of `chunk_bytes` that receive consecutive chunks of host arrays on their own copy
/// stream while the device computes on the other one (double buffering). Two ways to order the work:
///  - host-synchronous consumers (Msm calls): fetch(slot), wait(slot), compute, and only then fetch the
///    slot again;
///  - kernels queued on the device's context stream: copy_to(...)/mark(slot), context_waits(slot), queue
///    the kernels, release_after_context(slot); the next copy into that slot then waits for them on the
///    device, and the host never blocks.
/// Copies run as DMA when the host memory is page-locked (HostRegistration, PinnedBuffer).
class ChunkPipe {
 public:
  ChunkPipe(size_t chunk_bytes, int device);
  ~ChunkPipe();
  ChunkPipe(const ChunkPipe&) = delete;
  ChunkPipe& operator=(const ChunkPipe&) = delete;

  /// Queues host[0..bytes) → buffer `slot` (0 or 1) and marks it; bytes ≤ chunk_bytes().
  void fetch(int slot, const void* host, size_t bytes);
  /// Queues host[0..bytes) → buffer `slot` at byte `at` (at + bytes ≤ chunk_bytes()); call mark(slot)
  /// after the last copy of a chunk. Throws kInvalidArgument out of range.
  void copy_to(int slot, size_t at, const void* host, size_t bytes);
  /// Records that the copies queued into `slot` so far make up its chunk.
  void mark(int slot);
  /// Blocks the host until `slot`'s chunk has landed; returns the buffer's device address.
  const void* wait(int slot);
  /// Makes the device's context stream wait (on the device) for `slot`'s chunk; returns its address.
  const void* context_waits(int slot);
  /// The work queued on the context stream so far reads `slot`: the next copy into it waits for that.
  void release_after_context(int slot);
  size_t chunk_bytes() const { return chunk_; }
  /// Device bytes held (both buffers).
  size_t device_bytes() const { return 2 * chunk_; }

 private:
  void release() noexcept;
  void check(int slot, size_t at, size_t bytes) const;
  int device_;
  size_t chunk_;
  void* buf_[2] = {nullptr, nullptr};
  void* done_[2] = {nullptr, nullptr};   // cudaEvent_t: the chunk copied into buf_[i] has landed
  void* freed_[2] = {nullptr, nullptr};  // cudaEvent_t: the context work reading buf_[i] has finished
  bool wait_freed_[2] = {false, false};  // the next copy into buf_[i] must wait for freed_[i]
  void* stream_ = nullptr;               // cudaStream_t
};

}  // namespace cuzk::cuda
