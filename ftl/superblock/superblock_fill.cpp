// The spare words of a block the frame's bulk fill laid out (SuperblockFrame::fill_sequential),
// as program_page() would have written them when write_units() filled logical block `lbn` into a
// fresh block of its superblock: page k holds logical page k with the fill's next sequence
// number; its PBMT names the blocks of the superblock's earlier logical blocks (filled before it,
// in order); its PMD names each earlier group's last page, its own page for its own group, and
// "never written" for the groups after; its PT names the pages of its group up to itself and
// "never written" after. The format itself is encode_superblock_spare()'s.
#include <algorithm>

#include "ftl/superblock/superblock_ftl.h"

namespace ssd::ftl {

SpareArea::LayoutWriter SuperblockFtl::fill_layout_writer(
    std::shared_ptr<const FilledBlocks> filled) const {
  return
      [filled, layout = m_layout, g = m_geometry](BlockId block, uint32_t pages, uint32_t* words) {
        const uint32_t lbn = filled->lbn_of_block[block];
        const uint32_t first_lbn = lbn - lbn % filled->superblock_blocks;
        const PageId first = g.first_page(block);
        const Lun first_lun = lbn * g.pages_per_block;
        SuperblockSpare spare;
        for (uint32_t l = first_lbn; l < lbn; ++l) spare.pbmt.push_back(filled->block_of_lbn[l]);
        spare.pt_page.assign(layout.groups, kNone);
        spare.page_of.assign(layout.group_pages, kNone);
        for (uint32_t k = 0; k < pages; ++k, words += layout.spare_words()) {
          const uint32_t group = k / layout.group_pages;
          const uint32_t in_group = k % layout.group_pages;
          if (in_group == 0) {  // a new group: the one before ends at its last page
            if (group > 0) spare.pt_page[group - 1] = first + k - 1;
            std::fill(spare.page_of.begin(), spare.page_of.end(), kNone);
          }
          spare.lpn = first_lun + k;
          spare.sequence = filled->first_sequence + first_lun + k + 1;
          spare.pt_page[group] = first + k;
          spare.page_of[in_group] = first + k;
          std::fill_n(words, layout.spare_words(), 0u);  // as program_page() clears its words
          encode_superblock_spare(layout, g, first + k, spare, words);
        }
      };
}

}  // namespace ssd::ftl
