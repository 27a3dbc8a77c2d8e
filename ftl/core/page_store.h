// Page-granular flash management that the page-level schemes (page mapping, DFTL, VET, EMT)
// share: block pools, the host and GC write streams, greedy GC on the plane that runs short, and
// reading units back whether they are on flash or still in a page being assembled in DRAM.
// The scheme keeps the mapping and answers GC through MappingOwner.
#pragma once

#include <cstdint>
#include <memory>

#include "config/platform_config.h"
#include "ftl/core/block_manager.h"
#include "ftl/core/flash_backend.h"
#include "ftl/core/ftl_stats.h"
#include "ftl/core/garbage_collector.h"
#include "ftl/core/unit_writer.h"
#include "ftl/core/victim_policy.h"

namespace ssd::ftl {

class PageStore {
 public:
  PageStore(const config::PlatformConfig& platform, FlashBackend& backend, MappingOwner& owner,
            FtlStats& stats);

  // Spare words per page this store writes (one LUN per unit).
  static uint32_t spare_words(const Geometry& geometry) { return geometry.units_per_page; }

  // Writes one unit of host data; may run GC first. `after`: the op the program waits for.
  SlotId write(Lun lun, Token token, uint32_t after = kNone) {
    return m_host_writer.append(lun, token, after);
  }
  // Writes one unit of mapping metadata (e.g. a translation page) in the host stream, under
  // `key` (a number beyond the logical units, which GC hands back to the scheme).
  SlotId write_mapping(Lun key, Token token, uint32_t after = kNone) {
    return m_host_writer.append(key, token, after, OpClass::kMapping);
  }
  // Writes one unit of mapping metadata in the mapping stream: its own open blocks, so map pages
  // are written apart from data (a page-mapped FTL's translation region, ftl/page/map_sync.h);
  // GC later moves live map units with the data it relocates.
  SlotId write_map(Lun key, Token token, uint32_t after = kNone) {
    return m_map_writer.append(key, token, after, OpClass::kMapping);
  }
  // The same on a chosen plane (the k-th of the stripe order is
  // geometry().plane_in_stripe_order(k)), for schemes that keep a request's units together:
  // consecutive units on one plane get consecutive slots until the plane's open block is full.
  SlotId write_on_plane(uint32_t plane, Lun lun, Token token, uint32_t after = kNone) {
    return m_host_writer.append_on_plane(plane, lun, token, after);
  }
  // The unit in `slot` is stale (overwritten or trimmed).
  void invalidate(SlotId slot) { m_blocks.remove_valid(slot); }

  // Reads `units` consecutive units of one page starting at `slot`, recording a flash read, or a
  // DRAM read when the page is still being assembled. Returns the op index.
  uint32_t read(SlotId slot, uint32_t units, OpClass op_class, uint32_t after = kNone);
  // The unit's content token, wherever it is (no operation recorded).
  Token token(SlotId slot) const {
    if (m_host_writer.holds(slot)) return m_host_writer.buffered_token(slot);
    if (m_gc_writer.holds(slot)) return m_gc_writer.buffered_token(slot);
    if (m_map_writer.holds(slot)) return m_map_writer.buffered_token(slot);
    return m_backend.flash().token(slot);
  }
  bool buffered(SlotId slot) const {
    return m_host_writer.holds(slot) || m_gc_writer.holds(slot) || m_map_writer.holds(slot);
  }

  // Programs every page still being assembled (padding empty slots). Returns the last op or kNone.
  uint32_t flush();

  const BlockManager& blocks() const { return m_blocks; }
  const Geometry& geometry() const { return m_blocks.geometry(); }

 private:
  FlashBackend& m_backend;
  BlockManager m_blocks;
  std::unique_ptr<VictimPolicy> m_policy;
  UnitWriter m_host_writer;
  UnitWriter m_gc_writer;
  UnitWriter m_map_writer;  // used only by schemes that call write_map()
  GarbageCollector m_gc;
};

}  // namespace ssd::ftl
