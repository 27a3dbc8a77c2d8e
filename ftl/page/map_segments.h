// The page table seen as mapping segments (contiguous entries) and which of their entries changed
// since the segment was last made durable, for the NVRAM-aware sync of
// shared/papers/nvram-mapping-table.md (section 3.1): a segment is clean (no dirty entry), sparse
// (some, at most the dense threshold's share), dense (more) or full (all of them).
//
// The firmware keeps a list of dirty segments rather than scanning every segment at each sync
// (the paper's Algorithm 1 says "foreach D_SEGMENT"; clean ones are skipped, so the result is the
// same and the CPU pays per dirty segment). Pure bookkeeping: no flash, no time.
#pragma once

#include <cstdint>
#include <vector>

#include "ftl/core/types.h"

namespace ssd::ftl {

enum class SegmentState : uint8_t { kClean, kSparse, kDense, kFull };

const char* to_string(SegmentState state);

class MapSegments {
 public:
  MapSegments(uint64_t entries, uint32_t entries_per_segment, double dense_threshold);

  uint32_t count() const { return static_cast<uint32_t>(m_dirty_count.size()); }
  uint32_t segment_of(Lun lun) const { return static_cast<uint32_t>(lun / m_per_segment); }
  Lun first_entry(uint32_t segment) const { return Lun(uint64_t(segment) * m_per_segment); }
  // Entries of `segment` (the last one may be short).
  uint32_t entries_in(uint32_t segment) const;

  // Entry `lun` changed since its segment was last made durable.
  void mark_dirty(Lun lun) {
    if (m_dirty[lun]) return;
    m_dirty[lun] = true;
    const uint32_t segment = segment_of(lun);
    if (m_dirty_count[segment]++ == 0) m_dirty_list.push_back(segment);
  }
  bool dirty(Lun lun) const { return m_dirty[lun]; }
  uint32_t dirty_entries(uint32_t segment) const { return m_dirty_count[segment]; }
  SegmentState state(uint32_t segment) const;
  // Every entry of `segment` is durable again.
  void mark_clean(uint32_t segment);

  bool any_dirty() const { return !m_dirty_list.empty(); }
  // The segments dirtied since the last call, in segment order (Algorithm 1's order), and forgets
  // them: one dirtied again afterwards is listed again by the next call.
  std::vector<uint32_t> take_dirty();

 private:
  uint64_t m_entries;
  uint32_t m_per_segment;
  double m_dense_threshold;
  std::vector<bool> m_dirty;            // per entry
  std::vector<uint32_t> m_dirty_count;  // per segment
  std::vector<uint32_t> m_dirty_list;   // segments with a dirty entry, in order of dirtying
};

}  // namespace ssd::ftl
