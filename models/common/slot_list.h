// Reservations in time order (a die's or a channel's in nand_timing.h, a memory port's busy
// intervals in memory_timing.h): a vector whose front is dropped as reservations end. Dropping
// moves a start index instead of the elements, so a long list is not copied each time one
// reservation ends (nor allocated per reservation, as a tree would be); the
// storage is compacted once the dropped part is at least half of it, and then given back when it
// is four times what is left (a die's backlog after a long burst of GC would otherwise keep its
// largest size for the rest of the run). Otherwise it is used as a std::vector (iterators,
// insert, erase, resize), over the reservations not dropped.
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

namespace ssd::models {

template <typename T>
class SlotList {
 public:
  using value_type = T;
  using iterator = typename std::vector<T>::iterator;
  using const_iterator = typename std::vector<T>::const_iterator;

  iterator begin() { return m_items.begin() + static_cast<std::ptrdiff_t>(m_head); }
  iterator end() { return m_items.end(); }
  const_iterator begin() const { return m_items.begin() + static_cast<std::ptrdiff_t>(m_head); }
  const_iterator end() const { return m_items.end(); }
  size_t size() const { return m_items.size() - m_head; }
  size_t capacity() const { return m_items.capacity(); }  // elements the storage holds room for
  bool empty() const { return m_items.size() == m_head; }
  T& operator[](size_t i) { return m_items[m_head + i]; }
  const T& operator[](size_t i) const { return m_items[m_head + i]; }
  T& front() { return m_items[m_head]; }
  const T& front() const { return m_items[m_head]; }
  T& back() { return m_items.back(); }
  const T& back() const { return m_items.back(); }
  const T* data() const { return m_items.data() + m_head; }

  void reserve(size_t n) { m_items.reserve(n); }
  void resize(size_t n) { m_items.resize(m_head + n); }
  void clear() {
    m_items.clear();
    m_head = 0;
  }
  iterator insert(const_iterator at, const T& item) { return m_items.insert(at, item); }
  iterator erase(const_iterator from, const_iterator to) { return m_items.erase(from, to); }
  iterator erase(const_iterator at) { return m_items.erase(at); }

  // Drops every element before `keep` (an iterator of this list).
  void drop_front(const_iterator keep) {
    m_head = static_cast<size_t>(keep - m_items.cbegin());
    if (m_head >= kCompactAfter && 2 * m_head >= m_items.size()) {
      m_items.erase(m_items.begin(), m_items.begin() + static_cast<std::ptrdiff_t>(m_head));
      m_head = 0;
      if (m_items.capacity() > 4 * std::max(m_items.size(), kCompactAfter)) m_items.shrink_to_fit();
    }
  }

 private:
  static constexpr size_t kCompactAfter = 32;
  std::vector<T> m_items;
  size_t m_head = 0;
};

}  // namespace ssd::models
