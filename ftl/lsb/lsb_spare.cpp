#include "ftl/lsb/lsb_spare.h"

#include <stdexcept>

#include "ftl/core/spare_bits.h"
#include "ftl/superblock_frame/data_information.h"

namespace ssd::ftl {

LsbSpareLayout LsbSpareLayout::of(uint32_t groups, uint32_t group_pages, uint32_t pages_per_block,
                                  uint32_t spare_bytes, uint32_t di_bytes, uint32_t pbn_bytes) {
  LsbSpareLayout l;
  l.spare_bytes = spare_bytes;
  l.di_bits = di_bytes * 8;
  l.pbn_bits = pbn_bytes * 8;
  l.groups = groups;
  l.group_pages = group_pages;
  l.alpha = bits_for(group_pages);
  l.beta = bits_for(pages_per_block);
  l.gamma = bits_for(groups);
  l.delta = bits_for(uint64_t(groups) + 1);
  return l;
}

namespace {

struct Field {
  uint32_t index_bits;
  uint32_t self;     // the index meaning "this block"
  uint32_t entries;  // PBMT entries this field may index
};

void put_location(SpareBitWriter& out, const LsbSpareLayout& l, const Geometry& g, PageId page,
                  const std::vector<BlockId>& pbmt, const Field& f, PageId target) {
  uint32_t index = f.self;
  PageId at = page;  // "never written": this very page, where it cannot be a location
  if (target != kNone) {
    at = target;
    const BlockId block = g.block_of_page(target);
    if (block != g.block_of_page(page)) {
      index = 0;
      while (index < f.entries && (index >= pbmt.size() || pbmt[index] != block)) ++index;
      if (index == f.entries) throw std::logic_error("LSB spare: block not in the PBMT");
    }
  }
  out.put(index, f.index_bits);
  out.put(g.page_in_block(at), l.beta);
}

PageId get_location(SpareBitReader& in, const LsbSpareLayout& l, const Geometry& g, PageId page,
                    const std::vector<BlockId>& pbmt, const Field& f, bool may_be_this_page) {
  const uint32_t index = in.get(f.index_bits);
  const uint32_t offset = in.get(l.beta);
  if (index == f.self) {
    const PageId target = g.first_page(g.block_of_page(page)) + offset;
    return target == page && !may_be_this_page ? kNone : target;
  }
  if (index >= f.entries || index >= pbmt.size() || pbmt[index] == kNone) {
    throw std::runtime_error("LSB spare: a block index past the PBMT");
  }
  return g.first_page(pbmt[index]) + offset;
}

uint32_t own_offset(const LsbSpareLayout& l, const Geometry& g, Lun lpn) {
  return (lpn % g.pages_per_block) % l.group_pages;
}
uint32_t own_group(const LsbSpareLayout& l, const Geometry& g, Lun lpn) {
  return (lpn % g.pages_per_block) / l.group_pages;
}

}  // namespace

void encode_lsb_spare(const LsbSpareLayout& l, const Geometry& g, PageId page,
                      const LsbSpare& spare, uint32_t* words) {
  SpareBitWriter out(words, l.spare_words());
  put_data_information(out, l.di_bits, spare.lpn, spare.sequence);
  out.put(spare.pmd ? 1 : 0, 1);
  const uint32_t pbmt_entries = spare.pmd ? l.groups : l.group_pages - 1;
  if (spare.pbmt.size() > pbmt_entries) throw std::logic_error("LSB spare: PBMT overflow");
  for (uint32_t e = 0; e < pbmt_entries; ++e) {
    const BlockId block = e < spare.pbmt.size() ? spare.pbmt[e] : kNone;
    out.put(block == kNone ? all_ones(l.pbn_bits) : block, l.pbn_bits);
  }
  const Field pte = spare.pmd ? Field{l.delta, l.pmd_pte_self(), l.groups}
                              : Field{l.alpha, l.pt_self(), l.group_pages - 1};
  const uint32_t own = own_offset(l, g, spare.lpn);
  for (uint32_t k = 0; k < l.group_pages; ++k) {
    if (k == own && spare.pte[k] != page) {
      throw std::logic_error("LSB spare: a page's own PTE must name the page itself");
    }
    put_location(out, l, g, page, spare.pbmt, pte, spare.pte[k]);
  }
  if (!spare.pmd) return;
  const Field pde{l.gamma, l.pde_self(), l.groups - 1};
  const uint32_t group = own_group(l, g, spare.lpn);
  for (uint32_t n = 0; n < l.groups; ++n) {
    // The PMD page's own group is mapped by its PTEs; its PDE names the page itself.
    put_location(out, l, g, page, spare.pbmt, pde, n == group ? page : spare.pde[n]);
  }
}

LsbSpare decode_lsb_spare(const LsbSpareLayout& l, const Geometry& g, PageId page,
                          const uint32_t* words) {
  LsbSpare spare;
  decode_lsb_spare(l, g, page, words, spare);
  return spare;
}

bool lsb_pmd_flag(const LsbSpareLayout& l, const uint32_t* words) {
  return (words[l.di_bits / 32] >> (l.di_bits % 32) & 1u) != 0;
}

void decode_lsb_spare(const LsbSpareLayout& l, const Geometry& g, PageId page,
                      const uint32_t* words, LsbSpare& spare) {
  SpareBitReader in(words, l.spare_words());
  get_data_information(in, l.di_bits, spare.lpn, spare.sequence);
  spare.pmd = in.get(1) != 0;
  spare.pbmt.resize(spare.pmd ? l.groups : l.group_pages - 1);
  for (BlockId& block : spare.pbmt) {
    const uint32_t pbn = in.get(l.pbn_bits);
    block = pbn == all_ones(l.pbn_bits) ? kNone : pbn;
  }
  const Field pte = spare.pmd ? Field{l.delta, l.pmd_pte_self(), l.groups}
                              : Field{l.alpha, l.pt_self(), l.group_pages - 1};
  const uint32_t own = own_offset(l, g, spare.lpn);
  spare.pte.resize(l.group_pages);
  for (uint32_t k = 0; k < l.group_pages; ++k) {
    spare.pte[k] = get_location(in, l, g, page, spare.pbmt, pte, k == own);
  }
  spare.pde.clear();
  if (!spare.pmd) return;
  const Field pde{l.gamma, l.pde_self(), l.groups - 1};
  const uint32_t group = own_group(l, g, spare.lpn);
  spare.pde.resize(l.groups);
  for (uint32_t n = 0; n < l.groups; ++n) {
    spare.pde[n] = get_location(in, l, g, page, spare.pbmt, pde, n == group);
  }
}

}  // namespace ssd::ftl
