#include "ftl/block/block_mapping.h"

#include <algorithm>

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

std::unique_ptr<BlockMapping> BlockMapping::recovered(const SchemeContext& context) {
  auto scheme = std::make_unique<BlockMapping>(context);
  scheme->rebuild();
  return scheme;
}

bool BlockMapping::holds(PageId page, Lun lun) const {
  const FlashArray& flash = m_backend.flash();
  return flash.is_programmed(page) && flash.readable(page) && m_flash.lun_in(page) == lun;
}

void BlockMapping::rebuild() {
  // Block mapping writes every unit at its fixed offset of its logical block's block, and a
  // merge fills a fresh block before erasing the old one (the erase waits for the merge's last
  // program on the same die). So after a cut a logical block has one readable block, or more when
  // an old block's erase had not completed: then the fresh one (the later allocation) may be
  // partly programmed, or hold a torn page. Firmware of this kind rebuilds its table by scanning:
  // the first readable page's spare area of every block names its logical block and allocation.
  const FlashArray& flash = m_backend.flash();
  const uint32_t blocks = m_geometry.blocks();
  struct Claim {
    uint32_t lbn;
    uint32_t sequence;
    BlockId block;
  };
  std::vector<Claim> claims;
  uint32_t highest = 0;
  for (BlockId b = 0; b < blocks; ++b) {
    if (flash.erase_torn(b)) {
      m_backend.erase(b, OpClass::kMapping);  // neither erased nor intact: erase it again
      m_backend.end_batch();
      continue;
    }
    for (uint32_t p = 0; p < flash.write_pointer(b); ++p) {
      const PageId page = m_flash.page(b, p);
      m_flash.read_spare(page, OpClass::kMapping);
      if (!flash.readable(page)) continue;          // torn: try the next page
      if (m_flash.lun_in(page) == kNone) continue;  // skipped: left erased
      ++m_backend.cpu().table_lookups;
      const Lun lun = m_flash.lun_in(page);
      if (lun < m_geometry.logical_units) {
        const uint32_t sequence = m_flash.sequence_in(page);
        highest = std::max(highest, sequence);
        claims.push_back({lbn_of(lun), sequence, b});
      }
      break;  // the first readable page names the block's logical block
    }
    m_backend.end_batch();
  }
  m_flash.rebuild(highest);
  // Each logical block's claims, newest allocation first.
  std::sort(claims.begin(), claims.end(), [](const Claim& a, const Claim& b) {
    return a.lbn != b.lbn ? a.lbn < b.lbn : a.sequence > b.sequence;
  });
  std::vector<bool> kept(blocks, false);
  std::vector<BlockId> newest_first;
  for (size_t i = 0; i < claims.size();) {
    const uint32_t lbn = claims[i].lbn;
    newest_first.clear();
    for (; i < claims.size() && claims[i].lbn == lbn; ++i) newest_first.push_back(claims[i].block);
    m_map[lbn] = newest_first.size() == 1 ? newest_first[0] : redo_merge(lbn, newest_first);
    kept[m_map[lbn]] = true;
    for (uint32_t offset = 0; offset < units_in(lbn); ++offset) {
      if (holds(m_flash.page(m_map[lbn], offset), first_lun(lbn) + offset)) {
        mark_valid(first_lun(lbn) + offset);
      }
    }
  }
  // Blocks no logical block keeps (garbage a cut left, a merge's blocks once merged again),
  // erased after the merges (the same dies, in order).
  for (BlockId b = 0; b < blocks; ++b) {
    if (!kept[b] && flash.write_pointer(b) > 0) {
      m_flash.erase(b, kNone);
      m_backend.end_batch();
    }
  }
  // The merges and erases above are the recovery's (power.recovery_operations), not GC's.
  m_stats = FtlStats{};
}

BlockId BlockMapping::redo_merge(uint32_t lbn, const std::vector<BlockId>& newest_first) {
  // The newest readable copy of each page: the fresh block's, else an older block's (the cut
  // stopped the merge before that page, or tore it); a page the merge had not reached held no
  // acknowledged write. Every page of the blocks is read first, then merged into a fresh block
  // as any merge is.
  for (const BlockId b : newest_first) {
    for (uint32_t offset = 0; offset < m_backend.flash().write_pointer(b); ++offset) {
      m_flash.read_spare(m_flash.page(b, offset), OpClass::kMapping);
    }
  }
  m_backend.end_batch();
  const BlockId fresh = m_flash.allocate(home_plane(lbn));
  m_flash.fill(fresh, 0, first_lun(lbn), [&](uint32_t offset) {
    const Lun lun = first_lun(lbn) + offset;
    if (offset >= units_in(lbn)) return MergeSource::empty();
    for (const BlockId b : newest_first) {
      if (holds(m_flash.page(b, offset), lun)) return MergeSource::copy(m_flash.page(b, offset));
    }
    return MergeSource::empty();
  });
  m_backend.end_batch();
  return fresh;
}

}  // namespace ssd::ftl
