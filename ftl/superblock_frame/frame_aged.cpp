// The superblock frame's side of sampled aging (ftl/core/sampled_aging.h): describing the
// miniature's superblocks, and laying them out on the device's dies.
//
// A superblock of the Superblock FTL is homed on one plane by stripe position, as the
// block-granular schemes' logical blocks are, so copy c of the miniature's superblock m is the
// device's superblock that striped_copies.h gives, homed on the copy's counterpart of m's plane;
// its logical blocks are that superblock's in the same order. LSB's superblocks take their blocks
// from any plane: the same numbering then only has to be one to one, and each of the miniature's
// blocks goes to the counterpart of its plane in a copy turned by a seeded draw of its own, so that
// a copy's superblock holds blocks of every die, as after simulated aging (held to the copy's own
// planes, the next writes on a device of one plane a die copied 12 % more than after simulated
// aging, against 6 % more turned: docs/ftl.md).
//
// Every block keeps its pages, erase count and live-page count, shuffled within its plane as the
// other layouts shuffle; every page keeps its spare words but for what names a logical page or a
// physical block outside its own: the DI's logical page number and the PBMT's block numbers
// (SuperblockFrame::PbmtField), renumbered to the copy. The words are made when something first
// reads them (SpareArea::LayoutWriter), so the layout costs the blocks, not the pages. The DI's
// sequence numbers stay the miniature's: recovery and the map's checks compare the sequences of
// one logical block's pages only, and a copy's logical blocks are its own. Stale pages come out
// as stale as in the miniature, the PBMT of an old page naming the copy's counterpart of the block
// it named, erased and reused or not. The cache starts empty, as after a recovery.
#include <algorithm>
#include <memory>
#include <vector>

#include "ftl/core/aged_planes.h"
#include "ftl/core/content_token.h"
#include "ftl/core/random.h"
#include "ftl/core/spare_bits.h"
#include "ftl/hybrid/striped_copies.h"
#include "ftl/superblock_frame/superblock_frame.h"

