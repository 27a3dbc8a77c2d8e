#include "ftl/page/map_segments.h"

#include <algorithm>
#include <stdexcept>

namespace ssd::ftl {

const char* to_string(SegmentState state) {
  switch (state) {
    case SegmentState::kClean:
      return "clean";
    case SegmentState::kSparse:
      return "sparse";
    case SegmentState::kDense:
      return "dense";
    case SegmentState::kFull:
      return "full";
  }
  return "?";
}

MapSegments::MapSegments(uint64_t entries, uint32_t entries_per_segment, double dense_threshold)
    : m_entries(entries),
      m_per_segment(entries_per_segment),
      m_dense_threshold(dense_threshold),
      m_dirty(entries, false) {
  if (entries_per_segment == 0) throw std::invalid_argument("a map segment needs an entry");
  m_dirty_count.assign((entries + entries_per_segment - 1) / entries_per_segment, 0);
}

uint32_t MapSegments::entries_in(uint32_t segment) const {
  const uint64_t first = first_entry(segment);
  return static_cast<uint32_t>(std::min<uint64_t>(m_per_segment, m_entries - first));
}

SegmentState MapSegments::state(uint32_t segment) const {
  const uint32_t dirty = m_dirty_count[segment];
  const uint32_t entries = entries_in(segment);
  if (dirty == 0) return SegmentState::kClean;
  if (dirty == entries) return SegmentState::kFull;
  // "a mapping segment whose ratio of dirty mapping entries is greater than 25% goes to dense"
  return double(dirty) > m_dense_threshold * double(entries) ? SegmentState::kDense
                                                             : SegmentState::kSparse;
}

void MapSegments::mark_clean(uint32_t segment) {
  if (m_dirty_count[segment] == 0) return;
  const Lun first = first_entry(segment);
  const Lun end = first + entries_in(segment);
  std::fill(m_dirty.begin() + first, m_dirty.begin() + end, false);
  m_dirty_count[segment] = 0;
}

std::vector<uint32_t> MapSegments::take_dirty() {
  std::vector<uint32_t> list;
  list.swap(m_dirty_list);
  // A segment cleaned and dirtied again before this call is listed twice: keep it once.
  std::sort(list.begin(), list.end());
  list.erase(std::unique(list.begin(), list.end()), list.end());
  return list;
}

}  // namespace ssd::ftl
