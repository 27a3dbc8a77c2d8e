#include "ftl/sector_log/sector_log.h"

#include <algorithm>
#include <stdexcept>

#include "ftl/core/page_store.h"
#include "ftl/core/unit_writer.h"

namespace ssd::ftl {

namespace {

uint32_t sectors_in(uint64_t mask) { return static_cast<uint32_t>(__builtin_popcountll(mask)); }

}  // namespace

SectorLog::SectorLog(FlashBackend& backend, BlockLender& lender, MergeSink& sink, uint32_t blocks,
                     uint64_t hash_buckets, Start start)
    : m_backend(backend),
      m_geometry(backend.geometry()),
      m_lender(lender),
      m_sink(sink),
      m_layout(LogPageLayout::of(m_geometry, backend.flash().spare_words_per_page())),
      m_sectors_per_unit(m_geometry.sectors_per_unit),
      m_sectors_per_page(m_layout.sectors),
      m_page_bytes(m_geometry.page_bytes),
      m_blocks(blocks),
      m_map(hash_buckets != 0 ? hash_buckets : uint64_t{blocks} * m_geometry.pages_per_block,
            m_sectors_per_unit, uint64_t{blocks} * m_geometry.pages_per_block * m_sectors_per_page),
      m_scratch(m_sectors_per_unit, 0),
      m_unit_tokens(m_geometry.units_per_page, 0),
      m_spare(backend.flash().spare_words_per_page(), kNone) {
  if (blocks < 2) throw std::invalid_argument("the sector log needs at least two blocks");
  if (m_sectors_per_page == 0) {
    throw std::invalid_argument("the sector log's pages hold no data beside their addresses");
  }
  m_pending.reserve(m_sectors_per_page);
  if (start == Start::kAfterCut) return;
  resize_slots(blocks);
  m_ring.reserve(blocks);
  for (uint32_t i = 0; i < blocks; ++i) {
    m_ring.push_back(m_lender.lend_block(m_next_plane));
    m_next_plane = (m_next_plane + 1) % m_geometry.planes();
  }
}

void SectorLog::resize_slots(uint32_t blocks) {
  const uint64_t slots = uint64_t{blocks} * m_geometry.pages_per_block * m_sectors_per_page;
  m_slot_lpn.resize(slots, kNone);
  m_slot_sector.resize(slots, 0);
  m_slot_token.resize(slots, 0);
}

uint32_t SectorLog::pending_index(Lun lpn, uint32_t sector) const {
  for (uint32_t i = 0; i < m_pending.size(); ++i) {
    if (m_pending[i].lpn == lpn && m_pending[i].sector == sector) return i;
  }
  return kNoPending;
}

uint64_t SectorLog::pending_sectors(Lun lpn) const {
  uint64_t mask = 0;
  for (const Pending& p : m_pending) {
    if (p.lpn == lpn) mask |= uint64_t{1} << p.sector;
  }
  return mask;
}

uint64_t SectorLog::held(Lun lpn) {
  const uint32_t entry = m_map.find(lpn);
  return (entry == kNone ? 0 : m_map.sectors(entry)) | pending_sectors(lpn);
}

uint64_t SectorLog::held_uncounted(Lun lpn) const {
  const uint32_t entry = m_map.peek(lpn);
  return (entry == kNone ? 0 : m_map.sectors(entry)) | pending_sectors(lpn);
}

void SectorLog::write(Lun lpn, uint64_t sectors, const Token* tokens) {
  ++m_counts.writes;
  m_counts.sectors_in += sectors_in(sectors);
  if ((held(lpn) & sectors) == sectors) ++m_counts.write_hits;
  m_backend.dram(true, sectors_in(sectors) * m_geometry.sector_bytes, OpClass::kHostWrite);
  for (uint64_t m = sectors; m != 0; m &= m - 1) {
    const auto s = static_cast<uint32_t>(__builtin_ctzll(m));
    const uint32_t at = pending_index(lpn, s);
    if (at != kNoPending) {  // rewritten before its page was programmed
      m_pending[at].token = tokens[s];
      continue;
    }
    m_pending.push_back({lpn, s, tokens[s]});
    if (m_pending.size() == m_sectors_per_page) program_page_buffer();
  }
}

void SectorLog::read(Lun lpn, uint64_t wanted, Token* tokens, OpClass op_class) {
  const uint32_t entry = m_map.peek(lpn);
  uint32_t pages[64];
  uint32_t page_count = 0;
  uint32_t from_dram = 0;
  for (uint64_t m = wanted; m != 0; m &= m - 1) {
    const auto s = static_cast<uint32_t>(__builtin_ctzll(m));
    const uint32_t at = pending_index(lpn, s);
    if (at != kNoPending) {
      tokens[s] = m_pending[at].token;
      ++from_dram;
      continue;
    }
    const uint32_t slot = entry == kNone ? SectorMap::kNoSlot : m_map.location(entry, s);
    if (slot == SectorMap::kNoSlot) continue;
    tokens[s] = m_slot_token[slot];
    const uint32_t page = slot / m_sectors_per_page;  // ring-wide page number
    if (std::find(pages, pages + page_count, page) == pages + page_count)
      pages[page_count++] = page;
  }
  if (from_dram > 0) m_backend.dram(false, from_dram * m_geometry.sector_bytes, op_class);
  for (uint32_t i = 0; i < page_count; ++i) {
    const uint32_t ring_index = pages[i] / m_geometry.pages_per_block;
    const PageId page =
        m_geometry.first_page(m_ring[ring_index]) + pages[i] % m_geometry.pages_per_block;
    m_backend.read(page, m_geometry.units_per_page, op_class);
    ++m_counts.page_reads;
  }
}

void SectorLog::peek(Lun lpn, uint64_t wanted, Token* tokens) const {
  const uint32_t entry = m_map.peek(lpn);
  for (uint64_t m = wanted; m != 0; m &= m - 1) {
    const auto s = static_cast<uint32_t>(__builtin_ctzll(m));
    const uint32_t at = pending_index(lpn, s);
    if (at != kNoPending) {
      tokens[s] = m_pending[at].token;
    } else if (entry != kNone && m_map.location(entry, s) != SectorMap::kNoSlot) {
      tokens[s] = m_slot_token[m_map.location(entry, s)];
    }
  }
}

void SectorLog::drop(Lun lpn) {
  m_map.remove(lpn);  // its sectors in the region become garbage
  m_pending.erase(std::remove_if(m_pending.begin(), m_pending.end(),
                                 [lpn](const Pending& p) { return p.lpn == lpn; }),
                  m_pending.end());
}

void SectorLog::flush() {
  if (!m_pending.empty()) program_page_buffer();
}

void SectorLog::program_page_buffer() {
  const PageId page = next_head_page();
  std::fill(m_unit_tokens.begin(), m_unit_tokens.end(), 0);
  for (uint32_t offset = 0; offset < m_pending.size(); ++offset) {
    const Pending& p = m_pending[offset];
    m_unit_tokens[offset / m_sectors_per_unit] += p.token;
    const uint64_t slot = slot_of(m_head, m_head_page, offset);
    m_slot_lpn[slot] = p.lpn;
    m_slot_sector[slot] = static_cast<uint8_t>(p.sector);
    m_slot_token[slot] = p.token;
    const uint32_t entry = m_map.find_or_add(p.lpn);
    m_map.set_location(entry, p.sector, static_cast<uint32_t>(slot));
  }
  // Without power cuts the spare area names no logical unit: the FTL's own scans skip the page.
  std::fill(m_spare.begin(), m_spare.end(), kNone);
  std::vector<uint32_t> data_words;
  if (m_layout.recoverable) stamp_page(data_words);
  m_backend.program(page, m_unit_tokens.data(), m_spare.data(), OpClass::kHostWrite,
                    m_program_after);
  if (m_layout.recoverable) m_backend.flash().set_data_words(page, std::move(data_words));
  ++m_counts.page_programs;
  m_counts.padded_sectors += m_sectors_per_page - m_pending.size();
  ++m_head_page;
  m_pending.clear();
}

void SectorLog::stamp_page(std::vector<uint32_t>& data_words) {
  const uint32_t words = LogPageLayout::kWordsPerSector;
  data_words.assign(uint64_t{m_sectors_per_page} * words +
                        (m_layout.addresses_in_spare ? 0 : m_layout.address_words),
                    0);
  m_addresses.assign(m_sectors_per_page, m_layout.no_address());
  for (uint32_t offset = 0; offset < m_pending.size(); ++offset) {
    const Pending& p = m_pending[offset];
    m_addresses[offset] = uint64_t{p.lpn} * m_sectors_per_unit + p.sector;
    data_words[offset * words] = p.token;
    data_words[offset * words + 1] = m_sink.copy_token_under(p.lpn, p.sector);
    data_words[offset * words + 2] = m_sink.copy_token(p.lpn);
  }
  const uint64_t sequence = m_sequence++ | PageStore::kLentPageMark;
  const uint32_t at = m_layout.unit_words;
  m_spare[at] = static_cast<uint32_t>(sequence);
  m_spare[at + 1] = static_cast<uint32_t>(sequence >> 32);
  m_layout.pack(m_addresses, m_layout.addresses_in_spare
                                 ? &m_spare[at + UnitWriter::kSequenceWords]
                                 : &data_words[uint64_t{m_sectors_per_page} * words]);
}

PageId SectorLog::next_head_page() {
  if (m_head_page == m_geometry.pages_per_block) {
    if (m_used == m_ring.size()) clean_tail();
    m_head = (m_head + 1) % static_cast<uint32_t>(m_ring.size());
    m_head_page = 0;
    ++m_used;
  }
  return m_geometry.first_page(m_ring[m_head]) + m_head_page;
}

bool SectorLog::clean_tail() {
  if (m_used < 2) return false;
  const uint32_t tail = m_tail;
  const BlockId block = m_ring[tail];
  empty_block(tail);
  // Exchange the block for the FTL's oldest free one of the same plane.
  m_lender.take_back(block);
  m_ring[tail] = m_lender.lend_block(m_geometry.plane_of_block(block));
  m_tail = (tail + 1) % static_cast<uint32_t>(m_ring.size());
  --m_used;
  return true;
}

void SectorLog::empty_block(uint32_t ring_index) {
  const size_t first_op = m_backend.ops().size();
  for (uint32_t page = 0; page < m_geometry.pages_per_block; ++page) {
    for (uint32_t offset = 0; offset < m_sectors_per_page; ++offset) {
      const uint64_t slot = slot_of(ring_index, page, offset);
      const Lun lpn = m_slot_lpn[slot];
      if (lpn == kNone) continue;
      const uint32_t entry = m_map.find(lpn);
      if (entry == kNone || m_map.location(entry, m_slot_sector[slot]) != slot) continue;  // stale
      // Gather every logged sector of the page: one read per log page that holds some.
      const uint64_t sectors = m_map.sectors(entry);
      uint32_t pages[64];
      uint32_t page_count = 0;
      for (uint64_t m = sectors; m != 0; m &= m - 1) {
        const auto s = static_cast<uint32_t>(__builtin_ctzll(m));
        const uint32_t at = m_map.location(entry, s);
        m_scratch[s] = m_slot_token[at];
        const uint32_t ring_page = at / m_sectors_per_page;
        if (std::find(pages, pages + page_count, ring_page) == pages + page_count) {
          pages[page_count++] = ring_page;
        }
      }
      for (uint32_t i = 0; i < page_count; ++i) {
        const uint32_t index = pages[i] / m_geometry.pages_per_block;
        m_backend.read(m_geometry.first_page(m_ring[index]) + pages[i] % m_geometry.pages_per_block,
                       m_geometry.units_per_page, OpClass::kHostWrite);
        ++m_counts.page_reads;
      }
      ++m_counts.evictions;
      m_counts.evicted_sectors += sectors_in(sectors);
      m_map.remove(lpn);
      m_sink.merge_to_ftl(lpn, sectors, m_scratch.data());
    }
  }
  const uint64_t first_slot = slot_of(ring_index, 0, 0);
  const uint64_t slots = uint64_t{m_geometry.pages_per_block} * m_sectors_per_page;
  std::fill_n(m_slot_lpn.begin() + first_slot, slots, kNone);
  const BlockId block = m_ring[ring_index];
  if (m_layout.recoverable) {
    // The merged copies reach the flash before the block that held their sectors is erased:
    // the pages the scheme was still assembling are programmed now, and the erase waits for
    // every program since the merges began.
    m_sink.flush_below();
    const std::vector<FlashOp>& ops = m_backend.ops().ops();
    for (size_t i = first_op; i < ops.size(); ++i) {
      if (ops[i].kind == OpKind::kProgram || ops[i].kind == OpKind::kCopyback) {
        m_backend.note_supersedes(static_cast<uint32_t>(i), block);
      }
    }
  }
  m_backend.erase(block, OpClass::kHostWrite);
  ++m_counts.erases;
}

}  // namespace ssd::ftl
