// An allocator for the large arrays of a proof (SRS points, witness-sized scalar vectors): blocks of
// 4 MiB or more are mapped directly and marked for transparent huge pages (madvise MADV_HUGEPAGE), so
// filling a 600 MB proving key costs ~300 page faults instead of ~150 000; smaller blocks come from
// operator new. Elements are default-initialized (not zeroed) when a container is sized, so a vector
// that is about to be overwritten is not written twice.
#pragma once

#include <sys/mman.h>

#include <cstddef>
#include <new>
#include <utility>
#include <vector>

namespace cuzk {

template <class T>
struct HugePageAllocator {
  using value_type = T;
  static constexpr size_t kMapBytes = size_t{4} << 20;

  HugePageAllocator() = default;
  template <class U>
  HugePageAllocator(const HugePageAllocator<U>&) noexcept {}

  /// Storage for n objects; throws std::bad_alloc when the system has no memory for it.
  T* allocate(size_t n) {
    const size_t bytes = n * sizeof(T);
    if (bytes < kMapBytes) return static_cast<T*>(::operator new (bytes, std::align_val_t{alignof(T)}));
    void* p = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) throw std::bad_alloc();
    ::madvise(p, bytes, MADV_HUGEPAGE);  // advisory: without THP the pages are simply small
    return static_cast<T*>(p);
  }
  void deallocate(T* p, size_t n) noexcept {
    const size_t bytes = n * sizeof(T);
    if (bytes < kMapBytes)
      ::operator delete (p, std::align_val_t{alignof(T)});
    else
      ::munmap(p, bytes);
  }
  /// Default-initialization: trivially constructible elements are left as the memory holds them.
  template <class U>
  void construct(U* p) noexcept(noexcept(::new ((void*)p) U)) {
    ::new ((void*)p) U;
  }
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    ::new ((void*)p) U(std::forward<Args>(args)...);
  }
  template <class U>
  bool operator==(const HugePageAllocator<U>&) const noexcept {
    return true;
  }
};

/// A std::vector for large arrays (HugePageAllocator); sized construction leaves elements
/// default-initialized.
template <class T>
using BigVector = std::vector<T, HugePageAllocator<T>>;

}  // namespace cuzk
