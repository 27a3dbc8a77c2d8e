// The extent FTL's side of sampled aging (ftl/core/sampled_aging.h, docs/ftl.md "Sampled
// aging"). Page mapping lays the miniature's valid slots out with the device's units in a random
// order; an extent map made that way would hold one extent per unit, where the miniature's aging
// left runs of neighbours in neighbouring slots (the fill's chunks GC has not broken up, and the
// runs GC moved together). So the units are dealt out as AgedUnitInterleave says, each copy of
// the miniature taking whole chunks of the device's logical space in turn, and each run of the
// miniature becomes one extent in every copy.
#include <algorithm>
#include <vector>

#include "ftl/core/content_token.h"
#include "ftl/extent/extent_ftl.h"

namespace ssd::ftl {

bool ExtentFtl::describe_aged_planes(AgedPlanes& planes) const {
  // The whole map in one lookup (its pieces in ascending order), turned into unit -> slot.
  std::vector<Extent> pieces;
  m_map->lookup(0, static_cast<uint32_t>(m_geometry.logical_units), pieces);
  std::vector<SlotId> table(m_geometry.logical_units, kNone);
  for (const Extent& piece : pieces) {
    for (uint32_t k = 0; k < piece.length; ++k) table[piece.lun + k] = piece.slot + k;
  }
  planes = m_store.describe_planes(table, /*with_slot_units=*/true);
  return true;
}

namespace {

// The miniature's runs of units in consecutive slots, ascending, each cut where a chunk of
// `chunk` units or a block of `units_per_block` slots begins: a copy keeps a run whole only
// within one chunk (AgedUnitInterleave) and one block (the layout shuffles the blocks).
std::vector<Extent> miniature_runs(const AgedPlanes& aged, uint32_t chunk) {
  std::vector<SlotId> table(aged.logical_units, kNone);
  for (uint64_t slot = 0; slot < aged.slot_units.size(); ++slot) {
    const Lun lun = aged.slot_units[slot];
    if (lun != kNone && lun < table.size()) table[lun] = static_cast<SlotId>(slot);
  }
  std::vector<Extent> runs;
  for (Lun lun = 0; lun < table.size(); ++lun) {
    const SlotId slot = table[lun];
    if (slot == kNone) continue;
    const bool continues = !runs.empty() && runs.back().end() == lun &&
                           runs.back().slot + runs.back().length == slot && lun % chunk != 0 &&
                           slot % aged.units_per_block != 0;
    if (continues) {
      ++runs.back().length;
    } else {
      runs.push_back({lun, 1, slot});
    }
  }
  return runs;
}

}  // namespace

bool ExtentFtl::lay_out_aged(const AgedLayout& layout) {
  const AgedPlanes& aged = *layout.planes;
  const SequentialFill& fill = layout.fill;
  if (m_mapped_end != 0 || m_placement == PlacementPolicy::kStatic || aged.planes == 0 ||
      m_geometry.planes() % aged.planes != 0) {
    return false;
  }
  const uint32_t chunk = chunk_for(fill.chunk_units);
  const AgedUnitInterleave interleave{m_geometry.planes() / aged.planes, chunk};
  const auto token = [&](Lun lun) { return whole_unit_token(fill.command_id(lun), lun); };
  std::vector<Lun> left;
  std::vector<uint32_t> copied_from;
  if (!m_store.lay_out_aged(aged, fill.units, layout.seed, nullptr, token, left,
                            {&copied_from, nullptr, &interleave})) {
    return false;
  }

  // The first slot of the block where each copy put each of the miniature's blocks, indexed by
  // miniature block, then copy: a run's copies are mapped one after another, and so read one or
  // two cache lines here rather than one each, 16 KiB apart, which `perf` had as nearly all of
  // the loop below's own time.
  const uint32_t copies = interleave.copies;
  const uint64_t miniature_blocks = uint64_t{aged.planes} * aged.blocks_per_plane;
  std::vector<SlotId> image(miniature_blocks * copies, kNone);
  for (BlockId block = 0; block < copied_from.size(); ++block) {
    const uint32_t copy = m_geometry.plane_of_block(block) / aged.planes;
    image[uint64_t{copied_from[block]} * copies + copy] =
        m_geometry.first_slot(m_geometry.first_page(block));
  }

  // Each chunk of the miniature's runs, then each copy of it: the device's units ascending, so
  // the map takes them as an ordered fill.
  const std::vector<Extent> runs = miniature_runs(aged, chunk);
  const uint32_t units_per_block = aged.units_per_block;
  const bool ordered = !m_backend.recording();
  if (ordered) m_map->begin_ordered_fill(uint64_t{runs.size()} * copies);
  for (size_t first = 0; first < runs.size();) {
    size_t end = first;
    while (end < runs.size() && runs[end].lun / chunk == runs[first].lun / chunk) ++end;
    for (uint32_t copy = 0; copy < copies; ++copy) {
      for (size_t r = first; r < end; ++r) {
        const uint64_t lun = interleave.device_unit(copy, runs[r].lun);
        if (lun >= fill.units) continue;  // its slots hold nothing (PageStore::lay_out_aged)
        const auto length =
            static_cast<uint32_t>(std::min<uint64_t>(runs[r].length, fill.units - lun));
        const SlotId slot = runs[r].slot;
        const SlotId device_slot =
            image[uint64_t{slot / units_per_block} * copies + copy] + slot % units_per_block;
        map_extent({static_cast<Lun>(lun), length, device_slot}, /*free_displaced=*/true);
      }
    }
    first = end;
  }
  if (ordered) m_map->end_ordered_fill();

  // The units no copy holds, as the fill's commands would write them.
  for (size_t i = 0; i < left.size();) {
    size_t j = i + 1;
    while (j < left.size() && left[j] == left[j - 1] + 1 &&
           fill.command_id(left[j]) == fill.command_id(left[i])) {
      ++j;
    }
    HostCommand command;
    command.kind = CommandKind::kWrite;
    command.id = fill.command_id(left[i]);
    command.start_sector = uint64_t{left[i]} * m_geometry.sectors_per_unit;
    command.sector_count = static_cast<uint32_t>((j - i) * m_geometry.sectors_per_unit);
    write(command);
    i = j;
  }
  return true;
}

}  // namespace ssd::ftl
