// Power-cut recovery steps the block-granular schemes (block mapping, NFTL, FAST) share: the
// spare-area scan that finds which blocks hold data and what names them, a merge the cut
// interrupted done again into a fresh block, and the erase of blocks nobody keeps. Each scheme
// decides from what the scan found which block plays which part (docs/power-loss.md).
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "ftl/hybrid/block_flash.h"

namespace ssd::ftl {

// A block with data after a cut, as its first readable page's spare area names it.
struct NamedBlock {
  BlockId block = kNone;
  Lun lun = kNone;          // the unit that page holds
  uint32_t sequence = 0;    // the block's allocation sequence
  bool appended = false;    // an appended block (BlockFlash::allocate)
  uint32_t pages_read = 0;  // spare areas the scan read, from page 0
};

// How far the scan reads a block once its first readable page has named it.
enum class ScanDepth { kFirstPage, kWholeBlock };

// Reads the spare areas of every block after a cut, a block at a time (FlashBackend::end_batch
// after each). A block whose erase the cut tore holds nothing and is erased again. In the others
// the pages are read in order, torn and skipped pages naming nothing, up to the first that names
// a unit, and then on to the last programmed page when `depth` says so. Returns the blocks so
// named; a block with programmed pages and no name holds nothing anyone wrote (erase_unkept
// reclaims it). Rebuilds the flash's pools and its sequences, which go on after the highest read.
std::vector<NamedBlock> scan_blocks(BlockFlash& flash, uint64_t logical_units,
                                    const std::function<ScanDepth(const NamedBlock&)>& depth);

// Reads the spare areas of `named` the scan did not read (what a merge of its pages needs).
void read_rest(BlockFlash& flash, const NamedBlock& named);

// Done again from what the cut left: reads the rest of each of `blocks` (read_rest), fills a
// fresh block of `plane` offset by offset from `newest(offset)` (a readable page holding the
// unit at `first_lun + offset`, or kNone), then erases `blocks` once the fill's last program has
// completed, all in one batch, so that a second cut during the recovery finds either the old
// blocks or the complete new one. Returns the fresh block.
BlockId redo_merge(BlockFlash& flash, uint32_t plane, Lun first_lun,
                   const std::vector<NamedBlock>& blocks,
                   const std::function<PageId(uint32_t offset)>& newest);

// Erases every block with programmed pages that `kept` does not mark, a block at a time.
void erase_unkept(BlockFlash& flash, const std::vector<bool>& kept);

}  // namespace ssd::ftl
