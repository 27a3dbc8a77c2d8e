// Page mapping (`--ftl page`): one table entry per logical mapping unit, held in controller DRAM,
// pointing at the physical slot that holds the unit. Writes go out of place through the shared
// PageStore (striped over dies, greedy GC); a write that covers part of a unit reads the old unit
// first and merges (read-modify-write). The table is the textbook baseline every paper compares
// against: fastest lookups, largest memory.
//
// What a flush does with the table is `ftl.page.map_sync` (map_sync.h): by default nothing (the
// table stays volatile, rebuilt from spare areas after a power loss), or it writes the table's
// dirty segments to flash, or to flash and NVRAM (the NVRAM-aware scheme).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "ftl/core/block_lender.h"
#include "ftl/core/mapping_scheme.h"
#include "ftl/core/page_store.h"
#include "ftl/page/map_sync.h"

namespace ssd::ftl {

class PageMapping final : public MappingScheme, public BlockLender, private MappingOwner {
 public:
  explicit PageMapping(const SchemeContext& context);
  // Rebuilt after a power cut: with map_sync none the table from the spare areas, each unit's
  // copy the one in the page with the highest program sequence (PageStore::scan_flash); with a
  // map sync, from the map pages, NVRAM and the log since the last sync (map_recovery.h).
  static std::unique_ptr<PageMapping> recovered(const SchemeContext& context);

  void read(const HostCommand& command) override;
  void write(const HostCommand& command) override;
  void trim(const HostCommand& command) override;
  void flush(const HostCommand& command) override;
  // The store's bulk layout (PageStore::fill_sequential), then write()'s own path for the units
  // after its last whole page.
  bool fill_sequential(const SequentialFill& fill) override;
  // Sampled aging: the store describes and lays out the planes (PageStore::describe_planes,
  // lay_out_aged); the units its valid slots do not take go through write()'s own path.
  bool describe_aged_planes(AgedPlanes& planes) const override;
  bool lay_out_aged(const AgedLayout& layout) override;

  void prefetch_unit(Lun lun) const override { prefetch(lun); }
  void expect_random_work() override;

  const FtlStats& stats() const override { return m_stats; }
  // Entries x the bytes a controller needs to name every physical slot.
  uint64_t mapping_memory_bytes() const override;
  std::vector<MappingFigure> mapping_figures() const override;

  // Blocks for the sector log's data region (ftl/sector_log/).
  BlockId lend_block(uint32_t plane) override { return m_store.lend_block(plane); }
  void take_back(BlockId block) override { m_store.take_back(block); }

  SlotId slot_of(Lun lun) const { return m_l2p[lun]; }
  const PageStore& store() const { return m_store; }
  const std::vector<SlotId>& table() const { return m_l2p; }
  // The table's durability (nullptr with ftl.page.map_sync = none).
  const MapSync* map_sync() const { return m_sync.get(); }

 private:
  bool maps(Lun lun, SlotId slot) const override {
    if (lun >= m_l2p.size()) return m_sync->maps(lun, slot);
    return m_l2p[lun] == slot;
  }
  void relocate(Lun lun, SlotId /*from*/, SlotId to) override {
    if (lun >= m_l2p.size()) {
      m_sync->relocate(lun, to);
      return;
    }
    m_l2p[lun] = to;
    if (m_sync) m_sync->changed(lun);
  }
  void prefetch(Lun lun) const override {
    if (lun < m_l2p.size()) __builtin_prefetch(&m_l2p[lun]);
  }
  // Points `lun` at `slot` (kNone: unmapped); the table's segment is dirty.
  void set_entry(Lun lun, SlotId slot) {
    m_l2p[lun] = slot;
    if (m_sync) m_sync->changed(lun);
  }

  FlashBackend& m_backend;
  const Geometry& m_geometry;
  FtlStats m_stats;
  std::vector<SlotId> m_l2p;  // kNone = unmapped
  PageStore m_store;
  uint32_t m_entry_bytes;
  std::unique_ptr<MapSync> m_sync;  // nullptr: the table stays volatile
};

}  // namespace ssd::ftl
