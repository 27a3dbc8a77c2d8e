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
// Space: a superblock writes a request's pages into the free pages of its blocks; when they are
// fewer than the request needs, it takes a fresh block from its home plane, unless it holds
// max_physical_blocks already (its PBMT is full): then it gives back its block with the fewest
// live pages, written to the end or not (the forced GC, which can erase unwritten pages: the
// LSB paper's figure 11). When the home plane's free pool reaches the GC reserve, the plane's
// block with the fewest live pages is reclaimed: erased if dead, else its live pages move into
// free pages of its own superblock (partial merge); when no candidate's superblock has room, the
// two blocks with the most dead pages of the plane's superblock with the most dead pages are
// merged into a fresh block (full merge), as the LSB paper's section III.D describes its GC. The
// paper merges two blocks; when their live pages do not fit one block we go on with the
// superblock's next blocks until one block is free (compact()), which a superblock holding more
// blocks than its data always allows.
//
// Moved pages carry their logical block's map anew, so the PGD and the map never name a block
// that is being collected; the PBMT of a copy leaves the victim out.
#pragma once

#include <cstdint>
#include <vector>

#include "ftl/hybrid/block_scheme.h"
#include "ftl/superblock/superblock_spare.h"

namespace ssd::ftl {

class SuperblockFtl final : public BlockScheme {
 public:
  explicit SuperblockFtl(const SchemeContext& context);

  // PGD entries x bytes(pages) + superblocks x max_physical_blocks x bytes(blocks) + the cache
  // (cache_entries x the bytes of a block's PMD, PTs and PBNs) + the valid bitmap.
  uint64_t mapping_memory_bytes() const override;
  std::vector<MappingFigure> mapping_figures() const override;
  std::optional<double> cache_hit_ratio() const override;
  // The newest page of `lun`, decoded from the spare areas (nothing recorded, cache unused).
  PageId peek(Lun lun) const override;
  uint32_t blocks_held() const override;

  const SuperblockSpareLayout& layout() const { return m_layout; }
  uint32_t superblock_of(uint32_t lbn) const { return lbn / m_superblock_blocks; }
  const std::vector<BlockId>& blocks_of(uint32_t superblock) const {
    return m_superblocks[superblock];
  }
  PageId pgd(uint32_t lbn) const { return m_pgd[lbn]; }
  // Victims reclaimed with k free (never programmed) pages, k = 0 .. pages_per_block.
  const std::vector<uint64_t>& victim_free_pages() const { return m_victim_free_pages; }

  // Recovery: forgets the PGD, the superblocks' block lists and the cache, and rebuilds the first
  // two by reading every programmed page's spare area (untimed; the DI's sequence number tells
  // the newest copy). The power-cut issue times it.
  void rebuild_from_spare_areas();

 private:
  struct CacheEntry {
    uint32_t lbn = kNone;
    std::vector<PageId> page_of;  // per page of the logical block
    std::vector<PageId> pt_page;  // per group
    uint64_t used = 0;            // LRU stamp
    uint32_t pins = 0;            // held by a write or a merge: not evicted
  };
  struct Move {
    PageId from;
    uint32_t offset;  // in its logical block
  };
  struct Counters {
    uint64_t lookups = 0, hits = 0;
    uint64_t map_spare_reads = 0;  // to load maps into the cache
    uint64_t gc_spare_reads = 0;   // to learn a victim's pages
    uint64_t forced_gcs = 0, partial_merges = 0, full_merges = 0, dead_erases = 0;
  };

  PageId locate(Lun lun, OpClass op_class, uint32_t& after) override;
  // A trimmed unit's page is dead, unless it is its group's PT page: then its spare area still
  // carries the group's map, and it stays live until a later write in the group takes over.
  void trimmed(Lun lun) override;
  // Whether `page`, the newest copy of its logical page in `e`, must be kept: it holds data, or
  // it is its group's PT page.
  bool keeps(const CacheEntry& e, PageId page, uint32_t offset) const;
  void write_units(uint32_t lbn, uint32_t first, const Token* tokens, uint32_t count,
                   uint32_t after) override;

