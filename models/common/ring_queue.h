// A first-in, first-out queue kept in one ring of storage (a power of two of elements), for the
// NAND timing's per-die GC queues: operations are pushed at the back and taken from the front
// millions of times a run, a few victims' worth queued at once. The ring doubles when it is full
// and is otherwise reused, so nothing is allocated per element, and the storage is at most twice
// the longest the queue has been (a std::deque allocated and freed a block every few elements;
// a vector with a moving front kept up to four times the longest).
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

namespace ssd::models {

template <typename T>
class RingQueue {
 public:
  bool empty() const { return m_size == 0; }
  size_t size() const { return m_size; }
  size_t capacity() const { return m_ring.size(); }  // elements the storage holds room for

  // The i-th element from the front.
  T& operator[](size_t i) { return m_ring[(m_head + i) & (m_ring.size() - 1)]; }
  const T& operator[](size_t i) const { return m_ring[(m_head + i) & (m_ring.size() - 1)]; }
  T& front() { return m_ring[m_head]; }
  const T& front() const { return m_ring[m_head]; }
  T& back() { return (*this)[m_size - 1]; }
  const T& back() const { return (*this)[m_size - 1]; }

  void push_back(const T& item) {
    if (m_size == m_ring.size()) grow();
    ++m_size;
    back() = item;
  }
  void pop_front() {
    m_head = (m_head + 1) & (m_ring.size() - 1);
    --m_size;
  }
  void clear() {  // keeps the storage
    m_head = 0;
    m_size = 0;
  }

 private:
  static constexpr size_t kMinCapacity = 64;

  void grow() {
    std::vector<T> bigger(std::max(kMinCapacity, 2 * m_ring.size()));
    for (size_t i = 0; i < m_size; ++i) bigger[i] = (*this)[i];
    m_ring.swap(bigger);
    m_head = 0;
  }

  std::vector<T> m_ring;  // empty, or a power of two of elements
  size_t m_head = 0;      // the front's index in m_ring
  size_t m_size = 0;
};

}  // namespace ssd::models
