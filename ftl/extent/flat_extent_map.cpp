#include "ftl/extent/flat_extent_map.h"

namespace ssd::ftl {

void FlatExtentMap::runs_in(Lun lun, uint32_t length, std::vector<Extent>& runs) const {
  const size_t first = runs.size();  // entries before are the caller's, not to be extended
  for (Lun unit = lun; unit < lun + length; ++unit) {
    const SlotId slot = m_slots[unit];
    if (slot == kNone) continue;
    if (runs.size() > first && runs.back().end() == unit && runs.back().slot_of(unit) == slot) {
      ++runs.back().length;
    } else {
      runs.push_back({unit, 1, slot});
    }
  }
}

uint32_t FlatExtentMap::insert(const Extent& extent, std::vector<Extent>& displaced) {
  runs_in(extent.lun, extent.length, displaced);
  for (uint32_t k = 0; k < extent.length; ++k) m_slots[extent.lun + k] = extent.slot + k;
  return 1;
}

void FlatExtentMap::erase(Lun lun, uint32_t length, std::vector<Extent>& displaced) {
  runs_in(lun, length, displaced);
  for (Lun unit = lun; unit < lun + length; ++unit) m_slots[unit] = kNone;
}

uint64_t FlatExtentMap::pieces() const {
  uint64_t runs = 0;
  for (Lun unit = 0; unit < m_slots.size(); ++unit) {
    const SlotId slot = m_slots[unit];
    const bool continues =
        unit > 0 && slot != kNone && m_slots[unit - 1] != kNone && m_slots[unit - 1] + 1 == slot;
    if (slot != kNone && !continues) ++runs;
  }
  return runs;
}

}  // namespace ssd::ftl
