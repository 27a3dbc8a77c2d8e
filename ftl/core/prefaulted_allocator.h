// An allocator for the simulator's large tables that their constructor writes whole at once (the
// flash's tokens; its spare words are written only where used, spare_area.h): a large one is
// mapped with its pages populated by the kernel in one call (madvise MADV_POPULATE_WRITE) instead
// of faulted in a 4 KiB page at a time by that first write, which took about twice as long on the
// machine measured (docs/performance.md, "Preconditioning"). Small tables, and systems without the
// call, get ordinary memory. Nothing else differs: the contents are the vector's.
#pragma once

#include <sys/mman.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>

namespace ssd::ftl {

template <class T>
struct PrefaultedAllocator {
  using value_type = T;
  static constexpr size_t kLargeBytes = size_t{64} << 20;  // below this, faults cost little

  PrefaultedAllocator() = default;
  template <class U>
  PrefaultedAllocator(const PrefaultedAllocator<U>& /*other*/) {}

  T* allocate(size_t n) {
    const size_t bytes = n * sizeof(T);
    if (bytes < kLargeBytes) return std::allocator<T>().allocate(n);
    void* memory = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (memory == MAP_FAILED) throw std::bad_alloc();
#ifdef MADV_POPULATE_WRITE
    madvise(memory, bytes, MADV_POPULATE_WRITE);  // if refused, the first writes fault it in
#endif
    return static_cast<T*>(memory);
  }
  void deallocate(T* memory, size_t n) {
    const size_t bytes = n * sizeof(T);
    if (bytes < kLargeBytes) {
      std::allocator<T>().deallocate(memory, n);
      return;
    }
    munmap(memory, bytes);
  }

  template <class U>
  bool operator==(const PrefaultedAllocator<U>& /*other*/) const {
    return true;
  }
  template <class U>
  bool operator!=(const PrefaultedAllocator<U>& /*other*/) const {
    return false;
  }
};

// The same for a table allocated otherwise (a std::vector the interfaces pass around): after
// reserve() and before the first write, populates the pages of [begin, begin + bytes) that lie
// whole in it, when they are many.
inline void prefault_for_writing(void* begin, size_t bytes) {
#ifdef MADV_POPULATE_WRITE
  if (bytes < PrefaultedAllocator<char>::kLargeBytes) return;
  const size_t page = 4096;
  const auto first = (reinterpret_cast<uintptr_t>(begin) + page - 1) / page * page;
  const auto end = (reinterpret_cast<uintptr_t>(begin) + bytes) / page * page;
  if (end > first) madvise(reinterpret_cast<void*>(first), end - first, MADV_POPULATE_WRITE);
#else
  (void)begin;
  (void)bytes;
#endif
}

}  // namespace ssd::ftl
