#include "ftl/page/nvram_segments.h"

#include <stdexcept>

namespace ssd::ftl {

NvramSegments::NvramSegments(uint32_t capacity, uint32_t segments)
    : m_capacity(capacity), m_copied_at(segments, kAbsent) {}

void NvramSegments::copy_in(uint32_t segment) {
  if (holds(segment)) {
    m_by_age.erase({m_copied_at[segment], segment});
  } else if (full()) {
    throw std::logic_error("NVRAM copy of a map segment with no room left");
  }
  m_copied_at[segment] = m_syncs;
  m_by_age.insert({m_syncs, segment});
}

void NvramSegments::remove(uint32_t segment) {
  if (!holds(segment)) return;
  m_by_age.erase({m_copied_at[segment], segment});
  m_copied_at[segment] = kAbsent;
}

void NvramSegments::restore(uint32_t segment, uint64_t copied_at) {
  remove(segment);
  if (copied_at == kAbsent) return;
  m_copied_at[segment] = copied_at;
  m_by_age.insert({copied_at, segment});
}

}  // namespace ssd::ftl
