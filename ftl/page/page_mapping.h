// Page mapping (`--ftl page`): one table entry per logical mapping unit, held in controller DRAM,
// pointing at the physical slot that holds the unit. Writes go out of place through the shared
// PageStore (striped over dies, greedy GC); a write that covers part of a unit reads the old unit
// first and merges (read-modify-write). The table is the textbook baseline every paper compares
// against: fastest lookups, largest memory.
#pragma once

#include <cstdint>
#include <vector>

#include "ftl/core/mapping_scheme.h"
#include "ftl/core/page_store.h"

namespace ssd::ftl {

class PageMapping final : public MappingScheme, private MappingOwner {
 public:
  explicit PageMapping(const SchemeContext& context);

  void read(const HostCommand& command) override;
  void write(const HostCommand& command) override;
  void trim(const HostCommand& command) override;
  void flush(const HostCommand& command) override;

  const FtlStats& stats() const override { return m_stats; }
  // Entries x the bytes a controller needs to name every physical slot.
  uint64_t mapping_memory_bytes() const override;

  SlotId slot_of(Lun lun) const { return m_l2p[lun]; }
  const PageStore& store() const { return m_store; }

 private:
  bool maps(Lun lun, SlotId slot) const override { return m_l2p[lun] == slot; }
  void relocate(Lun lun, SlotId /*from*/, SlotId to) override { m_l2p[lun] = to; }
  void prefetch(Lun lun) const override { __builtin_prefetch(&m_l2p[lun]); }

  FlashBackend& m_backend;
  const Geometry& m_geometry;
  FtlStats m_stats;
  std::vector<SlotId> m_l2p;  // kNone = unmapped
  PageStore m_store;
  uint32_t m_entry_bytes;
};

}  // namespace ssd::ftl
