// The spare-area format of the Superblock FTL (section II.C and figure 2 of
// shared/papers/lsb-large-superblock-ftl.md), bit-exact in the page's spare words:
//
//   DI    di_bytes: the page's logical page number (4 bytes), a write sequence number (8 bytes,
//         4 when di_bytes < 12: our choice, the paper lists no DI fields but recovery needs to
//         tell the newest copy of a page; superblock_frame/data_information.h), and the ECC (not
//         modelled, left zero)
//   PBMT  (max_physical_blocks - 1) x pbn_bytes: the superblock's other physical blocks; an
//         unused entry is all ones
//   PMD   groups_per_block entries: where each group's PT page is
//   PT    pages_per_group entries: where each page of this page's group is
//
// A PMD or PT entry is a block index (bits_for(max_physical_blocks) bits: an index into this
// page's PBMT, or max_physical_blocks - 1 for "this block", the paper's index 7) and a page offset
// (bits_for(pages_per_block) bits). Every page carries its logical block's PMD and its group's PT
// as they are once it is written, so the newest page of a logical block holds the block's whole
// map. An entry that names this very page for another group (PMD) or another page (PT) cannot be
// a location (this page holds one group's PT and one logical page): it means "never written",
// which is also what erased spare bits (all ones) say for a page at the block's last offset.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ftl/core/geometry.h"
#include "ftl/core/types.h"

namespace ssd::ftl {

struct SuperblockSettings;

struct SuperblockSpareLayout {
  uint32_t spare_bytes = 0;
  uint32_t di_bits = 0;
  uint32_t pbmt_entries = 0;  // max_physical_blocks - 1
  uint32_t pbn_bits = 0;
  uint32_t index_bits = 0;   // block index of a PMD/PT entry
  uint32_t offset_bits = 0;  // page offset of a PMD/PT entry
  uint32_t groups = 0;       // PMD entries
  uint32_t group_pages = 0;  // PT entries
  uint32_t self_index = 0;   // the index that means "this block"

  static SuperblockSpareLayout of(const SuperblockSettings& s, const Geometry& g,
                                  uint32_t spare_bytes);
  uint32_t entry_bits() const { return index_bits + offset_bits; }
  // The mapping fields (PBMT, PMD, PT): what must fit beside the DI.
  uint32_t mapping_bits() const {
    return pbmt_entries * pbn_bits + (groups + group_pages) * entry_bits();
  }
  uint32_t available_bits() const { return spare_bytes * 8 - di_bits; }
  // The words the format fills (DI and mapping fields), which are all the simulator keeps of a
  // page's spare area: the bytes after them are never written and stay erased (136 of 448 bytes
  // on MQSim's device with the defaults). A spare-area read still transfers spare_bytes.
  uint32_t spare_words() const { return (di_bits + mapping_bits() + 31) / 32; }
};

// One page's spare area, decoded: physical pages, not indices.
struct SuperblockSpare {
  Lun lpn = kNone;
  uint64_t sequence = 0;
  std::vector<BlockId> pbmt;    // pbmt_entries, kNone = unused
  std::vector<PageId> pt_page;  // per group of the logical block: its PT page, kNone = never
  std::vector<PageId> page_of;  // per page of this page's group: where it is, kNone = never
};

// Writes `spare` as the spare of `page` (PBMT entries in order; every PMD/PT location must be in
// `page`'s block or in the PBMT, else std::logic_error: the caller broke the PBMT's bound).
// `words` has layout.spare_words() entries; bits past the layout are left as they are.
void encode_superblock_spare(const SuperblockSpareLayout& layout, const Geometry& geometry,
                             PageId page, const SuperblockSpare& spare, uint32_t* words);
// Reads the spare of `page` back; its group and offset follow from the LPN in the DI.
SuperblockSpare decode_superblock_spare(const SuperblockSpareLayout& layout,
                                        const Geometry& geometry, PageId page,
                                        const uint32_t* words);
// The same into `out`, reusing its vectors (no allocation once they have grown).
void decode_superblock_spare(const SuperblockSpareLayout& layout, const Geometry& geometry,
                             PageId page, const uint32_t* words, SuperblockSpare& out);

}  // namespace ssd::ftl
