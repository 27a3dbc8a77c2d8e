// What the Superblock FTL (ftl/superblock/) and the LSB FTL (ftl/lsb/) share: both group N
// contiguous logical blocks into a superblock whose pages may sit at any page of the physical
// blocks it holds, keep the page-level map in the spare areas (each in its own format) and only a
// PGD (per logical block: its newest page) and the superblocks' block lists in RAM, cache whole
// logical blocks' maps with LRU, and collect garbage the same way (section III.D of
// shared/papers/lsb-large-superblock-ftl.md, which the LSB paper says it inherits).
//
// Space: a superblock writes a request's pages into the free pages of its blocks; when they are
// fewer than the request needs, it takes a fresh block (from its home plane, or for superblocks
// that span the device from the plane with the most free blocks), unless it holds its
// scheme's cap of blocks already (the Superblock FTL's full PBMT; LSB has no cap): then it gives
// back its block with the fewest live pages, written to the end or not (the forced GC, which can
// erase unwritten pages: the LSB paper's figure 11). When the home plane's free pool reaches the
// GC reserve, the plane's block with the fewest live pages is reclaimed: erased if dead, else its
// live pages move into free pages of its own superblock (partial merge); when no candidate's
// superblock has room, the two blocks with the most dead pages of the plane's superblock with the
// most dead pages are merged into a fresh block (full merge). The paper merges two blocks; when
// their live pages do not fit one block we go on with the superblock's next blocks until one
// block is free (compact()), which a superblock holding more blocks than its data always allows.
//
// Live pages: a page is kept while it holds a valid unit's newest copy or carries map information
// still followed (its group's PT page, or the page that maps its group: what a PMD page's entry
// for the group names). The scheme writes moved pages with their maps anew (relocate()), so the
// PGD and the maps never name a block that is being collected.
//
// Both schemes' data information (DI) starts the spare area with the page's LPN and a write
// sequence number (data_information.h), from which recovery tells each unit's newest copy.
//
// Power loss (docs/power-loss.md; frame_recovery.h rebuilds the scheme after a cut): recovery
// takes each unit's newest readable copy as the truth, so a copy must outlive the program of the
// copy that supersedes it. When the device may lose power every program that writes a unit's new
// copy names the block of its old one (note_superseded(): FlashBackend::note_supersedes), and an
// erase of that block waits for it.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ftl/core/spare_area.h"
#include "ftl/hybrid/block_scheme.h"
#include "ftl/superblock_frame/data_information.h"

namespace ssd::ftl {

class SuperblockFrame : public BlockScheme {
 public:
  // What a scheme tells the frame about its superblocks, groups and cache.
  struct Shape {
    uint32_t superblock_blocks;  // N logical blocks per superblock
    uint32_t max_blocks;         // physical blocks a superblock may hold (0: no cap)
    uint32_t groups;             // groups of a logical block
    uint32_t group_pages;        // pages of a group
    uint32_t cache_entries;      // whole-logical-block maps cached
    uint32_t spare_bytes;        // bytes a spare-area read transfers
    uint32_t di_bytes;           // bytes of the DI (data_information.h)
    bool any_plane;              // blocks from every plane (else all from one home plane)
  };

  std::optional<double> cache_hit_ratio() const override;
  uint32_t blocks_held() const override;
  // Preconditioning's sequential fill in bulk (frame_fill.cpp), for a scheme that can say a
  // filled block's spare words (fill_layout_writer): each logical block the fill covers whole
  // takes a fresh block on its superblock's home plane, its pages at their offsets, as the
  // commands would; the spare words are laid out, not written, until something reads them
  // (SpareArea::LayoutWriter). The last cache_entries logical blocks, and a last partial one, go
  // through write_units(), so that the cache ends holding what the commands leave in it. Only
  // while no plane could come near GC's reserve; false, having done nothing, otherwise.
  bool fill_sequential(const SequentialFill& fill) override;
  // Where a page's spare words hold physical block numbers (its PBMT, bit-exact): `entries`
  // fields of `pbn_bits` bits from `first_bit`, or `entries_if_flag` of them when the bit at
  // `flag_bit` is set (LSB's PMD pages; kNone: no flag). An unused entry is all ones. Sampled
  // aging's layout renumbers them; every other location in the formats is relative to the page's
  // own block and its PBMT.
  struct PbmtField {
    uint32_t first_bit = 0;
    uint32_t pbn_bits = 0;
    uint32_t entries = 0;
    uint32_t flag_bit = kNone;
    uint32_t entries_if_flag = 0;
  };
  // Sampled aging (frame_aged.cpp, ftl/core/sampled_aging.h). The miniature describes every
  // programmed page's spare words, each block's superblock and place in its list, each block's
  // live-page count, the PGD and the write sequence; the device lays each copy's superblocks out
  // on its own planes (LSB's on every copy's, frame_aged.cpp), blocks shuffled within the plane,
  // with the pages' logical page numbers and the block numbers their PBMTs hold renumbered (the
  // rest of a map is relative to its page's block and stays as it is). A superblock with no whole
  // place on the device is written afresh by the fill's commands. The DIs keep the miniature's
  // sequence numbers (each copy's pages are its own logical pages), so nothing beyond them is
  // laid out for a device that may lose power.
  bool describe_aged_planes(AgedPlanes& planes) const override;
  bool lay_out_aged(const AgedLayout& layout) override;
  bool lays_out_miniature_sequences() const override { return false; }

