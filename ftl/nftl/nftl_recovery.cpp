// NFTL's recovery from a power cut (docs/power-loss.md). The paper (section 4 of
// shared/papers/lmt-translation-caching.md) keeps the table of primary and replacement blocks in
// RAM and says nothing of rebuilding it; NFTL as deployed rebuilds it at mount by scanning the
// spare areas, which is what this does. Every page names its unit and its block's allocation
// sequence, and a replacement block's pages say so (BlockFlash::kAppendedBit): its pages hold
// units in arrival order, and a sequential rewrite fills one exactly like a primary block.
//
// What a cut can leave for a virtual block, all its blocks being on its home plane:
//   - a primary block, and after it (a later allocation) at most one replacement block: the
//     chain as it was; the newest copy of a unit is the last readable page naming it in the
//     replacement block, else the primary's page at its offset;
//   - older blocks before the newest primary, and at most one replacement after it: a fold the
//     cut interrupted (its fresh block, the newest primary, partly programmed, or complete with
//     the old blocks' erases undone or torn), perhaps with a replacement block the host had begun
//     since. The fold is finished: the fresh block's pages are the newest copies of their units
//     (the fold copied the newest, or wrote the host's), so the offsets it had not reached are
//     filled from the newest readable copy among the old blocks, which are then erased. This
//     needs no free block, which a plane whose folds were all cut short may not have;
//   - the same with a torn page in the fresh block: the fold's last program had not completed,
//     so neither had the old blocks' erases (they wait for it) and the old chain is whole: it is
//     kept and the fresh block erased (the host write the fold carried was not acknowledged);
//   - anything else (writes reached a replacement block while the primary's program did not, a
//     replacement begun after a fold whose fresh block is torn): the fold is done again from the
//     newest readable copy
//     of each unit into a fresh block, which becomes the primary, once every other virtual block
//     is settled and its garbage erased.
// A unit's copies are ordered by allocation, and within a replacement block by page, as NFTL
// writes them: a unit goes to the replacement block only once the primary's page at its offset is
// used, and a fold's fresh block copies the newest of every unit.
// Torn pages name nothing, blocks whose erase was torn are erased again, and blocks nobody keeps
// (nothing readable in them, or folded again) are erased. Primary blocks are read up to their
// first readable page (which names the virtual block); replacement blocks to their end, as a fold
// reads them. The translation cache is DRAM: it starts empty and fills as the host writes.
#include <algorithm>

#include "ftl/nftl/nftl.h"

