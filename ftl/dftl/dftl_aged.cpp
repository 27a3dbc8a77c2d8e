// DFTL's side of sampled aging (precondition.aging = sampled, ftl/core/sampled_aging.h).
//
// The miniature describes its planes with the translation pages' slots marked as the scheme's
// own (AgedPlanes::scheme_page_bits), and, per slot whose unit its CMT holds, that entry's place in
// LRU order and whether it is dirty (AgedPlanes::unit_state). The device then lays out:
// - its data units in the data slots, as page mapping does, the translation pages saying where
//   each is (m_flash_entries is the layout's table);
// - its translation pages in the copies of the miniature's translation slots, in a seeded order
//   of their own; copies left over hold nothing, translation pages left over are written after;
// - its CMT: the units laid out in the copies of the slots whose units the miniature's CMT held,
//   in the miniature's LRU order (the copies of one entry side by side, in block order), dirty
//   where the miniature's entry was, at most its capacity (the least recent dropped). The
//   miniature's cache is the device's scaled by the share of the units it holds
//   (dftl_descriptor.cpp), so the copies fill the device's cache as the miniature's was filled.
// A dirty entry's translation page says the unit's laid-out slot (what it says for an entry that
// is dirty in the miniature, an older slot since erased, has no copy on the device): a read after
// the entry's eviction finds the same slot either way, and the eviction still writes the page back.
#include <algorithm>
#include <numeric>
#include <vector>

#include "ftl/core/content_token.h"
#include "ftl/core/random_permutation.h"
#include "ftl/dftl/dftl.h"

namespace ssd::ftl {

namespace {

// unit_state of a slot whose unit the CMT holds: its place in LRU order (0: least recent) in the
// low 32 bits.
constexpr uint64_t kCached = uint64_t{1} << 32;
constexpr uint64_t kDirty = uint64_t{1} << 33;
// The translation pages' order over their slots, a stream of its own beside the units'.
constexpr uint64_t kTranslationOrderSalt = 0x74706167652d6f72ull;  // "tpage-or"

}  // namespace

bool Dftl::describe_aged_planes(AgedPlanes& planes) const {
  const uint64_t units = m_geometry.logical_units;
  std::vector<SlotId> table(units + m_gtd.size());
  for (Lun lun = 0; lun < units; ++lun) table[lun] = slot_of(lun);
  std::copy(m_gtd.begin(), m_gtd.end(), table.begin() + static_cast<std::ptrdiff_t>(units));
  planes = m_store.describe_planes(table);
  const uint32_t per_block = planes.units_per_block;
  for (const SlotId slot : m_gtd) {
    if (slot != kNone) planes.set_scheme_page(slot / per_block, slot % per_block);
  }
  planes.unit_state.assign(planes.programmed_pages.size() * uint64_t{per_block}, 0);
  const std::vector<Lun> cached = m_cmt.least_recent_first();
  for (uint32_t rank = 0; rank < cached.size(); ++rank) {
    const Lun lun = cached[rank];
    const SlotId slot = m_cmt.slot(lun);
    if (slot == kNone) continue;  // a trimmed unit's entry: no slot to copy
    planes.unit_state[slot] = kCached | (m_cmt.dirty(lun) ? kDirty : 0) | rank;
  }
  return true;
}

bool Dftl::lay_out_aged(const AgedLayout& layout) {
  const AgedPlanes& aged = *layout.planes;
  const SequentialFill& fill = layout.fill;
  if (aged.unit_state.empty() || m_cmt.size() != 0) return false;
  const uint64_t units = m_geometry.logical_units;
  const auto tpages = static_cast<uint32_t>(m_gtd.size());
  RandomPermutation tpage_order(tpages, layout.seed ^ kTranslationOrderSalt);
  uint32_t tpages_placed = 0;
  const PageStore::AgedSchemePages translation_pages{[&](SlotId slot, Token& token) -> Lun {
    if (tpages_placed == tpages) return kNone;
    const auto tpage = static_cast<uint32_t>(tpage_order.next());
    ++tpages_placed;
    m_gtd[tpage] = slot;
    token = 0;  // sealed below once what it says is known
    return static_cast<Lun>(units + tpage);
  }};
  const auto token = [&](Lun lun) { return whole_unit_token(fill.command_id(lun), lun); };
  std::vector<Lun> left;
  std::vector<uint32_t> copied_from;
  if (!m_store.lay_out_aged(aged, fill.units, layout.seed, m_flash_entries.data(), token, left,
                            {&copied_from, &translation_pages})) {
    return false;
  }

  // With sequence numbers every copy is sealed with the digest of what it says (entry_token): the
  // laid-out pages say every laid-out unit's slot. Those not laid out are sealed when written.
  if (m_store.sequenced()) {
    for (uint32_t tpage = 0; tpage < tpages; ++tpage) {
      m_digest[tpage] = flash_entries_digest(tpage);
      if (m_gtd[tpage] != kNone) m_store.set_laid_out_token(m_gtd[tpage], m_digest[tpage]);
    }
  }

  // The CMT. The miniature's cached slots, block by block (its few thousand entries), then every
  // device block's copies of them: the unit each holds is in its page's spare area.
  const uint32_t per_block = aged.units_per_block;
  std::vector<uint64_t> cached_slots;
  for (uint64_t slot = 0; slot < aged.unit_state.size(); ++slot) {
    if ((aged.unit_state[slot] & kCached) != 0) cached_slots.push_back(slot);
  }
  std::vector<uint32_t> first_in_block(aged.programmed_pages.size() + 1, 0);
  for (const uint64_t slot : cached_slots) ++first_in_block[slot / per_block + 1];
  std::partial_sum(first_in_block.begin(), first_in_block.end(), first_in_block.begin());
  struct Cached {
    uint64_t order;  // the miniature's LRU place, then the device block
    Lun lun;
    SlotId slot;
    bool dirty;
  };
  std::vector<Cached> entries;
  const FlashArray& flash = m_backend.flash();
  for (BlockId block = 0; block < copied_from.size(); ++block) {
    const uint32_t source = copied_from[block];
    for (uint32_t i = first_in_block[source]; i < first_in_block[source + 1]; ++i) {
      const uint64_t state = aged.unit_state[cached_slots[i]];
      const auto slot =
          static_cast<SlotId>(uint64_t{block} * per_block + cached_slots[i] % per_block);
      const Lun lun = flash.spare(m_geometry.page_of_slot(slot))[m_geometry.unit_in_page(slot)];
      if (lun >= units || m_flash_entries[lun] != slot) continue;  // a copy that holds no unit
      entries.push_back({(state & 0xffffffffu) << 32 | block, lun, slot, (state & kDirty) != 0});
    }
  }
  std::sort(entries.begin(), entries.end(),
            [](const Cached& a, const Cached& b) { return a.order < b.order; });
  const size_t dropped = entries.size() - std::min<size_t>(entries.size(), m_cmt.capacity());
  for (size_t i = dropped; i < entries.size(); ++i) {
    cache_insert(entries[i].lun, entries[i].slot, entries[i].dirty);
  }

  // Translation pages no copy took, then units no valid slot took, as write() serves them.
  for (; tpages_placed < tpages; ++tpages_placed) {
    write_translation(static_cast<uint32_t>(tpage_order.next()), OpClass::kMapping, kNone);
  }
  for (const Lun lun : left) write_whole_unit(lun, token(lun));
  write_back_stale();
  return true;
}

}  // namespace ssd::ftl
