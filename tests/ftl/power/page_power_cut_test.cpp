// Page mapping through power cuts: the table is rebuilt from the spare areas (the newest copy of
// each unit by program sequence), and nothing a completed flush made durable is lost, with cuts
// anywhere among the operations in flight: mid-program, mid-erase, mid-GC, during a recovery.
#include <gtest/gtest.h>

#include "ftl/core/ftl_device.h"
#include "ftl/page/page_mapping.h"
#include "tests/ftl/page_table_checks.h"
#include "tests/ftl/power/power_cut_rig.h"
#include "tests/ftl/tiny_platform.h"

namespace ssd::ftl {
namespace {

using testing::power_options;

// Many cuts at random instants over a random workload that keeps GC busy on a full tiny device.
class PagePowerCuts : public ::testing::TestWithParam<uint32_t> {};

TEST_P(PagePowerCuts, NothingDurableIsLostAndTheDeviceComesBack) {
  const config::PlatformConfig p = testing::tiny_platform(GetParam());
  FtlDevice device(p, power_options());
  testing::PowerCutRig rig(device, 42 + GetParam());
  for (int cut = 0; cut < 60; ++cut) {
    ASSERT_EQ(rig.run_random(700), 0u)
        << "cut " << cut << ": " << device.oracle()->first_mismatch();
    const DurabilityCheck::Verdict verdict = rig.cut();
    ASSERT_EQ(verdict.lost_durable, 0u) << "cut " << cut << ": " << verdict.first_loss;
    ASSERT_EQ(verdict.units, device.geometry().logical_units);
    const auto& page = dynamic_cast<const PageMapping&>(device.scheme());
    ASSERT_NO_FATAL_FAILURE(testing::expect_page_table_invariants(device, page));
  }
  // The cuts fell where they matter: pages torn, recent writes lost, GC running throughout.
  EXPECT_GT(rig.totals().torn, 0u);
  EXPECT_GT(rig.totals().rolled_back, 0u);
  EXPECT_GT(rig.totals().current, 0u);
  EXPECT_GT(device.stats().gc_erases, 0u);
  // And the device goes on serving correctly after all of them.
  EXPECT_EQ(rig.run_random(5000), 0u) << device.oracle()->first_mismatch();
}

INSTANTIATE_TEST_SUITE_P(UnitSizes, PagePowerCuts, ::testing::Values(0u, 2048u));

TEST(PagePowerCut, RecoveryReadsEverySpareAreaOnce) {
  const config::PlatformConfig p = testing::tiny_platform();
  FtlDevice device(p, power_options());
  testing::PowerCutRig rig(device, 7);
  ASSERT_EQ(rig.run_random(2000), 0u);
  uint64_t programmed = 0;
  rig.cut_at(rig.all_done() + 1);  // after everything: nothing in flight
  for (BlockId b = 0; b < device.geometry().blocks(); ++b) {
    programmed += device.flash().write_pointer(b);
  }
  EXPECT_EQ(rig.last_recovery().spare_reads, programmed);
  EXPECT_EQ(rig.last_cut().undone + rig.last_cut().torn_programs, 0u);
}

// A flush made everything durable and nothing was written after it: every unit reads back its
// latest value.
TEST(PagePowerCut, AfterACompletedFlushEveryUnitIsCurrent) {
  const config::PlatformConfig p = testing::tiny_platform();
  FtlDevice device(p, power_options());
  testing::PowerCutRig rig(device, 9);
  ASSERT_EQ(rig.run_random(3000), 0u);
  rig.run(CommandKind::kFlush, 0, 0);
  const DurabilityCheck::Verdict verdict = rig.cut_at(rig.all_done());
  EXPECT_EQ(verdict.lost_durable, 0u) << verdict.first_loss;
  EXPECT_EQ(verdict.rolled_back, 0u);
  EXPECT_EQ(verdict.current + verdict.trimmed_resurrected, verdict.units);
}

// A unit rewritten while its first copy's page is still being assembled: the first copy is
// dropped from that page's spare, so if that page reaches the flash after the second copy's page,
// recovery does not take the stale copy for the newest.
TEST(PagePowerCut, AStaleCopyProgrammedLastIsNotRecovered) {
  config::PlatformConfig p = testing::tiny_platform(2048);  // two units per page
  FtlDevice device(p, power_options());
  testing::PowerCutRig rig(device, 3);
  const uint32_t unit = device.geometry().sectors_per_unit;
  rig.run(CommandKind::kWrite, 0, unit);  // unit 0, v1: half a page on plane A
  for (uint32_t i = 1; i <= 2; ++i) {     // the stripe moves on: whole pages elsewhere
    rig.run(CommandKind::kWrite, 100 * i * unit, 2 * unit);
  }
  rig.run(CommandKind::kWrite, 0, unit);              // unit 0, v2, on another plane
  rig.run(CommandKind::kWrite, 50 * unit, 2 * unit);  // fills v2's page
  rig.run(CommandKind::kFlush, 0, 0);                 // v1's page now programmed, last
  const DurabilityCheck::Verdict verdict = rig.cut_at(rig.all_done());
  EXPECT_EQ(verdict.lost_durable, 0u) << verdict.first_loss;
  EXPECT_EQ(verdict.rolled_back, 0u);
}

// The check catches a recovery that misses data: here the newest block is erased behind the
// recovery's back (as if it had skipped it), after a flush made its units durable.
TEST(PagePowerCut, ARecoveryThatSkipsTheNewestBlockIsCaught) {
  const config::PlatformConfig p = testing::tiny_platform();
  FtlDevice device(p, power_options());
  testing::PowerCutRig rig(device, 5);
  ASSERT_EQ(rig.run_random(3000), 0u);
  rig.run(CommandKind::kFlush, 0, 0);
  const uint32_t units = device.geometry().units_per_page;
  ASSERT_NE(testing::erase_newest_block(device,
                                        [units](const uint32_t* spare) {
                                          return spare[units] | uint64_t{spare[units + 1]} << 32;
                                        }),
            kNone);
  const DurabilityCheck::Verdict verdict = rig.cut_at(rig.all_done());
  EXPECT_GT(verdict.lost_durable, 0u);
  EXPECT_FALSE(verdict.first_loss.empty());
}

// A cut tears a GC erase; the recovery erases that block again, and a second cut falls during
// that erase: the second recovery finds it torn once more and still loses nothing durable.
TEST(PagePowerCut, ASecondCutDuringRecoveryIsSurvived) {
  const config::PlatformConfig p = testing::tiny_platform();
  FtlDevice device(p, power_options());
  testing::PowerCutRig rig(device, 11);
  int torn_erase_cuts = 0;
  for (int attempt = 0; attempt < 400 && torn_erase_cuts < 3; ++attempt) {
    ASSERT_EQ(rig.run_random(300), 0u);
    const DurabilityCheck::Verdict first = rig.cut();
    ASSERT_EQ(first.lost_durable, 0u) << first.first_loss;
    if (rig.last_cut().torn_erases == 0) continue;
    ASSERT_GT(rig.last_recovery().erases, 0u);  // the recovery erased the torn block again
    ++torn_erase_cuts;
    // Cut again halfway through that erase (the rig's erases take kErase).
    const DurabilityCheck::Verdict second =
        rig.cut_at(rig.last_erase_done() - testing::PowerCutRig::kErase / 2);
    EXPECT_EQ(second.lost_durable, 0u) << second.first_loss;
    EXPECT_GT(rig.last_cut().torn_erases, 0u);
  }
  EXPECT_EQ(torn_erase_cuts, 3);
  EXPECT_EQ(rig.run_random(3000), 0u) << device.oracle()->first_mismatch();
}

}  // namespace
}  // namespace ssd::ftl
