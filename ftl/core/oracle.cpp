#include "ftl/core/oracle.h"

#include "ftl/core/content_token.h"
#include "ftl/core/unit_span.h"

namespace ssd::ftl {

Oracle::Oracle(uint64_t logical_units, uint32_t sectors_per_unit)
    : m_expected(logical_units, 0), m_sectors_per_unit(sectors_per_unit) {}

void Oracle::on_write(const HostCommand& command) {
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
    if (span.mask_of(i) == span.full_mask) m_expected[span.first + i] = 0;
  }
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
    if (got.lun != lun || got.token != m_expected[lun]) {
      ++bad;
      record_mismatch(command, lun, m_expected[lun], got.lun != lun ? kNone : got.token);
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
