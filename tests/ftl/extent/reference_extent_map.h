// The obviously-correct extent map the tests hold VET and EMT against: one entry per logical unit
// (std::map unit -> slot). Its lookup answers are merged into maximal runs, so compare answers
// after merging (merge_runs) rather than piece by piece.
#pragma once

#include <cstdint>
#include <map>
#include <vector>

#include "ftl/extent/extent_map.h"

namespace ssd::testing {

// Joins neighbouring extents that continue each other in both address spaces.
inline std::vector<ftl::Extent> merge_runs(const std::vector<ftl::Extent>& pieces) {
  std::vector<ftl::Extent> runs;
  for (const ftl::Extent& e : pieces) {
    if (!runs.empty() && runs.back().end() == e.lun &&
        runs.back().slot + runs.back().length == e.slot) {
      runs.back().length += e.length;
    } else {
      runs.push_back(e);
    }
  }
  return runs;
}

class ReferenceExtentMap {
 public:
  // Mapped units of [lun, lun + length) as maximal runs.
  std::vector<ftl::Extent> lookup(ftl::Lun lun, uint32_t length) const {
    std::vector<ftl::Extent> units;
    for (auto it = m_units.lower_bound(lun); it != m_units.end() && it->first < lun + length;
         ++it) {
      units.push_back({it->first, 1, it->second});
    }
    return merge_runs(units);
  }
  void insert(const ftl::Extent& e) {
    for (uint32_t i = 0; i < e.length; ++i) m_units[e.lun + i] = e.slot + i;
  }
  void erase(ftl::Lun lun, uint32_t length) {
    m_units.erase(m_units.lower_bound(lun), m_units.lower_bound(lun + length));
  }
  uint64_t mapped_units() const { return m_units.size(); }

 private:
  std::map<ftl::Lun, ftl::SlotId> m_units;
};

}  // namespace ssd::testing
