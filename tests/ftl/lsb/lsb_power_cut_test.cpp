// The LSB FTL through power cuts (ftl/superblock_frame/frame_recovery.h): recovery scans every
// spare area, takes each unit's newest readable copy, makes each logical block's newest readable
// PMD page its PGD entry when the map it heads names those copies, and writes the map anew when a
// cut left it half written (a run's PT pages programmed, its PMD page not; a merge's copies cut
// short); nothing a completed flush made durable is lost, whatever the superblocks' size.
#include <gtest/gtest.h>

#include <functional>

#include "ftl/core/ftl_device.h"
#include "ftl/core/random.h"
#include "ftl/lsb/lsb_ftl.h"
#include "ftl/lsb/lsb_settings.h"
#include "ftl/scheme_registry.h"
#include "ftl/superblock_frame/data_information.h"
#include "tests/ftl/lsb/lsb_checks.h"
#include "tests/ftl/power/power_cut_rig.h"
#include "tests/ftl/superblock_frame/frame_power_cuts.h"

namespace ssd::ftl {
namespace {

using testing::FrameRecoveryTotals;
using testing::LsbShape;

// A full device; after every recovery the LSB invariants (every PGD entry a PMD page, every
// mapping page followed one of its own group) and the live pages the maps keep.
class LsbPowerCut : public ::testing::TestWithParam<LsbShape> {
 protected:
  LsbPowerCut() { testing::fill_for_cuts(device); }
  config::PlatformConfig platform = testing::lsb_platform(GetParam());
  FtlDevice device{platform, testing::power_options()};
  std::function<void()> check = [this] {
    testing::check_lsb(device);
    testing::expect_lsb_live_pages(device);
  };
};

TEST_P(LsbPowerCut, RandomCutsWithGcBusyLoseNothingDurable) {
  FrameRecoveryTotals totals;
  testing::expect_random_cuts_lose_nothing(device, 23, 60, check, totals);
  EXPECT_GT(totals.maps_rewritten, 0u);
  EXPECT_EQ(totals.blocks_given_back, 0u);  // no cap on a superblock's blocks
}

TEST_P(LsbPowerCut, CutsAmongAMergesCopiesOrInItsEraseLoseNothingDurable) {
  FrameRecoveryTotals totals;
  testing::expect_merges_cut_short_lose_nothing(device, 31, 30, check, totals);
  EXPECT_GT(totals.maps_rewritten, 0u);
}

TEST_P(LsbPowerCut, ASecondCutDuringARecoveryLosesNothingDurable) {
  testing::expect_cuts_during_recovery_lose_nothing(device, 11, check);
}

TEST_P(LsbPowerCut, EveryNewCopyNamesTheBlockOfItsOldOne) {
  testing::expect_new_copies_name_old_blocks(device, 7, 3000);
}

TEST_P(LsbPowerCut, AQuietCutAfterAFlushKeepsEveryUnit) {
  testing::expect_quiet_cut_keeps_everything(device, 9, check);
}

// A run of a logical block writes its groups' PT pages first and its PMD page last (section
// III.A): cut among them, the newest PMD page is older than the run's PT pages. The recovery
// finds the units the run wrote newer than the map that PMD page heads, and writes the map anew
// with them (or, when the PMD page made it, keeps it).
TEST_P(LsbPowerCut, ARunCutBeforeItsPmdPageIsWrittenAnew) {
  testing::PowerCutRig rig(device, 3);
  const Geometry& g = device.geometry();
  Random random(3);
  uint64_t rewritten = 0, torn = 0;
  for (int round = 0; round < 40; ++round) {
    ASSERT_EQ(rig.run_random(50), 0u) << device.oracle()->first_mismatch();
    // 20 units over three groups of one logical block, then the cut somewhere among its programs.
    const uint64_t first = random.below(g.logical_units / g.pages_per_block) * g.pages_per_block +
                           random.below(g.pages_per_block - 20);
    const Picoseconds start = rig.now();
    rig.run(CommandKind::kWrite, first * g.sectors_per_unit, 20 * g.sectors_per_unit);
    const Picoseconds at = start + random.below(rig.all_done() - start);
    const DurabilityCheck::Verdict verdict = rig.cut_at(at);
    ASSERT_NO_FATAL_FAILURE(testing::expect_recovered(verdict, device, check)) << "round " << round;
    rewritten += testing::lsb(device).recovery_work().maps_rewritten;
    torn += rig.last_cut().torn_programs;
  }
  EXPECT_GT(rewritten, 0u);
  EXPECT_GT(torn, 0u);
  EXPECT_EQ(rig.run_random(3000), 0u) << device.oracle()->first_mismatch();
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, LsbPowerCut,
    ::testing::Values(LsbShape{"paper", 32, 8, 64, 0.25},
                      LsbShape{"four_block_superblocks", 4, 8, 64, 0.25},
                      LsbShape{"whole_device_superblock", 100000, 8, 64, 0.25}),
    [](const ::testing::TestParamInfo<LsbShape>& info) { return std::string(info.param.name); });

// Recovery tells the newest copy by the DI's 64-bit sequence: a DI too small for it is refused,
// naming the key; the default DI recovers with no spare word beyond those the scheme keeps.
TEST(LsbPowerLoss, ADiTooSmallForA64BitSequenceIsRefused) {
  config::PlatformConfig p = testing::lsb_platform();
  EXPECT_FALSE(scheme_catalog().recovery_problem(p).has_value());
  EXPECT_EQ(scheme_spare_words("lsb", p, true), scheme_spare_words("lsb", p, false));
  p.ftl.settings.edit<LsbSettings>().di_bytes = kWideSequenceDiBytes - 1;
  ASSERT_FALSE(scheme_catalog().check(p).has_value());  // fine without power cuts
  const auto problem = scheme_catalog().recovery_problem(p);
  ASSERT_TRUE(problem.has_value());
  EXPECT_EQ(problem->key, "ftl.lsb.di_bytes");
}

}  // namespace
}  // namespace ssd::ftl