  uint32_t superblock_of(uint32_t lbn) const { return lbn / m_superblock_blocks; }
  const std::vector<BlockId>& blocks_of(uint32_t superblock) const {
    return m_superblocks[superblock];
  }
  PageId pgd(uint32_t lbn) const { return m_pgd[lbn]; }
  // Programmed and live pages of the superblock's blocks (kept as pages change).
  uint64_t written_pages(uint32_t superblock) const { return m_written_pages_of[superblock]; }
  uint64_t live_pages(uint32_t superblock) const { return m_live_pages_of[superblock]; }
  // Victims reclaimed with k free (never programmed) pages, k = 0 .. pages_per_block.
  const std::vector<uint64_t>& victim_free_pages() const { return m_victim_free_pages; }
  // What the recovery that built this scheme did beyond reading (frame_recovery.h); zeros for a
  // scheme that was not recovered. For tests and docs.
  struct RecoveryWork {
    uint64_t maps_rewritten = 0;      // logical blocks whose map was written anew
    uint64_t blocks_given_back = 0;   // blocks a superblock over its cap gave back
    uint64_t dead_blocks_erased = 0;  // blocks with no live page (or only torn ones) erased
  };
  const RecoveryWork& recovery_work() const { return m_recovery_work; }

 protected:
  // A logical block's map, resolved: where each page is and which pages carry the map.
  struct CacheEntry {
    uint32_t lbn = kNone;
    std::vector<PageId> page_of;  // per page of the logical block, kNone: never written
    std::vector<PageId> pt_page;  // per group: its PT page (the page whose PT maps the group)
    std::vector<PageId> head;     // per group: the page a newer PMD would name for it
    uint64_t used = 0;            // LRU stamp
    uint32_t pins = 0;            // held by a write or a merge: not evicted
  };
  // A live page of a victim, to be copied within its superblock.
  struct Move {
    PageId from;
    uint32_t offset;  // in its logical block
  };

  SuperblockFrame(const SchemeContext& context, const char* scheme, const Shape& shape);

  // Fills `e` (lbn set, every location kNone) with the map of its logical block, whose newest
  // page is `newest` (kNone: never written), by timed spare-area reads (read_map_spare);
  // `after`: the last read.
  virtual void load(CacheEntry& e, PageId newest, OpClass op_class, uint32_t& after) = 0;
  // What load() does, checking every location the spare areas give (names()): fills `e`'s
  // locations (and whatever the scheme keeps per entry) from `head` as they are on flash, valid
  // bits aside; a data entry that names no copy of its page is left kNone (a trimmed unit's page
  // erased since). False when a map page it follows is not what its namer says (recovery: a map
  // a cut left half written). kNone `head`: every location kNone, true.
  virtual bool resolve(CacheEntry& e, PageId head, OpClass op_class, uint32_t& after) = 0;
  // The pages of its logical block (offsets) that `page`'s map says hold nothing (never written,
  // or trimmed, when `page` was written): recovery keeps such a unit trimmed when no copy of it
  // is newer than `page` (functional: the spare area is read already).
  virtual void recorded_empty(PageId page, std::vector<uint32_t>& offsets) const = 0;
  // Whether `page` (programmed, readable) can head its logical block's map: be its PGD entry.
  virtual bool heads_map(PageId /*page*/) const { return true; }
  // Forgets the scheme's own figures (recovery's work is not the run's).
  virtual void reset_figures() {}
  // What a bulk fill (fill_sequential) leaves, for the scheme's spare-word layout: per block the
  // logical block it was filled with (kNone: none), per logical block its block (kNone: not laid
  // out), and the write sequence number before the fill's first page. Never changed once the
  // fill is done.
  struct FilledBlocks {
    std::vector<uint32_t> lbn_of_block;
    std::vector<BlockId> block_of_lbn;
    uint64_t first_sequence = 0;
    uint32_t superblock_blocks = 0;
    uint32_t chunk_units = 0;  // the fill's command size (set before fill_layout_writer())
    // The spare words, page after page, of the first logical block the fill's commands wrote
    // after the laid-out ones (whole, into a fresh block of its own), for a scheme whose filled
    // blocks' words differ only in their DI (the LSB FTL's, lsb_fill.cpp).
    std::vector<uint32_t> sample_words;
  };
  // The words of a block laid out by the fill, from `filled` (which fill_sequential() completes
  // before any block is read): the spare words `pages_per_block` programs by write_units() would
  // have left. None (the default): the scheme fills command by command.
  virtual SpareArea::LayoutWriter fill_layout_writer(
      std::shared_ptr<const FilledBlocks> /*filled*/) const {
    return nullptr;
  }
  // Where the spare words hold block numbers (PbmtField, above).
  virtual PbmtField pbmt_field() const = 0;
  // Copies `moves` (live pages of `e`'s logical block in victims, which are out of the
  // superblock's block list) into free pages of the superblock with their maps, updates `e`, the
  // PGD and the live counts, and returns the last program. Copies wait for `map_read`.
  virtual uint32_t relocate(CacheEntry& e, std::vector<Move>& moves, uint32_t map_read) = 0;

