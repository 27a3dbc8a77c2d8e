// Which mapping segments have a copy in NVRAM and how old each copy is, for the NVRAM-aware sync
// (shared/papers/nvram-mapping-table.md, section 3.3): a copy's segment age is zero when it is
// copied in (first time or again: the paper's "re-accessed"), grows by one at every
// synchronization command, and the oldest copy is the one evicted to flash when NVRAM is full.
// Ages are kept as the sync number of the latest copy (age = syncs since), so a sync costs
// nothing here; ties go to the lowest segment number. Pure bookkeeping.
#pragma once

#include <cstdint>
#include <set>
#include <utility>
#include <vector>

namespace ssd::ftl {

class NvramSegments {
 public:
  NvramSegments(uint32_t capacity, uint32_t segments);

  uint32_t capacity() const { return m_capacity; }
  uint32_t size() const { return static_cast<uint32_t>(m_by_age.size()); }
  bool full() const { return size() >= m_capacity; }
  bool holds(uint32_t segment) const { return m_copied_at[segment] != kAbsent; }

  // A sync starts: every copy ages by one.
  void begin_sync() { ++m_syncs; }
  // `segment` is copied in now (age zero); it must be held already or there must be room.
  void copy_in(uint32_t segment);
  void remove(uint32_t segment);
  // The copy with the highest age (NVRAM must hold one).
  uint32_t oldest() const { return m_by_age.begin()->second; }
  uint64_t age(uint32_t segment) const { return m_syncs - m_copied_at[segment]; }
  // What NVRAM's directory word of `segment` says (a power cut's undo puts an old one back).
  uint64_t copied_at(uint32_t segment) const { return m_copied_at[segment]; }
  void restore(uint32_t segment, uint64_t copied_at);

 private:
  static constexpr uint64_t kAbsent = ~uint64_t{0};

  uint32_t m_capacity;
  uint64_t m_syncs = 0;
  std::vector<uint64_t> m_copied_at;                 // per segment: sync number, or kAbsent
  std::set<std::pair<uint64_t, uint32_t>> m_by_age;  // (copied at, segment): oldest first
};

}  // namespace ssd::ftl
