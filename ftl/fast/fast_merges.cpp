// FAST's three merges (fast_ftl.h). All are GC-class work: copies are read and programmed as
// OpClass::kGc and counted as GC writes; each merge is one gc_invocation.
#include "ftl/fast/fast_ftl.h"

namespace ssd::ftl {

MergeSource FastFtl::newest_copy(uint32_t lbn, uint32_t offset) const {
  return live_copy(lbn, offset, [&](Lun lun) { return peek(lun); });
}

void FastFtl::forget_log_pages(uint32_t lbn) {
  for (uint32_t offset = 0; offset < units_in(lbn); ++offset) {
    m_log_page[first_lun(lbn) + offset] = kNone;
  }
}

void FastFtl::merge_sequential() {
  const uint32_t lbn = m_sw_lbn;
  const BlockId sw = m_sw_block;
  const BlockId old = m_data[lbn];
  const uint32_t written = m_flash.next_free(sw);
  uint32_t last = kNone;
  if (written < units_in(lbn)) {
    // Partial merge: the pages after the sequential run come in behind it, newest copies only.
    last = m_flash.fill(sw, written, first_lun(lbn),
                        [&](uint32_t offset) { return newest_copy(lbn, offset); });
    for (uint32_t offset = written; offset < units_in(lbn); ++offset) {
      m_log_page[first_lun(lbn) + offset] = kNone;  // copied from RW pages or the data block
    }
    ++m_merges.partials;
  } else {
    ++m_merges.switches;
  }
  // The SW block becomes the data block: its pages are no longer log pages. Units whose newest
  // copy is a later RW page keep it.
  for (uint32_t offset = 0; offset < written; ++offset) {
    const Lun lun = first_lun(lbn) + offset;
    if (m_log_page[lun] == m_flash.page(sw, offset)) m_log_page[lun] = kNone;
  }
  ++m_stats.gc_invocations;
  if (old != kNone) m_flash.erase(old, last);
  m_data[lbn] = sw;
  m_sw_block = kNone;
  m_sw_lbn = kNone;
}

void FastFtl::merge_random(size_t index) {
  const BlockId victim = m_rw[index];
  // Every logical block with a live page in the victim is rewritten; its other log pages (in
  // other RW blocks or the SW block) die with it.
  for (uint32_t p = 0; p < m_flash.next_free(victim); ++p) {
    const PageId page = m_flash.page(victim, p);
    if (!m_flash.names_unit(page)) continue;  // torn by a power cut
    const Lun lun = m_flash.lun_in(page);
    if (m_log_page[lun] == page && unit_valid(lun)) full_merge(lbn_of(lun));
  }
  m_flash.erase(victim, kNone);
  m_rw.erase(m_rw.begin() + static_cast<std::ptrdiff_t>(index));
}

void FastFtl::full_merge(uint32_t lbn) {
  const BlockId old = m_data[lbn];
  const uint32_t plane = home_plane(lbn);
  // A merge takes a block on the home plane and gives one back there: it never needs make_room
  // (every plane keeps a free block outside merges).
  const BlockId fresh = m_flash.allocate(plane);
  const uint32_t last = m_flash.fill(fresh, 0, first_lun(lbn),
                                     [&](uint32_t offset) { return newest_copy(lbn, offset); });
  forget_log_pages(lbn);
  ++m_stats.gc_invocations;
  ++m_merges.fulls;
  if (old != kNone) m_flash.erase(old, last);
  m_data[lbn] = fresh;
  if (m_sw_lbn == lbn) {  // its pages were all merged or stale
    m_flash.erase(m_sw_block, last);
    m_sw_block = kNone;
    m_sw_lbn = kNone;
  }
}

}  // namespace ssd::ftl
