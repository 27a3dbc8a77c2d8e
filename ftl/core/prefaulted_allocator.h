// An allocator for the simulator's large tables that their constructor writes whole at once (the
// flash's tokens; its spare words are written only where used, spare_area.h): a large one is
// mapped with its pages populated by the kernel in one call (madvise MADV_POPULATE_WRITE) instead
// of faulted in a 4 KiB page at a time by that first write, which took about twice as long on the
// machine measured (docs/performance.md, "Preconditioning"). Small tables, and systems without the
// call, get ordinary memory. Nothing else differs: the contents are the vector's.
//
// back_by_huge_pages() asks for 2 MiB pages for such a table once it is written (MADV_HUGEPAGE,
// then MADV_COLLAPSE to have it done now: Linux 6.1 and later, where transparent huge pages are
// "madvise" or "always"; elsewhere both are refused and nothing changes). A scheme does so for
// its per-unit tables before preconditioning ages the device (MappingScheme::expect_random_work):
// a unit's map entry is then read and written at random millions of times, and with 4 KiB pages
// nearly every such access missed the TLB as well as the cache. Not for every run: on the VM
// measured, a huge page handed out fresh cost up to 1.3 s more for the 499 MB map than 4 KiB
// ones, more than a million-request run of random reads gains (docs/performance.md).
#pragma once

#include <sys/mman.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <vector>

namespace ssd::ftl {

// Makes room in a growing table (a vector) for `entries` entries before it grows to them: growing
// by doubling copies the table and faults in twice its pages, while room not yet used costs
// address space only. Only a help: room the allocator refuses is not taken, and the table grows
// as it goes.
template <typename Table>
void reserve_room(Table& table, uint64_t entries) {
  try {
    table.reserve(entries);
  } catch (const std::bad_alloc&) {
  }
}

// Calls madvise(advice) on the 4 KiB pages that lie whole in [begin, begin + bytes).
inline void advise_whole_pages(void* begin, size_t bytes, int advice) {
  const size_t page = 4096;
  const auto first = (reinterpret_cast<uintptr_t>(begin) + page - 1) / page * page;
  const auto end = (reinterpret_cast<uintptr_t>(begin) + bytes) / page * page;
  if (end > first) madvise(reinterpret_cast<void*>(first), end - first, advice);
}

// Populates the pages of a large table before its first write (if refused, the first writes
// fault them in).
inline void populate_for_writing(void* begin, size_t bytes) {
#ifdef MADV_POPULATE_WRITE
  advise_whole_pages(begin, bytes, MADV_POPULATE_WRITE);
#else
  (void)begin;
  (void)bytes;
#endif
}

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
    populate_for_writing(memory, bytes);
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
// reserve() and before the first write, when it is large.
inline void prefault_for_writing(void* begin, size_t bytes) {
  if (bytes >= PrefaultedAllocator<char>::kLargeBytes) populate_for_writing(begin, bytes);
}

// `count` copies of `value` in a std::vector populated so: a scheme's per-unit table.
template <class T>
std::vector<T> populated_vector(size_t count, const T& value) {
  std::vector<T> table;
  table.reserve(count);
  prefault_for_writing(table.data(), count * sizeof(T));
  table.assign(count, value);
  return table;
}

// Room for a large table, not written yet, that will be accessed at random: the pages its first
// writes (or a populate) fault in are 2 MiB ones where the kernel allows (MADV_HUGEPAGE alone,
// nothing collapsed now). Small room is left alone.
inline void prefer_huge_pages(void* begin, size_t bytes) {
#ifdef MADV_HUGEPAGE
  if (bytes >= PrefaultedAllocator<char>::kLargeBytes) {
    advise_whole_pages(begin, bytes, MADV_HUGEPAGE);
  }
#else
  (void)begin;
  (void)bytes;
#endif
}

// A large table, written, about to be accessed at random at length: backed by 2 MiB pages now
// where the kernel allows (above).
inline void back_by_huge_pages(void* begin, size_t bytes) {
#ifdef MADV_HUGEPAGE
  if (bytes < PrefaultedAllocator<char>::kLargeBytes) return;
  prefer_huge_pages(begin, bytes);
  constexpr int kCollapse = 25;  // MADV_COLLAPSE, not yet in every libc's <sys/mman.h>
  advise_whole_pages(begin, bytes, kCollapse);
#else
  (void)begin;
  (void)bytes;
#endif
}

template <class T>
void back_by_huge_pages(std::vector<T>& table) {
  back_by_huge_pages(table.data(), table.size() * sizeof(T));
}

}  // namespace ssd::ftl