namespace ssd::ftl {

std::unique_ptr<Nftl> Nftl::recovered(const SchemeContext& context) {
  auto scheme = std::make_unique<Nftl>(context);
  scheme->rebuild();
  return scheme;
}

void Nftl::rebuild() {
  std::vector<NamedBlock> named =
      scan_blocks(m_flash, m_geometry.logical_units, [](const NamedBlock& b) {
        return b.appended ? ScanDepth::kWholeBlock : ScanDepth::kFirstPage;
      });
  // Blocks with nothing readable in them first: a fold done again may need their room.
  std::vector<bool> named_blocks(m_geometry.blocks(), false);
  for (const NamedBlock& b : named) named_blocks[b.block] = true;
  erase_unkept(m_flash, named_blocks);
  // Each virtual block's blocks, oldest allocation first.
  std::sort(named.begin(), named.end(), [&](const NamedBlock& a, const NamedBlock& b) {
    const uint32_t va = lbn_of(a.lun);
    const uint32_t vb = lbn_of(b.lun);
    return va != vb ? va < vb : a.sequence < b.sequence;
  });
  std::vector<NamedBlock> blocks;
  std::vector<std::vector<NamedBlock>> to_refold;
  for (size_t i = 0; i < named.size();) {
    const uint32_t vba = lbn_of(named[i].lun);
    blocks.clear();
    for (; i < named.size() && lbn_of(named[i].lun) == vba; ++i) blocks.push_back(named[i]);
    if (!settle(vba, blocks)) to_refold.push_back(blocks);
  }
  for (const std::vector<NamedBlock>& refolded : to_refold) {
    refold(lbn_of(refolded[0].lun), refolded);
  }
  // The folds and erases above are the recovery's (power.recovery_operations), not GC's.
  m_stats = FtlStats{};
}

bool Nftl::settle(uint32_t vba, const std::vector<NamedBlock>& blocks) {
  size_t primary = blocks.size();  // the newest primary block
  for (size_t i = 0; i < blocks.size(); ++i) {
    if (!blocks[i].appended) primary = i;
  }
  if (primary == blocks.size() || blocks.size() - primary > 2) return false;
  const NamedBlock& fresh = blocks[primary];
  if (primary > 0) {  // a fold cut short: finished in its fresh block when no page of it is torn
    read_rest(m_flash, fresh);
    const uint32_t written = m_flash.next_free(fresh.block);
    if (!m_backend.flash().readable(m_flash.page(fresh.block, written - 1))) {
      const bool old_chain = primary + 1 == blocks.size() && !blocks[0].appended &&
                             (primary == 1 || (primary == 2 && blocks[1].appended));
      if (!old_chain) return false;
      m_flash.erase(fresh.block, kNone);  // its pages are copies, and one unacknowledged write
      m_backend.end_batch();
      m_chains[vba].primary = blocks[0].block;
      if (primary == 2) add_replacement(vba, blocks[1].block);
      mark_chain_valid(vba);
      return true;
    }
    const std::vector<NamedBlock> old(blocks.rend() - static_cast<std::ptrdiff_t>(primary),
                                      blocks.rend());  // newest first
    for (const NamedBlock& b : old) read_rest(m_flash, b);
    const uint32_t last = m_flash.fill(fresh.block, written, first_lun(vba), [&](uint32_t offset) {
      if (offset >= units_in(vba)) return MergeSource::empty();
      const PageId page = newest_among(old, first_lun(vba) + offset);
      return page == kNone ? MergeSource::empty() : MergeSource::copy(page);
    });
    for (const NamedBlock& b : old) m_flash.erase(b.block, last);
    m_backend.end_batch();
  }
  m_chains[vba].primary = fresh.block;
  if (primary + 1 < blocks.size()) add_replacement(vba, blocks[primary + 1].block);
  mark_chain_valid(vba);
  return true;
}

void Nftl::refold(uint32_t vba, const std::vector<NamedBlock>& blocks) {
  const std::vector<NamedBlock> newest_first(blocks.rbegin(), blocks.rend());
  m_chains[vba].primary = redo_merge(m_flash, home_plane(vba), first_lun(vba), newest_first,
                                     [&](uint32_t offset) -> PageId {
                                       if (offset >= units_in(vba)) return kNone;
                                       return newest_among(newest_first, first_lun(vba) + offset);
                                     });
  mark_chain_valid(vba);
}

void Nftl::mark_chain_valid(uint32_t vba) {
  for (uint32_t offset = 0; offset < units_in(vba); ++offset) {
    const Lun lun = first_lun(vba) + offset;
    if (peek(lun) != kNone && m_flash.names_unit(peek(lun)) && m_flash.lun_in(peek(lun)) == lun) {
      mark_valid(lun);
    }
  }
}

PageId Nftl::newest_among(const std::vector<NamedBlock>& newest_first, Lun lun) const {
  for (const NamedBlock& b : newest_first) {
    if (b.appended) {
      const PageId page = newest_in_replacement(b.block, lun);
      if (page != kNone) return page;
      continue;
    }
    const PageId page = m_flash.page(b.block, offset_of(lun));
    if (m_flash.names_unit(page) && m_flash.lun_in(page) == lun) return page;
  }
  return kNone;
}

}  // namespace ssd::ftl
