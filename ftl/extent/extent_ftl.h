// Extent mapping as an FTL scheme (`--ftl vet`, `--ftl emt`;
// shared/papers/vet-emt-extent-mapping.md, docs/extent-mapping.md). The mapping table is an
// ExtentMap (a VET or an EMT) in controller DRAM; underneath, flash is managed page by page as the
// paper says, with the PageStore that page mapping uses (block pools, write streams, greedy GC).
//
// How a write forms extents. An extent can only describe units that sit in consecutive slots. A
// write's units are placed in chunks of ftl.extent.chunk_pages pages (0 = the whole write), each
// chunk on one plane, where the plane's open block hands out consecutive slots; successive chunks
// go to the planes ftl.placement picks for successive stripe positions
// (ftl/core/plane_placement.h), so large writes still use several dies. The stripe skips a plane
// that would collect more live data than GC can manage there (ftl/core/plane_balance.h). Every
// maximal run of consecutive slots becomes one extent: a write is one extent per chunk, plus one
// more wherever an open block filled up mid-chunk and the next block is not the numerically next
// one.
//
// How GC keeps extents whole. GC moves a victim's valid units in slot order into the GC stream's
// open block on the same plane, so units that sat together land together. With
// ftl.extent.gc_relocation = runs, the moves of one victim are gathered into runs (consecutive in
// units, old slots and new slots) and each run is remapped as one extent: an extent moved whole
// stays one extent, and neighbours that were written apart but stored side by side merge. An
// extent is split only where a run ends inside it (the GC block filled up, or only part of the
// extent lay in the victim); mapping.extents_split_by_gc counts those ends. `units` remaps every
// moved unit alone, the naive way, for comparison.
//
// Units a write has placed but not yet mapped (the map is updated once the write's runs are
// known) count as live for GC, which may pick a block the same write filled; GC moving one of
// them moves it within the pending runs. When the device may lose power (pages carry program
// sequence numbers), the old copies of a write's units are retired as the new ones are placed
// instead (place()): GC must not copy an old copy once its new copy may be on flash.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "ftl/core/mapping_scheme.h"
#include "ftl/core/page_store.h"
#include "ftl/core/plane_placement.h"
#include "ftl/core/unit_span.h"
#include "ftl/extent/extent_map.h"

namespace ssd::ftl {

class ExtentFtl final : public MappingScheme, private MappingOwner {
 public:
  // `structure`: "vet" or "emt" (settings from context.platform.ftl.settings).
  ExtentFtl(const SchemeContext& context, const std::string& structure);
  // With a map made by the caller (tests); the map must report into context.backend.cpu().
  ExtentFtl(const SchemeContext& context, std::unique_ptr<ExtentMap> map);
  // Built again after a power cut from the flash alone (docs/extent-mapping.md, "Power loss"):
  // the newest copy of each unit by program sequence (PageStore::scan_flash), every maximal run
  // of units in consecutive slots inserted as one extent.
  static std::unique_ptr<ExtentFtl> recovered(const SchemeContext& context,
                                              const std::string& structure);
  // For sampled aging's miniature, which is never timed: its map a flat unit -> slot table
  // (flat_extent_map.h), which leaves the same flash as either structure, faster.
  static std::unique_ptr<ExtentFtl> for_miniature(const SchemeContext& context);

  void read(const HostCommand& command) override;
  void write(const HostCommand& command) override;
  // The fill's whole commands in the page store's bulk layout with each plane taking a chunk's
  // pages at each visit of the stripe (PageStore::fill_sequential), mapped command by command
  // as write() maps them; write() itself for a last, partial command. Declines where the store
  // does, with static placement, and where a chunk is not whole pages or does not divide the
  // fill's commands (place() would cut them otherwise).
  bool fill_sequential(const SequentialFill& fill) override;
  void trim(const HostCommand& command) override;
  // Sampled aging (extent_aged.cpp): the miniature describes its planes with the unit each valid
  // slot holds; the device lays its copies out keeping the miniature's units together
  // (AgedUnitInterleave, chunks of the fill's chunk) and maps every run of units in consecutive
  // slots as one extent, split where a chunk or a block ends.
  bool describe_aged_planes(AgedPlanes& planes) const override;
  bool lay_out_aged(const AgedLayout& layout) override;
  // Programs the pages still being assembled. The extent map stays volatile, like page
  // mapping's table: it can be rebuilt from the spare areas, which name every unit.
  void flush(const HostCommand& command) override;