  uint32_t group_of(uint32_t offset) const { return offset / m_layout.group_pages; }
  // Superblocks are striped over the planes as logical blocks are in the other block schemes.
  uint32_t plane_of_superblock(uint32_t sb) const {
    return m_geometry.plane_in_stripe_order(sb % m_geometry.planes());
  }

  // The cached map of `lbn`, loaded from the spare areas on a miss (`after`: the last read).
  CacheEntry& entry(uint32_t lbn, OpClass op_class, uint32_t& after);
  CacheEntry& free_entry();
  void count_lookup(bool hit);
  // Figures count the timed run only (preconditioning records nothing).
  bool counting() const { return m_backend.recording(); }

  // Makes room for `count` pages in superblock `sb`'s blocks: a fresh block while its PBMT has
  // room, else the forced GC; GC on its plane first when the pool is at the reserve. As the
  // Superblock FTL does, the room is found for the whole request before any page is written.
  void reserve(uint32_t sb, uint32_t count);
  // Programs `page` with `token` as the newest page of `e`'s logical page at `offset`.
  uint32_t program_page(PageId page, const CacheEntry& e, uint32_t offset, Token token,
                        OpClass op_class, uint32_t after, OpClass written_as);
  void note_live(PageId page) { m_flash.blocks().add_valid(page); }
  void note_dead(PageId page) { m_flash.blocks().remove_valid(page); }
  uint32_t live(BlockId block) const { return m_flash.blocks().valid_units(block); }
  uint32_t written(BlockId block) const { return m_flash.next_free(block); }

  // Reclaims space on `plane` (one victim or one full merge); false when nothing can be freed.
  bool collect(uint32_t plane);
  void forced_gc(uint32_t sb);
  // Gives one block of `sb` back to the pool: its blocks with the fewest live pages (full ones
  // only, unless `partly_written_victims`) merged into its free pages, fresh blocks joining when
  // they do not fit. False when `sb` has no block to give or the pool none to lend.
  bool compact(uint32_t sb, bool partly_written_victims);
  // Moves the live pages of `victims` (all of superblock `sb`, already out of its block list)
  // into the free pages of `sb`'s blocks, then erases the victims.
  void merge(uint32_t sb, const std::vector<BlockId>& victims);
  void drop_block(uint32_t sb, BlockId block);
  uint32_t free_pages(uint32_t sb) const;
  // The next `count` free pages of `sb`'s blocks, in the order they must be programmed.
  void free_pages_of(uint32_t sb, uint32_t count, std::vector<PageId>& pages) const;

  SuperblockSpareLayout m_layout;
  uint32_t m_superblock_blocks;
  uint32_t m_max_blocks;
  uint32_t m_pgd_entry_bytes;
  uint32_t m_cache_entry_bytes;
  std::vector<PageId> m_pgd;                        // per logical block: its newest page
  std::vector<std::vector<BlockId>> m_superblocks;  // per superblock: its blocks, oldest first
  std::vector<uint32_t> m_owner;                    // per block: its superblock, kNone = free
  std::vector<CacheEntry> m_cache;
  std::vector<uint32_t> m_cache_slot;  // per logical block: its cache entry, kNone
  uint64_t m_clock = 0;
  uint32_t m_sequence = 0;        // written into each page's DI: recovery's "newest"
  std::vector<uint32_t> m_spare;  // one page's spare words, reused
  std::vector<uint64_t> m_victim_free_pages;
  std::vector<Move> m_moves;       // reused by merge()
  std::vector<PageId> m_pages;     // reused: the pages a write or a merge fills
  std::vector<PageId> m_final_pt;  // reused by merge()
  SuperblockSpare m_scratch;       // reused by program_page()
  Counters m_counters;
};

}  // namespace ssd::ftl
