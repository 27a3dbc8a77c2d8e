// Block mapping through power cuts: the table is rebuilt from the first readable page of every
// block (its unit and its block's allocation sequence), and a merge a cut interrupted is done
// again, so nothing a completed flush made durable is lost.
#include <gtest/gtest.h>

#include "ftl/block/block_mapping.h"
#include "ftl/core/ftl_device.h"
#include "tests/ftl/power/power_cut_rig.h"
#include "tests/ftl/tiny_platform.h"

namespace ssd::ftl {
namespace {

config::PlatformConfig block_platform() {
  config::PlatformConfig p = testing::tiny_platform();
  p.ftl.scheme = "block";
  return p;
}

// Every logical block maps to a block whose readable pages name its units at their offsets; the
// scheme holds exactly the blocks that are not free.
void expect_block_invariants(FtlDevice& device) {
  const auto& scheme = dynamic_cast<const BlockMapping&>(device.scheme());
  const Geometry& g = device.geometry();
  uint32_t held = 0;
  for (uint32_t lbn = 0; lbn < scheme.logical_blocks(); ++lbn) {
    const BlockId block = scheme.block_of(lbn);
    if (block == kNone) continue;
    ++held;
    for (uint32_t offset = 0; offset < g.pages_per_block; ++offset) {
      const Lun lun = lbn * g.pages_per_block + offset;
      if (lun >= g.logical_units || !scheme.unit_valid(lun)) continue;
      const PageId page = g.first_page(block) + offset;
      ASSERT_TRUE(device.flash().readable(page)) << "unit " << lun;
      ASSERT_EQ(device.flash().spare(page)[0], lun);
      ASSERT_EQ(device.flash().token(g.first_slot(page)), device.oracle()->expected(lun))
          << "unit " << lun;
    }
  }
  EXPECT_EQ(scheme.blocks_held(), held);
  for (BlockId b = 0; b < g.blocks(); ++b) {
    if (scheme.flash().blocks().state(b) == BlockState::kFree) {
      ASSERT_EQ(device.flash().write_pointer(b), 0u) << "free block " << b << " not erased";
    }
  }
}

TEST(BlockPowerCuts, NothingDurableIsLostAndTheDeviceComesBack) {
  FtlDevice device(block_platform(), testing::power_options());
  testing::PowerCutRig rig(device, 23);
  uint64_t redone = 0;
  for (int cut = 0; cut < 60; ++cut) {
    ASSERT_EQ(rig.run_random(300), 0u)
        << "cut " << cut << ": " << device.oracle()->first_mismatch();
    const DurabilityCheck::Verdict verdict = rig.cut();
    ASSERT_EQ(verdict.lost_durable, 0u) << "cut " << cut << ": " << verdict.first_loss;
    ASSERT_EQ(verdict.units, device.geometry().logical_units);
    redone += rig.last_recovery().programs;
    ASSERT_NO_FATAL_FAILURE(expect_block_invariants(device)) << "cut " << cut;
  }
  // The cuts fell where they matter: pages torn, recent writes lost, merges interrupted and done
  // again by recoveries.
  EXPECT_GT(rig.totals().torn, 0u);
  EXPECT_GT(rig.totals().rolled_back, 0u);
  EXPECT_GT(rig.totals().current, 0u);
  EXPECT_GT(device.stats().gc_erases, 0u);
  EXPECT_GT(redone, 0u);
  // And the device goes on serving correctly after all of them.
  EXPECT_EQ(rig.run_random(3000), 0u) << device.oracle()->first_mismatch();
  ASSERT_NO_FATAL_FAILURE(expect_block_invariants(device));
}

// A cut with nothing in flight: the recovery reads each written block's spare areas only up to
// its first written page (which names the logical block), merges nothing again, and every unit
// is current after a flush.
TEST(BlockPowerCut, AQuietCutReadsAPagePerBlockAndMergesNothing) {
  FtlDevice device(block_platform(), testing::power_options());
  testing::PowerCutRig rig(device, 29);
  ASSERT_EQ(rig.run_random(2000), 0u);
  rig.run(CommandKind::kFlush, 0, 0);
  uint64_t written_blocks = 0;
  uint64_t programmed_pages = 0;
  for (BlockId b = 0; b < device.geometry().blocks(); ++b) {
    written_blocks += device.flash().write_pointer(b) > 0;
    programmed_pages += device.flash().write_pointer(b);
  }
  const DurabilityCheck::Verdict verdict = rig.cut_at(rig.all_done() + 1);
  EXPECT_EQ(verdict.lost_durable, 0u) << verdict.first_loss;
  EXPECT_EQ(verdict.rolled_back, 0u);
  EXPECT_EQ(rig.last_recovery().programs, 0u);
  EXPECT_LT(rig.last_recovery().spare_reads, programmed_pages / 2);
  EXPECT_GE(rig.last_recovery().spare_reads, written_blocks);
  ASSERT_NO_FATAL_FAILURE(expect_block_invariants(device));
}

}  // namespace
}  // namespace ssd::ftl
