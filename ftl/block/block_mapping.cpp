#include "ftl/block/block_mapping.h"

#include "ftl/core/memory_sizes.h"

namespace ssd::ftl {

BlockMapping::BlockMapping(const SchemeContext& context)
    : BlockScheme(context, "block"), m_map(logical_blocks(), kNone) {
  m_entry_bytes =
      bytes_to_name(m_geometry.blocks()) + bytes_to_name(m_geometry.pages_per_block + 1);
}

uint64_t BlockMapping::mapping_memory_bytes() const {
  return uint64_t(logical_blocks()) * m_entry_bytes + valid_bitmap_bytes();
}

PageId BlockMapping::peek(Lun lun) const {
  const BlockId block = m_map[lbn_of(lun)];
  return block == kNone ? kNone : m_flash.page(block, offset_of(lun));
}

uint32_t BlockMapping::blocks_held() const {
  uint32_t held = 0;
  for (const BlockId block : m_map) held += block != kNone;
  return held;
}

void BlockMapping::write_units(uint32_t lbn, uint32_t first, const Token* tokens, uint32_t count,
                               uint32_t after) {
  const uint32_t plane = home_plane(lbn);
  BlockId& block = m_map[lbn];
  if (block == kNone) block = m_flash.allocate(plane);
  if (first >= m_flash.next_free(block)) {  // every page still free: program in place
    for (uint32_t k = 0; k < count; ++k) {
      m_flash.program(block, first + k, first_lun(lbn) + first + k, tokens[k], OpClass::kHostWrite,
                      after);
      mark_valid(first_lun(lbn) + first + k);
    }
    return;
  }
  // A page behind the next free one: copy the block, merging the new data in.
  const BlockId old = block;
  const BlockId fresh = m_flash.allocate(plane);
  ++m_stats.gc_invocations;
  const uint32_t last = m_flash.fill(fresh, 0, first_lun(lbn), [&](uint32_t offset) {
    if (offset >= first && offset < first + count) {
      return MergeSource::fresh(tokens[offset - first], after);
    }
    return live_copy(lbn, offset, [&](Lun lun) { return m_flash.page(old, offset_of(lun)); });
  });
  m_flash.erase(old, last);
  block = fresh;
  for (uint32_t k = 0; k < count; ++k) mark_valid(first_lun(lbn) + first + k);
}

}  // namespace ssd::ftl
