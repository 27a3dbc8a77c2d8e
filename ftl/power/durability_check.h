// What a power cut may take away and what it may not (docs/power-loss.md), checked after every
// recovery against what the host was told:
// - a unit's value as of the last flush that completed before the cut is durable: the unit must
//   read back that value or a later one the host really wrote;
// - a value written after that flush may be lost: the unit then reads an older value it was
//   really given since the flush (or the durable one), a rollback, counted;
// - anything else (a value from before the durable one, another unit's data, a torn page's
//   garbage) is a lost durable unit: a bug the check reports.
// Trims: no scheme here makes a trim durable (a trimmed unit's old copies stay on flash until GC,
// and a spare-area scan finds them), so a unit trimmed since, or durably trimmed and not written
// since, may come back with an older value of its own. The check cannot tell such a value from
// foreign data beyond the values it keeps, and counts it apart (trimmed_resurrected).
//
// It keeps the durable value of every unit and the values given since the last acknowledged flush
// (or recovery): memory follows the device plus the writes between flushes.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ftl/core/types.h"

namespace ssd::ftl {

class DurabilityCheck {
 public:
  // Every unit starts durable at `values` (what the device holds when the check starts).
  explicit DurabilityCheck(std::vector<Token> values);

  // The device ran a write or a trim: `lun` now holds `token` (0 = trimmed).
  void changed(Lun lun, Token token) { m_since.push_back({lun, token}); }
  // Where the device stands now: a flush run now makes durable what came before this marker.
  uint64_t marker() const { return m_base + m_since.size(); }
  // The flush taken at `marker` completed before any cut: what came before it is durable.
  void acknowledged(uint64_t marker);

  struct Verdict {
    uint64_t units = 0;                // units checked
    uint64_t current = 0;              // read back the latest value written
    uint64_t rolled_back = 0;          // an older value written since the last durable point
    uint64_t lost_durable = 0;         // broke the promise (must be 0)
    uint64_t trimmed_resurrected = 0;  // a trimmed unit's unverifiable older value
    std::string first_loss;            // the first lost unit, for the report
  };
  // After a recovery: `read_back[lun]` is what each unit reads now and `latest[lun]` the last
  // value the host gave it. Then the values read back are the device's durable state: the check
  // starts again from them (the caller sets the oracle to them too).
  Verdict check_and_restart(const std::vector<Token>& read_back, const std::vector<Token>& latest);

  // Values given since the last durable point (what this check holds beyond the device's size).
  size_t pending_changes() const { return m_since.size(); }

 private:
  struct Change {
    Lun lun;
    Token token;
  };
  std::vector<Token> m_durable;  // per unit: its value as of the last durable point
  std::vector<bool> m_trimmed;   // per unit: durably trimmed, not durably written since
  std::vector<Change> m_since;   // in the order the device ran them
  uint64_t m_base = 0;           // marker of m_since.front()
};

}  // namespace ssd::ftl