  // The frame's figures: cache, spare reads and GC kinds (the scheme adds its own).
  std::vector<MappingFigure> frame_figures() const;

  uint32_t group_of(uint32_t offset) const { return offset / m_group_pages; }
  uint32_t groups() const { return m_groups; }
  uint32_t group_pages() const { return m_group_pages; }
  // The cached map of `lbn`, loaded from the spare areas on a miss (`after`: the last read).
  CacheEntry& entry(uint32_t lbn, OpClass op_class, uint32_t& after);
  uint32_t slot_of(const CacheEntry& e) const { return static_cast<uint32_t>(&e - m_cache.data()); }
  // A timed read of `page`'s spare area to learn a map (counted as map_spare_reads).
  uint32_t read_map_spare(PageId page, OpClass op_class, uint32_t after = kNone);
  // Whether `page`, a page of `e`'s logical block at `offset`, must be kept: it holds the unit's
  // newest data, or carries its group's map.
  bool keeps(const CacheEntry& e, PageId page, uint32_t offset) const;
  // The LPN and sequence number a programmed page's DI holds (functional: no operation).
  Lun di_lpn(PageId page) const { return m_backend.flash().spare(page)[0]; }
  uint64_t di_sequence(PageId page) const {
    return sequence_in(m_backend.flash().spare(page), m_di_bits);
  }
  uint64_t next_sequence() { return ++m_sequence; }
  // Whether `target`, named by a map written at sequence `upto`, holds a copy of one of the
  // `count` logical pages from `first` on: programmed, readable, its DI naming one of them, and
  // written no later than the map (a page erased and written again since names something else).
  bool names(PageId target, Lun first, uint32_t count, uint64_t upto) const;
  // Asks for the spare words of each programmed page of `targets` ahead of the names() checks of
  // all of them: the pages of a map are spread over the superblock's blocks, so each check's read
  // of a DI is a cache miss, and made one after another they wait for each in turn (half of
  // LSB's aging, by perf). Nothing else changes.
  void prefetch_dis(const std::vector<PageId>& targets) const;
  // Program `op` wrote a unit's new copy; `old` held its previous one (kNone: none). When the
  // device may lose power, `old`'s block is not erased before `op` completes (the header).
  void note_superseded(uint32_t op, PageId old) {
    if (m_power_safe && old != kNone) {
      m_backend.note_supersedes(op, m_geometry.block_of_page(old));
    }
  }

  // Makes room for `count` pages in superblock `sb`'s blocks: a fresh block while the cap allows,
  // else the forced GC; GC on its plane first when the pool is at the reserve. As the Superblock
  // FTL does, the room is found for the whole request before any page is written.
  void reserve(uint32_t sb, uint32_t count);
  // The next `count` free pages of `sb`'s blocks, in the order they must be programmed.
  void free_pages_of(uint32_t sb, uint32_t count, std::vector<PageId>& pages) const;
  // Takes a fresh block from `sb`'s plane for a merge that needs more pages than its victims'
  // live ones (LSB's mapping-induced writes); false when the plane has none.
  bool lend_block(uint32_t sb);
  // Whether `block` belongs to a superblock (a victim being merged no longer does).
  bool held(BlockId block) const { return m_owner[block] != kNone; }
  uint32_t free_pages(uint32_t sb) const;
  // Programs `page` with `token` and the scheme's spare words, for `written_as`, after op
  // `after`; the page is then written and live (until note_dead()), its block closed when full.
  // Every page a scheme writes goes through here, so the superblock's page sums stay right.
  uint32_t program_with_spare(PageId page, Token token, const uint32_t* spare, OpClass op_class,
                              uint32_t after, OpClass written_as);
  void note_dead(PageId page);
  uint32_t written(BlockId block) const { return m_flash.next_free(block); }
  // Figures count the timed run only (preconditioning records nothing).
  bool counting() const { return m_backend.recording(); }
  void set_pgd(uint32_t lbn, PageId page) { m_pgd[lbn] = page; }
  uint64_t superblock_count() const { return m_superblocks.size(); }
  uint64_t cache_size() const { return m_cache.size(); }

