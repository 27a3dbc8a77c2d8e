// The Large SuperBlock FTL (`--ftl lsb`; Lin, Chiao and Chang, shared/papers/lsb-large-superblock-
// ftl.md, section III). Superblocks, space, GC and the cache are the Superblock FTL's frame
// (ftl/superblock_frame/), without its cap on a superblock's blocks: LSB's PBMTs are per group and
// per page, so a superblock may hold as many blocks as its plane lends it.
//
// Spare areas (lsb_spare.h): every page is a PT page (flag 0: its group's PT, through a PBMT of
// G - 1 blocks) or a PMD page (flag 1: a PBMT of N blocks, PTEs for its own group and one PDE per
// group). Writes of a logical block follow section III.A:
// - in each group a request writes, except the last, the last page written is the group's PT
//   page; the request's last page is the PMD page, the next-to-last the last group's PT page
//   when it is in that group (figure 5). Pages before a group's PT page are written as PT pages
//   too, with the group's PT as it is then (every page has one of the two formats; only a
//   group's newest one is followed).
// - a PMD page names the other groups by PDEs (their newest PT or PMD page), and the pages of its
//   own group through the group's PT page (indirect) or, for pages written after that PT page,
//   directly (figure 6). A reader tells the two apart by the PTEs alone: a page two or more PTEs
//   name is the PT page (one page holds one logical page), so a lone PTE through the PT page is
//   written direct instead, unless the PT page holds that very page. Our choice: the paper does
//   not say how a reader tells them apart, and this one costs no PBMT entry nor spare-area read.
// - when the PBMT cannot name every block a PMD page needs (PDE blocks in its first N - 1
//   entries, PTE blocks in any), the group's PT page is copied to the next free page first, a
//   mapping-induced write (MIW, figure 7): the copy is the group's new PT page with its whole PT,
//   and every PTE goes through it. When the PT page's own page was written since, or there is no
//   PT page, the group's lowest valid page is copied instead (our choice).
//
// Translation is two, three or four levels (section III.B, figure 8): PGD -> PMD page (spare
// read 1) -> the data, or -> the group's PT page (read 2) -> the data, or -> another group's PT
// page (read 2) -> the data, or -> another group's older PMD page (read 2) -> its PT page (read
// 3) -> the data. A cache miss loads the whole logical block that way, each read timed: the PGD's
// PMD page, and per group its mapping page and, behind an older PMD page, its PT page.
//
// GC (the frame) moves a victim's pages one logical block at a time, written by the same rules as
// a request (offsets in order), so copies carry their maps anew; a group whose only page in the
// victim is a page kept for its map (a PT page whose data is newer elsewhere) gets its lowest
// valid page copied instead, or loses its map if it has no valid page left.
//
// Power cuts (recovered()): as for the Superblock FTL, recovery reads every spare area back
// (ftl/superblock_frame/frame_recovery.h) and rebuilds the PGD (each logical block's newest
// readable PMD page whose map holds), the superblocks' block lists and the free pools. A run cut
// before its PMD page leaves PT pages newer than the PMD page the PGD would name: that map is
// written anew with the newest copies.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "ftl/lsb/lsb_spare.h"
#include "ftl/superblock_frame/superblock_frame.h"

namespace ssd::ftl {

class LsbFtl final : public SuperblockFrame {
 public:
  explicit LsbFtl(const SchemeContext& context);
  // Built again from the flash after a power cut (frame_recovery.h): the PGD names each logical
  // block's newest readable PMD page whose map holds.
  static std::unique_ptr<LsbFtl> recovered(const SchemeContext& context);

  // PGD entries x bytes(pages) + every block's superblock list entry x bytes(blocks) + the cache
  // (cache_entries x (1 + N G) entries of delta + beta bits and N G PBNs) + the valid bitmap.
  uint64_t mapping_memory_bytes() const override;
  std::vector<MappingFigure> mapping_figures() const override;
  // The newest page of `lun`, by the paper's translation (nothing recorded, cache unused).
  PageId peek(Lun lun) const override;

  const LsbSpareLayout& layout() const { return m_layout; }
  // The spare-area reads translating `lun` takes from the PGD (1, 2 or 3: the paper's two,
  // three and four levels), 0 when never written; for tests and docs.
  uint32_t translation_reads(Lun lun) const;

 private:
  // The PBMT follows the DI and the flag, G - 1 entries in a PT page, N in a PMD page
  // (lsb_spare.h).
  PbmtField pbmt_field() const override {
    return {m_layout.di_bits + 1, m_layout.pbn_bits, m_layout.group_pages - 1, m_layout.di_bits,
            m_layout.groups};
  }
  // What one item of a write run puts at `offset`: host data, or a copy of `from`.
  struct Item {
    uint32_t offset;
    Token token;
    PageId from;  // kNone: host data
  };
  // One group's map as its mapping page gives it.
  struct GroupMap {
    PageId head = kNone, pt_page = kNone;
    std::vector<PageId> pages;  // per page of the group
    std::vector<PageId> view;   // what the PT page records, per page of the group
    uint32_t reads = 0;         // spare-area reads it took (the mapping page's and the PT's)
  };

