// The durability check's rules for FUA writes (ftl/power/durability_check.h): an acknowledged FUA
// write makes the values it gave its own units durable, and nothing else; values given before it
// are then lost, not rolled back to; acknowledgements may come in any order. And its sector mode:
// units explained sector by sector from their sums and the sectors the layer serves alone.
#include "ftl/power/durability_check.h"

#include <gtest/gtest.h>

#include <map>
#include <vector>

namespace ssd::ftl {
namespace {

constexpr Token kStart = 100;  // every unit's value when the check starts

struct Units {
  DurabilityCheck check{std::vector<Token>(4, kStart)};
  std::vector<Token> latest = std::vector<Token>(4, kStart);

  // The device gives `lun` the value `token`; returns the changes it made.
  ChangeSpan write(Lun lun, Token token) {
    const uint64_t first = check.marker();
    check.changed(lun, token);
    latest[lun] = token;
    return {first, check.marker()};
  }
};

// Reads back `read_back` after a cut; returns the verdict.
DurabilityCheck::Verdict cut(Units& units, const std::vector<Token>& read_back) {
  return units.check.check_and_restart(read_back, units.latest);
}

TEST(DurabilityCheckFua, AFuaWriteMakesOnlyItsOwnUnitsDurable) {
  Units units;
  units.write(0, 1);
  const ChangeSpan fua = units.write(1, 2);
  units.write(2, 3);
  units.check.acknowledged(fua);
  // Units 0 and 2 may roll back to their start value; unit 1 keeps its FUA value.
  const DurabilityCheck::Verdict kept = cut(units, {kStart, 2, kStart, kStart});
  EXPECT_EQ(kept.lost_durable, 0u) << kept.first_loss;
  EXPECT_EQ(kept.rolled_back, 2u);
  EXPECT_EQ(kept.current, 2u);
}

TEST(DurabilityCheckFua, AUnitThatLosesItsFuaValueIsLost) {
  Units units;
  units.write(0, 1);
  units.check.acknowledged(units.write(1, 2));
  const DurabilityCheck::Verdict verdict = cut(units, {1, kStart, kStart, kStart});
  EXPECT_EQ(verdict.lost_durable, 1u);
  EXPECT_EQ(verdict.first_loss, "unit 1 read back token 100; durable token 2, latest 2");
}

// Values given before the FUA write are older than what it made durable: lost, not rolled back;
// values given after it may be rolled back to.
TEST(DurabilityCheckFua, OnlyValuesGivenAfterTheFuaWriteMayBeRolledBackTo) {
  for (const Token got : {Token{5}, Token{6}, Token{7}, Token{8}, kStart}) {
    Units units;
    units.write(0, 5);
    units.check.acknowledged(units.write(0, 6));
    units.write(0, 7);
    units.write(0, 8);
    const DurabilityCheck::Verdict verdict = cut(units, {got, kStart, kStart, kStart});
    const bool allowed = got == 6 || got == 7 || got == 8;
    EXPECT_EQ(verdict.lost_durable, allowed ? 0u : 1u) << "read back " << got;
  }
}

// FUA writes complete in any order, and a flush taken before a FUA write may be acknowledged after
// it: the FUA write's value stays durable.
TEST(DurabilityCheckFua, AnEarlierFlushAcknowledgedLaterDoesNotTakeAFuaValueBack) {
  Units units;
  units.write(0, 1);
  const uint64_t flush = units.check.marker();
  const ChangeSpan first = units.write(0, 2);
  const ChangeSpan second = units.write(3, 9);
  units.check.acknowledged(second);
  units.check.acknowledged(first);
  units.check.acknowledged(flush);
  EXPECT_EQ(cut(units, {1, kStart, kStart, 9}).lost_durable, 1u);
  Units again;
  again.write(0, 1);
  const uint64_t flush_again = again.check.marker();
  const ChangeSpan fua = again.write(0, 2);
  again.check.acknowledged(fua);
  again.check.acknowledged(flush_again);
  const DurabilityCheck::Verdict verdict = cut(again, {2, kStart, kStart, kStart});
  EXPECT_EQ(verdict.lost_durable, 0u) << verdict.first_loss;
  EXPECT_EQ(verdict.current, 4u);
}

// What the check holds: a FUA write acknowledged with nothing unacknowledged before it joins the
// durable state at once; one behind a change still in doubt waits, as a span, until a flush
// covers that change.
TEST(DurabilityCheckFua, AcknowledgedChangesAtTheFrontAreLetGo) {
  Units units;
  units.check.acknowledged(units.write(0, 1));
  EXPECT_EQ(units.check.pending_changes(), 0u);
  EXPECT_EQ(units.check.pending_fua_spans(), 0u);
  units.write(1, 2);
  const uint64_t flush = units.check.marker();
  const ChangeSpan fua = units.write(2, 3);
  units.write(3, 4);
  units.check.acknowledged(fua);
  EXPECT_EQ(units.check.pending_changes(), 3u);
  EXPECT_EQ(units.check.pending_fua_spans(), 1u);
  units.check.acknowledged(flush);
  EXPECT_EQ(units.check.pending_changes(), 1u);  // unit 3's, in doubt
  EXPECT_EQ(units.check.pending_fua_spans(), 0u);
  // A FUA write a flush already covered changes nothing.
  units.check.acknowledged(fua);
  EXPECT_EQ(units.check.pending_changes(), 1u);
  const DurabilityCheck::Verdict verdict = cut(units, {1, 2, 3, kStart});
  EXPECT_EQ(verdict.lost_durable, 0u) << verdict.first_loss;
  EXPECT_EQ(verdict.rolled_back, 1u);
}

// A trim after a FUA write: the unit may come back with the FUA value (rolled back) or, being
// trimmed since, with an older value of its own (counted apart); not with a foreign one.
TEST(DurabilityCheckFua, ATrimAfterAFuaWriteMayResurrectAnOlderValue) {
  Units units;
  units.write(0, 1);
  units.check.acknowledged(units.write(0, 2));
  units.write(0, 0);  // trimmed
  const DurabilityCheck::Verdict fua_value = cut(units, {2, kStart, kStart, kStart});
  EXPECT_EQ(fua_value.rolled_back, 1u);
  EXPECT_EQ(fua_value.lost_durable, 0u);
  Units again;
  again.write(0, 1);
  again.check.acknowledged(again.write(0, 2));
  again.write(0, 0);
  const DurabilityCheck::Verdict older = cut(again, {1, kStart, kStart, kStart});
  EXPECT_EQ(older.trimmed_resurrected, 1u);
  EXPECT_EQ(older.lost_durable, 0u);
}

// Sector mode: two units of two sectors, sectors starting at 100..103. `exact` maps the sectors
// the layer serves alone to their values; any other sector read alone comes from the scheme's
// copy (the whole unit's sum).
struct Sectors {
  DurabilityCheck check{std::vector<Token>{100, 101, 102, 103}};
  std::map<uint64_t, Token> exact;
  uint64_t reads_alone = 0;

