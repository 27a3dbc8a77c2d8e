// The block-granular schemes' side of sampled aging (sampled_aging.h): describing the miniature's
// blocks, and laying them out on the device's dies.
//
// A logical block is homed on one plane (BlockScheme::home_plane, by stripe position), so a copy
// of the miniature's plane takes the logical blocks homed there: the miniature's logical block m,
// in stripe row r = m / (its planes) on its plane q, becomes on the copy's plane p = copy x (the
// miniature's planes) + q the device's logical block r x (the device's planes) + (p's stripe
// position) (striped_copies.h). Pages keep their offsets, so every unit renumbers the same way,
// stale copies too: a block comes out as the miniature left it, pages skipped included, and the
// scheme's tables are rebuilt from the roles. Unlike page mapping's layout the units are not
// shuffled: a block scheme keeps a logical block's units together by construction. A block no one
// logical block holds (FAST's RW log blocks, which take any logical block's updates) holds units of
// every copy, so that merging it touches every die's logical blocks as after simulated aging
// (docs/ftl.md).
#include <algorithm>
#include <cstdint>
#include <tuple>

#include "ftl/core/content_token.h"
#include "ftl/core/random.h"
#include "ftl/hybrid/block_scheme.h"
#include "ftl/hybrid/striped_copies.h"

