#include "ftl/page/map_sync.h"

#include <algorithm>
#include <stdexcept>

namespace ssd::ftl {

namespace {
// The NVRAM's directory of segment copies: one word per copy, rewritten when a copy is dropped.
constexpr uint32_t kNvramDirectoryBytes = 4;
// GC run by a sync's map writes can dirty segments again, each pass fewer; far more passes than
// that means a bug, not a workload.
constexpr uint64_t kMaxPasses = 1000;
}  // namespace

MapSync::MapSync(const MapLayout& layout, FlashBackend& backend, PageStore& store)
    : m_layout(layout),
      m_backend(backend),
      m_store(store),
      m_segments(layout.logical_units, layout.entries_per_segment, layout.dense_threshold),
      m_nvram(layout.nvram_segments, layout.segments),
      m_flash_entries(layout.logical_units, kNone),
      m_nvram_entries(layout.policy == MapSyncPolicy::kNvram ? layout.logical_units : 0, kNone),
      m_map_slot(layout.map_units(), kNone) {}

void MapSync::sync(const std::vector<SlotId>& l2p) {
  const bool counted = m_backend.recording();
  m_totals.syncs += counted;
  m_nvram.begin_sync();
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
}

void MapSync::finish_pass() {
  m_store.flush();  // the map pages being assembled, and any GC page the map's writes opened
  // Only now may NVRAM let go of copies whose segments those pages hold.
  for (uint32_t bytes : m_after_map_programs) {
    m_backend.nvram(true, bytes, OpClass::kMapping, kAfterAll);
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

void MapSync::flush_segment(uint32_t segment, const std::vector<SlotId>& l2p) {
  copy_entries(segment, l2p, m_flash_entries);
  m_segments.mark_clean(segment);  // before the writes: GC they run may dirty it again
  m_backend.dram(false, m_layout.segment_bytes, OpClass::kMapping);
  write_to_flash(segment);
  m_totals.segments_to_flash += m_backend.recording();
  if (m_nvram.holds(segment)) {  // its NVRAM copy is older than the flash one now
    m_nvram.remove(segment);
    m_after_map_programs.push_back(kNvramDirectoryBytes);
    m_totals.nvram_dropped += m_backend.recording();
  }
}

void MapSync::write_to_flash(uint32_t segment) {
  const uint64_t first = uint64_t(segment) * m_layout.units_per_segment;
  for (uint32_t k = 0; k < m_layout.units_per_segment; ++k) {
    const uint64_t unit = first + k;
    const SlotId slot =
        m_store.write_map(Lun(m_layout.logical_units + unit), /*token=*/0, kAfterData);
    // Look the old copy up only now: GC run by this write may have moved it.
    if (m_map_slot[unit] != kNone) m_store.invalidate(m_map_slot[unit]);
    m_map_slot[unit] = slot;
  }
  m_totals.map_units_written += m_backend.recording() ? m_layout.units_per_segment : 0;
}

void MapSync::copy_to_nvram(uint32_t segment, const std::vector<SlotId>& l2p) {
  bool into_freed_room = false;
  if (m_nvram.holds(segment)) {
    m_totals.nvram_hits += m_backend.recording();
  } else if (m_nvram.full()) {
    evict_oldest();
    into_freed_room = true;
  }
  copy_entries(segment, l2p, m_nvram_entries);
  m_segments.mark_clean(segment);
  m_nvram.copy_in(segment);
  m_backend.dram(false, m_layout.segment_bytes, OpClass::kMapping);
  // A copy into the room of an evicted one overwrites it: it waits until the evicted copy is on
  // flash. Otherwise (free room, or this segment's own older copy) it needs only the data.
  if (into_freed_room) {
    m_after_map_programs.push_back(m_layout.segment_bytes);
  } else {
    m_backend.nvram(true, m_layout.segment_bytes, OpClass::kMapping, kAfterData);
  }
  m_totals.nvram_copies += m_backend.recording();
}

void MapSync::evict_oldest() {
  const uint32_t victim = m_nvram.oldest();
  // The copy goes to flash as NVRAM holds it; its DRAM segment's dirty entries (if any) stay
  // dirty, since they differ from this copy as they did before.
  m_backend.nvram(false, m_layout.segment_bytes, OpClass::kMapping);
  copy_entries(victim, m_nvram_entries, m_flash_entries);
  m_nvram.remove(victim);
  write_to_flash(victim);
  m_after_map_programs.push_back(kNvramDirectoryBytes);
  m_totals.nvram_evictions += m_backend.recording();
}

void MapSync::copy_entries(uint32_t segment, const std::vector<SlotId>& from,
                           std::vector<SlotId>& to) {
  const Lun first = m_segments.first_entry(segment);
  const Lun end = first + m_segments.entries_in(segment);
  std::copy(from.begin() + first, from.begin() + end, to.begin() + first);
}

SlotId MapSync::durable_slot(Lun lun) const {
  if (m_layout.policy == MapSyncPolicy::kNvram && m_nvram.holds(m_segments.segment_of(lun))) {
    return m_nvram_entries[lun];
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
      {"nvram_segments", double(m_nvram.capacity()), true},
  };
}

}  // namespace ssd::ftl
