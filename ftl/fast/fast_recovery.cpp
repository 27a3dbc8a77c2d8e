// FAST's recovery from a power cut (docs/power-loss.md). The paper keeps its tables in RAM and
// does not say how they come back; as for the other block-mapped schemes here, they are rebuilt
// by scanning the spare areas. Each page names its unit, its block's allocation sequence with a
// mark for RW log blocks (BlockFlash::kAppendedBit: their pages hold units in arrival order), and
// its own program sequence (BlockFlash::kPageSequenceWords). Allocation order alone cannot say
// which copy of a unit is the newest: a data block takes writes at free offsets after log blocks
// allocated later have taken copies of other units, the SW log block and the RW block being
// filled take writes in turn, and a full merge's data block can be older than the RW block still
// being filled. So the newest copy of every unit is its readable copy with the highest program
// sequence, and every page's spare area is read.
//
// What a cut can leave, and what the recovery makes of it:
//   - a logical block with one block-mapped block: its data block;
//   - with two, the later one holding the block's units from offset 0 on, none torn or skipped
//     and none older than the earlier block's copy: the data block and the SW log block (the
//     SW log block as it was, or one a switch or partial merge had made the data block before
//     the old data block's erase completed: either way the newest copies are where FAST looks);
//   - anything else (a full merge's fresh block beside the blocks it merges, a partial merge cut
//     short, a torn page in a would-be SW log block): the merge is done again from the newest
//     copies into a fresh data block, and the logical block's block-mapped blocks are erased;
//   - more than one would-be SW log block: the latest allocated stays one; the others' logical
//     blocks are merged again;
//   - RW log blocks, oldest allocation first, those holding no unit's newest copy erased;
//     beyond the log budget (a full merge's victim whose erase the cut undid), the oldest are
//     merged as FAST would have.
// Torn pages name nothing and blocks whose erase was torn are erased again.
#include <algorithm>

#include "ftl/fast/fast_ftl.h"

