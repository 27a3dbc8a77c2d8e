// A page-mapping table (the paper's "PMT") behind the ExtentMap interface, so the experiments and
// micro-benchmarks time and size it the same way as VET and EMT: one entry per logical unit,
// as wide as a slot number needs (ftl/page/page_mapping.h keeps the same table inside the FTL).
// Lookups answer maximal runs of consecutive slots.
#pragma once

#include <vector>

#include "ftl/core/memory_sizes.h"
#include "ftl/extent/extent_map.h"

namespace ssd::bench {

class PageTableMap final : public ftl::ExtentMap {
 public:
  PageTableMap(const ftl::ExtentSpace& space, ftl::CpuWork& cpu)
      : m_table(space.logical_units, ftl::kNone),
        m_entry_bytes(ftl::bytes_to_name(space.slots)),
        m_cpu(cpu) {}

  void lookup(ftl::Lun lun, uint32_t length, std::vector<ftl::Extent>& found) override {
    m_cpu.table_lookups += length;
    for (uint32_t i = 0; i < length; ++i) {
      const ftl::SlotId slot = m_table[lun + i];
      if (slot == ftl::kNone) continue;
      if (!found.empty() && found.back().end() == lun + i &&
          found.back().slot + found.back().length == slot) {
        ++found.back().length;
      } else {
        found.push_back({lun + i, 1, slot});
      }
    }
  }
  uint32_t insert(const ftl::Extent& extent, std::vector<ftl::Extent>& displaced) override {
    lookup(extent.lun, extent.length, displaced);
    for (uint32_t i = 0; i < extent.length; ++i) {
      if (m_table[extent.lun + i] == ftl::kNone) ++m_mapped;
      m_table[extent.lun + i] = extent.slot + i;
    }
    m_cpu.table_lookups += extent.length;
    return extent.length;
  }
  void erase(ftl::Lun lun, uint32_t length, std::vector<ftl::Extent>& displaced) override {
    lookup(lun, length, displaced);
    for (uint32_t i = 0; i < length; ++i) {
      if (m_table[lun + i] != ftl::kNone) --m_mapped;
      m_table[lun + i] = ftl::kNone;
    }
  }
  ftl::SlotId slot_of(ftl::Lun lun) override {
    ++m_cpu.table_lookups;
    return m_table[lun];
  }
  // The whole table, mapped or not: its size is set by the address space.
  uint64_t memory_bytes() const override { return uint64_t(m_table.size()) * m_entry_bytes; }
  uint64_t pieces() const override { return m_mapped; }
  uint64_t nodes() const override { return m_table.size(); }

 private:
  std::vector<ftl::SlotId> m_table;
  uint32_t m_entry_bytes;
  ftl::CpuWork& m_cpu;
  uint64_t m_mapped = 0;
};

}  // namespace ssd::bench
