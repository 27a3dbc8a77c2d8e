// The Superblock FTL through power cuts (ftl/superblock_frame/frame_recovery.h): recovery scans
// every spare area, takes each unit's newest readable copy, keeps a logical block's map when it
// names those copies and writes it anew when a cut left it half written (a merge's copies name
// pages it had not written yet), and finishes a compaction a cut left with its superblock over
// max_physical_blocks; nothing a completed flush made durable is lost.
#include <gtest/gtest.h>

#include <functional>

#include "ftl/core/ftl_device.h"
#include "ftl/scheme_registry.h"
#include "ftl/superblock/superblock_ftl.h"
#include "ftl/superblock/superblock_settings.h"
#include "ftl/superblock_frame/data_information.h"
#include "tests/ftl/power/power_cut_rig.h"
#include "tests/ftl/superblock/superblock_checks.h"
#include "tests/ftl/superblock_frame/frame_power_cuts.h"

namespace ssd::ftl {
namespace {

using testing::FrameRecoveryTotals;

// The paper's shape on the tiny device, full; after every recovery the superblock invariants and
// the live pages the maps keep.
class SuperblockPowerCut : public ::testing::Test {
 protected:
  explicit SuperblockPowerCut(const config::PlatformConfig& p = testing::superblock_platform())
      : platform(p) {
    testing::fill_for_cuts(device);
  }
  config::PlatformConfig platform;
  FtlDevice device{platform, testing::power_options()};
  std::function<void()> check = [this] {
    testing::check_superblocks(device);
    testing::expect_superblock_live_pages(device);
  };
};

TEST_F(SuperblockPowerCut, RandomCutsWithGcBusyLoseNothingDurable) {
  FrameRecoveryTotals totals;
  testing::expect_random_cuts_lose_nothing(device, 23, 60, check, totals);
  // Some cuts left maps half written, and their recoveries wrote them anew.
  EXPECT_GT(totals.maps_rewritten, 0u);
  EXPECT_GT(totals.programs, 0u);
}

TEST_F(SuperblockPowerCut, CutsAmongAMergesCopiesOrInItsEraseLoseNothingDurable) {
  FrameRecoveryTotals totals;
  testing::expect_merges_cut_short_lose_nothing(device, 31, 30, check, totals);
  EXPECT_GT(totals.maps_rewritten, 0u);
}

TEST_F(SuperblockPowerCut, ASecondCutDuringARecoveryLosesNothingDurable) {
  testing::expect_cuts_during_recovery_lose_nothing(device, 11, check);
}

TEST_F(SuperblockPowerCut, EveryNewCopyNamesTheBlockOfItsOldOne) {
  testing::expect_new_copies_name_old_blocks(device, 7, 3000);
}

TEST_F(SuperblockPowerCut, AQuietCutAfterAFlushKeepsEveryUnit) {
  testing::expect_quiet_cut_keeps_everything(device, 9, check);
}

// Superblocks of 4 logical blocks in at most 5 physical ones: forced GC compacts all the time, and
// a compaction that needs a fresh block holds 6 blocks until its victim's erase. Cut among its
// copies, the recovery finds the superblock over its cap and gives blocks back.
class SuperblockPowerCutAtTheCap : public SuperblockPowerCut {
 protected:
  SuperblockPowerCutAtTheCap() : SuperblockPowerCut(tight()) {}
  static config::PlatformConfig tight() {
    config::PlatformConfig p = testing::superblock_platform();
    p.ftl.settings.edit<SuperblockSettings>().max_physical_blocks = 5;
    return p;
  }
};

TEST_F(SuperblockPowerCutAtTheCap, ACompactionCutShortIsFinished) {
  FrameRecoveryTotals totals;
  testing::expect_merges_cut_short_lose_nothing(device, 41, 60, check, totals);
  EXPECT_GT(totals.blocks_given_back, 0u);
  EXPECT_GT(totals.maps_rewritten, 0u);
}

TEST_F(SuperblockPowerCutAtTheCap, RandomCutsLoseNothingDurable) {
  FrameRecoveryTotals totals;
  testing::expect_random_cuts_lose_nothing(device, 43, 60, check, totals);
}

// The check catches a recovery that misses data: the block holding the newest page is erased
// behind the recovery's back (as if it had skipped it), after a flush made its units durable.
TEST_F(SuperblockPowerCut, ARecoveryThatSkipsTheNewestBlockIsCaught) {
  testing::PowerCutRig rig(device, 5);
  ASSERT_EQ(rig.run_random(3000), 0u);
  rig.run(CommandKind::kFlush, 0, 0);
  const uint32_t di_bits = platform.ftl.settings.get<SuperblockSettings>().di_bytes * 8;
  ASSERT_NE(testing::erase_newest_block(
                device, [di_bits](const uint32_t* spare) { return sequence_in(spare, di_bits); }),
            kNone);
  const DurabilityCheck::Verdict verdict = rig.cut_at(rig.all_done());
  EXPECT_GT(verdict.lost_durable, 0u);
  EXPECT_FALSE(verdict.first_loss.empty());
}

// Recovery tells the newest copy by the DI's 64-bit sequence: a DI too small for it is refused,
// naming the key; the default DI recovers with no spare word beyond those the scheme keeps.
TEST(SuperblockPowerLoss, ADiTooSmallForA64BitSequenceIsRefused) {
  config::PlatformConfig p = testing::superblock_platform();
  EXPECT_FALSE(scheme_catalog().recovery_problem(p).has_value());
  EXPECT_EQ(scheme_spare_words("superblock", p, true), scheme_spare_words("superblock", p, false));
  p.ftl.settings.edit<SuperblockSettings>().di_bytes = kWideSequenceDiBytes - 1;
  ASSERT_FALSE(scheme_catalog().check(p).has_value());  // fine without power cuts
  const auto problem = scheme_catalog().recovery_problem(p);
  ASSERT_TRUE(problem.has_value());
  EXPECT_EQ(problem->key, "ftl.superblock.di_bytes");
}

}  // namespace
}  // namespace ssd::ftl
