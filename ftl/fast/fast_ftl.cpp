#include "ftl/fast/fast_ftl.h"

#include <stdexcept>
#include <string>

#include "ftl/core/memory_sizes.h"
#include "ftl/fast/fast_rules.h"

namespace ssd::ftl {

FastFtl::FastFtl(const SchemeContext& context)
    : BlockScheme(context, "fast", /*page_sequence=*/true),
      m_log_blocks(fast_log_blocks(context.platform)),
      m_data(logical_blocks(), kNone),
      m_log_page(m_geometry.logical_units, kNone) {
  m_entry_bytes =
      bytes_to_name(m_geometry.blocks()) + bytes_to_name(m_geometry.pages_per_block + 1);
}

uint64_t FastFtl::table_bytes(uint64_t logical_units, uint64_t blocks, uint32_t pages_per_block,
                              uint32_t log_blocks) {
  const uint64_t logical_blocks = (logical_units + pages_per_block - 1) / pages_per_block;
  const uint64_t block_bytes = bytes_to_name(blocks);
  const uint64_t data_entry_bytes = block_bytes + bytes_to_name(uint64_t(pages_per_block) + 1);
  const uint64_t log_page_bytes = bytes_to_name(logical_units);
  const uint64_t valid_bitmap_bytes = (logical_units + 7) / 8;
  return logical_blocks * data_entry_bytes +
         uint64_t(log_blocks) * (block_bytes + pages_per_block * log_page_bytes) +
         valid_bitmap_bytes;
}

uint64_t FastFtl::mapping_memory_bytes() const {
  return table_bytes(m_geometry.logical_units, m_geometry.blocks(), m_geometry.pages_per_block,
                     m_log_blocks);
}

uint32_t FastFtl::blocks_held() const {
  uint32_t held = static_cast<uint32_t>(m_rw.size()) + (m_sw_block != kNone);
  for (const BlockId block : m_data) held += block != kNone;
  return held;
}

void FastFtl::describe_roles(std::vector<AgedRole>& roles) const {
  for (uint32_t lbn = 0; lbn < m_data.size(); ++lbn) {
    if (m_data[lbn] != kNone) roles[m_data[lbn]] = {lbn, kDataRole};
  }
  if (m_sw_block != kNone) roles[m_sw_block] = {m_sw_lbn, kSequentialLogRole};
  for (uint32_t i = 0; i < m_rw.size(); ++i) roles[m_rw[i]] = {kNone, kRandomLogRole + i};
}

void FastFtl::adopt_aged_block(uint32_t lbn, uint32_t role, BlockId block) {
  if (role == kDataRole) {
    m_data[lbn] = block;
  } else if (role == kSequentialLogRole) {
    m_sw_block = block;
    m_sw_lbn = lbn;
  } else {
    m_rw.push_back(block);
    // Every copy's RW blocks fit the device's budget, which counts its blocks as the
    // miniature's counts its own; the check guards the layout, not the input.
    if (m_rw.size() + 1 > m_log_blocks) {
      throw std::logic_error("sampled aging: more RW log blocks than FAST's budget of " +
                             std::to_string(m_log_blocks));
    }
  }
}

PageId FastFtl::peek(Lun lun) const {
  if (m_log_page[lun] != kNone) return m_log_page[lun];
  const BlockId block = m_data[lbn_of(lun)];
  return block == kNone ? kNone : m_flash.page(block, offset_of(lun));
}

PageId FastFtl::locate(Lun lun, OpClass /*op_class*/, uint32_t& /*after*/) {
  ++m_backend.cpu().hash_probes;  // the log-page map
  return peek(lun);
}

void FastFtl::write_units(uint32_t lbn, uint32_t first, const Token* tokens, uint32_t count,
                          uint32_t after) {
  for (uint32_t k = 0; k < count; ++k) write_unit(lbn, first + k, tokens[k], after);
}

void FastFtl::write_unit(uint32_t lbn, uint32_t offset, Token token, uint32_t after) {
  const Lun lun = first_lun(lbn) + offset;
  if (m_data[lbn] == kNone) m_data[lbn] = take_block(home_plane(lbn));
  ++m_backend.cpu().hash_probes;
  if (offset >= m_flash.next_free(m_data[lbn])) {
    // Still free in the data block. A log page may hold an older copy only if a full merge
    // rebuilt the data block shorter while this very unit was on its way to a log block.
    const uint32_t op =
        m_flash.program(m_data[lbn], offset, lun, token, OpClass::kHostWrite, after);
    if (m_log_page[lun] != kNone) {
      m_flash.note_supersedes(op, m_geometry.block_of_page(m_log_page[lun]));
    }
    m_log_page[lun] = kNone;
  } else if (offset == 0 || (lbn == m_sw_lbn && offset == m_flash.next_free(m_sw_block))) {
    append_sequential(lbn, offset, token, after);
  } else {
    append_random(lun, token, after);
  }
  mark_valid(lun);
}

void FastFtl::program_log(BlockId block, Lun lun, Token token, uint32_t after) {
  // The unit's previous copy may sit in a block a merge erases before this program completes
  // (a RW victim it is stale in, a data block a switch merge replaces): that erase waits for it.
  const PageId previous = unit_valid(lun) ? peek(lun) : kNone;
  const uint32_t offset = m_flash.next_free(block);
  const uint32_t op = m_flash.program(block, offset, lun, token, OpClass::kHostWrite, after);
  const BlockId previous_block = previous == kNone ? kNone : m_geometry.block_of_page(previous);
  if (previous_block != block) m_flash.note_supersedes(op, previous_block);
  m_log_page[lun] = m_flash.page(block, offset);
}

void FastFtl::append_sequential(uint32_t lbn, uint32_t offset, Token token, uint32_t after) {
  if (offset == 0) {  // a new sequential run: the SW log block is merged and starts over
    if (m_sw_block != kNone) merge_sequential();
    // On the home plane, so that it can become the data block without unbalancing the planes.
    m_sw_block = take_block(home_plane(lbn));
    m_sw_lbn = lbn;
  }
  program_log(m_sw_block, first_lun(lbn) + offset, token, after);
}

void FastFtl::append_random(Lun lun, Token token, uint32_t after) {
  if (m_rw.empty() || m_flash.full(m_rw.back())) m_rw.push_back(take_random_log_block());
  program_log(m_rw.back(), lun, token, after);
}

BlockId FastFtl::take_block(uint32_t plane, bool random) {
  make_room(plane);
  return m_flash.allocate(plane, random);
}

void FastFtl::make_room(uint32_t plane) {
  // Two free blocks: one for the caller, one left for merges. Log blocks on this plane give
  // theirs back (oldest RW first, then the SW block).
  while (m_flash.free_blocks(plane) < 2) {
    size_t index = 0;
    while (index < m_rw.size() && m_geometry.plane_of_block(m_rw[index]) != plane) ++index;
    if (index < m_rw.size()) {
      merge_random(index);
    } else if (m_sw_block != kNone && m_geometry.plane_of_block(m_sw_block) == plane) {
      merge_sequential();
    } else {
      throw std::runtime_error("plane " + std::to_string(plane) +
                               " has no free block left for FAST (over-provisioning too small "
                               "for its data and log blocks)");
    }
  }
}

BlockId FastFtl::take_random_log_block() {
  // The log budget is full: the oldest RW log block is the victim (one block is the SW's).
  if (m_rw.size() + 1 >= m_log_blocks) merge_random(0);
  // Fully associative: the block may be anywhere; the plane with the most free blocks (ties:
  // the lowest) keeps the planes balanced.
  uint32_t best = 0;
  for (uint32_t plane = 1; plane < m_geometry.planes(); ++plane) {
    if (m_flash.free_blocks(plane) > m_flash.free_blocks(best)) best = plane;
  }
  return take_block(best, /*random=*/true);
}

}  // namespace ssd::ftl
