#include "ftl/core/spare_area.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace ssd::ftl {

SpareArea::SpareArea(const Geometry& geometry, uint32_t words_per_page)
    : m_geometry(geometry),
      m_words(words_per_page),
      m_words_per_block(uint64_t(geometry.pages_per_block) * words_per_page),
      // Default-initialised, so not written: a large table is mapped by the allocator and its
      // pages stay unbacked until a piece is first handed out.
      m_words_table(new uint32_t[geometry.blocks() * m_words_per_block]),
      m_piece_of_block(geometry.blocks(), kErased),
      m_pages_by_layout(geometry.blocks(), 0) {
  if (geometry.blocks() >= kLaidOut) {  // unreachable in memory; a piece number must fit
    throw std::logic_error("spare area of " + std::to_string(geometry.blocks()) + " blocks");
  }
}

uint32_t* SpareArea::write_range(PageId page, uint64_t pages) {
  if (pages > 0 && m_geometry.page_in_block(page) + pages > m_geometry.pages_per_block) {
    throw std::logic_error("spare words of " + std::to_string(pages) + " pages from page " +
                           std::to_string(page) + " run past its block");
  }
  return words_of(page);
}

void SpareArea::fill_by_layout(BlockId block, uint32_t pages) {
  erase(block);  // what the block held in memory is not needed any more
  m_piece_of_block[block] = kLaidOut;
  m_pages_by_layout[block] = static_cast<uint16_t>(pages);
}

uint32_t SpareArea::write_out(BlockId block) const {
  const bool laid_out = m_piece_of_block[block] == kLaidOut;
  uint32_t piece;
  if (!m_spare_pieces.empty()) {
    piece = m_spare_pieces.back();
    m_spare_pieces.pop_back();
  } else {
    piece = static_cast<uint32_t>(m_pieces_used++);
  }
  uint32_t* words = m_words_table.get() + uint64_t(piece) * m_words_per_block;
  std::fill_n(words, m_words_per_block, kNone);
  if (laid_out && m_writer) {
    m_writer(block, m_pages_by_layout[block], words);
  } else if (laid_out) {
    const uint32_t plane = m_geometry.plane_of_block(block);
    const uint64_t planes = m_geometry.planes();
    const uint64_t upp = m_geometry.units_per_page;
    const uint64_t s = m_layout.stripe_position_of_plane[plane];
    const uint64_t first_q =
        uint64_t(block % m_geometry.blocks_per_plane) * m_geometry.pages_per_block;
    const std::vector<uint64_t>& inserted_at = m_layout.inserted_at;
    // The stream position of the block's first page, then page by page: a chunk's pages follow
    // each other, and the plane's next chunk comes a round of the stripe later.
    const uint64_t c = m_layout.chunk_pages;
    uint64_t in_chunk = first_q % c;
    uint64_t first = ((first_q / c * planes + s) * c + in_chunk) * upp;
    const uint64_t to_next_chunk = ((planes - 1) * c + 1) * upp;
    for (uint32_t p = 0; p < m_pages_by_layout[block]; ++p, words += m_words) {
      // The insertions before it.
      auto j = static_cast<size_t>(std::lower_bound(inserted_at.begin(), inserted_at.end(), first) -
                                   inserted_at.begin());
      for (uint32_t u = 0; u < m_layout.named; ++u) {
        if (j < inserted_at.size() && inserted_at[j] == first + u) {
          words[u] = m_layout.inserted_key[j++];
        } else {
          words[u] = static_cast<Lun>(first + u - j);
        }
      }
      if (++in_chunk < c) {
        first += upp;
      } else {
        in_chunk = 0;
        first += to_next_chunk;
      }
    }
  }
  m_piece_of_block[block] = piece;
  return piece;
}

}  // namespace ssd::ftl