namespace ssd::ftl {

namespace {

// What a laid-out block's words are made from, fixed once the layout is done.
struct AgedWords {
  std::shared_ptr<const std::vector<uint32_t>> mini_words;  // AgedPlanes::spare_words
  uint32_t words_per_page = 0;
  uint32_t pages_per_block = 0;
  uint32_t superblock_blocks = 0;
  uint64_t mini_blocks = 0;
  std::vector<uint32_t> source_of;           // per device block: the miniature's block it copies
  std::vector<uint32_t> copy_of;             // ... and the copy it is that block in
  std::vector<BlockId> device_of;            // per copy x mini_blocks + the miniature's block
  std::vector<uint32_t> superblock_of_copy;  // per copy x mini superblocks + superblock: kNone
  uint64_t mini_superblocks = 0;
  SuperblockFrame::PbmtField pbmt;
};

// The device's logical page for the miniature's `lpn` in `copy`.
Lun device_lpn(const AgedWords& w, uint32_t copy, Lun lpn) {
  const uint32_t lbn = lpn / w.pages_per_block;
  const uint32_t sb = w.superblock_of_copy[copy * w.mini_superblocks + lbn / w.superblock_blocks];
  return (sb * w.superblock_blocks + lbn % w.superblock_blocks) * w.pages_per_block +
         lpn % w.pages_per_block;
}

// The words of `pages` pages of the device's `block`, from the miniature's block it copies.
void write_aged_words(const AgedWords& w, BlockId block, uint32_t pages, uint32_t* words) {
  const uint64_t source = w.source_of[block];
  const uint32_t copy = w.copy_of[block];
  const uint32_t* from = w.mini_words->data() + source * w.pages_per_block * w.words_per_page;
  std::copy_n(from, uint64_t{pages} * w.words_per_page, words);
  const SuperblockFrame::PbmtField& f = w.pbmt;
  for (uint32_t p = 0; p < pages; ++p, words += w.words_per_page) {
    words[0] = device_lpn(w, copy, words[0]);  // the DI's logical page (word 0)
    const bool flagged = f.flag_bit != kNone && (words[f.flag_bit / 32] >> (f.flag_bit % 32) & 1u);
    const uint32_t entries = flagged ? f.entries_if_flag : f.entries;
    SpareBitReader in(words, w.words_per_page);
    SpareBitWriter out(words, w.words_per_page);
    in.skip(f.first_bit);
    out.skip(f.first_bit);
    for (uint32_t e = 0; e < entries; ++e) {
      const uint32_t pbn = in.get(f.pbn_bits);
      out.put(pbn == all_ones(f.pbn_bits) ? pbn : w.device_of[copy * w.mini_blocks + pbn],
              f.pbn_bits);
    }
  }
}

}  // namespace

bool SuperblockFrame::describe_aged_planes(AgedPlanes& aged) const {
  const Geometry& g = m_geometry;
  const FlashArray& flash = m_backend.flash();
  const uint32_t ppb = g.pages_per_block;
  const uint32_t words = flash.spare_words_per_page();
  aged.planes = g.planes();
  aged.blocks_per_plane = g.blocks_per_plane;
  aged.units_per_block = ppb;
  aged.logical_units = g.logical_units;
  aged.programmed_pages.resize(g.blocks());
  aged.erase_counts.resize(g.blocks());
  aged.live_pages.resize(g.blocks());
  aged.block_lbns.assign(g.blocks(), kNone);
  aged.block_roles.assign(g.blocks(), kNone);
  auto spare_words = std::make_shared<std::vector<uint32_t>>(uint64_t{g.blocks()} * ppb * words);
  for (BlockId block = 0; block < g.blocks(); ++block) {
    const uint32_t pages = flash.write_pointer(block);
    aged.programmed_pages[block] = static_cast<uint16_t>(pages);
    aged.erase_counts[block] = flash.erase_count(block);
    aged.live_pages[block] = live(block);
    if (pages == 0) continue;
    // A block's pages' words follow each other in the flash's spare area.
    std::copy_n(flash.spare(g.first_page(block)), uint64_t{pages} * words,
                spare_words->data() + uint64_t{block} * ppb * words);
  }
  aged.spare_words = std::move(spare_words);
  aged.spare_words_per_page = words;
  for (uint32_t sb = 0; sb < m_superblocks.size(); ++sb) {
    for (uint32_t rank = 0; rank < m_superblocks[sb].size(); ++rank) {
      aged.block_lbns[m_superblocks[sb][rank]] = sb;
      aged.block_roles[m_superblocks[sb][rank]] = rank;
    }
  }
  aged.lbn_heads = m_pgd;
  aged.unit_valid.assign((g.logical_units + 63) / 64, 0);
  for (Lun lun = 0; lun < g.logical_units; ++lun) {
    if (unit_valid(lun)) aged.unit_valid[lun / 64] |= uint64_t{1} << (lun % 64);
  }
  aged.write_sequence = m_sequence;
  return true;
}

bool SuperblockFrame::lay_out_aged(const AgedLayout& layout) {
  const AgedPlanes& aged = *layout.planes;
  const SequentialFill& fill = layout.fill;
  const Geometry& g = m_geometry;
  FlashArray& flash = m_backend.flash();
  const uint32_t ppb = g.pages_per_block;
  const uint32_t n = m_superblock_blocks;
  const uint64_t mini_blocks = aged.programmed_pages.size();
  const uint64_t mini_lbns = (aged.logical_units + ppb - 1) / ppb;
  if (aged.planes == 0 || aged.planes % g.planes_per_die != 0 || g.planes() % aged.planes != 0 ||
      aged.blocks_per_plane != g.blocks_per_plane || aged.units_per_block != ppb ||
      mini_blocks != uint64_t{aged.planes} * aged.blocks_per_plane || !aged.spare_words ||
      aged.spare_words_per_page != flash.spare_words_per_page() ||
      aged.spare_words->size() != mini_blocks * ppb * aged.spare_words_per_page ||
      aged.live_pages.size() != mini_blocks || aged.block_lbns.size() != mini_blocks ||
      aged.block_roles.size() != mini_blocks || aged.lbn_heads.size() != mini_lbns ||
      aged.unit_valid.size() != (aged.logical_units + 63) / 64 || !m_flash.blocks().untouched() ||
      m_sequence != 0 || fill.units > g.logical_units) {
    return false;
  }
  const StripedCopies copies(aged, g);
  const uint32_t copy_count = copies.copies();

  auto w = std::make_shared<AgedWords>();
  w->mini_words = aged.spare_words;
  w->words_per_page = aged.spare_words_per_page;
  w->pages_per_block = ppb;
  w->superblock_blocks = n;
  w->mini_blocks = mini_blocks;
  w->pbmt = pbmt_field();
  // Each copy's superblocks: the miniature's whole ones (its short last one is not) whose
  // counterpart the device's fill covers whole; the others are written afresh by the commands.
  w->mini_superblocks = (mini_lbns + n - 1) / n;
  w->superblock_of_copy.assign(copy_count * w->mini_superblocks, kNone);
  for (uint32_t copy = 0; copy < copy_count; ++copy) {
    for (uint32_t sb = 0; sb < w->mini_superblocks; ++sb) {
      if (uint64_t{sb + 1} * n * ppb > aged.logical_units) continue;
      const uint64_t device = copies.device_index(copy, sb);
      if ((device + 1) * n * ppb > fill.units) continue;
      w->superblock_of_copy[copy * w->mini_superblocks + sb] = static_cast<uint32_t>(device);
    }
  }

  // Blocks, shuffled within each plane as the other layouts shuffle theirs. The planes
  // c x (the miniature's planes) and on hold copy c's blocks; for superblocks that take blocks
  // from any plane (LSB's), each of the miniature's blocks goes to the copies' planes turned by
  // a seeded draw of its own, so that a copy's superblock holds blocks of every die as after
  // simulated aging (each plane still holds one copy of each of its miniature plane's blocks).
  std::vector<uint32_t> turn(mini_blocks, 0);
  if (m_any_plane) {
    Random turns(layout.seed ^ 0x5475726e73ull);  // "Turns"
    for (uint32_t& t : turn) t = static_cast<uint32_t>(turns.below(copy_count));
  }
  w->source_of.assign(g.blocks(), 0);
  w->copy_of.assign(g.blocks(), 0);
  w->device_of.assign(copy_count * mini_blocks, kNone);
  Random shuffle(layout.seed ^ 0x426c6f636b73ull);  // "Blocks"
  std::vector<uint64_t> sources;
  for (uint32_t plane = 0; plane < g.planes(); ++plane) {
    const uint32_t planes_copy = plane / aged.planes;
    aged.block_sources(plane, shuffle, sources);
    for (uint32_t b = 0; b < g.blocks_per_plane; ++b) {
      const BlockId block = plane * g.blocks_per_plane + b;
      const uint64_t source = sources[b];
      const uint32_t copy = (planes_copy + copy_count - turn[source]) % copy_count;
      w->source_of[block] = static_cast<uint32_t>(source);
      w->copy_of[block] = copy;
      w->device_of[copy * mini_blocks + source] = block;
    }
  }
  const std::shared_ptr<const AgedWords> words = w;
  flash.set_spare_layout_writer([words](BlockId block, uint32_t pages, uint32_t* out) {
    write_aged_words(*words, block, pages, out);
  });

  // The laid-out blocks: programmed as the miniature left them, each superblock's in its order.
  struct Held {
    uint32_t sb;
    uint32_t rank;
    BlockId block;
  };
  std::vector<Held> held;
  for (BlockId block = 0; block < g.blocks(); ++block) {
    const uint64_t source = w->source_of[block];
    flash.set_erase_count_in_bulk(block, aged.erase_counts[source]);
    const uint32_t mini_sb = aged.block_lbns[source];
    const uint32_t pages = aged.programmed_pages[source];
    // A block its superblock had taken but not written yet stays free: a write takes it again.
    if (mini_sb == kNone || pages == 0) continue;
    const uint32_t copy = w->copy_of[block];
    const uint32_t sb = w->superblock_of_copy[copy * w->mini_superblocks + mini_sb];
    if (sb == kNone) continue;
    held.push_back({sb, aged.block_roles[source], block});
    const PageId first = g.first_page(block);
    if (Token* tokens = flash.tokens_to_fill(first)) {  // one unit per page, the fill's content
      const uint32_t* mini = aged.spare_words->data() + source * ppb * aged.spare_words_per_page;
      for (uint32_t p = 0; p < pages; ++p) {
        const Lun lun = device_lpn(*w, copy, mini[uint64_t{p} * aged.spare_words_per_page]);
        tokens[p] = whole_unit_token(fill.command_id(lun), lun);
      }
    }
    flash.program_in_bulk_by_layout(block, pages);
  }
  // Programmed blocks are taken, the others free; then the superblocks take theirs back.
  m_flash.rebuild(0);
  std::sort(held.begin(), held.end(), [](const Held& a, const Held& b) {
    return a.sb != b.sb ? a.sb < b.sb : a.rank < b.rank;
  });
  for (const Held& h : held) {
    m_flash.blocks().add_valid_units(h.block, aged.live_pages[w->source_of[h.block]]);
    add_block(h.sb, h.block);
  }
  // The PGD and the valid units of every laid-out logical block.
  uint64_t laid_out_units = 0;
  for (uint32_t copy = 0; copy < copy_count; ++copy) {
    for (uint32_t lbn = 0; lbn < mini_lbns; ++lbn) {
      const uint32_t sb = w->superblock_of_copy[copy * w->mini_superblocks + lbn / n];
      if (sb == kNone) continue;
      const uint32_t device_lbn = sb * n + lbn % n;
      const PageId head = aged.lbn_heads[lbn];
      if (head != kNone) {
        const BlockId block = w->device_of[copy * mini_blocks + head / ppb];
        set_pgd(device_lbn, g.first_page(block) + head % ppb);
      }
      for (uint32_t k = 0; k < ppb; ++k) {
        const Lun mini_lun = lbn * ppb + k;
        if (mini_lun < aged.logical_units &&
            (aged.unit_valid[mini_lun / 64] >> (mini_lun % 64) & 1u)) {
          mark_valid(first_lun(device_lbn) + k);
          ++laid_out_units;
        }
      }
    }
  }
  m_backend.count_written_in_bulk(OpClass::kHostWrite, laid_out_units);
  m_sequence = aged.write_sequence;

  // The units no copy holds, as the fill's commands would write them: one run per command and
  // logical block.
  std::vector<Token> tokens;
  for (Lun lun = 0; lun < fill.units;) {
    if (unit_valid(lun)) {
      ++lun;
      continue;
    }
    const uint32_t lbn = lbn_of(lun);
    const Lun command_end = (lun / fill.chunk_units + 1) * fill.chunk_units;
    Lun end = lun + 1;
    while (end < std::min<Lun>(
                     {static_cast<Lun>(fill.units), command_end, first_lun(lbn) + units_in(lbn)}) &&
           !unit_valid(end)) {
      ++end;
    }
    tokens.clear();
    for (Lun u = lun; u < end; ++u) tokens.push_back(whole_unit_token(fill.command_id(u), u));
    write_units(lbn, offset_of(lun), tokens.data(), end - lun, kNone);
    lun = end;
  }
  return true;
}

}  // namespace ssd::ftl
