// A plain ExtentMap over std::map (start unit -> extent), for testing the extent FTL apart from
// VET and EMT: the extents are stored as inserted and cut where a later one overlaps them.
// Counts nothing and claims no memory.
#pragma once

#include <map>

#include "ftl/extent/extent_map.h"

namespace ssd::testing {

class IntervalExtentMap final : public ftl::ExtentMap {
 public:
  void lookup(ftl::Lun lun, uint32_t length, std::vector<ftl::Extent>& found) override {
    for (auto it = first_overlapping(lun); it != m_extents.end() && it->first < lun + length;
         ++it) {
      found.push_back(clip(it->second, lun, lun + length));
    }
  }
  uint32_t insert(const ftl::Extent& extent, std::vector<ftl::Extent>& displaced) override {
    erase(extent.lun, extent.length, displaced);
    m_extents[extent.lun] = extent;
    return 1;
  }
  void erase(ftl::Lun lun, uint32_t length, std::vector<ftl::Extent>& displaced) override {
    const ftl::Lun end = lun + length;
    auto it = first_overlapping(lun);
    while (it != m_extents.end() && it->first < end) {
      const ftl::Extent old = it->second;
      displaced.push_back(clip(old, lun, end));
      it = m_extents.erase(it);
      if (old.lun < lun) m_extents[old.lun] = {old.lun, lun - old.lun, old.slot};
      if (old.end() > end) m_extents[end] = {end, old.end() - end, old.slot_of(end)};
    }
  }
  ftl::SlotId slot_of(ftl::Lun lun) override {
    auto it = first_overlapping(lun);
    if (it == m_extents.end() || it->first > lun) return ftl::kNone;
    return it->second.slot_of(lun);
  }
  uint64_t memory_bytes() const override { return 0; }
  uint64_t pieces() const override { return m_extents.size(); }
  uint64_t nodes() const override { return m_extents.size(); }

 private:
  static ftl::Extent clip(const ftl::Extent& e, ftl::Lun lo, ftl::Lun hi) {
    const ftl::Lun from = std::max(e.lun, lo);
    const ftl::Lun to = std::min(e.end(), hi);
    return {from, to - from, e.slot_of(from)};
  }
  // The first stored extent that ends after `lun`.
  std::map<ftl::Lun, ftl::Extent>::iterator first_overlapping(ftl::Lun lun) {
    auto it = m_extents.upper_bound(lun);
    if (it != m_extents.begin() && std::prev(it)->second.end() > lun) --it;
    return it;
  }

  std::map<ftl::Lun, ftl::Extent> m_extents;
};

}  // namespace ssd::testing
