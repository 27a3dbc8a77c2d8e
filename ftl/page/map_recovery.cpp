#include "ftl/page/map_recovery.h"

#include <algorithm>
#include <utility>

namespace ssd::ftl {

namespace {

// What the log since the checkpoint says: per key (logical unit, then map unit), its newest copy.
class RollForward {
 public:
  explicit RollForward(uint64_t keys) : m_slot(keys, kNone), m_sequence(keys, 0) {}

  // Copies in one page come in slot order: on a tie (a page naming a key twice) the later wins.
  void found(Lun key, SlotId slot, uint64_t sequence) {
    if (key >= m_slot.size()) return;  // nothing a scheme wrote
    if (m_slot[key] == kNone || sequence >= m_sequence[key]) {
      m_slot[key] = slot;
      m_sequence[key] = sequence;
    }
  }
  SlotId slot(Lun key) const { return m_slot[key]; }

 private:
  std::vector<SlotId> m_slot;
  std::vector<uint64_t> m_sequence;
};

class SyncedMapRecovery {
 public:
  SyncedMapRecovery(MapSync& sync, FlashBackend& backend, PageStore& store)
      : m_sync(sync),
        m_layout(sync.layout()),
        m_durable(sync.durable()),
        m_backend(backend),
        m_store(store),
        m_flash(backend.flash()),
        m_g(backend.geometry()),
        m_from(m_durable.roll_forward_from),
        m_log(m_layout.logical_units + m_layout.map_units()),
        m_in_log(m_g.blocks(), false) {}

  std::vector<SlotId> run() {
    read_nvram();
    scan_blocks();
    std::vector<SlotId> map_slots = locate_map_units();
    std::vector<SlotId> flash_entries = read_map_units(map_slots);
    std::vector<SlotId> table = rebuild_table(flash_entries);

    // Programs go on after every sequence seen, and never below the checkpoint's: the next
    // recovery must find them in the log even when every page written since it was torn.
    m_store.continue_after(std::max(m_highest, m_from));
    std::vector<SlotId> kept = table;  // the store's valid units: data and map units
    kept.insert(kept.end(), map_slots.begin(), map_slots.end());
    m_store.adopt(kept);
    m_sync.adopt(std::move(flash_entries), std::move(map_slots), table);
    return table;
  }

 private:
  void read_nvram() {
    uint64_t bytes = 8 + 4 * m_layout.map_units();  // the checkpoint
    if (m_layout.policy == MapSyncPolicy::kNvram) {
      bytes += uint64_t(m_durable.nvram.size()) * (m_layout.segment_bytes + 4);
    }
    m_backend.nvram(false, static_cast<uint32_t>(bytes), OpClass::kMapping);
    m_backend.end_batch();
  }

  void read_spare(PageId page) { m_backend.read_spare(page, m_spare_bytes, OpClass::kMapping); }

  void scan_blocks() {
    std::vector<bool> read(m_g.pages_per_block);
    // Die by die in turn, a block of each, as page mapping's scan (PageStore::scan_flash).
    for (BlockId index = 0; index < m_g.blocks(); ++index) {
      const BlockId block = (index % m_g.dies()) * m_g.blocks_per_die() + index / m_g.dies();
      if (m_flash.erase_torn(block)) {  // neither erased nor intact: erase it again
        m_backend.erase(block, OpClass::kMapping);
        m_backend.end_batch();
        continue;
      }
      // Where its programmed pages end: page 0 erased, the block is free; its last page
      // programmed, it is full; else a binary search for the first erased page. (An erased
      // page reads as all ones; a torn one does not: it is programmed.)
      std::fill(read.begin(), read.end(), false);
      const uint32_t programmed = m_flash.write_pointer(block);
      const auto probe = [&](uint32_t page) {
        read_spare(m_g.first_page(block) + page);
        read[page] = true;
        return page < programmed;
      };
      const uint32_t last = m_g.pages_per_block - 1;
      if (probe(0) && !probe(last)) {
        uint32_t low = 1;  // page `low - 1` is programmed, page `high` erased
        uint32_t high = last;
        while (low < high) {
          const uint32_t mid = (low + high) / 2;
          if (probe(mid)) {
            low = mid + 1;
          } else {
            high = mid;
          }
        }
      }
      if (programmed > 0) scan_block(block, programmed, read);
      m_backend.end_batch();
    }
  }

  void scan_block(BlockId block, uint32_t programmed, std::vector<bool>& read) {
    const PageId first = m_g.first_page(block);
    const PageId last = first + programmed - 1;
    if (!read[programmed - 1]) read_spare(last);
    read[programmed - 1] = true;
    if (m_flash.readable(last)) {
      m_highest = std::max(m_highest, m_store.sequence_of(last));
      if (m_store.sequence_of(last) < m_from) return;  // nothing newer than the checkpoint
    }
    m_in_log[block] = true;
    for (uint32_t p = 0; p < programmed; ++p) {
      const PageId page = first + p;
      if (!read[p]) read_spare(page);
      read[p] = true;
      if (!m_flash.readable(page)) continue;  // torn: the ECC fails
      const uint64_t sequence = m_store.sequence_of(page);
      m_highest = std::max(m_highest, sequence);  // the last page may be torn
      if (sequence < m_from) continue;            // written before the checkpoint: the map knows it
      const uint32_t* spare = m_flash.spare(page);
      for (uint32_t u = 0; u < m_g.units_per_page; ++u) {
        if (spare[u] == kNone) continue;
        ++m_backend.cpu().table_lookups;
        m_log.found(spare[u], m_g.first_slot(page) + u, sequence);
      }
    }
  }

