// The spare words of every page of the flash (FlashArray), kept so that a device filled in bulk
// costs no memory traffic for them, and so that their memory follows the blocks that hold data: a
// block's words are in memory only while it is "concrete", from when something first reads or
// writes them until the block's erase, which hands its piece of memory to the next block made
// concrete. Otherwise the block is either erased (every word kNone, as erased flash reads) or laid
// out by a sequential fill whose words follow from each page's place (SequentialLayout). The table
// is allocated without being written, so memory no block has used is never faulted in: a full
// 512 GiB device read at random leaves its 537 MB untouched, a random-write run uses the blocks it
// programs and the victims GC reads, and an aged device does not keep words for its free blocks
// (docs/performance.md, "Preconditioning" and the aged case).
#pragma once

#include <cstdint>
#include <functional>
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
  // A scheme's own layout, for a format SequentialLayout cannot say (the Superblock FTL's maps):
  // writes the words of the first `pages` pages of `block` into `words` (one page's words after
  // another, every word kNone on entry). It must depend on nothing that changes after the fill,
  // since a block may be written out long after, even after a power cut rebuilt the scheme.
  using LayoutWriter = std::function<void(BlockId block, uint32_t pages, uint32_t* words)>;

  SpareArea(const Geometry& geometry, uint32_t words_per_page);

  uint32_t words_per_page() const { return m_words; }
  // The words of `page`; those of the pages after it in its block follow. Valid until the
  // block's erase.
  const uint32_t* read(PageId page) const { return words_of(page); }
  // The same, to be written: the block stays concrete (its words are what is in memory).
  uint32_t* write(PageId page) { return words_of(page); }
  // The words of `pages` pages of one block from `page` on, to be written in place. Throws
  // std::logic_error if they run past the block.
  uint32_t* write_range(PageId page, uint64_t pages);
  // `block` erased: every word kNone, nothing written now; its memory goes to the next block
  // made concrete.
  void erase(BlockId block) {
    const uint32_t piece = m_piece_of_block[block];
    if (piece < kLaidOut) m_spare_pieces.push_back(piece);
    m_piece_of_block[block] = kErased;
  }
  // `block`, erased, holds its first `pages` pages as the sequential layout says, nothing
  // written now. set_layout() first.
  void fill_by_layout(BlockId block, uint32_t pages);
  void set_layout(SequentialLayout layout) { m_layout = std::move(layout); }
  // Blocks laid out from now on take their words from `writer` instead of SequentialLayout.
  void set_layout_writer(LayoutWriter writer) { m_writer = std::move(writer); }

  // The most blocks whose words were in memory at once: the table's part ever used, in blocks.
  uint64_t peak_blocks_in_memory() const { return m_pieces_used; }

 private:
  // A block's entry in m_piece_of_block: the piece of the table holding its words, or one of
  // these two states (no memory).
  static constexpr uint32_t kErased = ~uint32_t{0};
  static constexpr uint32_t kLaidOut = ~uint32_t{0} - 1;

  uint32_t* words_of(PageId page) const {
    const BlockId block = m_geometry.block_of_page(page);
    uint32_t piece = m_piece_of_block[block];
    if (piece >= kLaidOut) piece = write_out(block);
    return m_words_table.get() + uint64_t(piece) * m_words_per_block +
           uint64_t(page - m_geometry.first_page(block)) * m_words;
  }
  // What the block's state says, into a piece of memory; returns the piece.
  uint32_t write_out(BlockId block) const;

  Geometry m_geometry;
  uint32_t m_words;
  uint64_t m_words_per_block;
  // One piece of m_words_per_block words per block at most. Written only by write_out() and the
  // writers above: not initialised on allocation, so pieces never used are never faulted in.
  std::unique_ptr<uint32_t[]> m_words_table;
  mutable std::vector<uint32_t> m_piece_of_block;  // per block: a piece, kErased or kLaidOut
  mutable std::vector<uint32_t> m_spare_pieces;    // pieces given back by erases, reused first
  mutable uint64_t m_pieces_used = 0;              // pieces ever handed out: the next new one
  std::vector<uint16_t> m_pages_by_layout;         // per block laid out: its pages so laid out
  SequentialLayout m_layout;
  LayoutWriter m_writer;
};

}  // namespace ssd::ftl
