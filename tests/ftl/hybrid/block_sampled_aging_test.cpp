// Block mapping, NFTL and FAST aged by sampling (precondition.aging = sampled,
// ftl/hybrid/block_aged.cpp): every copy of the miniature holds its logical blocks' newest pages
// at the same offsets of blocks like the miniature's, on the copy's own planes; the oracle finds
// every unit, then and through a random workload after it; a partial fill lays out its units only;
// and the next writes cost about what they cost after simulated aging.
#include <gtest/gtest.h>

#include <cstdint>
#include <deque>
#include <numeric>
#include <string>
#include <vector>

#include "ftl/core/ftl_device.h"
#include "ftl/core/preconditioner.h"
#include "ftl/core/sampled_aging.h"
#include "ftl/fast/fast_ftl.h"
#include "ftl/hybrid/block_scheme.h"
#include "tests/ftl/aging_case.h"
#include "tests/ftl/hybrid/block_scheme_fixture.h"
#include "tests/ftl/power/power_cut_rig.h"
#include "tests/ftl/scheme_workloads.h"
#include "tests/ftl/tiny_platform.h"

namespace ssd::ftl {
namespace {

using testing::half_overwritten;

using Case = testing::AgingCase;

// 4 dies of 256 blocks of 32 pages per plane: the one-die miniature is a quarter of the device.
config::PlatformConfig aging_platform(const Case& c) {
  return testing::aging_room_with(c.scheme, c.planes_per_die);
}

const BlockScheme& block_scheme(FtlDevice& device) {
  return dynamic_cast<const BlockScheme&>(device.scheme());
}

class BlockSampledAging : public ::testing::TestWithParam<Case> {};

TEST_P(BlockSampledAging, EveryCopyHoldsTheMiniaturesNewestPagesWhereItDid) {
  const config::PlatformConfig platform = aging_platform(GetParam());
  const AgedPlanes miniature = age_miniature(platform, half_overwritten());
  FtlDevice device(platform, FtlDeviceOptions{});
  ASSERT_TRUE(precondition(device, half_overwritten()).aged_by_sampling);
  ASSERT_NO_FATAL_FAILURE(testing::check_block_scheme(device));

  const Geometry& g = device.geometry();
  const Geometry mini = Geometry::from_platform(miniature_platform(platform, 1));
  const uint32_t copies = g.planes() / miniature.planes;
  ASSERT_EQ(copies, 4u);
  ASSERT_EQ(miniature.block_roles.size(), mini.blocks());
  // The device's logical block for the miniature's `lbn` in `copy`: the same stripe row, homed on
  // the copy's counterpart of the plane the miniature homes it on.
  const auto device_lbn = [&](uint32_t copy, uint32_t lbn) -> uint64_t {
    const uint32_t plane =
        copy * miniature.planes + mini.plane_in_stripe_order(lbn % miniature.planes);
    uint32_t position = 0;
    while (g.plane_in_stripe_order(position) != plane) ++position;
    return uint64_t{lbn / miniature.planes} * g.planes() + position;
  };
  // FAST's one sequential log block stays in copy 0; the other copies write its logical block
  // afresh.
  uint32_t sequential_lbn = kNone;
  for (BlockId block = 0; block < mini.blocks() && GetParam().scheme == "fast"; ++block) {
    if (miniature.block_roles[block] == FastFtl::kSequentialLogRole) {
      sequential_lbn = miniature.block_lbns[block];
    }
  }
  const BlockScheme& scheme = block_scheme(device);
  const uint32_t ppb = g.pages_per_block;
  std::vector<uint64_t> shared_copies(copies, 0);  // units found in each copy's shared blocks
  uint64_t newest = 0;                             // the miniature's newest pages
  uint64_t found = 0;                              // ... whose copies were checked
  for (BlockId block = 0; block < mini.blocks(); ++block) {
    for (uint32_t p = 0; p < miniature.programmed_pages[block]; ++p) {
      if (!miniature.valid(block, p)) continue;
      ++newest;
      const Lun mini_lun = miniature.slot_units[uint64_t{block} * ppb + p];
      for (uint32_t copy = 0; copy < copies; ++copy) {
        // The miniature's short last logical block, and one beyond the device's last whole
        // one, are written afresh.
        if ((mini_lun / ppb + 1) * ppb > mini.logical_units) continue;
        const uint64_t lbn = device_lbn(copy, mini_lun / ppb);
        if ((lbn + 1) * ppb > g.logical_units) continue;
        const Lun lun = static_cast<Lun>(lbn * ppb + mini_lun % ppb);
        const PageId page = scheme.peek(lun);
        const BlockId held = g.block_of_page(page);
        if (copy != 0 && mini_lun / ppb == sequential_lbn) continue;
        ++found;
        // A block no one logical block holds (FAST's RW log blocks) holds units of every copy:
        // any copy's counterpart of the plane, then.
        if (miniature.block_lbns[block] == kNone) {
          ASSERT_EQ(g.plane_of_block(held) % miniature.planes, mini.plane_of_block(block)) << lun;
          shared_copies.at(g.plane_of_block(held) / miniature.planes) += 1;
        } else {
          ASSERT_EQ(g.plane_of_block(held), copy * miniature.planes + mini.plane_of_block(block))
              << lun;
        }
        ASSERT_EQ(g.page_in_block(page), p) << lun;
        ASSERT_EQ(device.flash().write_pointer(held), miniature.programmed_pages[block]) << lun;
        ASSERT_EQ(device.flash().erase_count(held), miniature.erase_counts[block]) << lun;
      }
    }
  }
  EXPECT_GT(newest, mini.logical_units * 9 / 10);
  EXPECT_GT(found, g.logical_units * 9 / 10) << "few units laid out where the miniature had them";
  if (GetParam().scheme == "fast") {
    // Each copy's share of the shared blocks' units is about even.
    const uint64_t all = std::accumulate(shared_copies.begin(), shared_copies.end(), uint64_t{0});
    ASSERT_GT(all, 400u);
    for (const uint64_t share : shared_copies) EXPECT_NEAR(double(share) / all, 0.25, 0.05);
  }
}

TEST_P(BlockSampledAging, TheOracleFindsEveryUnitThroughTheNextCommands) {
  FtlDevice device(aging_platform(GetParam()), FtlDeviceOptions{});
  ASSERT_TRUE(precondition(device, half_overwritten()).aged_by_sampling);
  EXPECT_EQ(testing::run_random(
                device, 100000, 3, [&] { testing::check_block_scheme(device); }, 20000),
            0u);
}

TEST_P(BlockSampledAging, APartialFillLaysOutTheFilledUnitsOnly) {
  config::PreconditionConfig half = half_overwritten();
  half.fill_ratio = 0.5;
  FtlDevice device(aging_platform(GetParam()), FtlDeviceOptions{});
  ASSERT_TRUE(precondition(device, half).aged_by_sampling);
  ASSERT_NO_FATAL_FAILURE(testing::check_block_scheme(device));
  const BlockScheme& scheme = block_scheme(device);
  const uint64_t filled = device.geometry().logical_units / 2;
  for (Lun lun = 0; lun < device.geometry().logical_units; ++lun) {
    ASSERT_EQ(scheme.unit_valid(lun), lun < filled) << lun;
  }
}

// After sampled and after simulated aging the next random writes cost about as many GC copies
// (merges and folds), the means of four seeds compared. Measured here: see docs/ftl.md (sampled
// aging).
TEST_P(BlockSampledAging, AgesAsSimulatedAgingDoes) {
  const config::PlatformConfig platform = aging_platform(GetParam());
  const double by_sampling = testing::mean_gc_copies_per_write(platform, "sampled", 20000);
  const double by_simulation = testing::mean_gc_copies_per_write(platform, "simulated", 20000);
  EXPECT_NEAR(by_sampling / by_simulation, 1.0, 0.03)
      << "sampled " << by_sampling << ", simulated " << by_simulation;
}

// A device that may lose power is laid out with the miniature's sequence numbers (allocations,
// and FAST's program sequences), each copy's kept in the miniature's order: a cut right after the
// aging finds every unit where the layout put it (the layout of a device that cannot lose power),
// and cuts among the random commands that follow lose nothing durable.
TEST_P(BlockSampledAging, ADeviceThatMayLosePowerRecoversFromTheLayout) {
  const config::PlatformConfig platform = aging_platform(GetParam());
  FtlDevice device(platform, testing::power_options());
  ASSERT_TRUE(precondition(device, half_overwritten()).aged_by_sampling);
  ASSERT_NO_FATAL_FAILURE(testing::check_block_scheme(device));
  const Geometry& g = device.geometry();
  std::vector<PageId> laid_out(g.logical_units);
  for (Lun lun = 0; lun < g.logical_units; ++lun) laid_out[lun] = block_scheme(device).peek(lun);
  // The same as the layout without power cuts, but for the sequences in the spare areas.
  FtlDevice plain(platform, FtlDeviceOptions{});
  ASSERT_TRUE(precondition(plain, half_overwritten()).aged_by_sampling);
  uint64_t elsewhere = 0;
  for (Lun lun = 0; lun < g.logical_units; ++lun) {
    elsewhere += block_scheme(plain).peek(lun) != laid_out[lun];
  }
  EXPECT_EQ(elsewhere, 0u);

  ASSERT_NO_FATAL_FAILURE(
      testing::expect_cuts_after_layout_lose_nothing(device, 10, 1500, [&](int cut) {
        ASSERT_NO_FATAL_FAILURE(testing::check_block_scheme(device));
        if (cut != 0) return;
        uint64_t moved = 0;  // units the recovery found elsewhere than the layout put them
        for (Lun lun = 0; lun < g.logical_units; ++lun) {
          moved += block_scheme(device).peek(lun) != laid_out[lun];
        }
        EXPECT_EQ(moved, 0u);
      }));
  EXPECT_GT(device.stats().gc_erases, 0u);
}

// FAST's random-write log blocks are one list for the device, oldest first (the victim of its
// next full merge): every copy's oldest come before any copy's second oldest, as the copies would
// have aged side by side.
TEST(BlockSampledAgingFast, ListsEveryCopysLogBlocksOldestFirst) {
  const config::PlatformConfig platform = aging_platform({"fast", 2});
  const AgedPlanes miniature = age_miniature(platform, half_overwritten());
  FtlDevice device(platform, FtlDeviceOptions{});
  ASSERT_TRUE(precondition(device, half_overwritten()).aged_by_sampling);
  const auto& fast = dynamic_cast<const FastFtl&>(device.scheme());
  std::vector<BlockId> mini_order;  // the miniature's RW log blocks, oldest first
  for (BlockId block = 0; block < miniature.block_roles.size(); ++block) {
    const uint32_t role = miniature.block_roles[block];
    if (role == kNone || role < FastFtl::kRandomLogRole) continue;
    const uint32_t rank = role - FastFtl::kRandomLogRole;
    if (mini_order.size() <= rank) mini_order.resize(rank + 1, kNone);
    mini_order[rank] = block;
  }
  const Geometry& g = device.geometry();
  const uint32_t copies = g.planes() / miniature.planes;
  const std::deque<BlockId>& logs = fast.random_log_blocks();
  ASSERT_GT(mini_order.size(), 2u);
  ASSERT_EQ(logs.size(), mini_order.size() * copies);
  const uint32_t mini_blocks_per_plane = miniature.blocks_per_plane;
  for (size_t i = 0; i < logs.size(); ++i) {
    const BlockId source = mini_order[i / copies];
    ASSERT_EQ(g.plane_of_block(logs[i]),
              (i % copies) * miniature.planes + source / mini_blocks_per_plane)
        << i;
    ASSERT_EQ(device.flash().write_pointer(logs[i]), miniature.programmed_pages[source]) << i;
    ASSERT_EQ(device.flash().erase_count(logs[i]), miniature.erase_counts[source]) << i;
  }
}

INSTANTIATE_TEST_SUITE_P(Schemes, BlockSampledAging,
                         ::testing::Values(Case{"block", 2}, Case{"nftl", 2}, Case{"fast", 2},
                                           Case{"block", 1}, Case{"nftl", 1}, Case{"fast", 1}),
                         testing::aging_case_name);

}  // namespace
}  // namespace ssd::ftl
