// The spare words of every page of the flash (FlashArray), kept so that a device filled in bulk
// costs no memory traffic for them: a block's words are in memory only once something reads or
// writes them ("made concrete"). Until then the block is either erased (every word kNone, as
// erased flash reads) or laid out by a sequential fill whose words follow from each page's place
// (SequentialLayout). The table is allocated without being written, so memory no block has
// touched is never faulted in: a full 512 GiB device read at random leaves its 537 MB untouched,
// and a random-write run touches only the blocks it programs and the victims GC reads
// (docs/performance.md, "Preconditioning").
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "ftl/core/geometry.h"
#include "ftl/core/types.h"

namespace ssd::ftl {

class SpareArea {
 public:
  // PageStore::fill_sequential's layout: the fill's stream puts its position n in slot u of page
  // q of the plane at stripe position s (its pages numbered in block order) for
  // n = (q * planes + s) * units_per_page + u, when each plane takes one page per visit of the
  // stripe; with c = chunk_pages pages per visit (the extent FTL's chunks),
  // n = ((q / c * planes + s) * c + q % c) * units_per_page + u. Position n holds the key inserted
  // there (inserted_at, ascending, and inserted_key: DFTL's translation pages), else data unit n
  // less the insertions before it. A page's first `named` words name what its slots hold; the rest
  // stay erased.
  struct SequentialLayout {
    uint32_t named = 0;
    uint32_t chunk_pages = 1;
    std::vector<uint32_t> stripe_position_of_plane;  // per plane
    std::vector<uint64_t> inserted_at;
    std::vector<Lun> inserted_key;
  };

  SpareArea(const Geometry& geometry, uint32_t words_per_page);

  uint32_t words_per_page() const { return m_words; }
  // The words of `page`; those of the pages after it in its block follow.
  const uint32_t* read(PageId page) const {
    make_concrete(m_geometry.block_of_page(page));
    return at(page);
  }
  // The same, to be written: the block stays concrete (its words are what is in memory).
  uint32_t* write(PageId page) {
    make_concrete(m_geometry.block_of_page(page));
    return at(page);
  }
  // The words of `pages` pages from `page` on, maybe across blocks, to be written in place.
  uint32_t* write_range(PageId page, uint64_t pages);
  // `block` erased: every word kNone, nothing written now.
  void erase(BlockId block) { m_state[block] = kErased; }
  // `block`, erased, holds its first `pages` pages as the sequential layout says, nothing
  // written now. set_layout() first.
  void fill_by_layout(BlockId block, uint32_t pages);
  void set_layout(SequentialLayout layout) { m_layout = std::move(layout); }

 private:
  enum State : uint8_t { kErased = 0, kByLayout = 1, kConcrete = 2 };
  uint32_t* at(PageId page) const { return m_words_table.get() + uint64_t(page) * m_words; }
  void make_concrete(BlockId block) const {
    if (m_state[block] != kConcrete) write_out(block);
  }
  void write_out(BlockId block) const;  // what the block's state says, into memory

  Geometry m_geometry;
  uint32_t m_words;
  // Written only by write_out() and the writers above: not initialised on allocation.
  std::unique_ptr<uint32_t[]> m_words_table;
  mutable std::vector<uint8_t> m_state;     // per block
  std::vector<uint16_t> m_pages_by_layout;  // per block in kByLayout: its pages so laid out
  SequentialLayout m_layout;
};

}  // namespace ssd::ftl