 private:
  friend class FrameRecovery;  // rebuilds all of the below after a power cut

  struct Counters {
    uint64_t lookups = 0, hits = 0;
    uint64_t map_spare_reads = 0;  // to load maps into the cache
    uint64_t gc_spare_reads = 0;   // to learn a victim's pages
    uint64_t forced_gcs = 0, partial_merges = 0, full_merges = 0, dead_erases = 0;
  };

  PageId locate(Lun lun, OpClass op_class, uint32_t& after) override;
  // A trimmed unit's page is dead, unless it carries its group's map: then it stays live until a
  // later write in the group takes over.
  void trimmed(Lun lun) override;

  // The plane `sb` takes its next block from: its home plane (superblocks are striped over the
  // planes as logical blocks are in the other block schemes), or, for a scheme whose superblocks
  // span the device, the plane with the most free blocks (ties: the lowest).
  uint32_t plane_for(uint32_t sb) const;
  // The planes reserve() would take the first `lbns` logical blocks' fresh blocks from, one each
  // in order, on an untouched device (fill_sequential()); empty when one of them would come to
  // GC's reserve.
  std::vector<uint32_t> fill_planes(uint32_t lbns) const;
  // The free blocks `sb` can draw on: its home plane's, or every plane's.
  uint64_t free_blocks_for(uint32_t sb) const;
  CacheEntry& free_entry();
  void count_lookup(bool hit);
  uint32_t live(BlockId block) const { return m_flash.blocks().valid_units(block); }

  // Reclaims space on `plane` (one victim or one full merge); false when nothing can be freed.
  bool collect(uint32_t plane);
  void forced_gc(uint32_t sb);
  // Gives one block of `sb` back to the pool: its blocks with the fewest live pages (full ones
  // only, unless `partly_written_victims`) merged into its free pages, fresh blocks joining when
  // they do not fit. False when `sb` has no block to give or the pool none to lend.
  bool compact(uint32_t sb, bool partly_written_victims);
  // Moves the live pages of `victims` (all of one superblock, already out of its block list)
  // into the free pages of the superblock's blocks, then erases the victims.
  void merge(const std::vector<BlockId>& victims);
  // A block joins `sb` (its pages count as the superblock's), or leaves it.
  void add_block(uint32_t sb, BlockId block);
  void drop_block(uint32_t sb, BlockId block);
  // Sums every superblock's pages afresh (after recovery rebuilt the lists).
  void recount_pages();
  // Recovery: `page` is live (the reverse of note_dead()).
  void note_live(PageId page);
  // Empties the cache (recovery leaves nothing cached).
  void clear_cache();

  std::string m_scheme;  // names the scheme in errors
  uint32_t m_superblock_blocks;
  uint32_t m_max_blocks;
  uint32_t m_groups;
  uint32_t m_group_pages;
  uint32_t m_spare_bytes;
  uint32_t m_di_bits;
  bool m_any_plane;
  // The device may lose power: its flash journals every operation (note_superseded()).
  bool m_power_safe;
  std::vector<PageId> m_pgd;                        // per logical block: its newest page
  std::vector<std::vector<BlockId>> m_superblocks;  // per superblock: its blocks, oldest first
  std::vector<uint32_t> m_owner;                    // per block: its superblock, kNone = free
  std::vector<CacheEntry> m_cache;
  std::vector<uint32_t> m_cache_slot;  // per logical block: its cache entry, kNone
  uint64_t m_clock = 0;
  uint64_t m_sequence = 0;  // written into each page's DI: recovery's "newest"
  std::vector<uint64_t> m_victim_free_pages;
  std::vector<Move> m_moves;              // reused by merge()
  std::vector<BlockId> m_lent_to_merges;  // blocks lend_block() gave the current merge
  // Per superblock, kept as pages change rather than summed over its blocks when needed (an LSB
  // superblock can hold hundreds): its blocks' programmed pages and live pages.
  std::vector<uint64_t> m_written_pages_of;
  std::vector<uint64_t> m_live_pages_of;
  std::vector<BlockId> m_candidates;          // reused by collect(): the plane's full blocks
  std::vector<uint32_t> m_plane_superblocks;  // reused by collect(): their superblocks
  Counters m_counters;
  RecoveryWork m_recovery_work;
};

}  // namespace ssd::ftl