  void load(CacheEntry& e, PageId newest, OpClass op_class, uint32_t& after) override;
  bool resolve(CacheEntry& e, PageId head, OpClass op_class, uint32_t& after) override;
  void recorded_empty(PageId page, std::vector<uint32_t>& offsets) const override;
  // Only a PMD page heads its logical block's map (the PGD names PMD pages).
  bool heads_map(PageId page) const override;
  void reset_figures() override;
  uint32_t relocate(CacheEntry& e, std::vector<Move>& moves, uint32_t map_read) override;
  void write_units(uint32_t lbn, uint32_t first, const Token* tokens, uint32_t count,
                   uint32_t after) override;
  // A bulk fill's spare words (lsb_fill.cpp).
  SpareArea::LayoutWriter fill_layout_writer(
      std::shared_ptr<const FilledBlocks> filled) const override;

  LsbSpare decoded(PageId page) const {
    return decode_lsb_spare(m_layout, m_geometry, page, m_backend.flash().spare(page));
  }
  void decode_into(PageId page, LsbSpare& out) const {
    decode_lsb_spare(m_layout, m_geometry, page, m_backend.flash().spare(page), out);
  }
  // Resolves a group from its mapping page `mapper` (decoded as `spare`): its pages, PT page and
  // the PT's view. `read_pt(pt)` reads the PT page's spare area when a PTE goes through it and
  // gives it decoded. False when the PT page is not one of the group's, written before `mapper`
  // (a cut left the map half written); a page named that holds no copy of its unit is kNone.
  template <class ReadPt>
  bool resolve_group(PageId mapper, const LsbSpare& spare, ReadPt read_pt, GroupMap& out) const;

  // Writes `items` (offsets ascending, all of `e`'s logical block) by the rules in the header
  // into `m_pages` from `m_next` on; returns the last program.
  uint32_t write_run(CacheEntry& e, const std::vector<Item>& items, OpClass op_class,
                     uint32_t after);
  // A PT-format page for `item` (the group's PT page when `is_pt`).
  uint32_t write_pt_page(CacheEntry& e, const Item& item, bool is_pt, OpClass op_class,
                         uint32_t after);
  // The PMD page for `item`, after the MIW copies its PBMT needs.
  uint32_t write_pmd_page(CacheEntry& e, const Item& item, OpClass op_class, uint32_t after);
  // The PMD page `page` would carry for `item`; false when its PBMT overflows. `through_pt`:
  // whether its PTEs go through the group's PT page.
  bool build_pmd(const CacheEntry& e, PageId page, uint32_t offset, LsbSpare& spare,
                 bool& through_pt) const;
  // The page two or more of a PMD page's PTEs name: its group's PT page (kNone: none).
  static PageId pt_page_named_by(const LsbSpare& spare);
  // The MIW: copies the group's PT page (its lowest valid page but `offset` when the PT page's
  // own page is newer elsewhere, or there is none) to the next free page as the group's new PT
  // page; returns the program.
  uint32_t copy_pt_page(CacheEntry& e, uint32_t group, uint32_t offset, OpClass op_class,
                        uint32_t after);
  // Programs `page` with `spare` and `token`, counted as `written_as`.
  uint32_t program(PageId page, LsbSpare& spare, Token token, OpClass op_class, uint32_t wait,
                   OpClass written_as);
  // The next free page of `sb` a run programs (peeked, then taken).
  PageId next_page(uint32_t sb);
  PageId take_page(uint32_t sb);
  // The group's PT entries as a PT page at `page` would record them now.
  void group_ptes(const CacheEntry& e, uint32_t group, std::vector<PageId>& ptes) const;
  // Liveness: pages whose role a run may end are noted, then the ones no longer kept are dead.
  void touch(const CacheEntry& e, PageId page);
  void settle(const CacheEntry& e);
  bool kept(const CacheEntry& e, PageId page) const {
    return keeps(e, page, offset_of(di_lpn(page)));
  }
  std::vector<PageId>& view_of(const CacheEntry& e) { return m_view[slot_of(e)]; }
  const std::vector<PageId>& view_of(const CacheEntry& e) const { return m_view[slot_of(e)]; }

  LsbSpareLayout m_layout;
  uint32_t m_pgd_entry_bytes;
  uint32_t m_cache_entry_bytes;
  std::vector<std::vector<PageId>> m_view;  // per cache entry, per page: what its PT page says
  std::vector<PageId> m_pages;              // the free pages a run fills, from m_next on
  size_t m_next = 0;
  std::vector<PageId> m_touched;  // pages whose role the current run may have ended
  std::vector<uint32_t> m_spare;  // one page's spare words, reused
  std::vector<Item> m_items;      // reused by write_units() and relocate()
  LsbSpare m_scratch;             // reused by the writes
  LsbSpare m_load_head, m_load_other, m_load_table;  // reused by load()
  GroupMap m_load_map;                               // reused by load()
  std::vector<uint8_t> m_remap, m_rewritten;         // reused by relocate()
  uint64_t m_miw_writes = 0;
  uint64_t m_pmd_pages = 0, m_pt_pages = 0;
};

}  // namespace ssd::ftl
