// DAC (ftl/dac/) on the tiny platform: where host writes go (first writes to the first region, a
// young rewrite one region hotter, an old one stays, the hottest region caps), that each region
// has a write point of its own, demotion of units GC copies, one region being exactly page
// mapping, the figures, and random and sequential commands on a full device against the
// integrity oracle with the allocator's invariants checked as they run.
#include "ftl/dac/dac_ftl.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "config/scenario_config.h"
#include "ftl/core/ftl_device.h"
#include "ftl/core/preconditioner.h"
#include "ftl/dac/dac_settings.h"
#include "tests/ftl/dac/dac_checks.h"
#include "tests/ftl/scheme_workloads.h"
#include "tests/ftl/tiny_platform.h"

namespace ssd::ftl {
namespace {

using testing::dac;
using testing::dac_platform;

uint64_t write_units(FtlDevice& device, Lun first, uint32_t units) {
  const uint32_t spu = device.geometry().sectors_per_unit;
  return testing::run_one(device, CommandKind::kWrite, uint64_t(first) * spu, units * spu);
}

MappingFigure figure(const FtlDevice& device, const std::string& name) {
  for (const MappingFigure& f : device.scheme().mapping_figures()) {
    if (f.name == name) return f;
  }
  ADD_FAILURE() << "no figure " << name;
  return {};
}

void check_invariants(FtlDevice& device) {
  ASSERT_NO_FATAL_FAILURE(testing::expect_dac_invariants(device));
}

TEST(DacFtl, FirstWritesGoToTheFirstRegion) {
  FtlDevice device(dac_platform(4), FtlDeviceOptions{});
  write_units(device, 0, 8);
  for (Lun lun = 0; lun < 8; ++lun) EXPECT_EQ(dac(device).region_of(lun), 0u);

  config::PlatformConfig p = dac_platform(4);
  p.ftl.settings.edit<DacSettings>().first_region = 2;
  FtlDevice warm(p, FtlDeviceOptions{});
  write_units(warm, 0, 8);
  for (Lun lun = 0; lun < 8; ++lun) EXPECT_EQ(dac(warm).region_of(lun), 2u);
}

TEST(DacFtl, AYoungRewriteClimbsOneRegionAnOldOneStays) {
  FtlDevice device(dac_platform(4, /*young_writes=*/10), FtlDeviceOptions{});
  write_units(device, 5, 1);
  ASSERT_EQ(dac(device).region_of(5), 0u);
  write_units(device, 5, 1);  // age 1: young
  EXPECT_EQ(dac(device).region_of(5), 1u);
  EXPECT_EQ(dac(device).promotions(), 1u);

  write_units(device, 100, 9);  // age of the next rewrite of 5: 10, still young
  write_units(device, 5, 1);
  EXPECT_EQ(dac(device).region_of(5), 2u);
  EXPECT_EQ(dac(device).promotions(), 2u);

  write_units(device, 200, 10);  // age 11: old
  write_units(device, 5, 1);
  EXPECT_EQ(dac(device).region_of(5), 2u);
  EXPECT_EQ(dac(device).promotions(), 2u);
  // The units written once stayed in the first region; the old rewrites count in their region.
  EXPECT_EQ(dac(device).host_units_by_region(), (std::vector<uint64_t>{20, 1, 2, 0}));
  EXPECT_EQ(testing::run_one(device, CommandKind::kRead, 0, 300 * 8), 0u);
}

TEST(DacFtl, TheHottestRegionCapsPromotion) {
  FtlDevice device(dac_platform(3, 4), FtlDeviceOptions{});
  for (int i = 0; i < 6; ++i) write_units(device, 7, 1);
  EXPECT_EQ(dac(device).region_of(7), 2u);
  EXPECT_EQ(dac(device).promotions(), 2u);
}

TEST(DacFtl, ATrimmedUnitStartsOverInTheFirstRegion) {
  FtlDevice device(dac_platform(4, 10), FtlDeviceOptions{});
  write_units(device, 3, 1);
  write_units(device, 3, 1);
  ASSERT_EQ(dac(device).region_of(3), 1u);
  const uint32_t spu = device.geometry().sectors_per_unit;
  testing::run_one(device, CommandKind::kTrim, 3 * spu, spu);
  EXPECT_EQ(dac(device).slot_of(3), kNone);
  write_units(device, 3, 1);
  EXPECT_EQ(dac(device).region_of(3), 0u);
}

TEST(DacFtl, EachRegionHasItsOwnWritePoint) {
  // Units 0..63 in region 0; units 64..127 written twice in a row, so in region 1; the two
  // regions never share a block.
  FtlDevice device(dac_platform(2, 1), FtlDeviceOptions{});
  write_units(device, 0, 64);
  for (Lun lun = 64; lun < 128; ++lun) {
    write_units(device, lun, 1);
    write_units(device, lun, 1);
  }
  const DacFtl& scheme = dac(device);
  const BlockManager& blocks = scheme.store().blocks();
  std::vector<int> region_of_block(device.geometry().blocks(), -1);
  for (Lun lun = 0; lun < 128; ++lun) {
    const uint32_t region = scheme.region_of(lun);
    EXPECT_EQ(region, lun < 64 ? 0u : 1u) << lun;
    int& seen = region_of_block[blocks.block_of_slot(scheme.slot_of(lun))];
    if (seen == -1) seen = int(region);
    EXPECT_EQ(seen, int(region)) << "unit " << lun << " shares a block with another region";
  }
}

// Units 0..1999 promoted to region 1 (each written twice in a row), a third of them rewritten
// there (so region 1's blocks hold garbage, on every die: the host stripes units over dies);
// then cold random overwrites of the rest of the device make GC take region-1 blocks too: the
// units it copies out of them must move to region 0, and none ever moves into region 1.
TEST(DacFtl, GcCopiesMoveUnitsOneRegionColder) {
  FtlDevice device(dac_platform(2, 1), FtlDeviceOptions{});
  const Geometry& g = device.geometry();
  constexpr Lun kHot = 2000;
  for (Lun lun = 0; lun < kHot; ++lun) {
    write_units(device, lun, 1);
    write_units(device, lun, 1);
  }
  for (Lun lun = 0; lun < kHot; lun += 3) write_units(device, lun, 1);
  for (Lun lun = 0; lun < kHot; ++lun) ASSERT_EQ(dac(device).region_of(lun), 1u);
  ASSERT_EQ(dac(device).demotions(), 0u);
  const uint64_t gc_copies_before = dac(device).stats().gc_units_copied;

  write_units(device, kHot, static_cast<uint32_t>(g.logical_units - kHot));
  Random random(7);
  for (int i = 0; i < 60'000; ++i) {
    write_units(device, kHot + static_cast<Lun>(random.below(g.logical_units - kHot)), 1);
  }
  check_invariants(device);
  EXPECT_GT(dac(device).stats().gc_units_copied, gc_copies_before);
  uint32_t demoted = 0;
  for (Lun lun = 0; lun < kHot; ++lun) demoted += dac(device).region_of(lun) == 0 ? 1 : 0;
  EXPECT_GT(demoted, 0u);
  // Also cold units a chance back-to-back rewrite promoted may have fallen back.
  EXPECT_GE(dac(device).demotions(), demoted);
  EXPECT_EQ(dac(device).gc_units_by_region()[1], 0u);
  EXPECT_EQ(figure(device, "demotions").value, double(dac(device).demotions()));
  EXPECT_EQ(testing::run_one(device, CommandKind::kRead, 0, kHot * g.sectors_per_unit), 0u);
}

// With one region DAC is page mapping: the same workload gives the same flash work, unit for
// unit, and the same mapping memory.
TEST(DacFtl, OneRegionIsPageMapping) {
  config::PlatformConfig page_platform = testing::tiny_platform(2048);
  config::PlatformConfig dac_one = dac_platform(1, 0, 2048);
  FtlDevice page(page_platform, FtlDeviceOptions{});
  FtlDevice one(dac_one, FtlDeviceOptions{});
  config::PreconditionConfig fill;
  fill.fill_ratio = 1.0;
  fill.overwrite_ratio = 0.5;
  precondition(page, fill);
  precondition(one, fill);
  const auto no_check = [] {};
  EXPECT_EQ(testing::run_random(page, 100'000, 11, no_check), 0u);
  EXPECT_EQ(testing::run_random(one, 100'000, 11, no_check), 0u);

  const FtlStats& a = page.scheme().stats();
  const FtlStats& b = one.scheme().stats();
  EXPECT_GT(a.gc_invocations, 1000u);
  EXPECT_EQ(a.gc_invocations, b.gc_invocations);
  EXPECT_EQ(a.gc_units_copied, b.gc_units_copied);
  EXPECT_EQ(a.gc_erases, b.gc_erases);
  for (int c = 0; c < kOpClasses; ++c) {
    EXPECT_EQ(page.backend().written().units[c], one.backend().written().units[c]) << c;
  }
  EXPECT_EQ(page.backend().written().padded, one.backend().written().padded);
  EXPECT_EQ(page.scheme().mapping_memory_bytes(), one.scheme().mapping_memory_bytes());
  EXPECT_EQ(dac(one).promotions(), 0u);
  EXPECT_EQ(dac(one).demotions(), 0u);
}

TEST(DacFtl, MappingMemoryCountsRegionAndStampPerUnit) {
  FtlDevice device(dac_platform(4), FtlDeviceOptions{});
  const Geometry& g = device.geometry();
  EXPECT_EQ(DacFtl::metadata_bits_per_unit(1), 0u);
  EXPECT_EQ(DacFtl::metadata_bits_per_unit(2), 33u);
  EXPECT_EQ(DacFtl::metadata_bits_per_unit(4), 34u);
  EXPECT_EQ(DacFtl::metadata_bits_per_unit(5), 35u);
  EXPECT_EQ(DacFtl::metadata_bits_per_unit(8), 35u);
  // 8192 slots: two-byte entries.
  EXPECT_EQ(device.scheme().mapping_memory_bytes(),
            g.logical_units * 2 + (g.logical_units * 34 + 7) / 8);
  EXPECT_EQ(dac(device).young_writes(), g.logical_units / 4);
}

TEST(DacFtl, FiguresNameEveryRegion) {
  FtlDevice device(dac_platform(4, 10), FtlDeviceOptions{});
  write_units(device, 0, 4);
  write_units(device, 0, 2);
  EXPECT_EQ(figure(device, "regions").value, 4.0);
  EXPECT_EQ(figure(device, "young_writes").value, 10.0);
  EXPECT_EQ(figure(device, "promotions").value, 2.0);
  EXPECT_EQ(figure(device, "host_units_by_region").counts, (std::vector<uint64_t>{4, 2, 0, 0}));
  EXPECT_EQ(figure(device, "gc_units_by_region").counts, (std::vector<uint64_t>{0, 0, 0, 0}));
  EXPECT_EQ(figure(device, "live_units_by_region").counts, (std::vector<uint64_t>{2, 2, 0, 0}));
}

// Random and sequential commands on a full device, GC running all the time, against the oracle:
// one and two units per page, with and without copy-back (whole pages moving inside the die
// into the GC stream of their region), incremental and blocking GC.
struct OracleCase {
  uint32_t unit_bytes;
  bool copyback;
  const char* gc_mode;
  const char* name;
};

class DacOracleTest : public ::testing::TestWithParam<OracleCase> {};

TEST_P(DacOracleTest, RandomCommandsOnAFullDevice) {
  config::PlatformConfig p = dac_platform(4, 0, GetParam().unit_bytes);
  p.nand.copyback = GetParam().copyback;
  p.ftl.gc_mode = GetParam().gc_mode;
  FtlDevice device(p, FtlDeviceOptions{});
  config::PreconditionConfig fill;
  fill.fill_ratio = 1.0;
  fill.overwrite_ratio = 0.5;
  precondition(device, fill);
  check_invariants(device);
  const auto check = [&] { check_invariants(device); };
  EXPECT_EQ(testing::run_random(device, 300'000, 42, check, 50'000), 0u)
      << device.oracle()->first_mismatch();
  EXPECT_GT(device.oracle()->checked_reads(), 75'000u);
  EXPECT_GT(device.scheme().stats().gc_invocations, 1000u);
  EXPECT_GT(dac(device).promotions(), 0u);
  EXPECT_GT(dac(device).demotions(), 0u);
}

TEST_P(DacOracleTest, SequentialStreams) {
  config::PlatformConfig p = dac_platform(4, 0, GetParam().unit_bytes);
  p.nand.copyback = GetParam().copyback;
  p.ftl.gc_mode = GetParam().gc_mode;
  FtlDevice device(p, FtlDeviceOptions{});
  const auto check = [&] { check_invariants(device); };
  EXPECT_EQ(testing::run_sequential(device, 200'000, 3, check, 50'000), 0u)
      << device.oracle()->first_mismatch();
  EXPECT_GT(device.scheme().stats().gc_invocations, 100u);
}

INSTANTIATE_TEST_SUITE_P(
    Platforms, DacOracleTest,
    ::testing::Values(OracleCase{0, false, "incremental", "UnitIsPage"},
                      OracleCase{2048, false, "incremental", "TwoUnitsPerPage"},
                      OracleCase{2048, true, "incremental", "TwoUnitsPerPageCopyBack"},
                      OracleCase{0, false, "blocking", "BlockingGc"}),
    [](const auto& info) { return std::string(info.param.name); });

// Blocks of two pages of eight 1 KiB units with 7 % over-provisioning: victims seldom free a page
// alone, so GC packs several (GarbageCollector::compact) into the streams of their regions.
TEST(DacFtlSmallBlocks, GcPacksVictimsIntoSeveralStreams) {
  config::PlatformConfig p = dac_platform(2, 0, 1024);
  p.nand.page_bytes = 8192;
  p.nand.pages_per_block = 2;
  p.nand.blocks_per_plane = 256;
  p.ftl.over_provisioning = 0.07;
  FtlDevice device(p, FtlDeviceOptions{});
  config::PreconditionConfig fill;
  fill.fill_ratio = 1.0;
  fill.overwrite_ratio = 1.0;
  precondition(device, fill);
  const auto check = [&] { check_invariants(device); };
  EXPECT_EQ(testing::run_random(device, 100'000, 5, check, 50'000), 0u)
      << device.oracle()->first_mismatch();
  EXPECT_GT(device.scheme().stats().gc_invocations, 5'000u);
}

}  // namespace
}  // namespace ssd::ftl
