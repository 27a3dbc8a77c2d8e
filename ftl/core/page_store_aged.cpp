// PageStore's side of sampled aging (sampled_aging.h): describing the miniature's planes, and
// laying them out on the device's.
#include <algorithm>
#include <stdexcept>
#include <string>

#include "ftl/core/aged_planes.h"
#include "ftl/core/aged_unit_interleave.h"
#include "ftl/core/grouped_stores.h"
#include "ftl/core/page_store.h"
#include "ftl/core/permutation_ahead.h"
#include "ftl/core/random.h"

namespace ssd::ftl {

AgedPlanes PageStore::describe_planes(const std::vector<SlotId>& table,
                                      bool with_slot_units) const {
  const Geometry& g = geometry();
  const FlashArray& flash = m_backend.flash();
  AgedPlanes aged;
  aged.planes = g.planes();
  aged.blocks_per_plane = g.blocks_per_plane;
  aged.units_per_block = g.pages_per_block * g.units_per_page;
  aged.logical_units = g.logical_units;
  aged.programmed_pages.resize(g.blocks());
  aged.erase_counts.resize(g.blocks());
  aged.valid_bits.assign(uint64_t{g.blocks()} * aged.words_per_block(), 0);
  for (BlockId block = 0; block < g.blocks(); ++block) {
    aged.programmed_pages[block] = static_cast<uint16_t>(flash.write_pointer(block));
    aged.erase_counts[block] = flash.erase_count(block);
  }
  aged.open_in_stream.assign(g.blocks(), StreamCodes::kNone);
  const auto mark_open = [&](const UnitWriter& writer, StreamCode stream) {
    for (uint32_t plane = 0; plane < g.planes(); ++plane) {
      const BlockId block = writer.open_block(plane);
      if (block != kNone && flash.write_pointer(block) < g.pages_per_block) {
        aged.open_in_stream[block] = stream;
      }
    }
  };
  for (uint32_t s = 0; s < m_host_writers.size(); ++s) {
    mark_open(m_host_writers[s], StreamCodes::host(s));
  }
  for (uint32_t s = 0; s < m_gc_writers.size(); ++s) mark_open(m_gc_writers[s], StreamCodes::gc(s));
  mark_open(m_map_writer, StreamCodes::kMapWriter);
  const uint64_t slots_per_block = aged.units_per_block;
  if (with_slot_units) aged.slot_units.assign(uint64_t{g.blocks()} * slots_per_block, kNone);
  for (Lun lun = 0; lun < table.size(); ++lun) {
    const SlotId slot = table[lun];
    if (slot == kNone) continue;
    if (buffered(slot) || !flash.is_programmed(g.page_of_slot(slot))) {
      throw std::logic_error("sampled aging: slot " + std::to_string(slot) +
                             " is mapped but not on flash (describe the planes after a flush)");
    }
    aged.set_valid(slot / slots_per_block, static_cast<uint32_t>(slot % slots_per_block));
    if (with_slot_units) aged.slot_units[slot] = lun;
  }
  return aged;
}

namespace {

// The device's units below `units` that no copy of an interleaved layout holds, ascending. Every
// copy lays out every valid slot of every miniature block once (each device plane copies a
// miniature plane's blocks in a shuffled order, aged_planes.h), so device unit d is held exactly
// when the miniature unit it copies is in a valid slot: that is worked out on the miniature's
// units, a bit each, and read back for each copy in turn. Setting a device-wide bit per unit laid
// out instead was a store to a random word of a 16 MB table per unit, most of the layout's time
// for VET on MQSim's device (`perf`).
void left_by_interleave(const AgedPlanes& aged, uint32_t units_per_page, uint64_t units,
                        const AgedUnitInterleave& interleave, std::vector<Lun>& left) {
  const uint64_t units_per_block = aged.units_per_block;
  const uint64_t miniature_units = aged.logical_units;
  std::vector<uint64_t> held((miniature_units + 63) / 64, 0);
  for (uint64_t block = 0; block < aged.programmed_pages.size(); ++block) {
    const uint32_t laid_out = uint32_t{aged.programmed_pages[block]} * units_per_page;
    for (uint32_t u = 0; u < laid_out; ++u) {  // the slots lay_out_aged gives a unit
      if (!aged.valid(block, u) || aged.scheme_page(block, u)) continue;
      const Lun unit = aged.slot_units[block * units_per_block + u];
      if (unit == kNone) continue;
      if (unit >= miniature_units) {
        throw std::logic_error("sampled aging: a miniature slot names unit " +
                               std::to_string(unit) + " past its logical units");
      }
      held[unit / 64] |= uint64_t{1} << (unit % 64);
    }
  }
  // Device unit (k * copies + c) * chunk + o is copy c's of miniature unit k * chunk + o.
  const uint64_t chunk = interleave.chunk_units;
  uint64_t device = 0;
  for (uint64_t first = 0; device < units; first += chunk) {
    for (uint32_t copy = 0; copy < interleave.copies && device < units; ++copy) {
      for (uint64_t unit = first; unit < first + chunk && device < units; ++unit, ++device) {
        const bool is_held = unit < miniature_units && (held[unit / 64] >> (unit % 64) & 1u) != 0;
        if (!is_held) left.push_back(static_cast<Lun>(device));
      }
    }
  }
}

}  // namespace

bool PageStore::lay_out_aged(const AgedPlanes& aged, uint64_t units, uint64_t seed, SlotId* table,
                             const std::function<Token(Lun)>& token, std::vector<Lun>& left,
                             const AgedLayoutOptions& options) {
  std::vector<uint32_t>* copied_from = options.copied_from;
  const AgedSchemePages* scheme_pages = options.scheme_pages;
  const AgedUnitInterleave* interleave = options.interleave;
  const Geometry& g = geometry();
  FlashArray& flash = m_backend.flash();
  const uint32_t upp = g.units_per_page;
  const uint32_t units_per_block = g.pages_per_block * upp;
  const auto all_fresh = [](const std::vector<UnitWriter>& writers) {
    return std::all_of(writers.begin(), writers.end(),
                       [](const UnitWriter& w) { return w.fresh(); });
  };
  const bool fresh = all_fresh(m_host_writers) && all_fresh(m_gc_writers);
  if (aged.planes == 0 || g.planes() % aged.planes != 0 ||
      aged.blocks_per_plane != g.blocks_per_plane || aged.units_per_block != units_per_block ||
      flash.journal_on() || !fresh || !m_blocks.untouched() ||
      m_host_writers[0].placement() == PlacementPolicy::kStatic ||
      flash.spare_words_per_page() < upp ||
      aged.open_in_stream.size() != aged.programmed_pages.size() ||
      (!aged.unit_state.empty() &&
       aged.unit_state.size() != aged.programmed_pages.size() * uint64_t{units_per_block})) {
    return false;
  }
  if (interleave != nullptr &&
      (aged.slot_units.size() != aged.programmed_pages.size() * uint64_t{units_per_block} ||
       interleave->copies != g.planes() / aged.planes || interleave->chunk_units == 0)) {
    return false;
  }
  const bool has_scheme_pages = !aged.scheme_page_bits.empty();
  if (has_scheme_pages &&
      (scheme_pages == nullptr || aged.scheme_page_bits.size() != aged.valid_bits.size())) {
    return false;
  }
  // The units in their valid slots, plane by plane, each plane's blocks in a shuffled order: a
  // seeded permutation gives the k-th valid slot its unit. Each unit's table entry is a store to
  // a random place in a table of hundreds of MB: they are made in groups (grouped_stores.h).
  // With an interleave, the unit a slot takes is its copy of the miniature's (those no copy
  // takes are found from the miniature: left_by_interleave) and the permutation is not used.
  // Its numbers are worked out on a second core meanwhile (permutation_ahead.h).
  PermutationAhead order(units, seed, interleave != nullptr ? 0 : units);
  const auto next_unit = [&] { return static_cast<Lun>(order.next()); };
  // Copy 0's unit in each of the miniature's slots (every copy's is a multiple of a chunk
  // further), worked out once for the copies to share.
  std::vector<uint64_t> first_copy_unit;
  if (interleave != nullptr) {
    first_copy_unit.resize(aged.slot_units.size());
    for (uint64_t slot = 0; slot < aged.slot_units.size(); ++slot) {
      first_copy_unit[slot] =
          aged.slot_units[slot] == kNone ? units : interleave->in_first_copy(aged.slot_units[slot]);
    }
  }
  GroupedStores<SlotId> table_stores(table, table != nullptr ? units : 0,
                                     table != nullptr ? uint64_t{1} << 20 : 0);
  Random shuffle(seed ^ 0x5a6d706c6564ull);  // "Sampled": its own stream beside the order's
  uint64_t placed = 0;
  uint64_t scheme_pages_placed = 0;
  std::vector<uint32_t> valid_in(g.blocks(), 0);
  std::vector<StreamCode> open_in_stream(g.blocks(), StreamCodes::kNone);
  const uint32_t words = flash.spare_words_per_page();
  std::vector<uint64_t> sources;
  if (copied_from != nullptr) copied_from->assign(g.blocks(), 0);
  for (uint32_t plane = 0; plane < g.planes(); ++plane) {
    const uint64_t copy_offset =
        interleave != nullptr ? uint64_t{plane / aged.planes} * interleave->chunk_units : 0;
    aged.block_sources(plane, shuffle, sources);
    for (uint32_t b = 0; b < g.blocks_per_plane; ++b) {
      const uint64_t source = sources[b];
      const BlockId block = plane * g.blocks_per_plane + b;
      if (copied_from != nullptr) (*copied_from)[block] = static_cast<uint32_t>(source);
      flash.set_erase_count_in_bulk(block, aged.erase_counts[source]);
      open_in_stream[block] = aged.open_in_stream[source];
      const uint32_t pages = aged.programmed_pages[source];
      if (pages == 0) continue;
      flash.program_in_bulk(block, pages);
      const PageId first_page = g.first_page(block);
      uint32_t* spare = flash.spare_to_fill(first_page, pages);  // all kNone: written out erased
      Token* tokens = flash.tokens_to_fill(first_page);
      const SlotId first_slot = g.first_slot(first_page);
      for (uint32_t u = 0; u < pages * upp; ++u) {
        if (!aged.valid(source, u)) continue;
        if (has_scheme_pages && aged.scheme_page(source, u)) {
          Token page_token = 0;
          const Lun key = scheme_pages->place(first_slot + u, page_token);
          if (key == kNone) continue;
          spare[uint64_t{u / upp} * words + u % upp] = key;
          if (tokens != nullptr) tokens[u] = page_token;
          ++valid_in[block];
          ++scheme_pages_placed;
          continue;
        }
        Lun lun;
        if (interleave != nullptr) {
          const uint64_t unit = first_copy_unit[source * units_per_block + u] + copy_offset;
          if (unit >= units) continue;
          lun = static_cast<Lun>(unit);
        } else {
          if (placed == units) continue;
          lun = next_unit();
        }
        ++placed;
        spare[uint64_t{u / upp} * words + u % upp] = lun;
        if (tokens != nullptr) tokens[u] = token(lun);
        if (table != nullptr) table_stores.store(lun, first_slot + u);
        ++valid_in[block];
      }
      // Sequence numbers, when the device may lose power: each unit has one copy, so any order
      // finds it; each page names the stream writing its block (a partly programmed block's
      // stream takes it back after a cut, as in adopt()).
      for (uint32_t p = 0; m_sequenced && p < pages; ++p) {
        const uint64_t words_of_page = m_sequence++ | stream_mark(open_in_stream[block]);
        spare[uint64_t{p} * words + upp] = static_cast<uint32_t>(words_of_page);
        spare[uint64_t{p} * words + upp + 1] = static_cast<uint32_t>(words_of_page >> 32);
      }
    }
  }
  table_stores.flush();
  if (interleave != nullptr) {
    left_by_interleave(aged, upp, units, *interleave, left);
  } else {
    for (; placed < units; ++placed) left.push_back(next_unit());
  }
  m_backend.count_written_in_bulk(OpClass::kHostWrite, units - left.size());
  m_backend.count_written_in_bulk(OpClass::kMapping, scheme_pages_placed);
  // Free and full blocks from the flash; each stream takes back the blocks its counterpart in
  // the miniature was writing (one this store does not have is left to whichever comes first).
  m_blocks.rebuild(flash);
  for (BlockId block = 0; block < g.blocks(); ++block) {
    if (valid_in[block] != 0) m_blocks.add_valid_units(block, valid_in[block]);
    const uint32_t programmed = flash.write_pointer(block);
    if (programmed != 0 && programmed != g.pages_per_block) {
      continue_block(block, open_in_stream[block]);
    }
  }
  return true;
}

}  // namespace ssd::ftl
