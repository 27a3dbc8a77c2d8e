// Dftl::fill_sequential: preconditioning's sequential fill at memory speed.
//
// Where the fill's translation writes fall. Written in order, each unit misses the CMT once and is
// inserted dirty; once the CMT holds C entries, the write of unit L first evicts L - C, its least
// recently used entry. A dirty victim's translation page t is written back, which cleans every
// cached entry of t: units L - C .. L - 1 of t. So the dirty victims of t (E entries a page, its
// units tE .. tE + E - 1) are its first unit and every C-th after it, tE + kC, and t's k-th write
// is stored just before data unit tE + (k + 1)C: write-back k makes t's units tE + kC ..
// tE + (k + 1)C - 1 say their slots on flash. What this leaves is computed, not replayed.
#include <algorithm>
#include <vector>

#include "ftl/core/content_token.h"
#include "ftl/dftl/dftl.h"

namespace ssd::ftl {

bool Dftl::fill_sequential(const SequentialFill& fill) {
  const uint64_t units = fill.units;
  const uint64_t capacity = m_cmt.capacity();
  const uint64_t per_page = m_entries_per_tpage;
  // Inserts in the order of the units they precede: t's come before t + 1's, as kC < E.
  std::vector<PageStore::FillInsert> inserts;
  for (uint64_t first = 0; first < units; first += per_page) {
    const uint64_t end = std::min(units, first + per_page);
    const auto key = static_cast<Lun>(m_geometry.logical_units + first / per_page);
    for (uint64_t victim = first; victim < end && victim + capacity < units; victim += capacity) {
      inserts.push_back({victim + capacity, key, 0, kNone});
    }
    if (inserts.size() > units / 4) return false;  // a cache of 4 entries or fewer: dftl.h
  }

  const uint64_t in_bulk = m_store.fill_sequential(
      units, m_flash_entries.data(),
      [&](Lun lun) { return whole_unit_token(fill.command_id(lun), lun); }, 0, &inserts);
  if (in_bulk == 0) return false;

  // The translation writes the bulk pages hold, each replacing its page's older copy (the token
  // is 0: without sequence numbers, which the bulk path never has, no copy is sealed).
  std::vector<uint32_t> writes(m_gtd.size(), 0);
  bool next_victim_gone = false;  // the write before unit in_bulk evicted its victim already
  for (const PageStore::FillInsert& insert : inserts) {
    if (insert.slot == kNone) break;
    const uint32_t tpage = insert.key - static_cast<Lun>(m_geometry.logical_units);
    if (m_gtd[tpage] != kNone) m_store.replace(m_gtd[tpage], insert.slot);
    m_gtd[tpage] = insert.slot;
    ++writes[tpage];
    ++m_translation_writes;
    next_victim_gone = insert.before == in_bulk;
  }
  // A unit's entry is on flash once a write-back of its page covered it (above).
  const auto on_flash = [&](Lun lun) {
    const uint64_t tpage = lun / per_page;
    return lun < tpage * per_page + uint64_t{writes[tpage]} * capacity;
  };
  // The CMT: the last units written, oldest first, dirty unless on flash.
  const uint64_t first_cached = (in_bulk > capacity ? in_bulk - capacity : 0) + next_victim_gone;
  for (uint64_t lun = first_cached; lun < in_bulk; ++lun) {
    cache_insert(static_cast<Lun>(lun), m_flash_entries[lun], !on_flash(static_cast<Lun>(lun)));
  }
  // What the translation pages say: m_flash_entries holds every slot so far, and keeps those a
  // write-back covered. (Their digests stay 0: kept only with sequence numbers, which a store that
  // fills in bulk never has; m_digest.)
  for (uint64_t first = 0; first < in_bulk; first += per_page) {
    const uint64_t end = std::min(in_bulk, first + per_page);
    const uint64_t covered = std::min(end, first + uint64_t{writes[first / per_page]} * capacity);
    std::fill(m_flash_entries.begin() + static_cast<std::ptrdiff_t>(covered),
              m_flash_entries.begin() + static_cast<std::ptrdiff_t>(end), kNone);
  }
  // The rest as write() serves it: every unit whole, none mapped before.
  for (uint64_t lun = in_bulk; lun < units; ++lun) {
    write_whole_unit(static_cast<Lun>(lun), whole_unit_token(fill.command_id(lun), lun));
  }
  write_back_stale();
  return true;
}

}  // namespace ssd::ftl