  // Whether the page `slot` is in still holds `key` as the durable map said.
  bool still_holds(SlotId slot, Lun key) const {
    if (slot == kNone) return false;
    const PageId page = m_g.page_of_slot(slot);
    if (!m_flash.is_programmed(page)) return false;       // erased since
    if (!m_in_log[m_g.block_of_page(page)]) return true;  // untouched since the checkpoint
    return m_flash.readable(page) && m_store.sequence_of(page) < m_from &&
           m_flash.spare(page)[slot - m_g.first_slot(page)] == key;
  }

  std::vector<SlotId> locate_map_units() const {
    std::vector<SlotId> slots(m_layout.map_units(), kNone);
    for (uint64_t unit = 0; unit < slots.size(); ++unit) {
      const Lun key = Lun(m_layout.logical_units + unit);
      const SlotId logged = m_log.slot(key);
      const SlotId named = m_durable.directory.empty() ? kNone : m_durable.directory[unit];
      slots[unit] = logged != kNone ? logged : still_holds(named, key) ? named : kNone;
    }
    return slots;
  }

  // Reads every map unit's copy (one read per page) and returns what the map pages say. A page
  // that does not hold the map unit it was named for (its spare area says otherwise) is not
  // taken: that map unit is lost (kNone), which a correct checkpoint never gives.
  std::vector<SlotId> read_map_units(std::vector<SlotId>& map_slots) {
    std::vector<std::pair<PageId, uint32_t>> reads;  // page, units in it
    std::vector<SlotId> sorted;
    for (const SlotId slot : map_slots) {
      if (slot != kNone) sorted.push_back(slot);
    }
    std::sort(sorted.begin(), sorted.end());
    for (const SlotId slot : sorted) {
      const PageId page = m_g.page_of_slot(slot);
      if (!reads.empty() && reads.back().first == page) {
        ++reads.back().second;
      } else {
        reads.push_back({page, 1});
      }
    }
    for (const auto& [page, units] : reads) m_backend.read(page, units, OpClass::kMapping);
    m_backend.end_batch();

    const MapSegments& segments = m_sync.segments();
    std::vector<SlotId> entries(m_layout.logical_units, kNone);
    for (uint64_t unit = 0; unit < map_slots.size(); ++unit) {
      const SlotId slot = map_slots[unit];
      if (slot == kNone) continue;
      const PageId page = m_g.page_of_slot(slot);
      if (!m_flash.readable(page) ||
          m_flash.spare(page)[slot - m_g.first_slot(page)] != m_layout.logical_units + unit) {
        map_slots[unit] = kNone;
        continue;
      }
      const auto segment = static_cast<uint32_t>(unit / m_layout.units_per_segment);
      const auto k = static_cast<uint32_t>(unit % m_layout.units_per_segment);
      const std::vector<SlotId>& version =
          m_durable.versions.entries(segment, m_flash.token(map_slots[unit]));
      // A map unit holds its share of the segment's entries (the last one may be short).
      const uint64_t n = segments.entries_in(segment);
      const uint64_t begin = n * k / m_layout.units_per_segment;
      const uint64_t end = n * (k + 1) / m_layout.units_per_segment;
      std::copy(version.begin() + begin, version.begin() + end,
                entries.begin() + segments.first_entry(segment) + begin);
      m_backend.cpu().table_lookups += end - begin;
    }
    return entries;
  }

  std::vector<SlotId> rebuild_table(const std::vector<SlotId>& flash_entries) const {
    const MapSegments& segments = m_sync.segments();
    const bool nvram = m_layout.policy == MapSyncPolicy::kNvram;
    std::vector<SlotId> table(m_layout.logical_units, kNone);
    for (Lun lun = 0; lun < table.size(); ++lun) {
      const SlotId logged = m_log.slot(lun);
      if (logged != kNone) {
        table[lun] = logged;
        continue;
      }
      const SlotId named = nvram && m_durable.nvram.holds(segments.segment_of(lun))
                               ? m_durable.nvram_entries[lun]
                               : flash_entries[lun];
      if (still_holds(named, lun)) table[lun] = named;
    }
    return table;
  }

  MapSync& m_sync;
  const MapLayout& m_layout;
  const DurableMap& m_durable;
  FlashBackend& m_backend;
  PageStore& m_store;
  const FlashArray& m_flash;
  const Geometry& m_g;
  const uint64_t m_from;  // the checkpoint's sequence: the log is what is newer
  const uint32_t m_spare_bytes = m_flash.spare_words_per_page() * 4;
  RollForward m_log;
  std::vector<bool> m_in_log;  // per block: holds pages of the log (read whole)
  uint64_t m_highest = 0;      // the newest program sequence seen
};

}  // namespace

std::vector<SlotId> recover_synced_map(MapSync& sync, FlashBackend& backend, PageStore& store) {
  return SyncedMapRecovery(sync, backend, store).run();
}

}  // namespace ssd::ftl
