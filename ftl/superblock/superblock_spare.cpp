#include "ftl/superblock/superblock_spare.h"

#include <algorithm>
#include <stdexcept>

#include "ftl/core/spare_bits.h"
#include "ftl/superblock/superblock_settings.h"
#include "ftl/superblock_frame/data_information.h"

namespace ssd::ftl {

SuperblockSpareLayout SuperblockSpareLayout::of(const SuperblockSettings& s, const Geometry& g,
                                                uint32_t spare_bytes) {
  SuperblockSpareLayout l;
  l.spare_bytes = spare_bytes;
  l.di_bits = s.di_bytes * 8;
  l.pbmt_entries = s.max_physical_blocks - 1;
  l.pbn_bits = s.pbn_bytes * 8;
  l.index_bits = bits_for(s.max_physical_blocks);
  l.offset_bits = bits_for(g.pages_per_block);
  l.groups = s.groups_per_block;
  l.group_pages = s.pages_per_group != 0 ? s.pages_per_group
                                         : g.pages_per_block / std::max(1u, s.groups_per_block);
  l.self_index = s.max_physical_blocks - 1;
  return l;
}

namespace {

struct Place {
  uint32_t group;   // of the logical page in its logical block
  uint32_t offset;  // of the logical page in its group
};

Place place_of(const SuperblockSpareLayout& l, const Geometry& g, Lun lpn) {
  const uint32_t in_block = lpn % g.pages_per_block;
  return {in_block / l.group_pages, in_block % l.group_pages};
}

// An entry naming offset `offset` of this page's own block: the index, then the offset, put as
// one field of entry_bits (entry_bits <= 32: the PBMT index and page offset of any device).
inline void put_in_block(SpareBitWriter& out, const SuperblockSpareLayout& l, uint32_t offset) {
  out.put(offset << l.index_bits | l.self_index, l.entry_bits());
}

// The entry that names `target` from a page of the block whose first page is `first`, with this
// PBMT. (A target in that block, the common case, costs no division.)
inline void put_location(SpareBitWriter& out, const SuperblockSpareLayout& l, const Geometry& g,
                         PageId first, const std::vector<BlockId>& pbmt, PageId target) {
  if (target - first < g.pages_per_block) {
    put_in_block(out, l, target - first);
    return;
  }
  const BlockId block = g.block_of_page(target);
  uint32_t index = 0;
  while (index < pbmt.size() && pbmt[index] != block) ++index;
  if (index == pbmt.size()) throw std::logic_error("superblock spare: block not in the PBMT");
  out.put(index, l.index_bits);
  out.put(g.page_in_block(target), l.offset_bits);
}

// "Never written": this very page (at `offset` of its block), named where it cannot be a
// location.
inline void put_never(SpareBitWriter& out, const SuperblockSpareLayout& l, uint32_t offset) {
  put_in_block(out, l, offset);
}

PageId get_location(SpareBitReader& in, const SuperblockSpareLayout& l, const Geometry& g,
                    PageId page, const std::vector<BlockId>& pbmt, bool may_be_this_page) {
  const uint32_t index = in.get(l.index_bits);
  const uint32_t offset = in.get(l.offset_bits);
  if (index == l.self_index) {
    const PageId target = g.first_page(g.block_of_page(page)) + offset;
    return target == page && !may_be_this_page ? kNone : target;
  }
  if (index >= pbmt.size() || pbmt[index] == kNone) {
    throw std::runtime_error("superblock spare: a block index past the PBMT");
  }
  return g.first_page(pbmt[index]) + offset;
}

}  // namespace

void encode_superblock_spare(const SuperblockSpareLayout& l, const Geometry& g, PageId page,
                             const SuperblockSpare& spare, uint32_t* words) {
  SpareBitWriter out(words, l.spare_words());
  put_data_information(out, l.di_bits, spare.lpn, spare.sequence);
  for (uint32_t e = 0; e < l.pbmt_entries; ++e) {
    const BlockId block = e < spare.pbmt.size() ? spare.pbmt[e] : kNone;
    out.put(block == kNone ? all_ones(l.pbn_bits) : block, l.pbn_bits);
  }
  const Place own = place_of(l, g, spare.lpn);
  const PageId first = g.first_page(g.block_of_page(page));
  const uint32_t offset = page - first;
  for (uint32_t group = 0; group < l.groups; ++group) {
    const PageId target = spare.pt_page[group];
    if (group == own.group && target != page) {
      throw std::logic_error("superblock spare: a page is its own group's PT page");
    }
    if (target == kNone) {
      put_never(out, l, offset);
    } else {
      put_location(out, l, g, first, spare.pbmt, target);
    }
  }
  for (uint32_t k = 0; k < l.group_pages; ++k) {
    const PageId target = spare.page_of[k];
    if (k == own.offset && target != page) {
      throw std::logic_error("superblock spare: a page's PT entry must name the page itself");
    }
    if (target == kNone) {
      put_never(out, l, offset);
    } else {
      put_location(out, l, g, first, spare.pbmt, target);
    }
  }
}

SuperblockSpare decode_superblock_spare(const SuperblockSpareLayout& l, const Geometry& g,
                                        PageId page, const uint32_t* words) {
  SuperblockSpare spare;
  decode_superblock_spare(l, g, page, words, spare);
  return spare;
}

void decode_superblock_spare(const SuperblockSpareLayout& l, const Geometry& g, PageId page,
                             const uint32_t* words, SuperblockSpare& spare) {
  SpareBitReader in(words, l.spare_words());
  get_data_information(in, l.di_bits, spare.lpn, spare.sequence);
  spare.pbmt.resize(l.pbmt_entries);
  for (BlockId& block : spare.pbmt) {
    const uint32_t pbn = in.get(l.pbn_bits);
    block = pbn == all_ones(l.pbn_bits) ? kNone : pbn;
  }
  const Place own = place_of(l, g, spare.lpn);
  spare.pt_page.resize(l.groups);
  for (uint32_t group = 0; group < l.groups; ++group) {
    spare.pt_page[group] = get_location(in, l, g, page, spare.pbmt, group == own.group);
  }
  spare.page_of.resize(l.group_pages);
  for (uint32_t k = 0; k < l.group_pages; ++k) {
    spare.page_of[k] = get_location(in, l, g, page, spare.pbmt, k == own.offset);
  }
}

}  // namespace ssd::ftl
