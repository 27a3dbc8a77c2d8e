// Page mapping with a map sync (ftl.page.map_sync conventional, whole, nvram) through power cuts:
// recovery from NVRAM's checkpoint, the map pages and the log since the last completed sync
// (ftl/page/map_recovery.h), with cuts anywhere among the operations in flight: mid-program,
// mid-erase, mid-GC, during a sync, during a recovery.
#include <gtest/gtest.h>

#include <limits>
#include <string>
#include <vector>

#include "ftl/core/ftl_device.h"
#include "ftl/page/durable_map.h"
#include "ftl/page/page_mapping.h"
#include "tests/ftl/page/map_sync_platform.h"
#include "tests/ftl/power/power_cut_rig.h"

namespace ssd::ftl {
namespace {

using testing::power_options;

const PageMapping& page_of(FtlDevice& device) {
  return dynamic_cast<const PageMapping&>(device.scheme());
}

// Every mapped unit is where its page's spare says and holds what the oracle expects; an
// unmapped one holds nothing; the valid counts are the data units plus the map units; free
// blocks are erased.
void expect_synced_table_invariants(FtlDevice& device) {
  const PageMapping& page = page_of(device);
  const Geometry& g = device.geometry();
  const BlockManager& blocks = page.store().blocks();
  std::vector<uint32_t> valid(g.blocks(), 0);
  for (Lun lun = 0; lun < g.logical_units; ++lun) {
    const SlotId slot = page.slot_of(lun);
    if (slot == kNone) {
      ASSERT_EQ(device.oracle()->expected(lun), 0u) << "unit " << lun << " lost";
      continue;
    }
    ++valid[blocks.block_of_slot(slot)];
    ASSERT_EQ(page.store().token(slot), device.oracle()->expected(lun)) << "unit " << lun;
  }
  const MapSync& sync = *page.map_sync();
  for (uint64_t unit = 0; unit < sync.layout().map_units(); ++unit) {
    if (sync.map_slot(unit) != kNone) ++valid[blocks.block_of_slot(sync.map_slot(unit))];
  }
  for (BlockId b = 0; b < g.blocks(); ++b) {
    ASSERT_EQ(blocks.valid_units(b), valid[b]) << "block " << b;
    if (blocks.state(b) == BlockState::kFree) {
      ASSERT_EQ(device.flash().write_pointer(b), 0u) << "free block " << b << " not erased";
    }
  }
}

// Writes every logical unit once, in long sequential writes: the device is full.
void fill(testing::PowerCutRig& rig, const Geometry& g) {
  const uint32_t sectors = 64;
  for (uint64_t sector = 0; sector + sectors <= g.logical_sectors(); sector += sectors) {
    rig.run(CommandKind::kWrite, sector, sectors);
  }
}

uint64_t programmed_pages(FtlDevice& device) {
  uint64_t pages = 0;
  for (BlockId b = 0; b < device.geometry().blocks(); ++b) pages += device.flash().write_pointer(b);
  return pages;
}

class SyncedMapPowerCuts : public ::testing::TestWithParam<std::string> {};

TEST_P(SyncedMapPowerCuts, NothingDurableIsLostAndTheDeviceComesBack) {
  FtlDevice device(testing::map_sync_platform(GetParam()), power_options());
  testing::PowerCutRig rig(device, 17);
  for (int cut = 0; cut < 60; ++cut) {
    ASSERT_EQ(rig.run_random(700), 0u)
        << "cut " << cut << ": " << device.oracle()->first_mismatch();
    const DurabilityCheck::Verdict verdict = rig.cut();
    ASSERT_EQ(verdict.lost_durable, 0u) << "cut " << cut << ": " << verdict.first_loss;
    ASSERT_EQ(verdict.units, device.geometry().logical_units);
    ASSERT_NO_FATAL_FAILURE(expect_synced_table_invariants(device)) << "cut " << cut;
    // The map pages' versions kept follow the map, not the run: about one per segment.
    const MapSync& sync = *page_of(device).map_sync();
    ASSERT_LE(sync.durable().versions.size(), 2u * sync.layout().segments);
  }
  EXPECT_GT(rig.totals().torn, 0u);
  EXPECT_GT(rig.totals().rolled_back, 0u);
  EXPECT_GT(device.stats().gc_erases, 0u);
  EXPECT_EQ(rig.run_random(5000), 0u) << device.oracle()->first_mismatch();
}

INSTANTIATE_TEST_SUITE_P(Policies, SyncedMapPowerCuts,
                         ::testing::Values("conventional", "whole", "nvram"));

// After a completed sync the recovery reads the checkpoint, the map pages and only the blocks
// written since: fewer spare areas than page mapping's scan of every programmed page.
TEST(SyncedMapPowerCut, RecoveryReadsTheLogNotTheWholeFlash) {
  FtlDevice device(testing::map_sync_platform("conventional"), power_options());
  testing::PowerCutRig rig(device, 5);
  fill(rig, device.geometry());
  ASSERT_EQ(rig.run_random(3000), 0u);
  rig.run(CommandKind::kFlush, 0, 0);
  for (int i = 0; i < 20; ++i) rig.run(CommandKind::kWrite, uint64_t(i) * 64, 8);
  const uint64_t programmed = programmed_pages(device);
  const DurabilityCheck::Verdict verdict = rig.cut_at(rig.all_done() + 1);
  EXPECT_EQ(verdict.lost_durable, 0u) << verdict.first_loss;
  EXPECT_GT(rig.last_recovery().nvram_reads, 0u);  // the checkpoint
  EXPECT_GT(rig.last_recovery().flash_reads, 0u);  // the map pages
  EXPECT_LT(rig.last_recovery().spare_reads, programmed / 2);
}

// A trim that a completed sync made durable stays trimmed: the map says so (page mapping's
// scan without a map would find the unit's old copy and bring it back).
TEST(SyncedMapPowerCut, ATrimASyncMadeDurableDoesNotComeBack) {
  FtlDevice device(testing::map_sync_platform("conventional"), power_options());
  testing::PowerCutRig rig(device, 3);
  const uint32_t unit = device.geometry().sectors_per_unit;
  for (uint32_t i = 0; i < 40; ++i) rig.run(CommandKind::kWrite, uint64_t(i) * unit, unit);
  rig.run(CommandKind::kFlush, 0, 0);
  rig.run(CommandKind::kTrim, 0, 10 * unit);
  rig.run(CommandKind::kFlush, 0, 0);
  const DurabilityCheck::Verdict verdict = rig.cut_at(rig.all_done() + 1);
  EXPECT_EQ(verdict.lost_durable, 0u) << verdict.first_loss;
  EXPECT_EQ(verdict.trimmed_resurrected, 0u);
  for (Lun lun = 0; lun < 10; ++lun) EXPECT_EQ(page_of(device).slot_of(lun), kNone) << lun;
}

// Cuts at instants spread over one sync (its data programs, map programs, NVRAM writes and
// checkpoint): nothing durable before it is lost, and once it completes all of it is durable.
TEST(SyncedMapPowerCut, CutsDuringASyncLoseNothingDurable) {
  for (const char* policy : {"conventional", "nvram"}) {
    for (int instant = 1; instant < 16; ++instant) {
      FtlDevice device(testing::map_sync_platform(policy), power_options());
      testing::PowerCutRig rig(device, 100 + instant);
      ASSERT_EQ(rig.run_random(1500), 0u);
      const Picoseconds before = rig.all_done();
      rig.run(CommandKind::kFlush, 0, 0);
      const Picoseconds after = rig.all_done();
      const DurabilityCheck::Verdict verdict = rig.cut_at(before + (after - before) * instant / 16);
      ASSERT_EQ(verdict.lost_durable, 0u)
          << policy << " at " << instant << ": " << verdict.first_loss;
      ASSERT_NO_FATAL_FAILURE(expect_synced_table_invariants(device));
      ASSERT_EQ(rig.run_random(500), 0u) << device.oracle()->first_mismatch();
    }
  }
}

// A cut during a recovery (after its reads were timed, before the last completes): the second
// recovery starts again from what the flash and NVRAM still hold.
TEST(SyncedMapPowerCut, ASecondCutDuringRecoveryIsSurvived) {
  FtlDevice device(testing::map_sync_platform("nvram"), power_options());
  testing::PowerCutRig rig(device, 23);
  for (int round = 0; round < 20; ++round) {
    ASSERT_EQ(rig.run_random(400), 0u);
    const Picoseconds cut = rig.now();
    const DurabilityCheck::Verdict first = rig.cut();
    ASSERT_EQ(first.lost_durable, 0u) << first.first_loss;
    const DurabilityCheck::Verdict second = rig.cut_at(cut + (rig.all_done() - cut) / 2);
    ASSERT_EQ(second.lost_durable, 0u) << "round " << round << ": " << second.first_loss;
    ASSERT_NO_FATAL_FAILURE(expect_synced_table_invariants(device));
  }
  EXPECT_EQ(rig.run_random(3000), 0u) << device.oracle()->first_mismatch();
}

// The check catches a recovery that skips the log: with the checkpoint's sequence pushed past
// every program, units GC moved since the last sync are looked for where the map last saw them.
TEST(SyncedMapPowerCut, ARecoveryThatSkipsTheLogIsCaught) {
  FtlDevice device(testing::map_sync_platform("conventional"), power_options());
  testing::PowerCutRig rig(device, 31);
  fill(rig, device.geometry());
  ASSERT_EQ(rig.run_random(3000), 0u);
  rig.run(CommandKind::kFlush, 0, 0);
  const uint64_t gc_before = device.stats().gc_units_copied;
  const uint32_t unit = device.geometry().sectors_per_unit;
  const uint64_t units = device.geometry().logical_units;
  for (uint64_t i = 0; i < units; ++i) {  // overwrites with no sync: GC moves durable units
    rig.run(CommandKind::kWrite, (i * 7919 % units) * unit, unit);
  }
  ASSERT_GT(device.stats().gc_units_copied, gc_before);
  device.backend().lasting<DurableMap>().roll_forward_from = std::numeric_limits<uint64_t>::max();
  const DurabilityCheck::Verdict verdict = rig.cut_at(rig.all_done() + 1);
  EXPECT_GT(verdict.lost_durable, 0u);
  EXPECT_FALSE(verdict.first_loss.empty());
}

}  // namespace
}  // namespace ssd::ftl
