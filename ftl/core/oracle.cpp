#include "ftl/core/oracle.h"

#include "ftl/core/content_token.h"
#include "ftl/core/unit_span.h"

namespace ssd::ftl {

Oracle::Oracle(uint64_t logical_units, uint32_t sectors_per_unit, bool sector_granular)
    : m_expected(sector_granular ? 0 : logical_units, 0),
      m_sectors(sector_granular ? logical_units * sectors_per_unit : 0, 0),
      m_sectors_per_unit(sectors_per_unit),
      m_sector_granular(sector_granular) {}

void Oracle::on_write(const HostCommand& command) {
  if (m_sector_granular) {
    for (uint64_t s = command.start_sector; s < command.start_sector + command.sector_count; ++s) {
      m_sectors[s] = sector_token(command.id, s);
    }
    return;
  }
  const UnitSpan span = unit_span(command.start_sector, command.sector_count, m_sectors_per_unit);
  for (uint32_t i = 0; i < span.count; ++i) {
    const Lun lun = span.first + i;
    m_expected[lun] =
        written_token(m_expected[lun], command.id, lun, span.mask_of(i), span.full_mask);
  }
}

void Oracle::on_trim(const HostCommand& command) {
  // Trim is advisory at unit granularity: only units the command covers whole are forgotten.
  const UnitSpan span = unit_span(command.start_sector, command.sector_count, m_sectors_per_unit);
  for (uint32_t i = 0; i < span.count; ++i) {
    if (span.mask_of(i) != span.full_mask) continue;
    const Lun lun = span.first + i;
    if (!m_sector_granular) {
      m_expected[lun] = 0;
      continue;
    }
    const uint64_t first = uint64_t{lun} * m_sectors_per_unit;
    for (uint32_t s = 0; s < m_sectors_per_unit; ++s) m_sectors[first + s] = 0;
  }
}

Token Oracle::expected(Lun lun) const {
  return m_sector_granular ? expected(lun, 0) : m_expected[lun];
}

Token Oracle::expected(Lun lun, uint64_t sectors) const {
  if (!m_sector_granular) return m_expected[lun];
  if (sectors == 0) sectors = low_sectors(m_sectors_per_unit);
  const uint64_t first = uint64_t{lun} * m_sectors_per_unit;
  Token sum = 0;
  for (; sectors != 0; sectors &= sectors - 1) {
    sum += m_sectors[first + static_cast<uint64_t>(__builtin_ctzll(sectors))];
  }
  return sum;
}

uint64_t Oracle::check_read(const HostCommand& command,
                            const std::vector<DeliveredUnit>& delivered) {
  const UnitSpan span = unit_span(command.start_sector, command.sector_count, m_sectors_per_unit);
  ++m_checked_reads;
  uint64_t bad = 0;
  if (delivered.size() != span.count) {
    ++bad;
    record_mismatch(command, span.first, static_cast<Token>(span.count),
                    static_cast<Token>(delivered.size()));
  }
  for (uint32_t i = 0; i < span.count && i < delivered.size(); ++i) {
    const Lun lun = span.first + i;
    const DeliveredUnit& got = delivered[i];
    // A unit delivered by its sectors must include every sector the read asked for.
    const bool covers = got.sectors == 0 || (got.sectors & span.mask_of(i)) == span.mask_of(i);
    const Token want = expected(lun, got.sectors);
    if (got.lun != lun || !covers || (got.sectors != 0 && !m_sector_granular) ||
        got.token != want) {
      ++bad;
      record_mismatch(command, lun, want, got.lun != lun ? kNone : got.token);
    }
  }
  m_mismatches += bad;
  return bad;
}

void Oracle::record_mismatch(const HostCommand& command, Lun lun, Token expected, Token got) {
  if (!m_first_mismatch.empty()) return;
  m_first_mismatch = "read command " + std::to_string(command.id) + " (sector " +
                     std::to_string(command.start_sector) + " + " +
                     std::to_string(command.sector_count) + "): unit " + std::to_string(lun) +
                     " expected token " + std::to_string(expected) + ", got " + std::to_string(got);
}

}  // namespace ssd::ftl
