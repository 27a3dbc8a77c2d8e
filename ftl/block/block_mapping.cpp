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

void BlockMapping::describe_roles(std::vector<AgedRole>& roles) const {
  for (uint32_t lbn = 0; lbn < m_map.size(); ++lbn) {
    if (m_map[lbn] != kNone) roles[m_map[lbn]] = {lbn, 0};
  }
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
  return m_flash.names_unit(page) && m_flash.lun_in(page) == lun;
}

void BlockMapping::rebuild() {
  // Block mapping writes every unit at its fixed offset of its logical block's block, and a
  // merge fills a fresh block before erasing the old one (the erase waits for the merge's last
  // program). So after a cut a logical block has one readable block, or more when an old block's
  // erase had not completed: then the fresh one (the later allocation) may be partly programmed,
  // or hold a torn page. Firmware of this kind rebuilds its table by scanning: the first readable
  // page's spare area of every block names its logical block and allocation.
  std::vector<NamedBlock> named = scan_blocks(
      m_flash, m_geometry.logical_units, [](const NamedBlock&) { return ScanDepth::kFirstPage; });
  // Each logical block's blocks, newest allocation first.
  std::sort(named.begin(), named.end(), [&](const NamedBlock& a, const NamedBlock& b) {
    const uint32_t la = lbn_of(a.lun);
    const uint32_t lb = lbn_of(b.lun);
    return la != lb ? la < lb : a.sequence > b.sequence;
  });
  std::vector<bool> kept(m_geometry.blocks(), false);
  std::vector<NamedBlock> newest_first;
  for (size_t i = 0; i < named.size();) {
    const uint32_t lbn = lbn_of(named[i].lun);
    newest_first.clear();
    for (; i < named.size() && lbn_of(named[i].lun) == lbn; ++i) newest_first.push_back(named[i]);
    m_map[lbn] = newest_first.size() == 1 ? newest_first[0].block : redo_merge(lbn, newest_first);
    kept[m_map[lbn]] = true;
    for (uint32_t offset = 0; offset < units_in(lbn); ++offset) {
      if (holds(m_flash.page(m_map[lbn], offset), first_lun(lbn) + offset)) {
        mark_valid(first_lun(lbn) + offset);
      }
    }
  }
  // Blocks no logical block keeps: garbage a cut left.
  erase_unkept(m_flash, kept);
  // The merges and erases above are the recovery's (power.recovery_operations), not GC's.
  m_stats = FtlStats{};
}

BlockId BlockMapping::redo_merge(uint32_t lbn, const std::vector<NamedBlock>& newest_first) {
  // The newest readable copy of each page: the fresh block's, else an older block's (the cut
  // stopped the merge before that page, or tore it); a page the merge had not reached held no
  // acknowledged write.
  return ftl::redo_merge(m_flash, home_plane(lbn), first_lun(lbn), newest_first,
                         [&](uint32_t offset) -> PageId {
                           const Lun lun = first_lun(lbn) + offset;
                           if (offset >= units_in(lbn)) return kNone;
                           for (const NamedBlock& b : newest_first) {
                             const PageId page = m_flash.page(b.block, offset);
                             if (holds(page, lun)) return page;
                           }
                           return kNone;
                         });
}

}  // namespace ssd::ftl
