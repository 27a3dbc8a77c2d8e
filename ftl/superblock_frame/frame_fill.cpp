// Preconditioning's sequential fill in bulk for the superblock frame (SuperblockFrame::
// fill_sequential): what write_units() does to a fresh device, one logical block at a time, made
// directly. A first write to logical block `lbn` finds its superblock's blocks full (each earlier
// logical block filled one), takes a fresh block (reserve(): on the superblock's home plane, or
// for LSB's superblocks the plane with the most free blocks then) and programs the block's pages
// at their offsets in order, each with the next write sequence number; the block joins the
// superblock's list, its pages are live, the PGD names its last page.
#include <algorithm>
#include <memory>
#include <queue>
#include <utility>
#include <vector>

#include "ftl/core/content_token.h"
#include "ftl/superblock_frame/superblock_frame.h"

namespace ssd::ftl {

std::vector<uint32_t> SuperblockFrame::fill_planes(uint32_t lbns) const {
  const uint32_t keep = std::max<uint32_t>(m_flash.blocks().gc_reserve_blocks(), 2);
  std::vector<uint32_t> planes(lbns);
  if (!m_any_plane) {
    std::vector<uint32_t> taken(m_geometry.planes(), 0);
    for (uint32_t lbn = 0; lbn < lbns; ++lbn) {
      planes[lbn] = plane_for(superblock_of(lbn));
      if (++taken[planes[lbn]] + keep > m_flash.free_blocks(planes[lbn])) return {};
    }
    return planes;
  }
  // plane_for()'s choice, the plane with the most free blocks (ties: the lowest), from a queue of
  // the planes by their free blocks as the fill counts them down.
  using Plane = std::pair<uint32_t, uint32_t>;  // free blocks, plane
  const auto after = [](const Plane& a, const Plane& b) {
    return a.first != b.first ? a.first < b.first : a.second > b.second;
  };
  std::priority_queue<Plane, std::vector<Plane>, decltype(after)> most_free(after);
  for (uint32_t plane = 0; plane < m_geometry.planes(); ++plane) {
    most_free.push({m_flash.free_blocks(plane), plane});
  }
  for (uint32_t lbn = 0; lbn < lbns; ++lbn) {
    const auto [free, plane] = most_free.top();
    if (free <= keep) return {};
    most_free.pop();
    most_free.push({free - 1, plane});
    planes[lbn] = plane;
  }
  return planes;
}

bool SuperblockFrame::fill_sequential(const SequentialFill& fill) {
  const uint32_t ppb = m_geometry.pages_per_block;
  const auto whole = static_cast<uint32_t>(std::min<uint64_t>(fill.units / ppb, logical_blocks()));
  // The cache's last entries are left to write_units(), which loads them as the commands would.
  const auto by_commands = static_cast<uint32_t>(cache_size());
  if (whole <= by_commands || m_sequence != 0) return false;
  const uint32_t in_bulk = whole - by_commands;
  auto filled = std::make_shared<FilledBlocks>();
  filled->chunk_units = fill.chunk_units;
  SpareArea::LayoutWriter writer = fill_layout_writer(filled);
  if (!writer) return false;
  // Every block the fill takes (the partial logical block's too) must leave its plane above
  // GC's reserve, where reserve() takes blocks without collecting.
  const std::vector<uint32_t> planes = fill_planes(std::min(whole + 1, logical_blocks()));
  if (planes.empty()) return false;

  filled->lbn_of_block.assign(m_geometry.blocks(), kNone);
  filled->block_of_lbn.assign(logical_blocks(), kNone);
  filled->first_sequence = m_sequence;
  filled->superblock_blocks = m_superblock_blocks;
  FlashArray& flash = m_backend.flash();
  flash.set_spare_layout_writer(std::move(writer));
  for (uint32_t lbn = 0; lbn < in_bulk; ++lbn) {
    const uint32_t sb = superblock_of(lbn);
    const BlockId block = m_flash.allocate(planes[lbn]);
    filled->lbn_of_block[block] = lbn;
    filled->block_of_lbn[lbn] = block;
    const PageId first = m_geometry.first_page(block);
    if (Token* tokens = flash.tokens_to_fill(first)) {  // one unit per page
      for (uint32_t p = 0; p < ppb; ++p) {
        tokens[p] = whole_unit_token(fill.command_id(first_lun(lbn) + p), first_lun(lbn) + p);
      }
    }
    flash.program_in_bulk_by_layout(block, ppb);
    m_backend.count_written_in_bulk(OpClass::kHostWrite, ppb);
    m_flash.blocks().add_valid_units(block, ppb);
    m_flash.blocks().close_block(block);
    add_block(sb, block);  // its pages count as the superblock's, written and live
    mark_valid_range(first_lun(lbn), ppb);
    set_pgd(lbn, first + ppb - 1);
  }
  m_sequence += uint64_t(in_bulk) * ppb;

  // The rest as write() serves the fill's commands: one run per command and logical block.
  std::vector<Token> tokens;
  for (Lun lun = first_lun(in_bulk); lun < fill.units;) {
    const uint32_t lbn = lbn_of(lun);
    const Lun command_end = (lun / fill.chunk_units + 1) * fill.chunk_units;
    const Lun end =
        std::min<Lun>({static_cast<Lun>(fill.units), command_end, first_lun(lbn) + units_in(lbn)});
    tokens.clear();
    for (Lun u = lun; u < end; ++u) tokens.push_back(whole_unit_token(fill.command_id(u), u));
    write_units(lbn, offset_of(lun), tokens.data(), end - lun, kNone);
    lun = end;
  }
  // The first logical block the commands wrote (whole: in_bulk < whole), for sample_words.
  const PageId sample = m_geometry.first_page(m_geometry.block_of_page(pgd(in_bulk)));
  const uint32_t words = flash.spare_words_per_page();
  filled->sample_words.resize(uint64_t{ppb} * words);
  for (uint32_t p = 0; p < ppb; ++p) {
    std::copy_n(flash.spare(sample + p), words, filled->sample_words.data() + uint64_t{p} * words);
  }
  return true;
}

}  // namespace ssd::ftl
