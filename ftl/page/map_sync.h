// What a page-mapped FTL does with its table when the host asks for durability (a flush, or the
// flush after a FUA write): shared/papers/nvram-mapping-table.md, with the policies of
// `ftl.page.map_sync` (map_layout.h):
//
// - conventional: every dirty segment is written to flash (the paper's baseline);
// - whole: every segment is written to flash, dirty or not (what the stock Jasmine OpenSSD greedy
//   FTL's flush does: it logs its entire page map, so its sync costs the whole table);
// - nvram: the paper's Algorithm 1: full and dense segments to flash, sparse ones copied to
//   NVRAM; with NVRAM full, the copy of the highest segment age is first written to flash.
//
// A sync programs the data pages being assembled first, then the map: every map program and NVRAM
// copy waits for all operations issued before it but the sync's other map writes (kAfterData), as
// firmware makes a map durable only once the data it names is. NVRAM lets go of a copy (dropped,
// or evicted and overwritten) only once the map pages holding that segment are programmed: those
// NVRAM writes wait until the end of the pass, behind every map program (kAfterAll). Segments go to
// flash as map units in PageStore's mapping stream (their own blocks; GC moves them as it moves
// data and tells relocate()). GC run by the map's own writes can move data and so dirty segments
// again: the sync repeats until no segment is dirty, so when it ends the durable map (map pages
// plus NVRAM) names every unit's current slot.
//
// The content is modelled, not just the traffic: what the map pages on flash say and what the
// NVRAM copies say are kept per entry, so durable_slot() answers what recovery would rebuild.
// Like the flash itself, neither is controller DRAM. When the device may lose power, the NVRAM
// part and the versions of the map pages live in the backend's DurableMap (durable_map.h), which
// outlives a cut, and each completed sync ends with a checkpoint in NVRAM: where every map unit
// is and the program sequence the sync began at, from which a recovery rolls forward
// (map_recovery.h). The checkpoint's NVRAM write (8 bytes plus 4 per map unit that moved) is
// that durability's only extra cost.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "ftl/core/flash_backend.h"
#include "ftl/core/mapping_scheme.h"
#include "ftl/core/page_store.h"
#include "ftl/core/scheme_descriptor.h"
#include "ftl/page/durable_map.h"
#include "ftl/page/map_layout.h"
#include "ftl/page/map_segments.h"
#include "ftl/page/nvram_segments.h"

namespace ssd::ftl {

// The figures MapSync::figures() returns, in its order; `figures_when_volatile()` gives the same
// names with zeroes, for a table that is never synced (ftl.page.map_sync = none).
std::vector<FigureDoc> map_sync_figure_docs();
std::vector<MappingFigure> figures_when_volatile();

class MapSync {
 public:
  MapSync(const MapLayout& layout, FlashBackend& backend, PageStore& store);

  // The DRAM table's entry for `lun` changed (a write, a trim, or GC moving the unit).
  void changed(Lun lun) { m_segments.mark_dirty(lun); }
  // Makes the table `l2p` durable (data first), by the policy.
  void sync(const std::vector<SlotId>& l2p);

  // Map units are stored under keys beyond the logical units; GC asks about them here.
  bool is_map_key(Lun key) const { return key >= m_layout.logical_units; }
  bool maps(Lun key, SlotId slot) const { return m_map_slot[key - m_layout.logical_units] == slot; }
  void relocate(Lun key, SlotId to) { m_map_slot[key - m_layout.logical_units] = to; }

  // What a recovery would read for `lun`: its segment's NVRAM copy if there is one, else the map
  // pages on flash (kNone: never written to either).
  SlotId durable_slot(Lun lun) const;
  // The first unit whose durable entry differs from `l2p`, or kNone: after a sync, there is none.
  Lun first_undurable(const std::vector<SlotId>& l2p) const;

  const MapLayout& layout() const { return m_layout; }
  const MapSegments& segments() const { return m_segments; }
  const NvramSegments& nvram() const { return m_durable.nvram; }
  const DurableMap& durable() const { return m_durable; }
  // Where map unit `unit` (0 .. layout().map_units()) is on flash (kNone: never written).
  SlotId map_slot(uint64_t unit) const { return m_map_slot[unit]; }

  // After a power cut (map_recovery.h): what the map pages hold (`flash_entries`, per unit),
  // where they are (`map_slots`, per map unit), and the table the recovery rebuilt; the entries
  // where the durable map and the table differ are dirty, for the next sync.
  void adopt(std::vector<SlotId> flash_entries, std::vector<SlotId> map_slots,
             const std::vector<SlotId>& table);
  // The report's figures of the sync (docs: map_sync_figure_docs()).
  std::vector<MappingFigure> figures() const;

 private:
  struct Totals {
    uint64_t syncs = 0;
    uint64_t passes = 0;
    uint64_t segments_by_state[4] = {};  // SegmentState order
    uint64_t segments_to_flash = 0;      // flash writes of segments from DRAM
    uint64_t nvram_copies = 0;
    uint64_t nvram_hits = 0;       // copies whose segment NVRAM held already
    uint64_t nvram_evictions = 0;  // copies written to flash to make room
    uint64_t nvram_dropped = 0;    // copies made stale by a flash write of their segment
    uint64_t map_units_written = 0;
  };

  void handle(uint32_t segment, const std::vector<SlotId>& l2p);
  // Writes `segment` from the DRAM table to flash; it is clean then.
  void flush_segment(uint32_t segment, const std::vector<SlotId>& l2p);
  // Writes `segment`'s map units to flash (their content is already in m_flash_entries).
  void write_to_flash(uint32_t segment);
  void copy_to_nvram(uint32_t segment, const std::vector<SlotId>& l2p);
  void evict_oldest();
  // Programs the map pages being assembled, then the NVRAM writes that had to wait for them.
  void finish_pass();
  void copy_entries(uint32_t segment, const std::vector<SlotId>& from, std::vector<SlotId>& to);
  // Programs the pages being assembled if `segment`'s entries in `l2p` name a slot in one (a unit
  // GC moved during this sync): a map page or NVRAM copy must name only data programmed before it
  // (its write waits for the data recorded before it, FlashOp kAfterData). When the device may
  // lose power only: otherwise nothing can tell, and the figures stay as they were.
  void program_named_pages(uint32_t segment, const std::vector<SlotId>& l2p);
  // The sync that began at program sequence `began_at` completed: its checkpoint to NVRAM.
  void checkpoint(uint64_t began_at);
  // An NVRAM write after the pass's map programs: its bytes, and the undo of its change.
  void after_map_programs(uint32_t bytes, std::function<void()> undo) {
    m_after_map_programs.push_back({bytes, std::move(undo)});
  }
  // The undo of a change to `segment`'s NVRAM directory word (and, with `entries`, its copy).
  std::function<void()> undo_nvram(uint32_t segment, bool entries);

  MapLayout m_layout;
  FlashBackend& m_backend;
  PageStore& m_store;
  MapSegments m_segments;
  DurableMap& m_durable;  // NVRAM, and the map pages' versions (the backend's: outlives a cut)
  bool m_versioned;       // the device may lose power: versions and checkpoints
  std::vector<SlotId> m_flash_entries;  // what the map pages on flash say, per unit
  std::vector<SlotId> m_map_slot;       // per map unit: its slot on flash, kNone = never written
  struct PendingNvramWrite {
    uint32_t bytes;
    std::function<void()> undo;
  };
  std::vector<PendingNvramWrite> m_after_map_programs;  // wait for the pass's map programs
  Totals m_totals;
};

}  // namespace ssd::ftl
