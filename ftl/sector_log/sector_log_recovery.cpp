// The sector log rebuilt after a power cut (sector_log.h, "Power loss"; log_page_layout.h): the
// page buffer in DRAM is lost; the blocks the scheme's recovery found lent hold the log pages that
// reached the flash. Each page's spare area, which the scheme's scan read, names its sectors (or
// its data area's address sectors do, read now), a torn page being skipped; the blocks are ordered
// by their pages' log sequence into the ring, oldest first; the map names again, for every logical
// sector, its newest logged copy among those that patch the scheme's recovered copy of its page.
//
// A clean the cut interrupted left its block in place (its erase waits for the merged copies, so
// an erase that was not done finds the block intact; one that was torn has been erased again by
// the scheme's scan, and its merged copies are on flash); the block holding the sectors the clean
// had merged names them no more (their copies below are newer). When the ring then holds more
// blocks than the region's size (the clean had already lent the block that replaces it, and the
// log wrote there), the oldest blocks are cleaned again: merged out and erased. Blocks the log
// lacks are borrowed afresh.
#include <algorithm>
#include <numeric>

#include "ftl/core/page_store.h"
#include "ftl/core/unit_writer.h"
#include "ftl/sector_log/sector_log.h"

namespace ssd::ftl {

namespace {

// Blocks in turn over the dies, as the scheme's scan reads them, so every die stays busy.
std::vector<BlockId> interleaved_by_die(const std::vector<BlockId>& blocks, const Geometry& g) {
  std::vector<std::vector<BlockId>> by_die(g.dies());
  for (const BlockId block : blocks) by_die[g.die_of_block(block)].push_back(block);
  std::vector<BlockId> order;
  order.reserve(blocks.size());
  for (size_t round = 0; order.size() < blocks.size(); ++round) {
    for (const auto& die : by_die) {
      if (round < die.size()) order.push_back(die[round]);
    }
  }
  return order;
}

}  // namespace

void SectorLog::recover(const std::vector<BlockId>& lent) {
  const std::vector<BlockId> order = interleaved_by_die(lent, m_geometry);
  const uint64_t block_slots = uint64_t{m_geometry.pages_per_block} * m_sectors_per_page;
  // Read every block into a ring position of its own, then order the ring by sequence.
  resize_slots(static_cast<uint32_t>(order.size()));
  m_ring = order;
  std::vector<Token> unders(m_slot_lpn.size(), 0);
  std::vector<Token> bases(m_slot_lpn.size(), 0);
  std::vector<uint64_t> first_sequence(order.size());
  uint64_t highest = 0;
  for (uint32_t i = 0; i < order.size(); ++i) {
    first_sequence[i] = read_back_block(order[i], i, unders, bases, highest);
  }
  std::vector<uint32_t> by_age(order.size());
  std::iota(by_age.begin(), by_age.end(), 0u);
  std::sort(by_age.begin(), by_age.end(),
            [&](uint32_t a, uint32_t b) { return first_sequence[a] < first_sequence[b]; });
  const auto reorder = [&](auto& values) {
    auto copy = values;
    for (uint32_t to = 0; to < by_age.size(); ++to) {
      std::copy_n(copy.begin() + by_age[to] * block_slots, block_slots,
                  values.begin() + to * block_slots);
    }
  };
  reorder(m_slot_lpn);
  reorder(m_slot_sector);
  reorder(m_slot_token);
  reorder(unders);
  reorder(bases);
  for (uint32_t to = 0; to < by_age.size(); ++to) m_ring[to] = order[by_age[to]];
  m_recovery.blocks_found = static_cast<uint32_t>(m_ring.size());
  m_sequence = highest + 1;

  rebuild_map(bases);
  // The layer learns what the scheme's copies hold under the sectors the log keeps.
  for_each_mapped_slot([&](uint64_t slot) {
    m_sink.recovered_sector(m_slot_lpn[slot], m_slot_sector[slot], unders[slot]);
  });

  // More blocks than the region holds: clean the oldest again, as the interrupted clean would
  // have, and give them back.
  m_tail = 0;
  m_used = static_cast<uint32_t>(m_ring.size());
  while (m_ring.size() > m_blocks) {
    const BlockId block = m_ring.front();
    empty_block(0);
    m_lender.take_back(block);
    m_ring.erase(m_ring.begin());
    for (auto* values : {&unders, &bases}) {
      values->erase(values->begin(), values->begin() + block_slots);
    }
    m_slot_lpn.erase(m_slot_lpn.begin(), m_slot_lpn.begin() + block_slots);
    m_slot_sector.erase(m_slot_sector.begin(), m_slot_sector.begin() + block_slots);
    m_slot_token.erase(m_slot_token.begin(), m_slot_token.begin() + block_slots);
    --m_used;
    ++m_recovery.blocks_retired;
    // The map's slots moved down a block; the merges made the copies below newer than any
    // sector of the pages they merged.
    rebuild_map(bases);
    m_backend.end_batch();
  }

  // The newest block is written on; the blocks the region lacks are borrowed after it.
  const uint32_t found = static_cast<uint32_t>(m_ring.size());
  m_head = found == 0 ? 0 : found - 1;
  m_head_page = found == 0 ? 0 : m_backend.flash().write_pointer(m_ring[m_head]);
  m_used = std::max(found, 1u);
  if (found > 0) {
    m_next_plane = (m_geometry.plane_of_block(m_ring[m_head]) + 1) % m_geometry.planes();
  }
  resize_slots(m_blocks);
  while (m_ring.size() < m_blocks) {
    m_ring.push_back(m_lender.lend_block(m_next_plane));
    m_next_plane = (m_next_plane + 1) % m_geometry.planes();
  }
  for_each_mapped_slot([&](uint64_t) { ++m_recovery.sectors_kept; });
}

template <class Visit>
void SectorLog::for_each_mapped_slot(const Visit& visit) const {
  for (uint64_t slot = 0; slot < m_slot_lpn.size(); ++slot) {
    const Lun lpn = m_slot_lpn[slot];
    if (lpn == kNone) continue;
    const uint32_t entry = m_map.peek(lpn);
    if (entry != kNone && m_map.location(entry, m_slot_sector[slot]) == slot) visit(slot);
  }
}

uint64_t SectorLog::read_back_block(BlockId block, uint32_t ring_index, std::vector<Token>& unders,
                                    std::vector<Token>& bases, uint64_t& highest) {
  const FlashArray& flash = m_backend.flash();
  const uint32_t words = LogPageLayout::kWordsPerSector;
  // With the addresses in the data area, the units that hold its address sectors are read too.
  const uint32_t address_units =
      m_layout.addresses_in_spare
          ? 0
          : (m_layout.address_sectors * m_geometry.sector_bytes + m_geometry.unit_bytes - 1) /
                m_geometry.unit_bytes;
  uint64_t first = ~uint64_t{0};
  const uint32_t programmed = flash.write_pointer(block);
  for (uint32_t p = 0; p < programmed; ++p) {
    const PageId page = m_geometry.first_page(block) + p;
    // The scheme's scan has read every programmed page's spare area, the log's included
    // (PageStore::scan_flash): the firmware keeps what the log's pages said, and reads only the
    // address sectors a page's data area holds.
    if (address_units > 0) m_backend.read(page, address_units, OpClass::kMapping);
    if (!flash.readable(page)) continue;  // torn: the ECC fails
    const uint32_t* spare = flash.spare(page);
    const uint32_t at = m_layout.unit_words;
    const uint64_t sequence =
        (spare[at] | uint64_t{spare[at + 1]} << 32) & ~PageStore::kLentPageMark;
    first = std::min(first, sequence);
    highest = std::max(highest, sequence);
    const std::vector<uint32_t>* data = flash.data_words(page);
    if (data == nullptr) continue;  // every log page keeps them while power may be cut
    const uint32_t* addresses = m_layout.addresses_in_spare
                                    ? spare + at + UnitWriter::kSequenceWords
                                    : data->data() + uint64_t{m_sectors_per_page} * words;
    for (uint32_t offset = 0; offset < m_sectors_per_page; ++offset) {
      const uint64_t address = m_layout.unpack(addresses, offset);
      if (address >= m_geometry.logical_sectors()) continue;  // padding (no address)
      const uint64_t slot = slot_of(ring_index, p, offset);
      m_slot_lpn[slot] = static_cast<Lun>(address / m_sectors_per_unit);
      m_slot_sector[slot] = static_cast<uint8_t>(address % m_sectors_per_unit);
      m_slot_token[slot] = (*data)[offset * words];
      unders[slot] = (*data)[offset * words + 1];
      bases[slot] = (*data)[offset * words + 2];
    }
  }
  m_backend.end_batch();
  return first;
}

void SectorLog::rebuild_map(const std::vector<Token>& bases) {
  m_map.clear();
  // Ring order is write order: a later copy of a sector replaces an earlier one. Each logged
  // sector is compared with the scheme's entry for its page (a table lookup).
  for (uint64_t slot = 0; slot < m_slot_lpn.size(); ++slot) {
    const Lun lpn = m_slot_lpn[slot];
    if (lpn == kNone) continue;
    ++m_backend.cpu().table_lookups;
    if (bases[slot] != m_sink.copy_token(lpn)) continue;
    const uint32_t entry = m_map.find_or_add(lpn);
    m_map.set_location(entry, m_slot_sector[slot], static_cast<uint32_t>(slot));
  }
}

}  // namespace ssd::ftl
