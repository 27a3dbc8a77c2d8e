// FAST through power cuts: data blocks, the SW log block and the RW log blocks are found again
// from the spare areas (allocation sequence, RW mark, program sequence), each unit's newest copy
// by program sequence, merges the cut interrupted (switch, partial, full) done again, and nothing
// a completed flush made durable is lost.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "ftl/core/ftl_device.h"
#include "ftl/fast/fast_ftl.h"
#include "tests/ftl/block/cut_inside.h"
#include "tests/ftl/hybrid/block_scheme_fixture.h"
#include "tests/ftl/power/power_cut_rig.h"
#include "tests/ftl/tiny_platform.h"

namespace ssd::ftl {
namespace {

config::PlatformConfig fast_platform() {
  config::PlatformConfig p = testing::tiny_platform();
  p.ftl.scheme = "fast";
  return p;
}

const FastFtl& fast(const FtlDevice& device) {
  return dynamic_cast<const FastFtl&>(device.scheme());
}

struct Snapshot {
  std::vector<BlockId> data;
  BlockId sw;
  uint32_t sw_lbn;
  std::vector<BlockId> rw;
};
Snapshot snapshot(const FastFtl& scheme) {
  Snapshot s{{},
             scheme.sequential_log(),
             scheme.sequential_lbn(),
             {scheme.random_log_blocks().begin(), scheme.random_log_blocks().end()}};
  for (uint32_t lbn = 0; lbn < scheme.logical_blocks(); ++lbn)
    s.data.push_back(scheme.data_block(lbn));
  return s;
}

// Every unit with data where FAST looks for it (the frame's invariants); data blocks holding
// their logical block's units at their offsets; the SW log block holding its logical block's
// units from offset 0 on, every page readable; the RW log blocks within the budget, every
// readable page naming a unit; no block in two roles.
void expect_fast_invariants(FtlDevice& device) {
  ASSERT_NO_FATAL_FAILURE(testing::check_block_scheme(device));
  const FastFtl& scheme = fast(device);
  const Geometry& g = device.geometry();
  const FlashArray& flash = device.flash();
  std::vector<bool> used(g.blocks(), false);
  const auto take = [&](BlockId b) {
    ASSERT_FALSE(used[b]) << "block " << b << " in two roles";
    used[b] = true;
  };
  for (uint32_t lbn = 0; lbn < scheme.logical_blocks(); ++lbn) {
    const BlockId b = scheme.data_block(lbn);
    if (b == kNone) continue;
    ASSERT_NO_FATAL_FAILURE(take(b));
    for (uint32_t p = 0; p < flash.write_pointer(b); ++p) {
      const PageId page = g.first_page(b) + p;
      if (!flash.readable(page) || flash.spare(page)[0] == kNone) continue;
      ASSERT_EQ(flash.spare(page)[0], lbn * g.pages_per_block + p) << "data block " << b;
    }
  }
  if (scheme.sequential_log() != kNone) {
    const BlockId sw = scheme.sequential_log();
    ASSERT_NO_FATAL_FAILURE(take(sw));
    ASSERT_GT(flash.write_pointer(sw), 0u);
    for (uint32_t p = 0; p < flash.write_pointer(sw); ++p) {
      const PageId page = g.first_page(sw) + p;
      ASSERT_TRUE(flash.readable(page)) << "SW log block " << sw;
      ASSERT_EQ(flash.spare(page)[0], scheme.sequential_lbn() * g.pages_per_block + p);
    }
  }
  ASSERT_LT(scheme.random_logs(), scheme.log_blocks());
  for (const BlockId b : scheme.random_log_blocks()) {
    ASSERT_NO_FATAL_FAILURE(take(b));
    for (uint32_t p = 0; p < flash.write_pointer(b); ++p) {
      const PageId page = g.first_page(b) + p;
      if (flash.readable(page)) {
        ASSERT_LT(flash.spare(page)[0], g.logical_units);
      }
    }
  }
}

TEST(FastPowerCuts, NothingDurableIsLostAndTheDeviceComesBack) {
  FtlDevice device(fast_platform(), testing::power_options());
  testing::PowerCutRig rig(device, 53);
  uint64_t remerged = 0;
  uint64_t merges = 0;
  for (int cut = 0; cut < 60; ++cut) {
    ASSERT_EQ(rig.run_random(300), 0u)
        << "cut " << cut << ": " << device.oracle()->first_mismatch();
    merges += device.stats().gc_invocations;
    const DurabilityCheck::Verdict verdict = rig.cut();
    ASSERT_EQ(verdict.lost_durable, 0u) << "cut " << cut << ": " << verdict.first_loss;
    ASSERT_EQ(verdict.units, device.geometry().logical_units);
    remerged += rig.last_recovery().programs;
    ASSERT_NO_FATAL_FAILURE(expect_fast_invariants(device)) << "cut " << cut;
  }
  EXPECT_GT(rig.totals().torn, 0u);
  EXPECT_GT(rig.totals().rolled_back, 0u);
  EXPECT_GT(rig.totals().current, 0u);
  EXPECT_GT(merges, 60u);
  EXPECT_GT(remerged, 0u);
  EXPECT_EQ(rig.run_random(3000), 0u) << device.oracle()->first_mismatch();
  ASSERT_NO_FATAL_FAILURE(expect_fast_invariants(device));
}

// A cut with nothing in flight: the data blocks, the SW log block and the RW log queue come back
// as they were, nothing is merged or erased, and every unit is current after the flush.
TEST(FastPowerCut, AQuietCutGivesBackEveryBlockInItsRole) {
  FtlDevice device(fast_platform(), testing::power_options());
  testing::PowerCutRig rig(device, 59);
  const uint32_t spu = device.geometry().sectors_per_unit;
  ASSERT_EQ(rig.run_random(2000), 0u);
  rig.run(CommandKind::kWrite, 0, 5 * spu);  // offset 0 of logical block 0: a SW log block
  rig.run(CommandKind::kFlush, 0, 0);
  const Snapshot before = snapshot(fast(device));
  ASSERT_NE(before.sw, kNone);
  ASSERT_GT(before.rw.size(), 1u);
  const DurabilityCheck::Verdict verdict = rig.cut_at(rig.all_done() + 1);
  EXPECT_EQ(verdict.lost_durable, 0u) << verdict.first_loss;
  EXPECT_EQ(verdict.rolled_back, 0u);
  EXPECT_EQ(verdict.current + verdict.trimmed_resurrected, verdict.units);
  EXPECT_EQ(rig.last_recovery().programs, 0u);
  const Snapshot after = snapshot(fast(device));
  EXPECT_EQ(after.data, before.data);
  EXPECT_EQ(after.sw, before.sw);
  EXPECT_EQ(after.sw_lbn, before.sw_lbn);
  // RW log blocks whose every page is stale may be reclaimed; the others keep their order.
  std::vector<BlockId> kept;
  for (const BlockId b : before.rw) {
    if (std::find(after.rw.begin(), after.rw.end(), b) != after.rw.end()) kept.push_back(b);
  }
  EXPECT_EQ(after.rw, kept);
  EXPECT_EQ(rig.last_recovery().erases, before.rw.size() - kept.size());
  ASSERT_NO_FATAL_FAILURE(expect_fast_invariants(device));
}

// Logical block 0 written, its first units rewritten in order (the SW log block), logical block
// 1 written, a unit of block 0 updated at random (a RW log page), flushed: writing offset 0 of
// block 1 then merges block 0's SW log block (a partial merge: copies behind its run, then the
// old data block's erase).
void sequential_run(testing::PowerCutRig& rig, const Geometry& g) {
  const uint32_t spu = g.sectors_per_unit;
  const uint32_t ppb = g.pages_per_block;
  rig.run(CommandKind::kWrite, 0, ppb * spu);
  rig.run(CommandKind::kWrite, 0, 6 * spu);
  rig.run(CommandKind::kWrite, uint64_t(ppb) * spu, ppb * spu);
  rig.run(CommandKind::kWrite, 9 * spu, spu);
  rig.run(CommandKind::kFlush, 0, 0);
}

// Many logical blocks written, then updates of units all different (none at offset 0, so none
// goes to the SW log block) until the RW log blocks fill the budget, so that one more update
// takes a new RW log block and full-merges the logical blocks of the oldest one's live pages;
// flushed.
constexpr uint32_t kBlocksWritten = 40;
void update(testing::PowerCutRig& rig, const Geometry& g, uint32_t i) {
  const uint64_t lun = (uint64_t(i) * 37) % (kBlocksWritten * g.pages_per_block);
  rig.run(CommandKind::kWrite, (lun % g.pages_per_block == 0 ? lun + 1 : lun) * g.sectors_per_unit,
          g.sectors_per_unit);
}
void fill_random_logs(testing::PowerCutRig& rig, const Geometry& g, uint32_t updates) {
  rig.run(CommandKind::kWrite, 0, kBlocksWritten * g.pages_per_block * g.sectors_per_unit);
  for (uint32_t i = 0; i < updates; ++i) update(rig, g, i);
  rig.run(CommandKind::kFlush, 0, 0);
}
// How many updates lead up to the one that full-merges.
uint32_t updates_before_full_merge(const config::PlatformConfig& p) {
  FtlDevice device(p, testing::power_options());
  testing::PowerCutRig rig(device, 61);
  fill_random_logs(rig, device.geometry(), 0);
  uint32_t updates = 0;
  for (; updates < 10000; ++updates) {
    update(rig, device.geometry(), updates);
    if (fast(device).merges().fulls > 0) break;
  }
  EXPECT_LT(updates, 10000u);
  return updates;
}

// Cuts spread over a partial merge and over a full merge, and the cases they leave: the old
// blocks only, a fresh block beside them (merged again), the merge complete. Every unit was
// durable before the merge started, so every one must come back.
TEST(FastPowerCut, AMergeCutAnywhereIsDoneAgainOrKept) {
  const config::PlatformConfig p = fast_platform();
  const Geometry g = Geometry::from_platform(p);
  const uint32_t updates = updates_before_full_merge(p);
  uint64_t remerged = 0;
  uint64_t torn_programs = 0;
  uint64_t torn_erases = 0;
  for (int merge = 0; merge < 2; ++merge) {
    for (int step = 0; step <= 20; ++step) {
      testing::CutInside c =
          merge == 0
              ? testing::cut_inside(
                    p, 61, [&](testing::PowerCutRig& rig) { sequential_run(rig, g); },
                    [&](testing::PowerCutRig& rig) {
                      rig.run(CommandKind::kWrite, uint64_t(g.pages_per_block) * g.sectors_per_unit,
                              g.sectors_per_unit);
                    },
                    step / 20.0)
              : testing::cut_inside(
                    p, 61, [&](testing::PowerCutRig& rig) { fill_random_logs(rig, g, updates); },
                    [&](testing::PowerCutRig& rig) { update(rig, g, updates); }, step / 20.0);
      EXPECT_EQ(c.verdict.lost_durable, 0u)
          << "merge " << merge << " step " << step << ": " << c.verdict.first_loss;
      remerged += c.rig->last_recovery().programs > 0;
      torn_programs += c.rig->last_cut().torn_programs;
      torn_erases += c.rig->last_cut().torn_erases;
      ASSERT_NO_FATAL_FAILURE(expect_fast_invariants(*c.device))
          << "merge " << merge << " step " << step;
    }
  }
  EXPECT_GT(remerged, 2u);
  EXPECT_GT(torn_programs, 0u);
  EXPECT_GT(torn_erases, 0u);
}

// A cut during a full merge, then a second cut at instants spread over the recovery's own
// merges: nothing durable is lost.
TEST(FastPowerCut, ASecondCutDuringARecoveryMergeIsSurvived) {
  const config::PlatformConfig p = fast_platform();
  const Geometry g = Geometry::from_platform(p);
  const uint32_t updates = updates_before_full_merge(p);
  const auto first_cut = [&](double share) {
    return testing::cut_inside(
        p, 61, [&](testing::PowerCutRig& rig) { fill_random_logs(rig, g, updates); },
        [&](testing::PowerCutRig& rig) { update(rig, g, updates); }, share);
  };
  double share = 0;
  for (int step = 1; step < 20 && share == 0; ++step) {
    if (first_cut(step / 20.0).rig->last_recovery().programs > 0) share = step / 20.0;
  }
  ASSERT_GT(share, 0) << "no cut left a merge to do again";
  uint64_t torn = 0;
  for (int step = 1; step <= 10; ++step) {
    testing::CutInside c = first_cut(share);
    ASSERT_EQ(c.verdict.lost_durable, 0u) << c.verdict.first_loss;
    const Picoseconds recovered = c.rig->all_done();
    const DurabilityCheck::Verdict second = c.rig->cut_at(c.at + (recovered - c.at) * step / 11);
    EXPECT_EQ(second.lost_durable, 0u) << "step " << step << ": " << second.first_loss;
    torn += c.rig->last_cut().torn_programs + c.rig->last_cut().torn_erases;
    ASSERT_NO_FATAL_FAILURE(expect_fast_invariants(*c.device)) << "step " << step;
  }
  EXPECT_GT(torn, 0u);
}

}  // namespace
}  // namespace ssd::ftl
