// What each sector of one unit holds after a cut, found from what the unit reads back (a sum of
// sector tokens, content_token.h) when content is sector-granular (the sector layer,
// ftl/sector_log/). A device keeps its promise sector by sector: every sector reads its durable
// value or one written since, so a unit may come back as a mix it never held as a whole (sector 0
// from a log page that reached the flash, sector 1 from an earlier one that did not).
//
// How: a sector the layer serves alone (a one-sector read delivered by its sectors: the log or
// the buffer holds it) is read exactly and must be allowed. The others come from the scheme's copy
// of the page, whose sum is the rest of the unit's: their values are looked for first among the
// unit's states since its durable point (the copy is the unit as it was when written below), then
// by a bounded search over every choice of allowed values (without the first two steps a plain
// search explodes with 64-sector units).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "ftl/core/types.h"

namespace ssd::ftl {

// What one unit's sectors may hold: per sector its durable value and the values given since (in
// order), and the unit's changes since each sector's durable point, in the order the device ran
// them.
struct UnitSectorsSince {
  struct Change {
    uint32_t sector;  // within the unit
    Token token;
  };
  std::vector<Token> durable;
  std::vector<std::vector<Token>> given;
  std::vector<Change> history;

  bool allowed(uint32_t sector, Token token) const;
};

// One sector read alone: its token, and whether it was delivered by its sectors (the layer holds
// it: the token is that sector's exact value) rather than as the scheme's whole copy.
struct SectorRead {
  Token token = 0;
  bool by_sector = false;
};

struct SectorExplanation {
  bool explained = false;
  std::vector<Token> values;  // per sector when explained; else the sectors read exactly
  std::vector<bool> exact;    // per sector: read exactly (served alone by the layer)
  Token rest = 0;             // what the scheme's copy holds on the other sectors (their sum)
  std::string why;            // when not explained
};

// Explains `got`, what the unit reads back whole; `read_alone(s)` reads its sector s alone.
SectorExplanation explain_unit_sectors(const UnitSectorsSince& unit, Token got,
                                       const std::function<SectorRead(uint32_t)>& read_alone);

}  // namespace ssd::ftl
