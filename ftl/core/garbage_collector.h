// Garbage collection for page-granular schemes: when a write stream is about to open a block on a
// plane whose free pool is below the GC reserve, reclaim victims on that plane. For each victim it
// reads the valid units (those the owning scheme still maps to that slot, found through the LUN in
// the spare area), rewrites them through the GC stream on the same plane, lets the scheme update
// its map, programs the GC page (so nothing valid exists only in DRAM), and erases the victim.
#pragma once

#include <cstdint>

#include "ftl/core/block_manager.h"
#include "ftl/core/flash_backend.h"
#include "ftl/core/ftl_stats.h"
#include "ftl/core/unit_writer.h"
#include "ftl/core/victim_policy.h"

namespace ssd::ftl {

// What GC needs from the scheme that owns the mapping.
class MappingOwner {
 public:
  virtual ~MappingOwner() = default;
  // Does `lun` currently live in `slot`? (A stale copy is garbage.)
  virtual bool maps(Lun lun, SlotId slot) const = 0;
  // GC moved `lun` from `from` to `to`: update the mapping.
  virtual void relocate(Lun lun, SlotId from, SlotId to) = 0;
};

class GarbageCollector final : public UnitWriter::BlockNeedListener {
 public:
  GarbageCollector(FlashBackend& backend, BlockManager& blocks, UnitWriter& gc_writer,
                   MappingOwner& owner, const VictimPolicy& policy, FtlStats& stats);

  void before_open_block(uint32_t plane) override;
  // Reclaims one victim on `plane`; false when there is none worth taking (one that would not
  // free at least a page).
  bool collect_one(uint32_t plane);

 private:
  void relocate_page(PageId page, uint32_t plane, uint32_t& last_op);

  FlashBackend& m_backend;
  BlockManager& m_blocks;
  UnitWriter& m_gc_writer;
  MappingOwner& m_owner;
  const VictimPolicy& m_policy;
  FtlStats& m_stats;
  const Geometry& m_geometry;
};

}  // namespace ssd::ftl
