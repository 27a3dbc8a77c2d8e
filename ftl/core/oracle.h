// The data-integrity oracle: keeps, for every logical mapping unit, the token its data must have
// (content_token.h), computed from the host's commands alone, and checks every unit a read
// returns. It knows nothing of any mapping scheme, so it catches their mistakes.
//
// Sector-granular (a layer that keeps data by sector is on, ftl/sector_log/): it keeps a token
// per 512-byte sector instead (4 bytes per logical sector) and a unit's expected token is the sum
// of its sectors' tokens, over the whole unit or over the sectors a delivered unit names.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ftl/core/flash_backend.h"
#include "ftl/core/host_command.h"
#include "ftl/core/types.h"

namespace ssd::ftl {

class Oracle {
 public:
  Oracle(uint64_t logical_units, uint32_t sectors_per_unit, bool sector_granular = false);

  // Call for every write and trim the device accepted, in the order the FTL ran them.
  void on_write(const HostCommand& command);
  void on_trim(const HostCommand& command);
  // Checks what a read returned; returns the number of mismatching units.
  uint64_t check_read(const HostCommand& command, const std::vector<DeliveredUnit>& delivered);

  // The unit's expected token (the sum of its sectors' when sector-granular).
  Token expected(Lun lun) const;
  // After a power cut: the unit holds `token` now (what recovery gave back). Not sector-granular.
  void set_expected(Lun lun, Token token) { m_expected[lun] = token; }
  bool sector_granular() const { return m_sector_granular; }
  // Sector-granular only: what `sector` holds now (0: never written or trimmed).
  Token sector(uint64_t sector) const { return m_sectors[sector]; }
  // Sector-granular only, after a power cut: `sector` holds `token` now (what recovery gave back).
  void set_sector(uint64_t sector, Token token) { m_sectors[sector] = token; }
  uint64_t checked_reads() const { return m_checked_reads; }
  uint64_t mismatches() const { return m_mismatches; }
  const std::string& first_mismatch() const { return m_first_mismatch; }

 private:
  Token expected(Lun lun, uint64_t sectors) const;
  void record_mismatch(const HostCommand& command, Lun lun, Token expected, Token got);

  std::vector<Token> m_expected;  // per unit (not sector-granular)
  std::vector<Token> m_sectors;   // per sector (sector-granular)
  uint32_t m_sectors_per_unit;
  bool m_sector_granular;
  uint64_t m_checked_reads = 0;
  uint64_t m_mismatches = 0;
  std::string m_first_mismatch;
};

}  // namespace ssd::ftl