  const FtlStats& stats() const override { return m_stats; }
  uint64_t mapping_memory_bytes() const override { return m_map->memory_bytes(); }
  std::vector<MappingFigure> mapping_figures() const override;

  // --- for tests ---
  ExtentMap& map() { return *m_map; }
  const PageStore& store() const { return m_store; }
  uint64_t extents_split_by_gc() const { return m_gc_splits; }
  uint64_t gc_relocation_runs() const { return m_gc_runs; }
  // Units of a write in progress that GC moved before the write was mapped (all time).
  uint64_t pending_units_moved() const { return m_pending_moves; }

 private:
  void rebuild();  // recovered()'s work, on a scheme just built over the flash
  // MappingOwner (GC).
  bool maps(Lun lun, SlotId slot) const override;
  void relocate(Lun lun, SlotId from, SlotId to) override;
  void relocations_done() override;

  // The token unit `index` of the write gets and the operation its program waits for; partial
  // units at either end merge with the old unit (read-modify-write).
  struct UnitData {
    Token token;
    uint32_t after;
  };
  void prepare_partial_units(const HostCommand& command);
  // Places the write's units chunk by chunk and records the runs of consecutive slots.
  void place(const HostCommand& command);
  // Units per chunk when the fill's commands have `fill_chunk_units` units.
  uint32_t chunk_for(uint32_t fill_chunk_units) const {
    return m_chunk_units == 0 ? fill_chunk_units : m_chunk_units;
  }
  // The plane the next chunk of `units`, number `chunk_number` (static placement's key), goes to
  // (ftl.placement, plane_placement.h).
  uint32_t next_plane(uint32_t chunk_number, uint32_t units);
  // Appends `lun` at `slot` to the pending runs, extending the last run when it continues it.
  void add_to_pending(Lun lun, SlotId slot);
  // With sequence numbers (power loss): looks the write's range up once, before placing it, so
  // that place() can retire each unit's old copy as its new one is placed (PageStore::replace).
  void look_up_old_copies(const UnitSpan& span);
  // Throws unless the write's insert displaced exactly the copies place() retired.
  void check_retired() const;
  // Maps `extent`; frees the slots it displaced when `free_displaced` (host writes: the old
  // copies are stale; GC runs: GC already moved the old copies' validity).
  uint32_t map_extent(const Extent& extent, bool free_displaced);
  // Remaps a run of units GC moved from `from`, counting where it splits a stored extent.
  void apply_gc_run(const Extent& run, SlotId from);
  // Whether GC is moving a unit of the write in progress, and that move.
  bool pending_holds(Lun lun, SlotId slot) const;
  void move_pending(Lun lun, SlotId from, SlotId to);

  FlashBackend& m_backend;
  const Geometry& m_geometry;
  FtlStats m_stats;
  std::unique_ptr<ExtentMap> m_map;
  PageStore m_store;
  uint32_t m_chunk_units;  // units per chunk; 0 = the whole write
  bool m_gc_in_runs;
  uint32_t m_stripe_cursor = 0;
  PlacementPolicy m_placement;
  uint64_t m_plane_live_limit;  // live units beyond which the stripe skips a plane
  // No unit at or after it was ever mapped (the end of the furthest extent mapped; a map given
  // with pieces in it counts as mapped everywhere).
  uint64_t m_mapped_end;

  // The write in progress.
  UnitData m_head{0, kNone}, m_tail{0, kNone};
  std::vector<Extent> m_pending;  // runs placed but not yet mapped, ascending units
  // With sequence numbers: the current copy of each unit of the write (index: unit -
  // m_write_first; kNone: unmapped), kept up to date as GC moves them; empty otherwise.
  std::vector<SlotId> m_old_slots;
  Lun m_write_first = 0;
  // GC of one victim: the run being gathered and where its units came from.
  Extent m_gc_run;
  SlotId m_gc_run_from = kNone;

  // Scratch vectors reused by every command.
  std::vector<Extent> m_found;
  std::vector<Extent> m_displaced;

  // Figures over the timed run (host commands only; preconditioning is not counted).
  uint64_t m_timed_writes = 0, m_timed_reads = 0;
  uint64_t m_extents_written = 0;    // extents the writes formed
  uint64_t m_pieces_generated = 0;   // pieces they were stored as (VET: canonical extents)
  uint64_t m_pieces_overlapped = 0;  // stored pieces the writes overlapped
  uint64_t m_pieces_returned = 0;    // stored pieces the reads returned
  uint64_t m_gc_runs = 0;
  uint64_t m_gc_splits = 0;
  uint64_t m_pending_moves = 0;
};

}  // namespace ssd::ftl
