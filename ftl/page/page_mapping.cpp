#include "ftl/page/page_mapping.h"

#include "ftl/core/content_token.h"
#include "ftl/core/memory_sizes.h"
#include "ftl/core/prefaulted_allocator.h"
#include "ftl/core/unit_span.h"
#include "ftl/page/map_recovery.h"

namespace ssd::ftl {

PageMapping::PageMapping(const SchemeContext& context)
    : m_backend(context.backend),
      m_geometry(context.backend.geometry()),
      // The largest thing a run allocates (499 MB on the 512 GiB device): populated at once, and
      // backed by huge pages before aging (expect_random_work, prefaulted_allocator.h).
      m_l2p(populated_vector(m_geometry.logical_units, SlotId{kNone})),
      m_store(context.platform, context.backend, *this, m_stats),
      m_entry_bytes(map_layout(context.platform, m_geometry).entry_bytes) {
  const MapLayout layout = map_layout(context.platform, m_geometry);
  if (layout.policy != MapSyncPolicy::kNone) {
    m_sync = std::make_unique<MapSync>(layout, m_backend, m_store);
  }
}

std::unique_ptr<PageMapping> PageMapping::recovered(const SchemeContext& context) {
  auto scheme = std::make_unique<PageMapping>(context);
  scheme->m_l2p = scheme->m_sync
                      ? recover_synced_map(*scheme->m_sync, scheme->m_backend, scheme->m_store)
                      : scheme->m_store.recover_table(scheme->m_backend.cpu());
  return scheme;
}

std::vector<MappingFigure> PageMapping::mapping_figures() const {
  std::vector<MappingFigure> figures{
      {"map_sync", 0.0, true, m_sync ? to_string(m_sync->layout().policy) : std::string()}};
  if (!m_sync) figures[0].text = "none (the table is volatile)";
  const std::vector<MappingFigure> sync = m_sync ? m_sync->figures() : figures_when_volatile();
  figures.insert(figures.end(), sync.begin(), sync.end());
  return figures;
}

uint64_t PageMapping::mapping_memory_bytes() const {
  return m_geometry.logical_units * m_entry_bytes;
}

void PageMapping::read(const HostCommand& command) {
  const UnitSpan span =
      unit_span(command.start_sector, command.sector_count, m_geometry.sectors_per_unit);
  m_backend.cpu().table_lookups += span.count;
  m_backend.dram(false, span.count * m_entry_bytes, OpClass::kHostRead);
  m_store.read_units(span, m_l2p);
}

void PageMapping::write(const HostCommand& command) {
  const UnitSpan span =
      unit_span(command.start_sector, command.sector_count, m_geometry.sectors_per_unit);
  m_backend.cpu().table_lookups += span.count;
  m_backend.dram(true, span.count * m_entry_bytes, OpClass::kHostWrite);
  for (uint32_t i = 0; i < span.count; ++i) {
    const Lun lun = span.first + i;
    uint32_t after = kNone;
    const Token token = m_store.unit_content(command, span, i, m_l2p[lun], after);
    const SlotId slot = m_store.write(lun, token, after);
    // Look the old slot up only now: GC run by this write may have moved the unit.
    if (m_l2p[lun] != kNone) m_store.replace(m_l2p[lun], slot);
    set_entry(lun, slot);
  }
}

void PageMapping::expect_random_work() { back_by_huge_pages(m_l2p); }

bool PageMapping::fill_sequential(const SequentialFill& fill) {
  const uint64_t in_bulk = m_store.fill_sequential(fill.units, m_l2p.data(), [&](Lun lun) {
    return whole_unit_token(fill.command_id(lun), lun);
  });
  if (in_bulk == 0) return false;
  if (m_sync) {
    for (Lun lun = 0; lun < in_bulk; ++lun) m_sync->changed(lun);
  }
  // As write() serves the rest: every unit whole, none mapped before.
  for (Lun lun = static_cast<Lun>(in_bulk); lun < fill.units; ++lun) {
    set_entry(lun, m_store.write(lun, whole_unit_token(fill.command_id(lun), lun)));
  }
  return true;
}

bool PageMapping::describe_aged_planes(AgedPlanes& planes) const {
  planes = m_store.describe_planes(m_l2p);
  return true;
}

bool PageMapping::lay_out_aged(const AgedLayout& layout) {
  const SequentialFill& fill = layout.fill;
  const auto token = [&](Lun lun) { return whole_unit_token(fill.command_id(lun), lun); };
  std::vector<Lun> left;
  // A synced map's own pages are not laid out (configuration refuses the combination).
  if (m_sync ||
      !m_store.lay_out_aged(*layout.planes, fill.units, layout.seed, m_l2p.data(), token, left)) {
    return false;
  }
  for (const Lun lun : left) set_entry(lun, m_store.write(lun, token(lun)));
  return true;
}

void PageMapping::trim(const HostCommand& command) {
  const UnitSpan span =
      unit_span(command.start_sector, command.sector_count, m_geometry.sectors_per_unit);
  m_backend.cpu().table_lookups += span.count;
  for (uint32_t i = 0; i < span.count; ++i) {
    const Lun lun = span.first + i;
    if (span.mask_of(i) != span.full_mask || m_l2p[lun] == kNone) continue;
    m_store.invalidate(m_l2p[lun]);
    set_entry(lun, kNone);
  }
}

void PageMapping::flush(const HostCommand& /*command*/) {
  if (m_sync) {
    m_sync->sync(m_l2p);
  } else {
    m_store.flush();
  }
}

}  // namespace ssd::ftl
