#include "ftl/core/spare_area.h"

#include <algorithm>

namespace ssd::ftl {

SpareArea::SpareArea(const Geometry& geometry, uint32_t words_per_page)
    : m_geometry(geometry),
      m_words(words_per_page),
      // Default-initialised, so not written: a large table is mapped by the allocator and its
      // pages stay unbacked until a block is made concrete.
      m_words_table(new uint32_t[geometry.pages() * uint64_t(words_per_page)]),
      m_state(geometry.blocks(), kErased),
      m_pages_by_layout(geometry.blocks(), 0) {}

uint32_t* SpareArea::write_range(PageId page, uint64_t pages) {
  if (pages > 0) {
    const BlockId first = m_geometry.block_of_page(page);
    const BlockId last = m_geometry.block_of_page(static_cast<PageId>(page + pages - 1));
    for (BlockId block = first; block <= last; ++block) make_concrete(block);
  }
  return at(page);
}

void SpareArea::fill_by_layout(BlockId block, uint32_t pages) {
  m_state[block] = kByLayout;
  m_pages_by_layout[block] = static_cast<uint16_t>(pages);
}

void SpareArea::write_out(BlockId block) const {
  const PageId first = m_geometry.first_page(block);
  uint32_t* words = at(first);
  std::fill_n(words, uint64_t(m_geometry.pages_per_block) * m_words, kNone);
  if (m_state[block] == kByLayout) {
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
  m_state[block] = kConcrete;
}

}  // namespace ssd::ftl
