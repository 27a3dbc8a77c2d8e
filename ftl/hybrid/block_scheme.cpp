#include "ftl/hybrid/block_scheme.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "config/capacity.h"
#include "ftl/core/content_token.h"
#include "ftl/core/unit_span.h"
#include "ftl/hybrid/block_rules.h"

namespace ssd::ftl {

namespace {
const Geometry& page_units_only(const Geometry& g, const char* scheme) {
  if (g.units_per_page != 1) {
    throw std::invalid_argument(std::string("ftl.mapping_unit_bytes: the ") + scheme +
                                " scheme maps whole pages; set it to 0 or nand.page_bytes (" +
                                std::to_string(g.page_bytes) + "), not " +
                                std::to_string(g.unit_bytes));
  }
  return g;
}
}  // namespace

BlockScheme::BlockScheme(const SchemeContext& context, const char* scheme, bool page_sequence)
    : m_backend(context.backend),
      m_geometry(page_units_only(context.backend.geometry(), scheme)),
      m_flash(context.platform, context.backend, m_stats, page_sequence),
      m_logical_blocks(static_cast<uint32_t>(ftl::logical_blocks(context.platform))),
      m_valid(m_geometry.logical_units) {}

uint32_t BlockScheme::units_in(uint32_t lbn) const {
  const uint64_t end = std::min<uint64_t>(m_geometry.logical_units,
                                          uint64_t(first_lun(lbn)) + m_geometry.pages_per_block);
  return static_cast<uint32_t>(end - first_lun(lbn));
}

uint32_t BlockScheme::home_plane(uint32_t lbn) const {
  // In the order UnitWriter stripes pages.
  return m_geometry.plane_in_stripe_order(lbn % m_geometry.planes());
}

bool BlockScheme::fill_sequential(const SequentialFill& fill) {
  const uint32_t whole = static_cast<uint32_t>(fill.units / m_geometry.pages_per_block);
  if (whole == 0 || !fills_in_bulk() || m_flash.sequenced()) return false;
  // Blocks the fill takes per plane, against what the plane has free above the most any scheme
  // keeps back before it merges or folds (GC's reserve; FAST keeps two).
  const uint32_t keep = std::max<uint32_t>(m_flash.blocks().gc_reserve_blocks(), 2);
  std::vector<uint32_t> taken(m_geometry.planes(), 0);
  for (uint32_t lbn = 0; lbn <= whole && lbn < m_logical_blocks; ++lbn) ++taken[home_plane(lbn)];
  for (uint32_t plane = 0; plane < m_geometry.planes(); ++plane) {
    if (taken[plane] + keep > m_flash.free_blocks(plane)) return false;
  }
  const auto token = [&](Lun lun) { return whole_unit_token(fill.command_id(lun), lun); };
  for (uint32_t lbn = 0; lbn < whole; ++lbn) {
    const BlockId block = m_flash.allocate(home_plane(lbn));
    map_filled_block(lbn, block);
    m_flash.program_in_bulk(block, first_lun(lbn), m_geometry.pages_per_block, token);
    m_valid.set_range(first_lun(lbn), m_geometry.pages_per_block);
  }
  // The rest of the last logical block, as write() serves it: one run of whole units.
  const Lun rest = first_lun(whole);
  if (rest < fill.units) {
    m_run_tokens.clear();
    for (Lun lun = rest; lun < fill.units; ++lun) m_run_tokens.push_back(token(lun));
    write_units(whole, 0, m_run_tokens.data(), static_cast<uint32_t>(fill.units - rest), kNone);
  }
  return true;
}

void BlockScheme::read(const HostCommand& command) {
  const UnitSpan span =
      unit_span(command.start_sector, command.sector_count, m_geometry.sectors_per_unit);
  for (uint32_t i = 0; i < span.count; ++i) {
    const Lun lun = span.first + i;
    if (i == 0 || offset_of(lun) == 0) {  // one map entry per logical block touched
      ++m_backend.cpu().table_lookups;
      m_backend.dram(false, m_entry_bytes, OpClass::kHostRead);
    }
    if (!m_valid.valid(lun)) {  // never written or trimmed: zeroes, no flash access
      m_backend.deliver(lun, 0);
      continue;
    }
    uint32_t after = kNone;
    const PageId page = locate(lun, OpClass::kHostRead, after);
    m_flash.read(page, OpClass::kHostRead, after);
    m_backend.deliver(lun, m_flash.token(page));
  }
}

void BlockScheme::write(const HostCommand& command) {
  const UnitSpan span =
      unit_span(command.start_sector, command.sector_count, m_geometry.sectors_per_unit);
  uint32_t i = 0;
  while (i < span.count) {
    // One run per logical block: the units of this command that fall into it.
    const Lun run_first = span.first + i;
    const uint32_t lbn = lbn_of(run_first);
    const uint32_t run = std::min(span.count - i, units_in(lbn) - offset_of(run_first));
    ++m_backend.cpu().table_lookups;
    m_backend.dram(false, m_entry_bytes, OpClass::kHostWrite);
    m_run_tokens.assign(run, 0);
    uint32_t after = kNone;
    for (uint32_t k = 0; k < run; ++k) {
      const Lun lun = run_first + k;
      const SectorMask mask = span.mask_of(i + k);
      if (command.unit_tokens != nullptr) {  // a layer above supplies the content
        m_run_tokens[k] = command.unit_tokens[i + k];
        continue;
      }
      Token previous = 0;
      if (mask != span.full_mask && m_valid.valid(lun)) {  // read-modify-write of a partial unit
        uint32_t lookup = kNone;
        const PageId old = locate(lun, OpClass::kHostWrite, lookup);
        after = m_flash.read(old, OpClass::kHostWrite, lookup);
        previous = m_flash.token(old);
      }
      m_run_tokens[k] = written_token(previous, command.id, lun, mask, span.full_mask);
    }
    write_units(lbn, offset_of(run_first), m_run_tokens.data(), run, after);
    i += run;
  }
}

void BlockScheme::trim(const HostCommand& command) {
  const UnitSpan span =
      unit_span(command.start_sector, command.sector_count, m_geometry.sectors_per_unit);
  for (uint32_t i = 0; i < span.count; ++i) {
    const Lun lun = span.first + i;
    if (span.mask_of(i) != span.full_mask || !m_valid.valid(lun)) continue;
    m_valid.clear(lun);
    trimmed(lun);
  }
}

}  // namespace ssd::ftl
