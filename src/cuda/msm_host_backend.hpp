// A CPU stand-in for the MSM's device backend: runs msm_engine.hpp's kernels thread index by thread
// index, sorts with std::stable_sort and scans sequentially. It exists so that the whole GPU
// algorithm (kernel bodies and orchestration) can be tested on a machine without a GPU; it is slow.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

namespace cuzk::cuda::msm_detail {

class HostBackend {
 public:
  struct Buffer {
    std::vector<unsigned char> v;  // operator new alignment (16 bytes) suffices on the host
  };

  template <class T>
  T* ensure(Buffer& b, size_t n) {
    if (b.v.size() < n * sizeof(T)) b.v.assign(n * sizeof(T), 0xA5);  // poison: catches reads of stale data
    return reinterpret_cast<T*>(b.v.data());
  }
  void free(Buffer& b) { std::vector<unsigned char>().swap(b.v); }
  void* data(Buffer& b) const { return b.v.data(); }
  size_t buffer_bytes(const Buffer& b) const { return b.v.size(); }

  template <class T>
  void zero(T* p, size_t n) {
    std::memset(static_cast<void*>(p), 0, n * sizeof(T));
  }

  template <class Kern>
  void launch(const Kern& k, size_t n) {
    launches++;
    for (size_t i = 0; i < n; i++) k(i);
  }

  void sort_pairs(uint32_t*& keys, uint32_t*& keys_alt, uint32_t*& vals, uint32_t*& vals_alt, size_t n,
                  int bits) {
    std::vector<std::pair<uint32_t, uint32_t>> v(n);
    const uint32_t mask = bits >= 32 ? 0xffffffffu : (1u << bits) - 1;
    for (size_t i = 0; i < n; i++) v[i] = {keys[i] & mask, vals[i]};
    std::stable_sort(v.begin(), v.end(), [](auto& a, auto& b) { return a.first < b.first; });
    // Write to the alternates and swap, like a double-buffered device sort.
    for (size_t i = 0; i < n; i++) {
      keys_alt[i] = v[i].first;
      vals_alt[i] = v[i].second;
    }
    std::swap(keys, keys_alt);
    std::swap(vals, vals_alt);
  }

  size_t scan(const uint32_t* counts, uint32_t* offsets, size_t n) {
    size_t s = 0;
    for (size_t i = 0; i < n; i++) {
      offsets[i] = (uint32_t)s;
      s += counts[i];
    }
    return s;
  }

  template <class T>
  void to_host(T* dst, const T* src, size_t n) {
    std::memcpy(static_cast<void*>(dst), src, n * sizeof(T));
  }
  void sync() {}
  void phase(const char*) {}
  void phase_report(size_t, int, int, int) {}

  size_t launches = 0;  ///< kernel launches so far (for tests)
};

}  // namespace cuzk::cuda::msm_detail
