// The MSM's device backend (allocation, copies, CUB radix sort and scan) and the small host API
// helpers of msm.hpp that do not depend on the curve.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>
#include <utility>

#include "cuda/gpu.hpp"
#include "cuda/msm.hpp"
#include "cuda/msm_util.cuh"

namespace cuzk::cuda {
namespace msm_detail {

DeviceBackend::DeviceBackend(int device, bool high_priority) : device_(device) {
  int count = 0;
  CUZK_MSM_CHECK(cudaGetDeviceCount(&count));
  if (device < 0 || device >= count)
    throw Error(ErrorCode::kCuda, "GPU MSM: CUDA device " + std::to_string(device) + " does not exist (" +
                                      std::to_string(count) + " present)");
  activate();
  int least = 0, greatest = 0;
  if (high_priority) CUZK_MSM_CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
  CUZK_MSM_CHECK(cudaStreamCreateWithPriority(&stream_, cudaStreamNonBlocking, high_priority ? greatest : 0));
  const char* p = std::getenv("CUZK_MSM_PROFILE");
  profile_ = p && *p && *p != '0';
}

DeviceBackend::~DeviceBackend() {
  for (auto& m : marks_) cudaEventDestroy(m.second);
  if (stream_) {
    cudaSetDevice(device_);
    cudaStreamSynchronize(stream_);
    cudaStreamDestroy(stream_);
  }
}

void DeviceBackend::activate() const { CUZK_MSM_CHECK(cudaSetDevice(device_)); }

void DeviceBackend::grow(Buffer& b, size_t bytes) {
  free(b);
  // Round up to 2 MiB so that slightly larger calls reuse the allocation.
  const size_t round = size_t{2} << 20;
  const size_t alloc = bytes > round ? (bytes + round - 1) / round * round : bytes;
  void* p = nullptr;
  const bool injected = injected_alloc_failure();
  const cudaError_t e = injected ? cudaErrorMemoryAllocation : cudaMalloc(&p, alloc);
  if (e != cudaSuccess) {
    cudaGetLastError();  // out-of-memory is not sticky: clear it so the context stays usable
    throw Error(ErrorCode::kCuda, "GPU MSM: cudaMalloc of " + std::to_string(alloc) +
                                      " bytes failed: " + cudaGetErrorString(e) +
                                      (injected ? " (failure injected by CUZK_GPU_FAIL_ALLOC)" : ""));
  }
  b.p = p;
  b.bytes = alloc;
}

void DeviceBackend::free(Buffer& b) {
  if (b.p) {
    // cudaFree waits for the device; pending work that used b has finished when it returns.
    CUZK_MSM_CHECK(cudaFree(b.p));
    b.p = nullptr;
    b.bytes = 0;
  }
}

void DeviceBackend::zero_bytes(void* p, size_t bytes) {
  if (bytes) CUZK_MSM_CHECK(cudaMemsetAsync(p, 0, bytes, stream_));
}

void DeviceBackend::sort_pairs(uint32_t*& keys, uint32_t*& keys_alt, uint32_t*& vals, uint32_t*& vals_alt,
                               size_t n, int bits) {
  if (n <= 1) return;
  if (n > (size_t)INT32_MAX) throw Error(ErrorCode::kInternal, "GPU MSM: sort of more than 2^31 pairs");
  cub::DoubleBuffer<uint32_t> dk(keys, keys_alt), dv(vals, vals_alt);
  size_t tb = 0;
  // 32-bit item counts: CUB's one-sweep radix sort path.
  CUZK_MSM_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, tb, dk, dv, (int)n, 0, bits, stream_));
  void* t = ensure<unsigned char>(temp_, tb);
  CUZK_MSM_CHECK(cub::DeviceRadixSort::SortPairs(t, tb, dk, dv, (int)n, 0, bits, stream_));
  CUZK_MSM_CHECK(cudaGetLastError());
  if (dk.Current() != keys) std::swap(keys, keys_alt);
  if (dv.Current() != vals) std::swap(vals, vals_alt);
}

size_t DeviceBackend::scan(const uint32_t* counts, uint32_t* offsets, size_t n) {
  size_t tb = 0;
  if (n > (size_t)INT32_MAX) throw Error(ErrorCode::kInternal, "GPU MSM: scan of more than 2^31 counts");
  CUZK_MSM_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, tb, counts, offsets, (int)n, stream_));
  void* t = ensure<unsigned char>(temp_, tb);
  CUZK_MSM_CHECK(cub::DeviceScan::ExclusiveSum(t, tb, counts, offsets, (int)n, stream_));
  CUZK_MSM_CHECK(cudaGetLastError());
  uint32_t total = 0;
  to_host_bytes(&total, offsets + (n - 1), sizeof total);
  return total;
}

