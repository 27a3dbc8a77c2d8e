#include "ftl/dac/dac_ftl.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <numeric>
#include <stdexcept>
#include <string>

#include "ftl/core/memory_sizes.h"
#include "ftl/core/prefaulted_allocator.h"
#include "ftl/core/unit_span.h"
#include "ftl/dac/dac_settings.h"

namespace ssd::ftl {

uint32_t DacFtl::metadata_bits_per_unit(uint32_t regions) {
  if (regions <= 1) return 0;
  uint32_t region_bits = 0;
  while ((1u << region_bits) < regions) ++region_bits;
  return region_bits + 32;
}

uint64_t DacFtl::young_threshold(uint64_t young_writes, uint64_t logical_units) {
  if (young_writes != 0) return young_writes;
  return std::max<uint64_t>(1, logical_units / 4);
}

DacFtl::DacFtl(const SchemeContext& context)
    : m_backend(context.backend),
      m_geometry(context.backend.geometry()),
      m_regions(context.platform.ftl.settings.get<DacSettings>().regions),
      m_first_region(context.platform.ftl.settings.get<DacSettings>().first_region),
      m_young(young_threshold(context.platform.ftl.settings.get<DacSettings>().young_writes,
                              m_geometry.logical_units)),
      // Per unit, read and written at random (prefaulted_allocator.h).
      m_l2p(populated_vector(m_geometry.logical_units, SlotId{kNone})),
      m_region(populated_vector(m_geometry.logical_units, uint8_t{0})),
      m_stamp(populated_vector(m_regions > 1 ? m_geometry.logical_units : 0, uint32_t{0})),
      m_store(context.platform, context.backend, *this, m_stats, m_regions, gc_streams(m_regions)),
      m_entry_bytes(bytes_to_name(m_geometry.slots())),
      m_metadata_bytes((metadata_bits_per_unit(m_regions) + 7) / 8),
      m_host_units(m_regions, 0),
      m_gc_units(m_regions, 0) {
  // The descriptor's rules refuse these before a run; a platform built in code meets them here.
  if (m_first_region >= m_regions) {
    throw std::invalid_argument("ftl.dac.first_region (" + std::to_string(m_first_region) +
                                ") must be below ftl.dac.regions (" + std::to_string(m_regions) +
                                ")");
  }
}

std::unique_ptr<DacFtl> DacFtl::recovered(const SchemeContext& context) {
  auto scheme = std::make_unique<DacFtl>(context);
  scheme->m_l2p = scheme->m_store.recover_table(scheme->m_backend.cpu());
  // Regions and stamps are not on flash: the spare area holds only PageStore's words (no page
  // names its stream's region), and stamps would take 32 bits a unit. So every unit starts over
  // as new data does, in the first region. They steer placement only: a cut costs clustering for
  // a while (hot units climb back with their next young rewrites), never a unit. Every stamp is
  // still 0 from the constructor; the clock restarts a young threshold past them, so a unit's
  // first rewrite after the cut is old (it stays in its region) rather than every unit looking
  // just written and a burst of promotions following each recovery.
  std::fill(scheme->m_region.begin(), scheme->m_region.end(),
            static_cast<uint8_t>(scheme->m_first_region));
  scheme->m_clock = static_cast<uint32_t>(std::min<uint64_t>(scheme->m_young, UINT32_MAX));
  return scheme;
}

uint64_t DacFtl::mapping_memory_bytes() const {
  const uint64_t units = m_geometry.logical_units;
  return units * m_entry_bytes + (units * metadata_bits_per_unit(m_regions) + 7) / 8;
}

std::vector<MappingFigure> DacFtl::mapping_figures() const {
  std::vector<uint64_t> live(m_regions, 0);
  for (Lun lun = 0; lun < m_geometry.logical_units; ++lun) {
    if (m_l2p[lun] != kNone) ++live[m_region[lun]];
  }
  return {{"regions", double(m_regions)},
          {"young_writes", double(m_young)},
          {"promotions", double(m_promotions)},
          {"demotions", double(m_demotions)},
          {"host_units_by_region", 0.0, true, {}, m_host_units},
          {"gc_units_by_region", 0.0, true, {}, m_gc_units},
          {"live_units_by_region", 0.0, true, {}, live}};
}

void DacFtl::relocate(Lun lun, SlotId /*from*/, SlotId to) {
  m_l2p[lun] = to;
  // The copy went into the GC stream relocation_stream() named: one region colder.
  if (m_region[lun] > 0) {
    --m_region[lun];
    ++m_demotions;
  }
  ++m_gc_units[m_region[lun]];
}

void DacFtl::read(const HostCommand& command) {
  const UnitSpan span =
      unit_span(command.start_sector, command.sector_count, m_geometry.sectors_per_unit);
  m_backend.cpu().table_lookups += span.count;
  m_backend.dram(false, span.count * m_entry_bytes, OpClass::kHostRead);
  m_store.read_units(span, m_l2p);
}

void DacFtl::write(const HostCommand& command) {
  const UnitSpan span =
      unit_span(command.start_sector, command.sector_count, m_geometry.sectors_per_unit);
  m_backend.cpu().table_lookups += span.count;
  // The table entry, and the region and stamp each unit's placement reads and updates.
  m_backend.dram(true, span.count * (m_entry_bytes + m_metadata_bytes), OpClass::kHostWrite);
  for (uint32_t i = 0; i < span.count; ++i) {
    const Lun lun = span.first + i;
    uint32_t after = kNone;
    const Token token = m_store.unit_content(command, span, i, m_l2p[lun], after);
    // The region: a unit never written (or trimmed) starts in the first region; a young rewrite
    // climbs one region; any other rewrite stays where the unit is.
    const uint32_t now = ++m_clock;
    uint32_t region = m_first_region;
    if (m_l2p[lun] != kNone) {
      region = m_region[lun];
      // Stamps exist with several regions only; the age wraps modulo 2^32, as the counter.
      if (region + 1 < m_regions && now - m_stamp[lun] <= m_young) {
        ++region;
        ++m_promotions;
      }
    }
    const SlotId slot = m_store.write_in_stream(region, lun, token, after);
    // Look the old slot up only now: GC run by this write may have moved the unit. replace(), not
    // invalidate(): with power cuts the old copy's block must outlive the new copy's program.
    if (m_l2p[lun] != kNone) m_store.replace(m_l2p[lun], slot);
    m_l2p[lun] = slot;
    m_region[lun] = static_cast<uint8_t>(region);
    if (m_regions > 1) m_stamp[lun] = now;
    ++m_host_units[region];
  }
}

void DacFtl::expect_random_work() {
  back_by_huge_pages(m_l2p);
  back_by_huge_pages(m_region);
  back_by_huge_pages(m_stamp);
}

bool DacFtl::fill_sequential(const SequentialFill& fill) {
  const uint64_t in_bulk = m_store.fill_sequential(
      fill.units, m_l2p.data(),
      [&](Lun lun) { return whole_unit_token(fill.command_id(lun), lun); }, m_first_region);
  if (in_bulk == 0) return false;
  // write()'s own path for the units past the bulk layout's whole pages.
  for (Lun lun = static_cast<Lun>(in_bulk); lun < fill.units; ++lun) {
    m_l2p[lun] =
        m_store.write_in_stream(m_first_region, lun, whole_unit_token(fill.command_id(lun), lun));
  }
  // As write() leaves a unit never written before: in the first region, stamped with the clock
  // (ticking once per unit, wrapping as the controller's 32-bit counter).
  std::fill_n(m_region.begin(), fill.units, static_cast<uint8_t>(m_first_region));
  if (m_regions > 1) std::iota(m_stamp.begin(), m_stamp.begin() + fill.units, m_clock + 1);
  m_clock += static_cast<uint32_t>(fill.units);
  m_host_units[m_first_region] += fill.units;
  return true;
}

bool DacFtl::describe_aged_planes(AgedPlanes& planes) const {
  planes = m_store.describe_planes(m_l2p);
  // The clock modulo 2^32, as the counter keeps it: only the ages it gives (clock - stamp) carry
  // over, and those are exact whether or not it wrapped.
  planes.host_unit_writes = m_clock;
  planes.unit_state.assign(planes.programmed_pages.size() * uint64_t{planes.units_per_block}, 0);
  for (Lun lun = 0; lun < m_geometry.logical_units; ++lun) {
    if (m_l2p[lun] == kNone) continue;
    planes.unit_state[m_l2p[lun]] = uint64_t{m_region[lun]} << 32 | age_of(lun);
  }
  return true;
}

bool DacFtl::lay_out_aged(const AgedLayout& layout) {
  const AgedPlanes& aged = *layout.planes;
  const SequentialFill& fill = layout.fill;
  if (aged.logical_units == 0 || aged.unit_state.empty()) return false;
  // Counts of host writes on the device's scale: the miniature's times its share.
  const double scale = double(m_geometry.logical_units) / double(aged.logical_units);
  const auto scaled = [scale](uint64_t writes) {
    return static_cast<uint32_t>(std::min<double>(std::round(double(writes) * scale), UINT32_MAX));
  };
  const uint32_t clock = scaled(aged.host_unit_writes);
  // Per slot of the miniature, the region and the device's stamp its unit takes: computed once
  // per slot rather than once per unit laid out (the device has dies / sample_dies times as
  // many units). A miniature with more regions than this device is not this device's.
  std::vector<uint64_t> region_and_stamp(aged.unit_state.size());
  for (uint64_t slot = 0; slot < aged.unit_state.size(); ++slot) {
    const uint64_t state = aged.unit_state[slot];
    if ((state >> 32) >= m_regions) return false;
    const uint32_t stamp = clock - scaled(static_cast<uint32_t>(state));
    region_and_stamp[slot] = (state >> 32) << 32 | stamp;
  }
  const auto token = [&](Lun lun) { return whole_unit_token(fill.command_id(lun), lun); };
  std::vector<Lun> left;
  std::vector<uint32_t> copied_from;
  if (!m_store.lay_out_aged(aged, fill.units, layout.seed, m_l2p.data(), token, left,
                            {&copied_from})) {
    return false;
  }
  // Each laid-out unit's region and stamp from the slot it copies, the units in order: the
  // per-unit arrays are written front to back, and the slots' entries (some MB, read at random)
  // are prefetched kAhead units ahead, else each read is a miss the next waits for.
  const uint32_t units_per_block = aged.units_per_block;
  const auto entry_of = [&](Lun lun) -> const uint64_t* {
    const SlotId slot = m_l2p[lun];
    if (slot == kNone) return nullptr;  // one of `left`
    return &region_and_stamp[uint64_t{copied_from[slot / units_per_block]} * units_per_block +
                             slot % units_per_block];
  };
  constexpr uint64_t kAhead = 16;
  for (Lun lun = 0; lun < fill.units; ++lun) {
    if (lun + kAhead < fill.units) {
      if (const uint64_t* ahead = entry_of(static_cast<Lun>(lun + kAhead))) {
        __builtin_prefetch(ahead);
      }
    }
    const uint64_t* entry = entry_of(lun);
    if (entry == nullptr) continue;
    const auto region = static_cast<uint8_t>(*entry >> 32);
    m_region[lun] = region;
    ++m_host_units[region];
    if (m_regions > 1) m_stamp[lun] = static_cast<uint32_t>(*entry);
  }
  m_clock = clock;
  // write()'s own path for the units no valid slot took: new data in the first region.
  for (const Lun lun : left) {
    m_l2p[lun] = m_store.write_in_stream(m_first_region, lun, token(lun));
    m_region[lun] = static_cast<uint8_t>(m_first_region);
    if (m_regions > 1) m_stamp[lun] = ++m_clock;
    ++m_host_units[m_first_region];
  }
  return true;
}

void DacFtl::trim(const HostCommand& command) {
  const UnitSpan span =
      unit_span(command.start_sector, command.sector_count, m_geometry.sectors_per_unit);
  m_backend.cpu().table_lookups += span.count;
  for (uint32_t i = 0; i < span.count; ++i) {
    const Lun lun = span.first + i;
    if (span.mask_of(i) != span.full_mask || m_l2p[lun] == kNone) continue;
    m_store.invalidate(m_l2p[lun]);
    m_l2p[lun] = kNone;  // its region and stamp no longer count: the next write starts over
  }
}

void DacFtl::flush(const HostCommand& /*command*/) { m_store.flush(); }

}  // namespace ssd::ftl
