// Sampled aging (precondition.aging = sampled, ftl/core/sampled_aging.h): the device takes the
// miniature's blocks die by die (programmed pages, erase counts, valid slots, the stream writing
// each open block), every filled unit reads back what the fill wrote and goes on being served,
// the same seed gives the same flash, and the device then ages as one aged by simulation does.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <tuple>
#include <vector>

#include "ftl/core/ftl_device.h"
#include "ftl/core/preconditioner.h"
#include "ftl/core/sampled_aging.h"
#include "ftl/page/page_mapping.h"
#include "tests/ftl/power/power_cut_rig.h"
#include "tests/ftl/power/stream_blocks.h"
#include "tests/ftl/scheme_workloads.h"
#include "tests/ftl/tiny_platform.h"

namespace ssd::ftl {
namespace {

using testing::half_overwritten;

// One plane's blocks as a sorted list of (programmed pages, erase count, valid units, stream).
using BlockKey = std::tuple<uint32_t, uint32_t, uint32_t, uint32_t>;
std::vector<BlockKey> plane_blocks(const AgedPlanes& aged, uint32_t plane) {
  std::vector<BlockKey> keys;
  for (uint32_t b = 0; b < aged.blocks_per_plane; ++b) {
    const uint64_t block = uint64_t{plane} * aged.blocks_per_plane + b;
    uint32_t valid = 0;
    for (uint32_t u = 0; u < aged.units_per_block; ++u) valid += aged.valid(block, u) ? 1 : 0;
    keys.emplace_back(aged.programmed_pages[block], aged.erase_counts[block], valid,
                      aged.open_in_stream[block]);
  }
  std::sort(keys.begin(), keys.end());
  return keys;
}

AgedPlanes planes_of(const FtlDevice& device) {
  AgedPlanes aged;
  EXPECT_TRUE(device.scheme().describe_aged_planes(aged));
  return aged;
}

// Every unit read back through the scheme, one command of `units` units at a time.
uint64_t read_everything(FtlDevice& device, uint32_t units = 16) {
  const Geometry& g = device.geometry();
  uint64_t mismatches = 0;
  HostCommand read;
  read.kind = CommandKind::kRead;
  for (uint64_t lun = 0; lun < g.logical_units; lun += units) {
    read.start_sector = lun * g.sectors_per_unit;
    read.sector_count = static_cast<uint32_t>(std::min<uint64_t>(units, g.logical_units - lun) *
                                              g.sectors_per_unit);
    mismatches += device.run(read);
  }
  return mismatches;
}

// Units GC moved per unit the host wrote over `writes` random single-unit writes.
double waf_of_overwrites(FtlDevice& device, uint64_t writes, uint64_t seed) {
  return 1.0 + testing::gc_copies_per_write(device, writes, seed);
}

TEST(SampledAging, EveryDieTakesTheMiniaturesBlocksAndStreams) {
  // 4 dies of 2 planes; the miniature of one die holds a quarter of the units exactly (6144 =
  // 4 x 1536), so every plane's valid slots are the miniature plane's.
  const config::PlatformConfig platform = testing::tiny_platform();
  const AgedPlanes miniature = age_miniature(platform, half_overwritten());
  ASSERT_EQ(miniature.planes, platform.nand.planes_per_die);
  FtlDevice device(platform, FtlDeviceOptions{});
  const PreconditionResult result = precondition(device, half_overwritten());
  EXPECT_TRUE(result.aged_by_sampling);
  const AgedPlanes aged = planes_of(device);
  ASSERT_EQ(aged.planes, device.geometry().planes());
  uint32_t open_blocks = 0;
  for (uint32_t plane = 0; plane < aged.planes; ++plane) {
    const std::vector<BlockKey> expected = plane_blocks(miniature, plane % miniature.planes);
    EXPECT_EQ(plane_blocks(aged, plane), expected) << "plane " << plane;
    for (const BlockKey& key : expected) open_blocks += std::get<3>(key) != StreamCodes::kNone;
  }
  EXPECT_GT(open_blocks, 0u);  // the streams' blocks were carried over, not handed out anew
}

TEST(SampledAging, EveryUnitReadsBackAndTheDeviceGoesOn) {
  for (const uint32_t unit_bytes : {0u, 2048u}) {  // one and two units per page
    const config::PlatformConfig platform = testing::tiny_platform(unit_bytes);
    FtlDevice device(platform, FtlDeviceOptions{});
    precondition(device, half_overwritten("sampled", 7, 2));
    EXPECT_EQ(read_everything(device), 0u) << unit_bytes;
    EXPECT_GT(device.oracle()->checked_reads(), 0u);
    waf_of_overwrites(device, 20000, 3);  // GC runs over the laid-out blocks
    EXPECT_EQ(read_everything(device, 1), 0u) << unit_bytes;
  }
}

TEST(SampledAging, TheSeedDecidesTheState) {
  const config::PlatformConfig platform = testing::tiny_platform();
  FtlDevice a(platform, FtlDeviceOptions{});
  FtlDevice b(platform, FtlDeviceOptions{});
  FtlDevice c(platform, FtlDeviceOptions{});
  precondition(a, half_overwritten("sampled", 7));
  precondition(b, half_overwritten("sampled", 7));
  precondition(c, half_overwritten("sampled", 8));
  const auto spare_words = [](FtlDevice& device) {
    std::vector<uint32_t> words;
    const FlashArray& flash = device.flash();
    for (PageId page = 0; page < device.geometry().pages(); ++page) {
      words.insert(words.end(), flash.spare(page),
                   flash.spare(page) + flash.spare_words_per_page());
    }
    return words;
  };
  EXPECT_EQ(spare_words(a), spare_words(b));
  EXPECT_NE(spare_words(a), spare_words(c));
}

TEST(SampledAging, AgesAsSimulatedAgingDoes) {
  // A larger device, 4 dies of 2 planes of 256 blocks (65,536 slots): after sampled and after
  // simulated aging, the write amplification of the next 10,000 random writes (the aged state's
  // valid units per block decide it) agrees within 3 %; a device only filled, whose free space
  // takes the first writes, is far from both.
  constexpr uint64_t kWrites = 10000;
  config::PlatformConfig platform = testing::tiny_platform();
  platform.nand.blocks_per_plane = 256;
  platform.nand.pages_per_block = 32;
  platform.ftl.over_provisioning = 0.1;
  FtlDeviceOptions options;
  options.oracle = false;
  FtlDevice by_sampling(platform, options);
  FtlDevice by_simulation(platform, options);
  FtlDevice filled(platform, options);
  precondition(by_sampling, half_overwritten());
  config::PreconditionConfig simulated = half_overwritten();
  simulated.aging = "simulated";
  precondition(by_simulation, simulated);
  config::PreconditionConfig fill_only = simulated;
  fill_only.overwrite_ratio = 0;
  precondition(filled, fill_only);
  const double sampled_waf = waf_of_overwrites(by_sampling, kWrites, 5);
  const double simulated_waf = waf_of_overwrites(by_simulation, kWrites, 5);
  const double filled_waf = waf_of_overwrites(filled, kWrites, 5);
  EXPECT_NEAR(sampled_waf / simulated_waf, 1.0, 0.03)
      << "sampled " << sampled_waf << ", simulated " << simulated_waf;
  EXPECT_GT(std::abs(filled_waf / simulated_waf - 1.0), 0.05) << "filled " << filled_waf;
}

TEST(SampledAging, OnlyOnADeviceThatHasServedNothing) {
  const config::PlatformConfig platform = testing::tiny_platform();
  const AgedPlanes miniature = age_miniature(platform, half_overwritten());
  FtlDevice device(platform, FtlDeviceOptions{});
  HostCommand write;
  write.kind = CommandKind::kWrite;
  write.sector_count = device.geometry().sectors_per_unit;
  device.run(write);
  EXPECT_FALSE(device.lay_out_aged(miniature, device.geometry().logical_units, 256, 7));
}

// A device that may lose power is laid out with its pages' sequence numbers and stream bits: a
// cut right after the aging finds every unit as laid out and gives each stream back the block it
// was writing, and cuts among the writes that follow lose nothing durable.
TEST(SampledAging, ADeviceThatMayLosePowerRecoversFromTheLayout) {
  const config::PlatformConfig platform = testing::tiny_platform();
  FtlDevice device(platform, testing::power_options());
  ASSERT_TRUE(precondition(device, half_overwritten()).aged_by_sampling);
  const Geometry& g = device.geometry();
  const auto store = [&]() -> const PageStore& {
    return dynamic_cast<const PageMapping&>(device.scheme()).store();
  };
  const std::vector<StreamCode> streams = {StreamCodes::host(0), StreamCodes::gc(0)};
  const std::vector<BlockId> laid_out =
      testing::partly_written_stream_blocks(store(), device.flash(), streams);
  ASSERT_GT(testing::planes_with_block(laid_out, 0, g.planes()) +
                testing::planes_with_block(laid_out, 1, g.planes()),
            1u);
  testing::PowerCutRig rig(device, 5);
  DurabilityCheck::Verdict verdict = rig.cut_at(1);
  EXPECT_EQ(verdict.lost_durable, 0u) << verdict.first_loss;
  EXPECT_EQ(verdict.current, g.logical_units);  // each unit as laid out
  testing::expect_streams_write(store(), streams, laid_out);
  for (int cut = 0; cut < 20; ++cut) {
    ASSERT_EQ(rig.run_random(700), 0u)
        << "cut " << cut << ": " << device.oracle()->first_mismatch();
    verdict = rig.cut();
    ASSERT_EQ(verdict.lost_durable, 0u) << "cut " << cut << ": " << verdict.first_loss;
  }
  EXPECT_GT(device.stats().gc_erases, 0u);
  EXPECT_GT(rig.totals().torn, 0u);
}

TEST(SampledAging, AMiniatureOfAnotherGeometryIsRefused) {
  config::PlatformConfig platform = testing::tiny_platform();
  const AgedPlanes miniature = age_miniature(platform, half_overwritten());
  platform.nand.blocks_per_plane = 32;
  FtlDevice device(platform, FtlDeviceOptions{});
  EXPECT_FALSE(device.lay_out_aged(miniature, device.geometry().logical_units, 256, 7));
}

}  // namespace
}  // namespace ssd::ftl
