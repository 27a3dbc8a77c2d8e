// Page mapping through power cuts: the table is rebuilt from the spare areas (the newest copy of
// each unit by program sequence), and nothing a completed flush made durable is lost, with cuts
// anywhere among the operations in flight: mid-program, mid-erase, mid-GC, during a recovery.
#include <gtest/gtest.h>

#include <vector>

#include "ftl/core/ftl_device.h"
#include "ftl/core/page_store.h"
#include "ftl/core/preconditioner.h"
#include "ftl/page/page_mapping.h"
#include "tests/ftl/page_table_checks.h"
#include "tests/ftl/power/power_cut_rig.h"
#include "tests/ftl/power/stream_blocks.h"
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

// Preconditioning is untimed: no cut can undo it, so the journal forgets each of its operations
// at once instead of holding an aging's millions of entries (an erase's with its block's spare
// words and tokens) until the timed run starts. It held 5 M entries, 2.7 GB, on a small
// version of MQSim's device.
TEST(PagePowerCut, PreconditioningLeavesNothingInTheJournal) {
  const config::PlatformConfig p = testing::tiny_platform();
  FtlDevice device(p, power_options());
  config::PreconditionConfig aging;
  aging.fill_ratio = 1.0;
  aging.overwrite_ratio = 2.0;
  aging.seed = 3;
  precondition(device, aging);
  EXPECT_GT(device.stats().gc_erases, 0u);  // erases, the biggest entries, were journaled
  EXPECT_EQ(device.flash().journal_size(), 0u);
  EXPECT_GT(device.flash().journal_retired_below(), device.geometry().logical_units);
}

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

// After a cut each write stream goes on in the block it was writing, which its pages name
// (PageStore::stream_of), not in whichever partly written block it meets first: on dies of
// several planes that decides how the planes take turns at GC for the rest of the run
// (docs/power-loss.md).
TEST(PagePowerCut, EachStreamGoesOnInTheBlockItWasWriting) {
  const config::PlatformConfig p = testing::tiny_platform();
  ASSERT_GT(p.nand.planes_per_die, 1u);
  FtlDevice device(p, power_options());
  testing::PowerCutRig rig(device, 9);
  ASSERT_EQ(rig.run_random(30000), 0u);
  ASSERT_GT(device.stats().gc_erases, 0u);
  rig.run(CommandKind::kFlush, 0, 0);  // the open pages programmed: every open block has some
  const auto store = [&]() -> const PageStore& {
    return dynamic_cast<const PageMapping&>(device.scheme()).store();
  };
  const std::vector<StreamCode> streams = {StreamCodes::host(0), StreamCodes::gc(0)};
  const std::vector<BlockId> before =
      testing::partly_written_stream_blocks(store(), device.flash(), streams);
  const uint32_t planes = device.geometry().planes();
  ASSERT_GT(testing::planes_with_block(before, 0, planes), 1u);
  ASSERT_GT(testing::planes_with_block(before, 1, planes), 1u);
  const DurabilityCheck::Verdict verdict = rig.cut_at(rig.all_done() + 1);
  ASSERT_EQ(verdict.lost_durable, 0u) << verdict.first_loss;
  testing::expect_streams_write(store(), streams, before);
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
                                          return PageStore::program_sequence(spare, units);
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
