#include "ftl/page/map_sync.h"

#include <algorithm>
#include <stdexcept>

namespace ssd::ftl {

namespace {
// The NVRAM's directory of segment copies: one word per copy, rewritten when a copy is dropped.
constexpr uint32_t kNvramDirectoryBytes = 4;
// A checkpoint: the program sequence its sync began at, and one word per map unit that moved.
constexpr uint32_t kCheckpointHeaderBytes = 8;
constexpr uint32_t kCheckpointEntryBytes = 4;
// GC run by a sync's map writes can dirty segments again, each pass fewer; far more passes than
// that means a bug, not a workload.
constexpr uint64_t kMaxPasses = 1000;
}  // namespace

MapSync::MapSync(const MapLayout& layout, FlashBackend& backend, PageStore& store)
    : m_layout(layout),
      m_backend(backend),
      m_store(store),
      m_segments(layout.logical_units, layout.entries_per_segment, layout.dense_threshold),
      m_durable(backend.lasting<DurableMap>()),
      m_versioned(store.sequenced()),
      m_flash_entries(layout.logical_units, kNone),
      m_map_slot(layout.map_units(), kNone) {
  // A recovery takes the map pages' entries as programmed data: GC's copies of them must not
  // reach the flash before that data (found by the soak on an aged device: docs/power-loss.md).
  store.set_metadata_copies_wait(m_versioned);
  if (!m_durable.sized) {  // a fresh device (a recovered scheme finds it as the cut left it)
    m_durable.sized = true;
    m_durable.nvram = NvramSegments(layout.nvram_segments, layout.segments);
    m_durable.nvram_entries.assign(
        layout.policy == MapSyncPolicy::kNvram ? layout.logical_units : 0, kNone);
    if (m_versioned) {
      m_durable.directory.assign(layout.map_units(), kNone);
      m_durable.versions.resize(layout.segments);
    }
  }
}

void MapSync::sync(const std::vector<SlotId>& l2p) {
  const bool counted = m_backend.recording();
  m_totals.syncs += counted;
  const uint64_t began_at = m_store.next_sequence();
  m_durable.nvram.begin_sync();
  m_store.flush();  // the data pages first
  if (m_layout.policy == MapSyncPolicy::kWhole) {
    for (uint32_t segment = 0; segment < m_segments.count(); ++segment) {
      ++m_backend.cpu().list_steps;
      flush_segment(segment, l2p);
    }
    finish_pass();
  }
  uint64_t passes = 0;
  while (m_segments.any_dirty()) {
    if (++passes > kMaxPasses) throw std::logic_error("map sync does not converge");
    for (uint32_t segment : m_segments.take_dirty()) {
      ++m_backend.cpu().list_steps;  // one step along the dirty-segment list
      if (counted) ++m_totals.segments_by_state[static_cast<int>(m_segments.state(segment))];
      handle(segment, l2p);
    }
    finish_pass();
  }
  m_totals.passes += counted ? passes : 0;
  if (m_versioned) checkpoint(began_at);
}

void MapSync::checkpoint(uint64_t began_at) {
  struct Moved {
    uint32_t unit;
    SlotId was;
  };
  std::vector<Moved> moved;
  for (uint32_t unit = 0; unit < m_map_slot.size(); ++unit) {
    if (m_durable.directory[unit] == m_map_slot[unit]) continue;
    moved.push_back({unit, m_durable.directory[unit]});
    m_durable.directory[unit] = m_map_slot[unit];
  }
  const uint64_t was_from = m_durable.roll_forward_from;
  m_durable.roll_forward_from = began_at;
  ++m_backend.cpu().list_steps;
  // After everything the sync wrote: the checkpoint names a map and data that are on flash.
  DurableMap& durable = m_durable;
  m_backend.nvram_write(
      kCheckpointHeaderBytes + kCheckpointEntryBytes * static_cast<uint32_t>(moved.size()),
      OpClass::kMapping, kAfterAll, [&durable, moved = std::move(moved), was_from] {
        for (const Moved& m : moved) durable.directory[m.unit] = m.was;
        durable.roll_forward_from = was_from;
      });
}

std::function<void()> MapSync::undo_nvram(uint32_t segment, bool entries) {
  if (!m_versioned) return [] {};  // no cut can come: nothing to put back
  DurableMap& durable = m_durable;
  const uint64_t copied_at = durable.nvram.copied_at(segment);
  std::vector<SlotId> old;
  Lun first = 0;
  if (entries) {
    first = m_segments.first_entry(segment);
    old.assign(durable.nvram_entries.begin() + first,
               durable.nvram_entries.begin() + first + m_segments.entries_in(segment));
  }
  return [&durable, segment, copied_at, first, old = std::move(old)] {
    durable.nvram.restore(segment, copied_at);
    std::copy(old.begin(), old.end(), durable.nvram_entries.begin() + first);
  };
}

void MapSync::finish_pass() {
  m_store.flush();  // the map pages being assembled, and any GC page the map's writes opened
  if (m_versioned) m_durable.versions.seal(m_backend.flash().journal_next_entry());
  // Only now may NVRAM let go of copies whose segments those pages hold.
  for (PendingNvramWrite& write : m_after_map_programs) {
    m_backend.nvram_write(write.bytes, OpClass::kMapping, kAfterAll, std::move(write.undo));
  }
  m_after_map_programs.clear();
}

void MapSync::handle(uint32_t segment, const std::vector<SlotId>& l2p) {
  const SegmentState state = m_segments.state(segment);
  if (state == SegmentState::kClean) return;
  if (m_layout.policy == MapSyncPolicy::kNvram && state == SegmentState::kSparse) {
    copy_to_nvram(segment, l2p);
    return;
  }
  flush_segment(segment, l2p);
}

void MapSync::program_named_pages(uint32_t segment, const std::vector<SlotId>& l2p) {
  if (!m_versioned) return;
  const Lun first = m_segments.first_entry(segment);
  const Lun end = first + m_segments.entries_in(segment);
  for (Lun lun = first; lun < end; ++lun) {
    if (l2p[lun] != kNone && m_store.buffered(l2p[lun])) {
      m_store.flush();
      return;
    }
  }
}

void MapSync::flush_segment(uint32_t segment, const std::vector<SlotId>& l2p) {
  program_named_pages(segment, l2p);
  copy_entries(segment, l2p, m_flash_entries);
  m_segments.mark_clean(segment);  // before the writes: GC they run may dirty it again
  m_backend.dram(false, m_layout.segment_bytes, OpClass::kMapping);
  write_to_flash(segment);
  m_totals.segments_to_flash += m_backend.recording();
  if (m_durable.nvram.holds(segment)) {  // its NVRAM copy is older than the flash one now
    std::function<void()> undo = undo_nvram(segment, false);
    m_durable.nvram.remove(segment);
    after_map_programs(kNvramDirectoryBytes, std::move(undo));
    m_totals.nvram_dropped += m_backend.recording();
  }
}

void MapSync::write_to_flash(uint32_t segment) {
  Token version = 0;
  if (m_versioned) {  // what these map pages say, kept for a recovery (durable_map.h)
    SegmentVersions& versions = m_durable.versions;
    versions.prune(segment, m_backend.flash().journal_retired_below());
    const Lun from = m_segments.first_entry(segment);
    version = versions.add(segment, std::vector<SlotId>(m_flash_entries.begin() + from,
                                                        m_flash_entries.begin() + from +
                                                            m_segments.entries_in(segment)));
  }
  const uint64_t first = uint64_t(segment) * m_layout.units_per_segment;
  for (uint32_t k = 0; k < m_layout.units_per_segment; ++k) {
    const uint64_t unit = first + k;
    const SlotId slot = m_store.write_map(Lun(m_layout.logical_units + unit), version, kAfterData);
    // Look the old copy up only now: GC run by this write may have moved it. Its block is not
    // erased before the new copy is programmed (when the device may lose power).
    if (m_map_slot[unit] != kNone) m_store.replace(m_map_slot[unit], slot);
    m_map_slot[unit] = slot;
  }
  m_totals.map_units_written += m_backend.recording() ? m_layout.units_per_segment : 0;
}

void MapSync::copy_to_nvram(uint32_t segment, const std::vector<SlotId>& l2p) {
  bool into_freed_room = false;
  if (m_durable.nvram.holds(segment)) {
    m_totals.nvram_hits += m_backend.recording();
  } else if (m_durable.nvram.full()) {
    evict_oldest();
    into_freed_room = true;
  }
  program_named_pages(segment, l2p);
  std::function<void()> undo = undo_nvram(segment, true);
  copy_entries(segment, l2p, m_durable.nvram_entries);
  m_segments.mark_clean(segment);
  m_durable.nvram.copy_in(segment);
  m_backend.dram(false, m_layout.segment_bytes, OpClass::kMapping);
  // A copy into the room of an evicted one overwrites it: it waits until the evicted copy is on
  // flash. Otherwise (free room, or this segment's own older copy) it needs only the data.
  if (into_freed_room) {
    after_map_programs(m_layout.segment_bytes, std::move(undo));
  } else {
    m_backend.nvram_write(m_layout.segment_bytes, OpClass::kMapping, kAfterData, std::move(undo));
  }
  m_totals.nvram_copies += m_backend.recording();
}

void MapSync::evict_oldest() {
  const uint32_t victim = m_durable.nvram.oldest();
  // The copy goes to flash as NVRAM holds it; its DRAM segment's dirty entries (if any) stay
  // dirty, since they differ from this copy as they did before.
  m_backend.nvram(false, m_layout.segment_bytes, OpClass::kMapping);
  copy_entries(victim, m_durable.nvram_entries, m_flash_entries);
  std::function<void()> undo = undo_nvram(victim, false);
  m_durable.nvram.remove(victim);
  write_to_flash(victim);
  after_map_programs(kNvramDirectoryBytes, std::move(undo));
  m_totals.nvram_evictions += m_backend.recording();
}

void MapSync::copy_entries(uint32_t segment, const std::vector<SlotId>& from,
                           std::vector<SlotId>& to) {
  const Lun first = m_segments.first_entry(segment);
  const Lun end = first + m_segments.entries_in(segment);
  std::copy(from.begin() + first, from.begin() + end, to.begin() + first);
}

void MapSync::adopt(std::vector<SlotId> flash_entries, std::vector<SlotId> map_slots,
                    const std::vector<SlotId>& table) {
  m_flash_entries = std::move(flash_entries);
  m_map_slot = std::move(map_slots);
  for (Lun lun = 0; lun < m_layout.logical_units; ++lun) {
    if (durable_slot(lun) != table[lun]) m_segments.mark_dirty(lun);
  }
  // Only the versions the map units now on flash carry are kept, each segment's merged (its
  // units may carry different versions when a cut stopped a segment's write midway).
  SegmentVersions& versions = m_durable.versions;
  versions.clear();
  for (uint32_t segment = 0; segment < m_layout.segments; ++segment) {
    std::vector<Token> tokens;
    for (uint32_t k = 0; k < m_layout.units_per_segment; ++k) {
      const SlotId slot = m_map_slot[uint64_t(segment) * m_layout.units_per_segment + k];
      if (slot != kNone) tokens.push_back(m_backend.flash().token(slot));
    }
    if (tokens.empty()) continue;
    const Lun first = m_segments.first_entry(segment);
    versions.keep(
        segment, std::move(tokens),
        std::vector<SlotId>(m_flash_entries.begin() + first,
                            m_flash_entries.begin() + first + m_segments.entries_in(segment)));
  }
}

SlotId MapSync::durable_slot(Lun lun) const {
  if (m_layout.policy == MapSyncPolicy::kNvram &&
      m_durable.nvram.holds(m_segments.segment_of(lun))) {
    return m_durable.nvram_entries[lun];
  }
  return m_flash_entries[lun];
}

Lun MapSync::first_undurable(const std::vector<SlotId>& l2p) const {
  for (Lun lun = 0; lun < m_layout.logical_units; ++lun) {
    if (durable_slot(lun) != l2p[lun]) return lun;
  }
  return kNone;
}

std::vector<FigureDoc> map_sync_figure_docs() {
  return {
      {"syncs", "flushes that made the page table durable (ftl.page.map_sync)"},
      {"sync_passes",
       "passes over the dirty segments (more than one per sync when GC run by "
       "the map's own writes dirtied segments again)"},
      {"sync_segments_sparse", "dirty segments found sparse at syncs (summed over syncs)"},
      {"sync_segments_dense", "dirty segments found dense at syncs"},
      {"sync_segments_full", "dirty segments found full at syncs"},
      {"map_segments_to_flash", "segments written to flash, from DRAM or evicted from NVRAM"},
      {"map_units_written", "flash mapping units the map's writes took"},
      {"map_segments_to_flash_per_sync", "segments written to flash per sync"},
      {"nvram_copies", "sparse segments copied to NVRAM"},
      {"nvram_hits", "copies whose segment NVRAM already held (refreshed in place)"},
      {"nvram_evictions", "NVRAM copies of the highest segment age written to flash for room"},
      {"nvram_dropped", "NVRAM copies made stale by a flash write of their segment"},
      {"nvram_segments", "segments the map's NVRAM holds at most"},
  };
}

std::vector<MappingFigure> figures_when_volatile() {
  std::vector<MappingFigure> zeroes;
  for (const FigureDoc& doc : map_sync_figure_docs()) {
    zeroes.push_back({doc.name, 0.0, doc.name != "map_segments_to_flash_per_sync"});
  }
  return zeroes;
}

std::vector<MappingFigure> MapSync::figures() const {
  const Totals& t = m_totals;
  const auto per_sync = [&t](uint64_t total) { return t.syncs ? double(total) / t.syncs : 0.0; };
  const uint64_t* s = t.segments_by_state;
  const uint64_t map_segments_to_flash = t.segments_to_flash + t.nvram_evictions;
  return {
      {"syncs", double(t.syncs), true},
      {"sync_passes", double(t.passes), true},
      {"sync_segments_sparse", double(s[1]), true},
      {"sync_segments_dense", double(s[2]), true},
      {"sync_segments_full", double(s[3]), true},
      {"map_segments_to_flash", double(map_segments_to_flash), true},
      {"map_units_written", double(t.map_units_written), true},
      {"map_segments_to_flash_per_sync", per_sync(map_segments_to_flash), false},
      {"nvram_copies", double(t.nvram_copies), true},
      {"nvram_hits", double(t.nvram_hits), true},
      {"nvram_evictions", double(t.nvram_evictions), true},
      {"nvram_dropped", double(t.nvram_dropped), true},
      {"nvram_segments", double(m_durable.nvram.capacity()), true},
  };
}

}  // namespace ssd::ftl
