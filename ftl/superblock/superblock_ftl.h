// The Superblock FTL (`--ftl superblock`; Kang, Jo, Kim and Lee, EMSOFT 2006), as section II.C of
// shared/papers/lsb-large-superblock-ftl.md summarises it (the original paper is not in shared/;
// docs/schemes.md lists what we chose where the summary is silent).
//
// N contiguous logical blocks form a superblock, whose pages may sit at any page of the at most
// max_physical_blocks (N + M) physical blocks it holds. The page-level map lives in the spare
// areas (superblock_spare.h): every page written carries its logical block's PMD (where each
// group's PT page is) and its group's PT (where each page of the group is), so the newest page of
// a logical block holds the block's whole map. RAM holds only the PGD (per logical block: its
// newest page), each superblock's list of physical blocks, and an LRU cache of whole logical
// blocks' maps (cache_entries): a miss reads the PMD page's spare area and each other group's PT
// page's spare area, each a timed spare-area read.
//
// Space and garbage collection are the frame's (ftl/superblock_frame/superblock_frame.h): the
// cap on a superblock's blocks is max_physical_blocks, and a superblock at the cap whose pages
// are used up runs the forced GC. Moved pages carry their logical block's map anew; the PBMT of
// a copy leaves the victim out.
//
// Power cuts (recovered()): the map in the spare areas is the whole map, so recovery reads them all
// back (ftl/superblock_frame/frame_recovery.h). The DI's 64-bit write sequence tells the newest
// copy; a map a cut left half written (a merge's copies name pages it had not written yet) is
// written anew, and a superblock a compaction left over max_physical_blocks gives blocks back.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "ftl/superblock/superblock_spare.h"
#include "ftl/superblock_frame/superblock_frame.h"

namespace ssd::ftl {

class SuperblockFtl final : public SuperblockFrame {
 public:
  explicit SuperblockFtl(const SchemeContext& context);
  // Built again from the flash after a power cut (frame_recovery.h).
  static std::unique_ptr<SuperblockFtl> recovered(const SchemeContext& context);

  // PGD entries x bytes(pages) + superblocks x max_physical_blocks x bytes(blocks) + the cache
  // (cache_entries x the bytes of a block's PMD, PTs and PBNs) + the valid bitmap.
  uint64_t mapping_memory_bytes() const override;
  std::vector<MappingFigure> mapping_figures() const override { return frame_figures(); }
  // The newest page of `lun`, decoded from the spare areas (nothing recorded, cache unused).
  PageId peek(Lun lun) const override;

  const SuperblockSpareLayout& layout() const { return m_layout; }

 private:
  // The PBMT follows the DI (superblock_spare.h).
  PbmtField pbmt_field() const override {
    return {m_layout.di_bits, m_layout.pbn_bits, m_layout.pbmt_entries};
  }
  void load(CacheEntry& e, PageId newest, OpClass op_class, uint32_t& after) override;
  bool resolve(CacheEntry& e, PageId head, OpClass op_class, uint32_t& after) override;
  void recorded_empty(PageId page, std::vector<uint32_t>& offsets) const override;
  uint32_t relocate(CacheEntry& e, std::vector<Move>& moves, uint32_t map_read) override;
  void write_units(uint32_t lbn, uint32_t first, const Token* tokens, uint32_t count,
                   uint32_t after) override;
  // Programs `page` with `token` as the newest page of `e`'s logical page at `offset`.
  uint32_t program_page(PageId page, const CacheEntry& e, uint32_t offset, Token token,
                        OpClass op_class, uint32_t after, OpClass written_as);
  // A bulk fill's spare words (superblock_fill.cpp).
  SpareArea::LayoutWriter fill_layout_writer(
      std::shared_ptr<const FilledBlocks> filled) const override;

  SuperblockSpareLayout m_layout;
  uint32_t m_max_blocks;
  uint32_t m_pgd_entry_bytes;
  uint32_t m_cache_entry_bytes;
  std::vector<uint32_t> m_spare;              // one page's spare words, reused
  std::vector<PageId> m_pages;                // reused: the pages a write or a merge fills
  std::vector<PageId> m_final_pt;             // reused by relocate()
  SuperblockSpare m_scratch;                  // reused by program_page()
  SuperblockSpare m_load_head, m_load_table;  // reused by load()
};

}  // namespace ssd::ftl
