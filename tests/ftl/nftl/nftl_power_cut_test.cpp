// NFTL through power cuts: each virtual block's primary and replacement blocks are found again
// from the spare areas (allocation sequence, replacement mark), a fold the cut interrupted is done
// again, and nothing a completed flush made durable is lost, with or without a translation cache.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ftl/core/ftl_device.h"
#include "ftl/nftl/nftl.h"
#include "ftl/nftl/nftl_settings.h"
#include "tests/ftl/block/cut_inside.h"
#include "tests/ftl/hybrid/block_scheme_fixture.h"
#include "tests/ftl/power/power_cut_rig.h"
#include "tests/ftl/tiny_platform.h"

namespace ssd::ftl {
namespace {

config::PlatformConfig nftl_platform(const std::string& cache = "none") {
  config::PlatformConfig p = testing::tiny_platform();
  p.ftl.scheme = "nftl";
  p.ftl.settings.edit<NftlSettings>().cache = cache;
  p.ftl.settings.edit<NftlSettings>().cache_bytes = 16 * 1024;
  return p;
}

const Nftl& nftl(const FtlDevice& device) { return dynamic_cast<const Nftl&>(device.scheme()); }

// Every unit with data where NFTL looks for it (the frame's invariants), and every chain well
// formed: a replacement only behind a primary, a primary's readable pages holding the virtual
// block's units at their offsets, a replacement's readable pages holding the virtual block's
// units, no block in two chains.
void expect_nftl_invariants(FtlDevice& device) {
  ASSERT_NO_FATAL_FAILURE(testing::check_block_scheme(device));
  const Nftl& scheme = nftl(device);
  const Geometry& g = device.geometry();
  std::vector<bool> used(g.blocks(), false);
  for (uint32_t vba = 0; vba < scheme.logical_blocks(); ++vba) {
    const BlockId primary = scheme.primary(vba);
    const BlockId replacement = scheme.replacement(vba);
    if (replacement != kNone) {
      ASSERT_NE(primary, kNone) << "vba " << vba;
    }
    for (const BlockId b : {primary, replacement}) {
      if (b == kNone) continue;
      ASSERT_FALSE(used[b]) << "block " << b << " in two chains";
      used[b] = true;
      for (uint32_t p = 0; p < device.flash().write_pointer(b); ++p) {
        const PageId page = g.first_page(b) + p;
        const Lun lun = device.flash().spare(page)[0];
        if (!device.flash().readable(page) || lun == kNone) continue;
        ASSERT_EQ(lun / g.pages_per_block, vba) << "block " << b << " page " << p;
        if (b == primary) {
          ASSERT_EQ(lun % g.pages_per_block, p) << "primary " << b;
        }
      }
    }
  }
}

class NftlPowerCuts : public ::testing::TestWithParam<std::string> {};

TEST_P(NftlPowerCuts, NothingDurableIsLostAndTheDeviceComesBack) {
  FtlDevice device(nftl_platform(GetParam()), testing::power_options());
  testing::PowerCutRig rig(device, 31);
  uint64_t finished = 0;
  uint64_t folds = 0;
  for (int cut = 0; cut < 60; ++cut) {
    ASSERT_EQ(rig.run_random(300), 0u)
        << "cut " << cut << ": " << device.oracle()->first_mismatch();
    folds += device.stats().gc_invocations;
    const DurabilityCheck::Verdict verdict = rig.cut();
    ASSERT_EQ(verdict.lost_durable, 0u) << "cut " << cut << ": " << verdict.first_loss;
    ASSERT_EQ(verdict.units, device.geometry().logical_units);
    finished += rig.last_recovery().programs;
    ASSERT_NO_FATAL_FAILURE(expect_nftl_invariants(device)) << "cut " << cut;
  }
  // The cuts fell where they matter: pages torn, recent writes lost, folds running throughout
  // and some interrupted and done again by recoveries.
  EXPECT_GT(rig.totals().torn, 0u);
  EXPECT_GT(rig.totals().rolled_back, 0u);
  EXPECT_GT(rig.totals().current, 0u);
  EXPECT_GT(folds, 60u);
  EXPECT_GT(finished, 0u);
  // And the device goes on serving correctly after all of them (the cache too).
  EXPECT_EQ(rig.run_random(3000), 0u) << device.oracle()->first_mismatch();
  ASSERT_NO_FATAL_FAILURE(expect_nftl_invariants(device));
}

INSTANTIATE_TEST_SUITE_P(Caches, NftlPowerCuts, ::testing::Values("none", "lmt-scwr", "lru"));

// A cut with nothing in flight: every chain comes back as it was (the replacement blocks told
// from primaries by their mark, not by where their pages sit), nothing is folded, and every unit
// is current after the flush.
TEST(NftlPowerCut, AQuietCutGivesBackEveryChainAsItWas) {
  FtlDevice device(nftl_platform(), testing::power_options());
  testing::PowerCutRig rig(device, 37);
  const uint32_t spu = device.geometry().sectors_per_unit;
  const uint32_t ppb = device.geometry().pages_per_block;
  ASSERT_EQ(rig.run_random(2000), 0u);
  // A sequential rewrite of a whole virtual block fills its replacement block page for page at
  // the units' offsets, just as a primary would be.
  rig.run(CommandKind::kWrite, 3 * ppb * spu, ppb * spu);
  rig.run(CommandKind::kWrite, 3 * ppb * spu, (ppb - 1) * spu);
  rig.run(CommandKind::kFlush, 0, 0);
  const Nftl& before = nftl(device);
  ASSERT_NE(before.replacement(3), kNone);
  std::vector<BlockId> chains;
  uint32_t replacements = 0;
  for (uint32_t vba = 0; vba < before.logical_blocks(); ++vba) {
    chains.push_back(before.primary(vba));
    chains.push_back(before.replacement(vba));
    replacements += before.replacement(vba) != kNone;
  }
  ASSERT_GT(replacements, 1u);
  const DurabilityCheck::Verdict verdict = rig.cut_at(rig.all_done() + 1);
  EXPECT_EQ(verdict.lost_durable, 0u) << verdict.first_loss;
  EXPECT_EQ(verdict.rolled_back, 0u);
  EXPECT_EQ(verdict.current + verdict.trimmed_resurrected, verdict.units);
  EXPECT_EQ(rig.last_recovery().programs, 0u);
  EXPECT_EQ(rig.last_recovery().erases, 0u);
  const Nftl& after = nftl(device);
  for (uint32_t vba = 0; vba < after.logical_blocks(); ++vba) {
    EXPECT_EQ(after.primary(vba), chains[2 * vba]) << "vba " << vba;
    EXPECT_EQ(after.replacement(vba), chains[2 * vba + 1]) << "vba " << vba;
  }
  ASSERT_NO_FATAL_FAILURE(expect_nftl_invariants(device));
}

// Virtual block 0 written, its replacement block filled by rewrites, flushed: the next rewrite
// folds it (reads, copies into a fresh block, then erases of the old primary and replacement).
void fill_replacement(testing::PowerCutRig& rig, const Geometry& g) {
  const uint32_t spu = g.sectors_per_unit;
  rig.run(CommandKind::kWrite, 0, g.pages_per_block * spu);
  for (uint32_t i = 0; i < g.pages_per_block; ++i) {
    rig.run(CommandKind::kWrite, uint64_t((i * 5) % g.pages_per_block) * spu, spu);
  }
  rig.run(CommandKind::kFlush, 0, 0);
}

// Cuts at instants spread over one fold: mid-program of the fresh block, between its programs
// and the erases, mid-erase. Every unit was durable before the fold started, so every one must
// come back, whether the recovery keeps the old chain (the fold had not reached the flash, or
// tore a page of the fresh block), finishes the fold in its fresh block (programs), or finds it
// complete.
TEST(NftlPowerCut, AFoldCutAnywhereIsFinishedOrKept) {
  const config::PlatformConfig p = nftl_platform();
  const Geometry g = Geometry::from_platform(p);
  uint64_t kept = 0;
  uint64_t complete = 0;
  uint64_t finished = 0;
  uint64_t torn_programs = 0;
  uint64_t torn_erases = 0;
  for (int step = 0; step <= 20; ++step) {
    testing::CutInside c = testing::cut_inside(
        p, 41, [&](testing::PowerCutRig& rig) { fill_replacement(rig, g); },
        [&](testing::PowerCutRig& rig) {
          rig.run(CommandKind::kWrite, 7 * g.sectors_per_unit, g.sectors_per_unit);
        },
        step / 20.0);
    EXPECT_EQ(c.verdict.lost_durable, 0u) << "step " << step << ": " << c.verdict.first_loss;
    // Every unit but the one the fold was writing is as the flush left it.
    EXPECT_GE(c.verdict.current + c.verdict.rolled_back, g.pages_per_block) << "step " << step;
    torn_programs += c.rig->last_cut().torn_programs;
    torn_erases += c.rig->last_cut().torn_erases;
    ASSERT_NO_FATAL_FAILURE(expect_nftl_invariants(*c.device)) << "step " << step;
    const bool finishes = c.rig->last_recovery().programs > 0;
    const bool old_chain = nftl(*c.device).replacement(0) != kNone;
    EXPECT_FALSE(finishes && old_chain) << "step " << step;
    finished += finishes;  // finished in its fresh block (or, rarely, done again)
    kept += old_chain;
    complete += !finishes && !old_chain;
  }
  EXPECT_GT(kept, 0u);
  EXPECT_GT(complete, 0u);
  EXPECT_GT(finished, 2u);
  EXPECT_GT(torn_programs, 0u);
  EXPECT_GT(torn_erases, 0u);
}

// A cut during a fold, then a second cut during the recovery's finishing of it, at instants spread
// over that: the second recovery finds the fold cut short again, and loses nothing.
TEST(NftlPowerCut, ASecondCutDuringARecoveryFoldIsSurvived) {
  const config::PlatformConfig p = nftl_platform();
  const Geometry g = Geometry::from_platform(p);
  const auto first_cut = [&] {
    return testing::cut_inside(
        p, 43, [&](testing::PowerCutRig& rig) { fill_replacement(rig, g); },
        [&](testing::PowerCutRig& rig) {
          rig.run(CommandKind::kWrite, 7 * g.sectors_per_unit, g.sectors_per_unit);
        },
        0.5);
  };
  const testing::CutInside probe = first_cut();
  ASSERT_EQ(probe.verdict.lost_durable, 0u) << probe.verdict.first_loss;
  ASSERT_GT(probe.rig->last_recovery().programs, 0u);  // the recovery finishes the fold
  uint64_t torn = 0;
  for (int step = 1; step <= 10; ++step) {
    testing::CutInside c = first_cut();
    const Picoseconds recovered = c.rig->all_done();
    const Picoseconds at = c.at + (recovered - c.at) * step / 11;
    const DurabilityCheck::Verdict second = c.rig->cut_at(at);
    EXPECT_EQ(second.lost_durable, 0u) << "step " << step << ": " << second.first_loss;
    torn += c.rig->last_cut().torn_programs + c.rig->last_cut().torn_erases;
    ASSERT_NO_FATAL_FAILURE(expect_nftl_invariants(*c.device)) << "step " << step;
  }
  EXPECT_GT(torn, 0u);
}

// The check catches a recovery that misses data: here a replacement block holding the newest
// copies is erased behind the recovery's back (as if it had taken it for garbage), after a flush
// made its units durable.
TEST(NftlPowerCut, ARecoveryThatDropsAReplacementBlockIsCaught) {
  FtlDevice device(nftl_platform(), testing::power_options());
  testing::PowerCutRig rig(device, 47);
  fill_replacement(rig, device.geometry());
  const uint32_t spu = device.geometry().sectors_per_unit;
  rig.run(CommandKind::kWrite, 3 * spu, spu);  // folded: a fresh primary
  rig.run(CommandKind::kWrite, 3 * spu, spu);  // and a new replacement block
  rig.run(CommandKind::kFlush, 0, 0);
  const BlockId replacement = nftl(device).replacement(0);
  ASSERT_NE(replacement, kNone);
  device.flash().set_journal(false);
  device.flash().erase(replacement);
  device.flash().set_journal(true);
  const DurabilityCheck::Verdict verdict = rig.cut_at(rig.all_done());
  EXPECT_GT(verdict.lost_durable, 0u);
  EXPECT_FALSE(verdict.first_loss.empty());
}

}  // namespace
}  // namespace ssd::ftl