void DeviceBackend::to_host_bytes(void* dst, const void* src, size_t bytes) {
  if (!bytes) return;
  CUZK_MSM_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToHost, stream_));
  sync();
}

void DeviceBackend::to_device_bytes(void* dst, const void* src, size_t bytes) {
  if (!bytes) return;
  CUZK_MSM_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, stream_));
  sync();
}

void DeviceBackend::sync() { CUZK_MSM_CHECK(cudaStreamSynchronize(stream_)); }

void DeviceBackend::phase(const char* name) {
  if (!profile_) return;
  cudaEvent_t e;
  CUZK_MSM_CHECK(cudaEventCreate(&e));
  CUZK_MSM_CHECK(cudaEventRecord(e, stream_));
  marks_.emplace_back(name, e);
}

void DeviceBackend::phase_report(size_t m, int c, int windows, int windows_per_batch) {
  if (!profile_) return;
  if (marks_.size() < 2) {
    for (auto& mk : marks_) cudaEventDestroy(mk.second);
    marks_.clear();
    return;
  }
  sync();
  std::vector<std::pair<const char*, double>> tot;  // first-seen order
  double all = 0;
  for (size_t i = 0; i + 1 < marks_.size(); i++) {
    const char* name = marks_[i].first;
    if (!name) continue;
    float ms = 0;
    CUZK_MSM_CHECK(cudaEventElapsedTime(&ms, marks_[i].second, marks_[i + 1].second));
    all += ms;
    auto it = std::find_if(tot.begin(), tot.end(), [&](auto& t) { return std::strcmp(t.first, name) == 0; });
    if (it == tot.end())
      tot.emplace_back(name, ms);
    else
      it->second += ms;
  }
  std::fprintf(stderr, "[msm profile] m=%zu c=%d windows=%d per-batch=%d:", m, c, windows, windows_per_batch);
  for (auto& t : tot) std::fprintf(stderr, " %s %.3f ms;", t.first, t.second);
  std::fprintf(stderr, " total %.3f ms\n", all);
  for (auto& mk : marks_) cudaEventDestroy(mk.second);
  marks_.clear();
}

}  // namespace msm_detail

// ---- DeviceScalars ----------------------------------------------------------------------------------

DeviceScalars::DeviceScalars(size_t n, int device) : device_(device) {
  CUZK_MSM_CHECK(cudaSetDevice(device));
  if (n) {
    const cudaError_t e = cudaMalloc(&ptr_, n * sizeof(Fr));
    if (e != cudaSuccess) {
      cudaGetLastError();
      ptr_ = nullptr;
      throw Error(ErrorCode::kCuda, "GPU MSM: cudaMalloc of " + std::to_string(n * sizeof(Fr)) +
                                        " bytes for scalars failed: " + cudaGetErrorString(e));
    }
  }
  n_ = cap_ = n;
}

DeviceScalars::~DeviceScalars() {
  if (ptr_) cudaFree(ptr_);
}

DeviceScalars::DeviceScalars(DeviceScalars&& o) noexcept
    : ptr_(std::exchange(o.ptr_, nullptr)),
      n_(std::exchange(o.n_, 0)),
      cap_(std::exchange(o.cap_, 0)),
      device_(o.device_) {}

DeviceScalars& DeviceScalars::operator=(DeviceScalars&& o) noexcept {
  if (this != &o) {
    if (ptr_) cudaFree(ptr_);
    ptr_ = std::exchange(o.ptr_, nullptr);
    n_ = std::exchange(o.n_, 0);
    cap_ = std::exchange(o.cap_, 0);
    device_ = o.device_;
  }
  return *this;
}

void DeviceScalars::upload(std::span<const Fr> s) {
  CUZK_MSM_CHECK(cudaSetDevice(device_));
  if (s.size() > cap_) {
    DeviceScalars fresh(s.size(), device_);
    *this = std::move(fresh);
  }
  if (!s.empty()) CUZK_MSM_CHECK(cudaMemcpy(ptr_, s.data(), s.size_bytes(), cudaMemcpyHostToDevice));
  n_ = s.size();
}

int msm_device_count() {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) {
    cudaGetLastError();
    return 0;
  }
  return n;
}

MsmMemInfo msm_mem_info(int device) {
  CUZK_MSM_CHECK(cudaSetDevice(device));
  MsmMemInfo m;
  CUZK_MSM_CHECK(cudaMemGetInfo(&m.free, &m.total));
  return m;
}

}  // namespace cuzk::cuda
