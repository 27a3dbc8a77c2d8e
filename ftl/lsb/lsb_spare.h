// The spare-area formats of the LSB FTL (section III.A, figure 3 and equations (1) and (2) of
// shared/papers/lsb-large-superblock-ftl.md), bit-exact in the page's spare words. A logical block
// is N groups (groups_per_block) of G contiguous pages (pages_per_group); every page is a PT page
// or a PMD page, told apart by a flag bit:
//
//   PT page   DI | flag 0 | PBMT: G - 1 PBNs of e bits | PT: G PTEs of (alpha + beta) bits
//   PMD page  DI | flag 1 | PBMT: N PBNs of e bits     | PT: G PTEs of (delta + beta) bits
//                                                      | PMD: N PDEs of (gamma + beta) bits
//
// with alpha = log2 G (a PT page's PTE indexes its G - 1 PBMT entries or "this block"), beta =
// log2 pages_per_block (the page offset), delta = ceil(log2 (N + 1)) (a PMD page's PTE indexes
// its N PBMT entries or "this block"), gamma = log2 N (a PDE indexes the first N - 1 entries or
// "this block"). Equation (1): (G - 1) e + G (alpha + beta) + 1 <= S - D bits for a PT page;
// equation (2): N e + G (delta + beta) + N (gamma + beta) + 1 <= S - D for a PMD page, S the
// spare area and D the DI. The DI is the Superblock FTL's: LPN, write sequence number, ECC
// (superblock_frame/data_information.h).
// The field order within the formats is ours (figure 3 is not in the text).
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "ftl/core/geometry.h"
#include "ftl/core/types.h"

namespace ssd::ftl {

struct LsbSpareLayout {
  uint32_t spare_bytes = 0;  // S / 8
  uint32_t di_bits = 0;      // D
  uint32_t pbn_bits = 0;     // e
  uint32_t groups = 0;       // N
  uint32_t group_pages = 0;  // G
  uint32_t alpha = 0, beta = 0, gamma = 0, delta = 0;

  static LsbSpareLayout of(uint32_t groups, uint32_t group_pages, uint32_t pages_per_block,
                           uint32_t spare_bytes, uint32_t di_bytes, uint32_t pbn_bytes);
  // Equation (1): the mapping bits of a PT page.
  uint32_t pt_page_bits() const {
    return (group_pages - 1) * pbn_bits + group_pages * (alpha + beta) + 1;
  }
  // Equation (2): the mapping bits of a PMD page.
  uint32_t pmd_page_bits() const {
    return groups * pbn_bits + group_pages * (delta + beta) + groups * (gamma + beta) + 1;
  }
  // S - D.
  uint32_t available_bits() const { return spare_bytes * 8 - di_bits; }
  bool fits() const {
    return pt_page_bits() <= available_bits() && pmd_page_bits() <= available_bits();
  }
  // The words the longer of the two formats fills (DI, flag and mapping fields), which are all
  // the simulator keeps of a page's spare area: the bytes after them are never written and stay
  // erased. A spare-area read still transfers spare_bytes.
  uint32_t spare_words() const {
    return (di_bits + std::max(pt_page_bits(), pmd_page_bits()) + 31) / 32;
  }
  // The index that means "this block" in a PT page's PTE, a PMD page's PTE and a PDE.
  uint32_t pt_self() const { return group_pages - 1; }
  uint32_t pmd_pte_self() const { return groups; }
  uint32_t pde_self() const { return groups - 1; }
};

// One page's spare area, decoded: physical pages, not indices (kNone: none / never written).
struct LsbSpare {
  Lun lpn = kNone;
  uint64_t sequence = 0;
  bool pmd = false;           // the flag: a PMD page (else a PT page)
  std::vector<BlockId> pbmt;  // G - 1 (PT page) or N (PMD page) entries, kNone = unused
  std::vector<PageId> pte;    // per page of this page's group
  // PMD page only, per group: the page that maps it (the group's newest PT or PMD page); its own
  // group, which its PTEs map, has the page itself (unused).
  std::vector<PageId> pde;
};

// Writes `spare` as the spare of `page`: each location must be in `page`'s block or, for PTEs, in
// the PBMT (a PDE only in its first N - 1 entries); else std::logic_error (the PBMT would
// overflow: the caller copies the old PT page first, the paper's MIW).
void encode_lsb_spare(const LsbSpareLayout& layout, const Geometry& geometry, PageId page,
                      const LsbSpare& spare, uint32_t* words);
LsbSpare decode_lsb_spare(const LsbSpareLayout& layout, const Geometry& geometry, PageId page,
                          const uint32_t* words);
// The same into `out`, reusing its vectors (no allocation once they have grown).
void decode_lsb_spare(const LsbSpareLayout& layout, const Geometry& geometry, PageId page,
                      const uint32_t* words, LsbSpare& out);
// Whether the spare words are a PMD page's (the flag after the DI), without decoding the rest.
bool lsb_pmd_flag(const LsbSpareLayout& layout, const uint32_t* words);

}  // namespace ssd::ftl