namespace ssd::ftl {

bool BlockScheme::describe_aged_planes(AgedPlanes& aged) const {
  const Geometry& g = m_geometry;
  std::vector<AgedRole> roles(g.blocks());
  if (!ages_by_sampling()) return false;
  describe_roles(roles);
  const FlashArray& flash = m_backend.flash();
  aged.planes = g.planes();
  aged.blocks_per_plane = g.blocks_per_plane;
  aged.units_per_block = g.pages_per_block;
  aged.logical_units = g.logical_units;
  aged.programmed_pages.resize(g.blocks());
  aged.erase_counts.resize(g.blocks());
  aged.valid_bits.assign(uint64_t{g.blocks()} * aged.words_per_block(), 0);
  aged.open_in_stream.assign(g.blocks(), StreamCodes::kNone);
  aged.slot_units.assign(uint64_t{g.blocks()} * g.pages_per_block, kNone);
  aged.block_lbns.resize(g.blocks());
  aged.block_roles.resize(g.blocks());
  if (m_flash.sequenced()) aged.block_allocations.assign(g.blocks(), 0);
  if (m_flash.page_sequenced())
    aged.page_sequences.assign(uint64_t{g.blocks()} * g.pages_per_block, 0);
  for (BlockId block = 0; block < g.blocks(); ++block) {
    const uint32_t pages = flash.write_pointer(block);
    aged.programmed_pages[block] = static_cast<uint16_t>(pages);
    aged.erase_counts[block] = flash.erase_count(block);
    aged.block_lbns[block] = roles[block].lbn;
    aged.block_roles[block] = roles[block].role;
    if (m_flash.sequenced() && roles[block].role != kNone) {
      aged.block_allocations[block] = m_flash.allocation_word(block);
    }
    for (uint32_t p = 0; p < pages; ++p) {
      const PageId page = m_flash.page(block, p);
      if (!m_flash.names_unit(page)) continue;
      aged.slot_units[page] = m_flash.lun_in(page);
      if (m_flash.page_sequenced()) aged.page_sequences[page] = m_flash.page_sequence_in(page);
    }
  }
  for (Lun lun = 0; lun < g.logical_units; ++lun) {
    if (!m_valid.valid(lun)) continue;
    const PageId page = peek(lun);
    aged.set_valid(g.block_of_page(page), g.page_in_block(page));
  }
  return true;
}

bool BlockScheme::lay_out_aged(const AgedLayout& layout) {
  const AgedPlanes& aged = *layout.planes;
  const SequentialFill& fill = layout.fill;
  const Geometry& g = m_geometry;
  FlashArray& flash = m_backend.flash();
  const uint32_t ppb = g.pages_per_block;
  const uint64_t mini_blocks = aged.programmed_pages.size();
  // A device that may lose power needs the miniature's sequences, and only it can take them.
  const bool sequenced = m_flash.sequenced();
  const bool page_sequenced = m_flash.page_sequenced();
  if (sequenced != !aged.block_allocations.empty() ||
      page_sequenced != !aged.page_sequences.empty() ||
      (sequenced && aged.block_allocations.size() != mini_blocks) ||
      (page_sequenced && aged.page_sequences.size() != mini_blocks * ppb) || aged.planes == 0 ||
      aged.planes % g.planes_per_die != 0 || g.planes() % aged.planes != 0 ||
      aged.blocks_per_plane != g.blocks_per_plane || aged.units_per_block != ppb ||
      aged.block_roles.size() != mini_blocks || aged.block_lbns.size() != mini_blocks ||
      aged.slot_units.size() != mini_blocks * ppb || !m_flash.blocks().untouched() ||
      fill.units > g.logical_units || !ages_by_sampling()) {
    return false;
  }
  const StripedCopies copies(aged, g);
  // Sequences with power cuts: the miniature's allocation s of a block in copy c becomes
  // s x copies + c on the device, its program sequence q of a page holding copy c's unit
  // q x copies + c. Within a copy (and between a copy's units and the shared log blocks holding
  // them) they keep the miniature's order, which is all a recovery compares; no two blocks, nor
  // two pages, share one. Both, and the device's next, must stay within their 31 and 32 bits.
  uint64_t latest_allocation = 0, latest_page = 0;
  for (const uint32_t word : aged.block_allocations) {
    latest_allocation = std::max<uint64_t>(latest_allocation, word & ~BlockFlash::kAppendedBit);
  }
  for (const uint32_t sequence : aged.page_sequences) {
    latest_page = std::max<uint64_t>(latest_page, sequence);
  }
  latest_allocation = (latest_allocation + 1) * copies.copies();
  latest_page = (latest_page + 1) * copies.copies();
  if (latest_allocation + 1 >= BlockFlash::kAppendedBit || latest_page >= UINT32_MAX) return false;
  const auto allocation_in = [&](uint32_t word, uint32_t copy) {
    return ((word & ~BlockFlash::kAppendedBit) * copies.copies() + copy) |
           (word & BlockFlash::kAppendedBit);
  };
  const uint32_t mini_lbns = static_cast<uint32_t>((aged.logical_units + ppb - 1) / ppb);
  // The miniature's logical blocks holding a role the device has once stay in copy 0 only.
  std::vector<bool> once_per_device(mini_lbns, false);
  for (uint64_t block = 0; block < mini_blocks; ++block) {
    const uint32_t lbn = aged.block_lbns[block];
    if (lbn != kNone && lbn < mini_lbns && role_once_per_device(aged.block_roles[block])) {
      once_per_device[lbn] = true;
    }
  }
  // The device's logical block for `lbn` of `copy`, or kNone when it is not laid out: the
  // miniature's short last one, one beyond the device's fill (whose units the fill never
  // wrote), or a once-per-device role's in a later copy.
  const auto placed_lbn = [&](uint32_t copy, uint32_t lbn) -> uint32_t {
    if (lbn >= mini_lbns || uint64_t{lbn + 1} * ppb > aged.logical_units) return kNone;
    if (copy != 0 && once_per_device[lbn]) return kNone;
    const uint64_t device = copies.device_index(copy, lbn);
    return (device + 1) * ppb <= fill.units ? static_cast<uint32_t>(device) : kNone;
  };

  struct Adoption {
    uint32_t role;
    uint32_t copy;
    BlockId block;
    uint32_t lbn;
  };
  struct Newest {
    Lun lun;
    PageId page;
    uint32_t role;
  };
  std::vector<Adoption> adoptions;
  std::vector<Newest> newest;
  const auto token = [&](Lun lun) { return whole_unit_token(fill.command_id(lun), lun); };
  const uint32_t words = flash.spare_words_per_page();
  Random shuffle(layout.seed ^ 0x426c6f636b73ull);  // "Blocks"
  std::vector<uint64_t> sources;
  for (uint32_t plane = 0; plane < g.planes(); ++plane) {
    const uint32_t copy = plane / aged.planes;
    aged.block_sources(plane, shuffle, sources);  // shuffled within the plane, as page mapping's
    for (uint32_t b = 0; b < g.blocks_per_plane; ++b) {
      const uint64_t source = sources[b];
      const BlockId block = plane * g.blocks_per_plane + b;
      flash.set_erase_count_in_bulk(block, aged.erase_counts[source]);
      const uint32_t role = aged.block_roles[source];
      const uint32_t mini_lbn = aged.block_lbns[source];
      const uint32_t lbn = mini_lbn == kNone ? kNone : placed_lbn(copy, mini_lbn);
      if (role == kNone || (mini_lbn != kNone && lbn == kNone)) continue;  // left erased
      const uint32_t pages = aged.programmed_pages[source];
      adoptions.push_back({role, copy, block, lbn});
      const uint32_t allocation =
          sequenced ? allocation_in(aged.block_allocations[source], copy) : 0;
      if (sequenced) m_flash.set_allocation_in_bulk(block, allocation);
      if (pages == 0) continue;
      const PageId first_page = g.first_page(block);
      uint32_t* spare = flash.spare_to_fill(first_page, pages);  // all kNone: written out erased
      Token* tokens = flash.tokens_to_fill(first_page);          // one unit per page
      // A block no one logical block holds takes its pages' units from every copy: page p
      // of the copies of this block holds the unit of copy (copy + shift) mod copies, shift
      // drawn per page from the seed and the miniature's block, so each copy's unit is in
      // exactly one of them.
      Random shifts(layout.seed ^ (source * 0x9e3779b97f4a7c15ull));
      const bool shared = mini_lbn == kNone;
      for (uint32_t p = 0; p < pages; ++p) {
        const uint32_t unit_copy =
            shared ? static_cast<uint32_t>((copy + shifts.below(copies.copies())) % copies.copies())
                   : copy;
        const Lun mini_lun = aged.slot_units[source * ppb + p];
        if (mini_lun == kNone) continue;  // left erased by the miniature
        const uint32_t unit_lbn = placed_lbn(unit_copy, mini_lun / ppb);
        if (unit_lbn == kNone) continue;  // stale, and of a logical block not laid out: no unit
        const Lun lun = unit_lbn * ppb + mini_lun % ppb;
        spare[uint64_t{p} * words] = lun;
        if (sequenced) spare[uint64_t{p} * words + 1] = allocation;
        if (page_sequenced) {
          spare[uint64_t{p} * words + 2] = static_cast<uint32_t>(
              uint64_t{aged.page_sequences[source * ppb + p]} * copies.copies() + unit_copy);
        }
        if (tokens != nullptr) tokens[p] = token(lun);
        if (aged.valid(source, p)) newest.push_back({lun, first_page + p, role});
      }
      flash.program_in_bulk(block, pages);
    }
  }
  // Free and taken blocks from the flash; allocations and programs go on after the layout's.
  m_flash.rebuild(sequenced ? static_cast<uint32_t>(latest_allocation) : 0,
                  page_sequenced ? static_cast<uint32_t>(latest_page) : 0);
  std::sort(adoptions.begin(), adoptions.end(), [](const Adoption& a, const Adoption& b) {
    return std::tie(a.role, a.copy, a.block) < std::tie(b.role, b.copy, b.block);
  });
  for (const Adoption& a : adoptions) adopt_aged_block(a.lbn, a.role, a.block);
  for (const Newest& n : newest) {
    m_valid.set(n.lun);
    adopt_newest(n.lun, n.page, n.role);
  }
  m_backend.count_written_in_bulk(OpClass::kHostWrite, newest.size());

  // The units no copy holds, as the fill's commands would write them.
  HostCommand command;
  command.kind = CommandKind::kWrite;
  for (Lun lun = 0; lun < fill.units;) {
    if (m_valid.valid(lun)) {
      ++lun;
      continue;
    }
    Lun end = lun + 1;
    while (end < fill.units && !m_valid.valid(end) &&
           fill.command_id(end) == fill.command_id(lun)) {
      ++end;
    }
    command.id = fill.command_id(lun);
    command.start_sector = uint64_t{lun} * g.sectors_per_unit;
    command.sector_count = static_cast<uint32_t>((end - lun) * g.sectors_per_unit);
    write(command);
    lun = end;
  }
  return true;
}

}  // namespace ssd::ftl
