#include "ftl/hybrid/block_recovery.h"

#include <algorithm>

namespace ssd::ftl {

std::vector<NamedBlock> scan_blocks(BlockFlash& flash, uint64_t logical_units,
                                    const std::function<ScanDepth(const NamedBlock&)>& depth) {
  FlashBackend& backend = flash.backend();
  const FlashArray& array = backend.flash();
  const Geometry& g = flash.geometry();
  std::vector<NamedBlock> named;
  uint32_t highest = 0;
  uint32_t highest_page = 0;
  for (BlockId b = 0; b < g.blocks(); ++b) {
    if (array.erase_torn(b)) {
      backend.erase(b, OpClass::kMapping);  // neither erased nor intact: erase it again
      backend.end_batch();
      continue;
    }
    NamedBlock found;
    bool whole = false;
    for (uint32_t p = 0; p < array.write_pointer(b); ++p) {
      const PageId page = flash.page(b, p);
      flash.read_spare(page, OpClass::kMapping);
      found.pages_read = p + 1;
      if (!flash.names_unit(page) || flash.lun_in(page) >= logical_units) continue;
      if (flash.page_sequenced())
        highest_page = std::max(highest_page, flash.page_sequence_in(page));
      if (found.block != kNone) continue;  // reading on through the whole block
      ++backend.cpu().table_lookups;
      found.block = b;
      found.lun = flash.lun_in(page);
      found.sequence = flash.sequence_in(page);
      found.appended = flash.appended_in(page);
      highest = std::max(highest, found.sequence);
      whole = depth(found) == ScanDepth::kWholeBlock;
      if (!whole) break;
    }
    if (found.block != kNone) named.push_back(found);
    backend.end_batch();
  }
  flash.rebuild(highest, highest_page);
  return named;
}

void read_rest(BlockFlash& flash, const NamedBlock& named) {
  const uint32_t end = flash.next_free(named.block);
  for (uint32_t p = named.pages_read; p < end; ++p) {
    flash.read_spare(flash.page(named.block, p), OpClass::kMapping);
  }
}

BlockId redo_merge(BlockFlash& flash, uint32_t plane, Lun first_lun,
                   const std::vector<NamedBlock>& blocks,
                   const std::function<PageId(uint32_t offset)>& newest) {
  for (const NamedBlock& named : blocks) read_rest(flash, named);
  const BlockId fresh = flash.allocate(plane);
  const uint32_t last = flash.fill(fresh, 0, first_lun, [&](uint32_t offset) {
    const PageId page = newest(offset);
    return page == kNone ? MergeSource::empty() : MergeSource::copy(page);
  });
  for (const NamedBlock& named : blocks) flash.erase(named.block, last);
  flash.backend().end_batch();
  return fresh;
}

void erase_unkept(BlockFlash& flash, const std::vector<bool>& kept) {
  const FlashArray& array = flash.backend().flash();
  for (BlockId b = 0; b < kept.size(); ++b) {
    if (kept[b] || array.write_pointer(b) == 0) continue;
    flash.erase(b, kNone);
    flash.backend().end_batch();
  }
}

}  // namespace ssd::ftl
