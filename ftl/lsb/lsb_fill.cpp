// The spare words of a block the frame's bulk fill laid out (SuperblockFrame::fill_sequential),
// as write_units() would have left them filling logical block `lbn` into a fresh block: the
// sample's words (the first logical block the fill's commands wrote whole, after the laid-out
// ones) with the page's own DI. Every location a page of such a block names, a PTE, a PDE or a
// PT page, is in the page's own block and is written relative to it ("this block" and a page
// offset), so no PBMT entry is used and no mapping-induced write happens: what differs from one
// such block to the next is the DI's logical page and sequence number alone, as long as every
// logical block is split into write runs at the same offsets, which it is when the fill's
// command size divides the block's pages or is a multiple of them. The format itself is
// write_run()'s and encode_lsb_spare()'s, stated once.
#include <algorithm>
#include <stdexcept>

#include "ftl/lsb/lsb_ftl.h"

namespace ssd::ftl {

SpareArea::LayoutWriter LsbFtl::fill_layout_writer(
    std::shared_ptr<const FilledBlocks> filled) const {
  const uint32_t ppb = m_geometry.pages_per_block;
  const uint32_t chunk = filled->chunk_units;
  if (chunk == 0 || (ppb % chunk != 0 && chunk % ppb != 0)) return nullptr;
  return [filled, ppb, di_bits = m_layout.di_bits,
          words_per_page = m_backend.flash().spare_words_per_page()](BlockId block, uint32_t pages,
                                                                     uint32_t* words) {
    if (filled->sample_words.size() != uint64_t{ppb} * words_per_page) {
      throw std::logic_error("lsb FTL: a laid-out block read before the fill ended");
    }
    std::copy_n(filled->sample_words.data(), uint64_t{pages} * words_per_page, words);
    const Lun first_lun = filled->lbn_of_block[block] * ppb;
    for (uint32_t k = 0; k < pages; ++k, words += words_per_page) {
      SpareBitWriter out(words, words_per_page);
      put_data_information(out, di_bits, first_lun + k, filled->first_sequence + first_lun + k + 1);
    }
  };
}

}  // namespace ssd::ftl
