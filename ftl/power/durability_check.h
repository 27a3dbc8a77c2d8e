// What a power cut may take away and what it may not (docs/power-loss.md), checked after every
// recovery against what the host was told:
// - a unit's value as of the last flush that completed before the cut is durable: the unit must
//   read back that value or a later one the host really wrote;
// - a value written after that flush may be lost: the unit then reads an older value it was
//   really given since the flush (or the durable one), a rollback, counted;
// - anything else (a value from before the durable one, another unit's data, a torn page's
//   garbage) is a lost durable unit: a bug the check reports.
// A FUA write acknowledged before the cut makes its own units durable with the values it gave
// them (not the other units: only a flush promises those): for such a unit the durable value is
// the latest one a FUA write or a flush made durable, and only values given after it may be rolled
// back to.
// Trims: no scheme here makes a trim durable (a trimmed unit's old copies stay on flash until GC,
// and a spare-area scan finds them), so a unit trimmed since, or durably trimmed and not written
// since, may come back with an older value of its own. The check cannot tell such a value from
// foreign data beyond the values it keeps, and counts it apart (trimmed_resurrected).
//
// It keeps the durable value of every unit and the values given since the last acknowledged flush
// (or recovery), with the runs of them acknowledged FUA writes made durable: memory follows the
// device plus the writes between flushes.
//
// Sector mode (content is sector-granular: the sector layer, ftl/sector_log/): the same, by
// sector. The check keeps a durable value per sector and the sector values given since; a device
// keeps its promise sector by sector, so after a recovery each unit is explained sector by sector
// from what it reads back (sector_explain.h) and the values found become the durable ones. A unit
// counts current when every sector reads its latest value, rolled back when some sector reads an
// older allowed one. A trimmed unit whose old copy comes back with values no allowed choice gives
// counts trimmed_resurrected; its sectors the layer serves alone keep their exact values and the
// rest of its sum goes to its first other sector (the split of a copy's sum is unknowable, and
// only sums are ever checked: any split with the right sum checks alike from then on).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "ftl/core/types.h"
#include "ftl/power/sector_explain.h"

namespace ssd::ftl {

// What one command changed, as markers of the check's order (DurabilityCheck::marker): the
// changes from `first` up to, not including, `end`.
struct ChangeSpan {
  uint64_t first = 0;
  uint64_t end = 0;
};

class DurabilityCheck {
 public:
  // Every unit (sector, in sector mode) starts durable at `values` (what the device holds when the
  // check starts).
  explicit DurabilityCheck(std::vector<Token> values);

  // The device ran a write or a trim: `cell` (a unit, or a sector in sector mode) now holds
  // `token` (0 = trimmed).
  void changed(uint64_t cell, Token token) { m_since.push_back({cell, token}); }
  // Where the device stands now: a flush run now makes durable what came before this marker.
  uint64_t marker() const { return m_base + m_since.size(); }
  // The flush taken at `marker` completed before any cut: what came before it is durable.
  void acknowledged(uint64_t marker);
  // The FUA write that made `changes` completed before any cut: the values it gave its units are
  // durable (whatever order the acknowledgements come in: a flush acknowledged later with an
  // earlier marker does not take them back).
  void acknowledged(ChangeSpan changes);

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
  // Sector mode, after a recovery: `read_back[lun]` is what each unit reads whole and
  // `read_alone(sector)` reads one sector alone (asked only for units whose sum is neither their
  // latest nor their durable one). Then the values found are the durable ones (durable()); the
  // caller sets the oracle to them.
  Verdict check_sectors_and_restart(uint32_t sectors_per_unit, const std::vector<Token>& read_back,
                                    const std::function<SectorRead(uint64_t)>& read_alone);
  // The durable value of a unit (a sector, in sector mode).
  Token durable(uint64_t cell) const { return m_durable[cell]; }

  // Values given since the last durable point (what this check holds beyond the device's size).
  size_t pending_changes() const { return m_since.size(); }
  // Acknowledged FUA writes whose changes are still among those (not yet under a flush's).
  size_t pending_fua_spans() const { return m_fua_durable.size(); }

 private:
  struct Change {
    uint64_t cell;
    Token token;
  };
  // A change given since the durable point, marked if an acknowledged FUA write made it durable.
  struct Given {
    uint64_t cell;
    Token token;
    bool fua_durable;
  };
  std::vector<Token> m_durable;  // per unit (sector): its value as of the last durable point
  std::vector<bool> m_trimmed;   // per unit (sector): durably trimmed, not durably written since
  std::vector<Change> m_since;   // in the order the device ran them
  uint64_t m_base = 0;           // marker of m_since.front()
  // Runs of m_since acknowledged FUA writes made durable: disjoint, in order, each starting past
  // m_base.
  std::vector<ChangeSpan> m_fua_durable;

  // Makes durable every change before `marker` (a flush's promise), then takes in the FUA spans
  // that now start at the front.
  void make_durable_before(uint64_t marker);
  // Moves the changes before `marker` into m_durable.
  void advance_to(uint64_t marker);
  // The changes since the durable point, stably sorted by cell / `group` (by unit: in the order
  // the device ran them within each).
  std::vector<Given> given_since(uint64_t group) const;
  // Forgets the changes: the device's state is the durable one now.
  void restart();
};

}  // namespace ssd::ftl
