#include "ftl/extent/extent_ftl.h"

#include <algorithm>
#include <iterator>
#include <stdexcept>
#include <string>

#include "config/capacity.h"
#include "ftl/core/content_token.h"
#include "ftl/core/plane_balance.h"
#include "ftl/core/unit_span.h"
#include "ftl/extent/extent_map_factory.h"
#include "ftl/extent/extent_settings.h"
#include "ftl/extent/flat_extent_map.h"

namespace ssd::ftl {

ExtentFtl::ExtentFtl(const SchemeContext& context, const std::string& structure)
    : ExtentFtl(context, make_extent_map(structure, context.platform, context.backend.geometry(),
                                         context.backend.cpu(), context.hash_engine)) {}

ExtentFtl::ExtentFtl(const SchemeContext& context, std::unique_ptr<ExtentMap> map)
    : m_backend(context.backend),
      m_geometry(context.backend.geometry()),
      m_map(std::move(map)),
      m_store(context.platform, context.backend, *this, m_stats),
      m_chunk_units(context.platform.ftl.settings.get<ExtentSettings>().chunk_pages *
                    m_geometry.units_per_page),
      m_gc_in_runs(context.platform.ftl.settings.get<ExtentSettings>().gc_relocation != "units"),
      m_placement(placement_policy(context.platform.ftl.placement)),
      m_plane_live_limit(plane_live_limit(context.platform, m_geometry)),
      m_mapped_end(m_map->pieces() == 0 ? 0 : m_geometry.logical_units) {}

std::vector<MappingFigure> ExtentFtl::mapping_figures() const {
  const auto mean = [](uint64_t total, uint64_t count) {
    return count == 0 ? 0.0 : double(total) / double(count);
  };
  return {
      {"extents", double(m_map->pieces()), true},
      {"nodes", double(m_map->nodes()), true},
      {"extents_per_write", mean(m_extents_written, m_timed_writes), false},
      {"pieces_generated_per_write", mean(m_pieces_generated, m_timed_writes), false},
      {"pieces_overlapped_per_write", mean(m_pieces_overlapped, m_timed_writes), false},
      {"pieces_returned_per_read", mean(m_pieces_returned, m_timed_reads), false},
      {"gc_relocation_runs", double(m_gc_runs), true},
      {"extents_split_by_gc", double(m_gc_splits), true},
  };
}

// --- reads ---

void ExtentFtl::read(const HostCommand& command) {
  const UnitSpan span =
      unit_span(command.start_sector, command.sector_count, m_geometry.sectors_per_unit);
  m_found.clear();
  m_map->lookup(span.first, span.count, m_found);
  if (m_backend.recording()) {
    ++m_timed_reads;
    m_pieces_returned += m_found.size();
  }
  Lun next = span.first;
  size_t i = 0;
  while (i < m_found.size()) {
    // Pieces that continue each other (canonical pieces of one extent) read as one run, so that
    // a page is read once however the map cut the extent.
    Extent run = m_found[i++];
    while (i < m_found.size() && m_found[i].lun == run.end() &&
           m_found[i].slot == run.slot + run.length) {
      run.length += m_found[i++].length;
    }
    for (; next < run.lun; ++next) m_backend.deliver(next, 0);  // never written or trimmed
    Lun lun = run.lun;
    while (lun < run.end()) {  // one read per page the run touches
      const SlotId slot = run.slot_of(lun);
      const uint32_t in_page = std::min<uint32_t>(
          run.end() - lun, m_geometry.units_per_page - m_geometry.unit_in_page(slot));
      m_store.read(slot, in_page, OpClass::kHostRead);
      for (uint32_t k = 0; k < in_page; ++k) m_backend.deliver(lun + k, m_store.token(slot + k));
      lun += in_page;
    }
    next = run.end();
  }
  for (; next < span.first + span.count; ++next) m_backend.deliver(next, 0);
}

// --- writes ---

void ExtentFtl::write(const HostCommand& command) {
  const UnitSpan span =
      unit_span(command.start_sector, command.sector_count, m_geometry.sectors_per_unit);
  if (span.count == 0) return;
  if (m_store.sequenced()) look_up_old_copies(span);
  prepare_partial_units(command);
  place(command);
  // Map the runs only now that every unit is placed. GC run by the placement may have moved
  // old copies of these units; the map holds their current slots, which is what gets freed
  // (with sequence numbers, what place() already retired).
  uint32_t generated = 0;
  uint64_t overlapped = 0;
  for (const Extent& run : m_pending) {
    generated += map_extent(run, /*free_displaced=*/m_old_slots.empty());
    overlapped += m_displaced.size();
    if (!m_old_slots.empty()) check_retired();
  }
  if (m_backend.recording()) {
    ++m_timed_writes;
    m_extents_written += m_pending.size();
    m_pieces_generated += generated;
    m_pieces_overlapped += overlapped;
  }
  m_pending.clear();
  m_old_slots.clear();
}

bool ExtentFtl::fill_sequential(const SequentialFill& fill) {
  const uint32_t upp = m_geometry.units_per_page;
  const uint32_t planes = m_geometry.planes();
  const uint32_t chunk = chunk_for(fill.chunk_units);
  if (m_placement == PlacementPolicy::kStatic || chunk % upp != 0 ||
      fill.chunk_units % chunk != 0) {
    return false;
  }
  const uint64_t whole_commands = fill.units / fill.chunk_units * fill.chunk_units;
  const uint64_t in_bulk = m_store.fill_sequential(
      whole_commands, nullptr, [&](Lun lun) { return whole_unit_token(fill.command_id(lun), lun); },
      0, nullptr, chunk / upp);
  if (in_bulk == 0) return false;
  // Chunk k lies on stripe position k % planes, from page (k / planes) * pages per chunk of its
  // plane; a command's chunks that continue each other's slots are one run, as write() forms
  // them (with one plane, a whole command).
  std::vector<SlotId> plane_start(planes);
  for (uint32_t s = 0; s < planes; ++s) {
    plane_start[s] = m_geometry.first_slot(
        m_geometry.first_page(m_geometry.plane_in_stripe_order(s) * m_geometry.blocks_per_plane));
  }
  const uint64_t chunks = in_bulk / chunk;
  // Nothing mapped yet: every run below goes in by insert_unmapped(), in ascending order, and
  // there are at most as many runs as chunks.
  const bool ordered = m_mapped_end == 0 && !m_backend.recording();
  if (ordered) m_map->begin_ordered_fill(chunks);
  // A run is mapped once the next chunk does not continue it or its command ends: the same
  // map_extent() calls, in the same order, as write() makes at each command's end.
  const uint32_t chunks_per_command = fill.chunk_units / chunk;
  uint32_t s = 0;     // chunk k's stripe position, k % planes
  uint64_t past = 0;  // the slots its plane gave the chunks before it, (k / planes) * chunk
  uint32_t left_in_command = chunks_per_command;
  Extent run{0, 0, kNone};  // length 0: none open
  for (uint64_t k = 0; k < chunks; ++k) {
    const auto lun = static_cast<Lun>(k * chunk);
    const SlotId slot = plane_start[s] + static_cast<SlotId>(past);
    if (++s == planes) {
      s = 0;
      past += chunk;
    }
    if (run.length != 0 && run.slot + run.length == slot) {  // run.end() == lun: the chunk before
      run.length += chunk;
    } else {
      if (run.length != 0) map_extent(run, /*free_displaced=*/true);
      run = {lun, chunk, slot};
    }
    if (--left_in_command == 0) {  // the command's last chunk
      map_extent(run, /*free_displaced=*/true);
      run.length = 0;
      left_in_command = chunks_per_command;
    }
  }
  if (ordered) m_map->end_ordered_fill();
  m_stripe_cursor = static_cast<uint32_t>(chunks % planes);
  if (in_bulk < fill.units) {  // the last command, partial
    HostCommand last;
    last.kind = CommandKind::kWrite;
    last.id = fill.command_id(static_cast<Lun>(in_bulk));
    last.start_sector = in_bulk * m_geometry.sectors_per_unit;
    last.sector_count = static_cast<uint32_t>((fill.units - in_bulk) * m_geometry.sectors_per_unit);
    write(last);
  }
  return true;
}

void ExtentFtl::look_up_old_copies(const UnitSpan& span) {
  m_write_first = span.first;
  m_old_slots.assign(span.count, kNone);
  m_found.clear();
  m_map->lookup(span.first, span.count, m_found);
  for (const Extent& piece : m_found) {
    for (uint32_t k = 0; k < piece.length; ++k) {
      m_old_slots[piece.lun + k - span.first] = piece.slot + k;
    }
  }
}

void ExtentFtl::check_retired() const {
  for (const Extent& old : m_displaced) {
    for (uint32_t k = 0; k < old.length; ++k) {
      if (m_old_slots[old.lun + k - m_write_first] != old.slot + k) {
        throw std::logic_error("a write displaced unit " + std::to_string(old.lun + k) +
                               " from a slot it had not retired");
      }
    }
  }
}

void ExtentFtl::prepare_partial_units(const HostCommand& command) {
  const UnitSpan span =
      unit_span(command.start_sector, command.sector_count, m_geometry.sectors_per_unit);
  const auto prepare = [&](uint32_t index, UnitData& data) {
    const Lun lun = span.first + index;
    const SectorMask mask = span.mask_of(index);
    Token previous = 0;
    data.after = kNone;
    if (command.unit_tokens != nullptr) {  // a layer above supplies the content
      data.token = command.unit_tokens[index];
      return;
    }
    if (mask != span.full_mask) {  // read-modify-write of a partial unit
      // With sequence numbers the write's range was looked up already.
      const SlotId old = m_old_slots.empty() ? m_map->slot_of(lun) : m_old_slots[index];
      if (old != kNone) {
        data.after = m_store.read(old, 1, OpClass::kHostWrite);
        previous = m_store.token(old);
      }
    }
    data.token = written_token(previous, command.id, lun, mask, span.full_mask);
  };
  prepare(0, m_head);
  if (span.count > 1) prepare(span.count - 1, m_tail);
}

void ExtentFtl::place(const HostCommand& command) {
  const UnitSpan span =
      unit_span(command.start_sector, command.sector_count, m_geometry.sectors_per_unit);
  const uint32_t chunk = m_chunk_units == 0 ? span.count : m_chunk_units;
  m_pending.clear();
  uint32_t index = 0;
  while (index < span.count) {
    const uint32_t end = std::min(span.count, index + chunk);
    // Static placement keys a chunk by its number (its first unit / chunk units), so that the
    // chunks of a sequential write spread over the planes as pages do.
    const uint32_t plane = next_plane((span.first + index) / chunk, end - index);
    for (; index < end; ++index) {
      const Lun lun = span.first + index;
      const Token token = command.unit_tokens != nullptr ? command.unit_tokens[index]
                                                         : whole_unit_token(command.id, lun);
      UnitData data{token, kNone};
      if (index == 0) data = m_head;
      if (index + 1 == span.count && span.count > 1) data = m_tail;
      const SlotId slot = m_store.write_on_plane(plane, lun, data.token, data.after);
      add_to_pending(lun, slot);
      // With sequence numbers the old copy is stale from here on, not once the write is mapped:
      // were it still live, GC could copy it after this page is programmed, and that copy, with
      // the higher sequence, would win a recovery scan over the new data. replace() also keeps
      // the old copy's block from being erased before this page is on flash.
      if (!m_old_slots.empty() && m_old_slots[index] != kNone) {
        m_store.replace(m_old_slots[index], slot);
      }
    }
  }
}

uint32_t ExtentFtl::next_plane(uint32_t chunk_number, uint32_t units) {
  const PlaneChoice choice = choose_plane(m_store.blocks(), m_placement, m_plane_live_limit,
                                          m_stripe_cursor, chunk_number, units, &m_backend);
  m_stripe_cursor = (choice.stripe_position + 1) % m_geometry.planes();
  return choice.plane;
}

void ExtentFtl::add_to_pending(Lun lun, SlotId slot) {
  if (!m_pending.empty()) {
    Extent& last = m_pending.back();
    if (last.end() == lun && last.slot + last.length == slot) {
      ++last.length;
      return;
    }
  }
  m_pending.push_back({lun, 1, slot});
}

uint32_t ExtentFtl::map_extent(const Extent& extent, bool free_displaced) {
  m_displaced.clear();
  // Nothing was ever mapped at or after the extent's first unit (a sequential fill of an empty
  // device): untimed, it goes in without the search for what it displaces (there is nothing).
  const bool unmapped = extent.lun >= m_mapped_end && !m_backend.recording();
  m_mapped_end = std::max<uint64_t>(m_mapped_end, extent.end());
  if (unmapped) return m_map->insert_unmapped(extent);
  const uint32_t generated = m_map->insert(extent, m_displaced);
  if (free_displaced) {
    for (const Extent& old : m_displaced) {
      for (uint32_t k = 0; k < old.length; ++k) m_store.invalidate(old.slot + k);
    }
  }
  return generated;
}

void ExtentFtl::trim(const HostCommand& command) {
  const UnitSpan span =
      unit_span(command.start_sector, command.sector_count, m_geometry.sectors_per_unit);
  if (span.count == 0) return;
  // Only units the command covers whole are unmapped (as page mapping does).
  Lun first = span.first;
  Lun end = span.first + span.count;
  if (span.head_mask != span.full_mask) ++first;
  if (span.count > 1 && span.tail_mask != span.full_mask) --end;
  if (first >= end) return;
  m_displaced.clear();
  m_map->erase(first, end - first, m_displaced);
  for (const Extent& old : m_displaced) {
    for (uint32_t k = 0; k < old.length; ++k) m_store.invalidate(old.slot + k);
  }
}

void ExtentFtl::flush(const HostCommand& /*command*/) { m_store.flush(); }

std::unique_ptr<ExtentFtl> ExtentFtl::for_miniature(const SchemeContext& context) {
  return std::make_unique<ExtentFtl>(
      context, std::make_unique<FlatExtentMap>(context.backend.geometry().logical_units));
}

std::unique_ptr<ExtentFtl> ExtentFtl::recovered(const SchemeContext& context,
                                                const std::string& structure) {
  auto scheme = std::make_unique<ExtentFtl>(context, structure);
  scheme->rebuild();
  return scheme;
}

void ExtentFtl::rebuild() {
  // The VET and EMT papers do not describe recovery; rebuilding the map from the spare areas is
  // our choice, the one page mapping makes: every page names its units and carries a program
  // sequence, so the flash alone says where each unit's newest copy is, and the map can stay as
  // volatile as the papers keep it (a flush writes no map pages). The newest copies go into a
  // temporary unit -> slot table first (one table access per unit a page names).
  CpuWork& cpu = m_backend.cpu();
  const std::vector<SlotId> table = m_store.recover_table(cpu);
  // Then one walk over the table, each maximal run of units in consecutive slots inserted as one
  // extent: what the writes and GC runs had formed, with neighbours that continue each other
  // joined. The insertions count their hash probes or tree nodes as every insert does, so the
  // controller model prices them as the recovery's work.
  cpu.table_lookups += table.size();
  Lun lun = 0;
  while (lun < table.size()) {
    if (table[lun] == kNone) {
      ++lun;
      continue;
    }
    Extent run{lun, 1, table[lun]};
    while (run.end() < table.size() && table[run.end()] == run.slot + run.length) ++run.length;
    map_extent(run, /*free_displaced=*/false);
    lun = run.end();
  }
}

// --- GC ---

bool ExtentFtl::pending_holds(Lun lun, SlotId slot) const {
  // The pending runs cover the write's units in order, without gaps.
  if (m_pending.empty() || lun < m_pending.front().lun || lun >= m_pending.back().end()) {
    return false;
  }
  const auto after = std::upper_bound(m_pending.begin(), m_pending.end(), lun,
                                      [](Lun unit, const Extent& run) { return unit < run.lun; });
  return std::prev(after)->slot_of(lun) == slot;
}

bool ExtentFtl::maps(Lun lun, SlotId slot) const {
  // A unit being overwritten has two live copies until the write is mapped: the old one the
  // map names (GC must keep it: the map still points there) and the new one. With sequence
  // numbers the old one is live only until the write has placed the unit.
  if (pending_holds(lun, slot)) return true;
  // (place() retired it then.)
  if (!m_old_slots.empty() && !m_pending.empty() && lun >= m_pending.front().lun &&
      lun < m_pending.back().end()) {
    return false;
  }
  return m_map->slot_of(lun) == slot;
}

void ExtentFtl::move_pending(Lun lun, SlotId from, SlotId to) {
  for (size_t i = 0; i < m_pending.size(); ++i) {
    const Extent run = m_pending[i];
    if (lun < run.lun || lun >= run.end()) continue;
    if (run.slot_of(lun) != from)
      throw std::logic_error("GC moved a pending unit it does not hold");
    // Cut the run around the unit; the unit joins its left neighbour when the move keeps them
    // contiguous (GC moves a run's units in order, to consecutive slots).
    Extent parts[3];
    size_t count = 0;
    if (lun > run.lun) parts[count++] = {run.lun, lun - run.lun, run.slot};
    parts[count++] = {lun, 1, to};
    if (lun + 1 < run.end()) parts[count++] = {lun + 1, run.end() - lun - 1, run.slot_of(lun + 1)};
    m_pending[i] = parts[0];
    m_pending.insert(m_pending.begin() + static_cast<std::ptrdiff_t>(i) + 1, parts + 1,
                     parts + count);
    const size_t moved = i + (lun > run.lun ? 1 : 0);
    if (moved > 0) {
      Extent& left = m_pending[moved - 1];
      if (left.end() == lun && left.slot + left.length == to) {
        ++left.length;
        m_pending.erase(m_pending.begin() + static_cast<std::ptrdiff_t>(moved));
      }
    }
    return;
  }
  throw std::logic_error("GC moved a pending unit that is not pending");
}

void ExtentFtl::relocate(Lun lun, SlotId from, SlotId to) {
  if (pending_holds(lun, from)) {
    ++m_pending_moves;
    move_pending(lun, from, to);
    return;
  }
  // GC moved the current copy of a unit the write has yet to place: that copy is the one to
  // retire (maps() keeps GC off the old copies of units already placed).
  if (lun >= m_write_first && lun - m_write_first < m_old_slots.size()) {
    m_old_slots[lun - m_write_first] = to;
  }
  if (m_gc_in_runs && m_gc_run.length > 0 && m_gc_run.end() == lun &&
      m_gc_run.slot + m_gc_run.length == to && m_gc_run_from + m_gc_run.length == from) {
    ++m_gc_run.length;
    return;
  }
  relocations_done();
  m_gc_run = {lun, 1, to};
  m_gc_run_from = from;
  if (!m_gc_in_runs) relocations_done();
}

void ExtentFtl::relocations_done() {
  if (m_gc_run.length == 0) return;
  const Extent run = m_gc_run;
  m_gc_run.length = 0;
  apply_gc_run(run, m_gc_run_from);
}

void ExtentFtl::apply_gc_run(const Extent& run, SlotId from) {
  if (m_backend.recording()) {
    // A statistic, not firmware work: look at the neighbours without charging the CPU.
    const CpuWork saved = m_backend.cpu();
    const bool left = run.lun > 0 && from > 0 && m_map->inspect_slot_of(run.lun - 1) == from - 1;
    const bool right = run.end() < m_geometry.logical_units &&
                       m_map->inspect_slot_of(run.end()) == from + run.length;
    m_backend.cpu() = saved;
    ++m_gc_runs;
    m_gc_splits += uint64_t(left) + uint64_t(right);
  }
  map_extent(run, /*free_displaced=*/false);
  // GC moved exactly what the map held for these units.
  uint32_t displaced_units = 0;
  for (const Extent& old : m_displaced) {
    if (old.slot != from + (old.lun - run.lun)) {
      throw std::logic_error("GC relocation displaced a unit from an unexpected slot");
    }
    displaced_units += old.length;
  }
  if (displaced_units != run.length) {
    throw std::logic_error("GC relocation of " + std::to_string(run.length) + " units displaced " +
                           std::to_string(displaced_units));
  }
}

}  // namespace ssd::ftl