  DurabilityCheck::Verdict cut(const std::vector<Token>& read_back) {
    return check.check_sectors_and_restart(2, read_back, [this](uint64_t sector) {
      ++reads_alone;
      const auto found = exact.find(sector);
      return found == exact.end() ? SectorRead{0, false} : SectorRead{found->second, true};
    });
  }
};

// Unit 0 comes back as a mix it never held whole: sector 0's new value (logged, on flash) beside
// sector 1's durable one, though sector 1 was written after sector 0. Rolled back, not lost; its
// sectors' values become the durable ones. Unit 1, at its latest, is not read alone.
TEST(DurabilityCheckSectors, AUnitMayComeBackAsAMixOfItsSectorsValues) {
  Sectors d;
  d.check.changed(0, 1);
  d.check.changed(1, 2);
  d.check.changed(3, 5);
  d.exact[0] = 1;
  const DurabilityCheck::Verdict verdict = d.cut({1 + 101, 102 + 5});
  EXPECT_EQ(verdict.lost_durable, 0u) << verdict.first_loss;
  EXPECT_EQ(verdict.units, 2u);
  EXPECT_EQ(verdict.rolled_back, 1u);
  EXPECT_EQ(verdict.current, 1u);
  EXPECT_EQ(d.reads_alone, 2u);  // unit 0's two sectors only
  EXPECT_EQ(d.check.durable(0), 1u);
  EXPECT_EQ(d.check.durable(1), 101u);
  EXPECT_EQ(d.check.durable(3), 5u);
  EXPECT_EQ(d.check.pending_changes(), 0u);
}

// A flushed sector that reads an older value is lost, even when its unit's sum could be made of
// allowed values on other sectors: the sector the layer serves alone is read exactly.
TEST(DurabilityCheckSectors, ASectorReadExactlyMustHoldAnAllowedValue) {
  Sectors d;
  d.check.changed(0, 7);
  d.check.acknowledged(d.check.marker());
  d.check.changed(1, 8);
  d.exact[0] = 100;  // its value before the flush
  const DurabilityCheck::Verdict verdict = d.cut({100 + 101, 102 + 103});
  EXPECT_EQ(verdict.lost_durable, 1u);
  EXPECT_EQ(verdict.first_loss,
            "unit 0 read back token 201, latest 15: sector 0 holds a value never allowed");
  // Without the exact read, no choice of allowed values gives the sum either.
  Sectors sum_only;
  sum_only.check.changed(0, 7);
  sum_only.check.acknowledged(sum_only.check.marker());
  EXPECT_EQ(sum_only.cut({100 + 101, 102 + 103}).lost_durable, 1u);
}

// A trimmed unit whose old copy comes back with values the check never kept: counted apart, and
// the device's state from then on is what it read (its sum on the unit's first sector).
TEST(DurabilityCheckSectors, ATrimmedUnitsOldCopyIsCountedApart) {
  Sectors d;
  d.check.changed(2, 0);
  d.check.changed(3, 0);
  const DurabilityCheck::Verdict verdict = d.cut({100 + 101, 40 + 50});
  EXPECT_EQ(verdict.lost_durable, 0u) << verdict.first_loss;
  EXPECT_EQ(verdict.trimmed_resurrected, 1u);
  EXPECT_EQ(d.check.durable(2), 90u);
  EXPECT_EQ(d.check.durable(3), 0u);
  // Not trimmed: the same read back is a loss.
  Sectors untrimmed;
  EXPECT_EQ(untrimmed.cut({100 + 101, 40 + 50}).lost_durable, 1u);
}

}  // namespace
}  // namespace ssd::ftl
