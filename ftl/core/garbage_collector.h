// Garbage collection for page-granular schemes. Incremental (ftl.gc_mode default): while a plane's
// free pool is below the GC reserve, every new page the host stream starts there is preceded by
// one victim reclaimed on that plane (and, should the pool run dry, as many as it takes to open
// the next block). Each victim must free at least a page, so GC outpaces the writes it serves,
// and its work arrives in victim-sized pieces rather than a block's worth at once. Blocking: the
// first page below the reserve takes victims until the pool is back at the reserve, all in the
// foreground of that write (DiskSim's and MQSim's way; the NAND model then gives GC the die, see
// models/nand/nand_timing.h). For each victim it
// reads the valid units (those the owning scheme still maps to that slot, found through the LUN in
// the spare area), rewrites them through the GC stream on the same plane, lets the scheme update
// its map, programs the GC page (so nothing valid exists only in DRAM), and erases the victim.
// With copy-back (nand.copyback), a wholly valid page moves to the next GC page of its plane
// inside the die instead (see relocate_page()).
// Several GC streams (PageStore with several streams): each unit goes into the stream its owner
// names (MappingOwner::relocation_stream), each stream with its own open block per plane; the
// host then stops taking blocks when a plane is down to one free block per GC stream (moving one
// victim, which holds less than a block of valid units, opens at most one block in each), and a
// victim is erased once every stream it was copied into has programmed its copies.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

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
  // GC will soon ask about `lun`: start bringing its mapping into the cache. A victim's units are
  // scattered over the whole map, so asking for them all first lets the memory system fetch many
  // at once instead of one miss after another.
  virtual void prefetch(Lun /*lun*/) const {}
  // GC has moved every valid unit of one victim (called before the victim is erased). A scheme
  // that maps runs of units can gather relocate() calls and apply them here as runs.
  virtual void relocations_done() {}
  // The GC stream `lun`'s copy goes into when GC moves it (asked just before relocate()), below
  // the number of GC streams the collector was given: 0 for a scheme with one. A scheme that
  // clusters data by hotness (DAC, ftl/dac/) picks a stream per unit.
  virtual uint32_t relocation_stream(Lun /*lun*/) const { return 0; }
};

enum class GcMode : uint8_t { kIncremental, kBlocking };
GcMode gc_mode(const std::string& name);  // ftl.gc_mode's value: "incremental", "blocking"

// Power-loss safety (the device may lose power, page_store.h): before a victim is erased, the
// guard programs every page still being assembled that holds a newer copy of a unit whose older
// copy is in the victim; every such program names the block it supersedes
// (FlashBackend::note_supersedes), and the controller starts an erase of that block only after
// it. A unit's older copy so outlives the program of its newer one, and a cut finds one of them.
class EraseGuard {
 public:
  virtual ~EraseGuard() = default;
  virtual void before_erase(BlockId victim) = 0;
};

class GarbageCollector final : public UnitWriter::SpaceListener {
 public:
  GarbageCollector(FlashBackend& backend, BlockManager& blocks, UnitWriter& gc_writer,
                   MappingOwner& owner, const VictimPolicy& policy, FtlStats& stats,
                   GcMode mode = GcMode::kIncremental, bool copyback = false);
  // With several GC streams: `gc_writers[s]` is stream s (MappingOwner::relocation_stream).
  GarbageCollector(FlashBackend& backend, BlockManager& blocks, std::vector<UnitWriter*> gc_writers,
                   MappingOwner& owner, const VictimPolicy& policy, FtlStats& stats,
                   GcMode mode = GcMode::kIncremental, bool copyback = false);

  void before_new_page(uint32_t plane, bool needs_block) override;
  // Power-loss safe erases (EraseGuard above); nullptr: none (the default).
  void set_erase_guard(EraseGuard* guard) { m_guard = guard; }
  // A recovery takes what copies of mapping metadata (keys beyond the logical units) say as
  // programmed (page mapping's synced map): each copy GC makes waits for every operation issued
  // before it, since its original waited for the data it names (FlashOp kAfterData), which may
  // still be in flight; and no such page is copied back.
  void set_metadata_copies_wait(bool on) { m_metadata_copies_wait = on; }
  // Reclaims one victim on `plane`; false when there is none worth taking (one that would not
  // free at least a page).
  bool collect_one(uint32_t plane);
  // The emergency when `plane` has only GC's last free block and no victim is worth taking (every
  // block holds less than a page of garbage, which happens with small blocks of several units per
  // page): victims are taken most garbage first and their copies packed into the GC stream
  // without the padding a closed page costs; each is erased once the page holding its last copies
  // is programmed. Forward progress is certain while the plane has a block's worth of garbage,
  // which the plane live limit (plane_balance.h) and the GC reserve keep. True once two blocks
  // are free (one for the host stream, GC's last one; with several GC streams, one more than
  // there are streams).
  bool compact(uint32_t plane);

 private:
  void prefetch_mappings(BlockId victim) const;
  void relocate_page(PageId page, uint32_t plane, uint32_t& last_op);
  // Moves a wholly valid page into the next page of `stream` on its plane by copy-back.
  void copy_back_page(PageId page, uint32_t plane, UnitWriter& stream);
  // Moves a victim's valid units into the GC stream (stats, prefetch, relocations_done).
  void relocate_victim(BlockId victim, uint32_t plane, uint32_t& last_op);
  void erase_victim(BlockId victim, uint32_t after);
  // Power-loss safe erases: GC's copy in `to` (of `stream`) must be programmed before `victim`,
  // where it came from, is erased.
  void guard_copy(UnitWriter& stream, SlotId to, BlockId victim);
  // compact(): erases the waiting victims once a GC program has put their last copies on flash
  // (with several GC streams: once no stream is assembling a page on `plane` any more).
  void erase_waiting_if_programmed(uint32_t plane);

  // The GC stream a unit of `lun` goes into.
  UnitWriter& stream_of(Lun lun) const;
  // Over every GC stream: forget_last_program(), the latest program since (kNone when none),
  // whether a page is being assembled on `plane`, pages programmed, close_page(plane).
  void forget_last_programs();
  uint32_t last_program() const;
  bool assembling(uint32_t plane) const;
  uint64_t programs() const;
  void close_pages(uint32_t plane);
  // Free blocks a plane keeps for GC: the host stream opens no block below one more than this.
  // With power-loss safe erases, one more: a cut while GC writes into its last free block and
  // before the victim's erase completes leaves GC that one, to write into after the recovery.
  uint32_t gc_blocks() const {
    return static_cast<uint32_t>(m_gc_writers.size()) + (m_guard != nullptr ? 1 : 0);
  }

  FlashBackend& m_backend;
  BlockManager& m_blocks;
  std::vector<UnitWriter*> m_gc_writers;  // by stream; one unless the store has several streams
  MappingOwner& m_owner;
  const VictimPolicy& m_policy;
  FtlStats& m_stats;
  const Geometry& m_geometry;
  GcMode m_mode;
  bool m_copyback;              // nand.copyback: whole valid pages move by copy-back
  std::vector<Token> m_tokens;  // scratch: the units of the page being copied back
  // compact(): victims moved out whose last copies are still in the GC page being assembled, and
  // the GC stream's program count when they were last checked.
  std::vector<BlockId> m_waiting;
  uint64_t m_seen_programs = 0;
  EraseGuard* m_guard = nullptr;
  bool m_metadata_copies_wait = false;
};

}  // namespace ssd::ftl
