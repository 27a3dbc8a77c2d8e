// Populates the pages of a large table on a second thread ahead of its first writes, and frees
// large buffers there, so that the kernel's work on them is not on the filling thread's path. The
// kernel's clearing of fresh pages is a large part of a bulk load's cost on a VM: VET's load of an
// aged 512 GiB device populated 4.7 GB of its table's pool a piece at a time, 2,363 calls that
// took 7.9 s of its 34 s (`strace -c`, docs/performance.md). Populating asks the kernel for the
// pages without touching their contents, so the worker and the filling thread may work on the
// same pages in any order: the table ends the same, and so does everything else.
#pragma once

#include <algorithm>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>

namespace ssd::ftl {

class PopulateAhead {
 public:
  static constexpr size_t kPieceBytes = size_t{2} << 20;
  static constexpr uint32_t kPiecesAhead = 4;  // how far the worker is asked to go

  PopulateAhead();
  // Waits for the worker to finish what it was asked (freeing included) and stops it.
  ~PopulateAhead();
  PopulateAhead(const PopulateAhead&) = delete;
  PopulateAhead& operator=(const PopulateAhead&) = delete;

  // Call before each append to `table` (a vector with room reserved): when its size reaches a
  // piece's boundary, asks for the piece kPiecesAhead further to be populated (and, at the first
  // append, for the pieces up to it). Call settle() before the table's storage may move.
  template <typename Table>
  void before_append(Table& table) {
    constexpr uint64_t kPieceEntries = kPieceBytes / sizeof(typename Table::value_type) > 0
                                           ? kPieceBytes / sizeof(typename Table::value_type)
                                           : 1;
    const uint64_t size = table.size();
    if (size % kPieceEntries != 0 || size >= table.capacity()) return;
    const uint64_t first = size == 0 ? 0 : size + kPiecesAhead * kPieceEntries;
    const uint64_t end =
        std::min<uint64_t>(table.capacity(), size + (kPiecesAhead + 1) * kPieceEntries);
    if (first >= end) return;
    populate(table.data() + first, (end - first) * sizeof(typename Table::value_type));
  }

  // Asks for the pages of [begin, begin + bytes) to be populated; they must stay mapped until
  // settle() (or this object's end).
  void populate(void* begin, size_t bytes);
  // Frees a buffer of new[] on the worker.
  template <typename T>
  void release(std::unique_ptr<T[]> buffer) {
    ask([memory = buffer.release()] { delete[] memory; });
  }

  // Returns once the worker has done everything asked of it.
  void settle();

 private:
  void ask(std::function<void()> task);
  void work();

  std::mutex m_mutex;
  std::condition_variable m_changed;
  std::deque<std::function<void()>> m_asked;  // in order
  bool m_busy = false;                        // the worker is doing a task taken off m_asked
  bool m_stop = false;
  std::thread m_worker;
};

}  // namespace ssd::ftl