namespace ssd::ftl {

std::unique_ptr<FastFtl> FastFtl::recovered(const SchemeContext& context) {
  auto scheme = std::make_unique<FastFtl>(context);
  scheme->rebuild();
  return scheme;
}

void FastFtl::rebuild() {
  const uint64_t units = m_geometry.logical_units;
  std::vector<NamedBlock> named =
      scan_blocks(m_flash, units, [](const NamedBlock&) { return ScanDepth::kWholeBlock; });
  std::vector<bool> kept(m_geometry.blocks(), false);
  for (const NamedBlock& b : named) kept[b.block] = true;
  erase_unkept(m_flash, kept);  // blocks with nothing readable in them, before any merge

  // Each unit's newest readable copy, by program sequence.
  std::vector<PageId> newest(units, kNone);
  for (const NamedBlock& b : named) {
    for (uint32_t p = 0; p < m_flash.next_free(b.block); ++p) {
      const PageId page = m_flash.page(b.block, p);
      if (!m_flash.names_unit(page) || m_flash.lun_in(page) >= units) continue;
      PageId& best = newest[m_flash.lun_in(page)];
      if (best == kNone || m_flash.page_sequence_in(page) > m_flash.page_sequence_in(best)) {
        best = page;
      }
    }
  }

  // Block-mapped blocks by logical block, RW log blocks after them; each oldest first.
  std::sort(named.begin(), named.end(), [&](const NamedBlock& a, const NamedBlock& b) {
    if (a.appended != b.appended) return b.appended;
    if (!a.appended && lbn_of(a.lun) != lbn_of(b.lun)) return lbn_of(a.lun) < lbn_of(b.lun);
    return a.sequence < b.sequence;
  });
  std::vector<std::vector<NamedBlock>> sequential;  // would-be SW log blocks: {data, SW}
  std::vector<NamedBlock> blocks;
  size_t i = 0;
  while (i < named.size() && !named[i].appended) {
    const uint32_t lbn = lbn_of(named[i].lun);
    blocks.clear();
    for (; i < named.size() && !named[i].appended && lbn_of(named[i].lun) == lbn; ++i) {
      blocks.push_back(named[i]);
    }
    if (blocks.size() == 1) {
      m_data[lbn] = blocks[0].block;
    } else if (blocks.size() == 2 &&
               can_be_sequential_log(lbn, blocks[1].block, blocks[0].block, newest)) {
      m_data[lbn] = blocks[0].block;
      sequential.push_back(blocks);
    } else {
      remerge(lbn, blocks, newest);
    }
  }
  std::sort(sequential.begin(), sequential.end(),
            [](const auto& a, const auto& b) { return a[1].sequence < b[1].sequence; });
  for (size_t s = 0; s < sequential.size(); ++s) {
    const uint32_t lbn = lbn_of(sequential[s][0].lun);
    if (s + 1 < sequential.size()) {
      remerge(lbn, sequential[s], newest);
    } else {
      m_sw_block = sequential[s][1].block;
      m_sw_lbn = lbn;
    }
  }

  // RW log blocks that hold some unit's newest copy, oldest first; the others are garbage.
  std::fill(kept.begin(), kept.end(), false);
  for (; i < named.size(); ++i) {
    const BlockId block = named[i].block;
    for (uint32_t p = 0; p < m_flash.next_free(block) && !kept[block]; ++p) {
      const PageId page = m_flash.page(block, p);
      kept[block] = m_flash.names_unit(page) && m_flash.lun_in(page) < units &&
                    newest[m_flash.lun_in(page)] == page;
    }
    if (kept[block]) m_rw.push_back(block);
  }
  for (Lun lun = 0; lun < units; ++lun) {
    if (newest[lun] == kNone) continue;
    mark_valid(lun);
    const BlockId block = m_geometry.block_of_page(newest[lun]);
    if (block != m_data[lbn_of(lun)]) m_log_page[lun] = newest[lun];
    kept[block] = true;
  }
  for (uint32_t lbn = 0; lbn < logical_blocks(); ++lbn) {
    if (m_data[lbn] != kNone) kept[m_data[lbn]] = true;
  }
  if (m_sw_block != kNone) kept[m_sw_block] = true;
  erase_unkept(m_flash, kept);
  // A full merge's victim whose erase the cut undid leaves one RW log block too many.
  while (!m_rw.empty() && m_rw.size() + 1 > m_log_blocks) {
    merge_random(0);
    m_backend.end_batch();
  }
  // The merges and erases above are the recovery's (power.recovery_operations), not GC's.
  m_stats = FtlStats{};
  m_merges = MergeCounts{};
}

bool FastFtl::can_be_sequential_log(uint32_t lbn, BlockId sw, BlockId data,
                                    const std::vector<PageId>& newest) const {
  const uint32_t written = m_flash.next_free(sw);
  if (written > units_in(lbn)) return false;
  for (uint32_t offset = 0; offset < written; ++offset) {
    const PageId page = m_flash.page(sw, offset);
    const Lun lun = first_lun(lbn) + offset;
    if (!m_flash.names_unit(page) || m_flash.lun_in(page) != lun) return false;
    if (m_geometry.block_of_page(newest[lun]) == data) return false;
  }
  return written > 0;
}

void FastFtl::remerge(uint32_t lbn, const std::vector<NamedBlock>& blocks,
                      std::vector<PageId>& newest) {
  const BlockId fresh =
      redo_merge(m_flash, home_plane(lbn), first_lun(lbn), blocks, [&](uint32_t offset) -> PageId {
        if (offset >= units_in(lbn)) return kNone;
        return newest[first_lun(lbn) + offset];
      });
  m_data[lbn] = fresh;
  for (uint32_t offset = 0; offset < units_in(lbn); ++offset) {
    PageId& copy = newest[first_lun(lbn) + offset];
    if (copy != kNone) copy = m_flash.page(fresh, offset);
  }
}

}  // namespace ssd::ftl
