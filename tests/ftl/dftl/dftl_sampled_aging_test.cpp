// DFTL aged by sampling (precondition.aging = sampled, ftl/dftl/dftl_aged.cpp): the translation
// pages are laid out in the copies of the miniature's translation slots, the CMT takes the units
// in the copies of the slots the miniature's CMT held, in its LRU order and dirty where it was
// dirty, the miniature's cache is the device's share, a cut right after the layout finds every
// unit, and the next writes move as many units as after simulated aging.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "ftl/core/ftl_device.h"
#include "ftl/core/preconditioner.h"
#include "ftl/core/sampled_aging.h"
#include "tests/ftl/dftl/dftl_checks.h"
#include "tests/ftl/power/power_cut_rig.h"
#include "tests/ftl/scheme_workloads.h"
#include "tests/ftl/tiny_platform.h"

namespace ssd::ftl {
namespace {

using testing::dftl;
using testing::dftl_platform;
using testing::half_overwritten;

// AgedPlanes::unit_state of a slot whose unit the miniature's CMT held (dftl_aged.cpp).
constexpr uint64_t kCached = uint64_t{1} << 32;
constexpr uint64_t kDirty = uint64_t{1} << 33;

TEST(DftlSampledAging, TranslationPagesTakeTheCopiesOfTheMiniaturesSlots) {
  // 4 dies; the one-die miniature holds a quarter of the units exactly (6144 = 4 x 1536). A
  // translation page holds 2048 entries (2-byte slot numbers in a 4 KiB unit): the miniature has
  // one, the device three, so three of its four copies take one each and one holds nothing.
  const config::PlatformConfig platform = dftl_platform(0, 64);
  const AgedPlanes miniature = age_miniature(platform, half_overwritten());
  FtlDevice device(platform, FtlDeviceOptions{});
  ASSERT_TRUE(precondition(device, half_overwritten()).aged_by_sampling);
  ASSERT_NO_FATAL_FAILURE(testing::expect_dftl_invariants(device));

  std::vector<uint32_t> miniature_offsets;
  for (uint64_t block = 0; block < miniature.programmed_pages.size(); ++block) {
    for (uint32_t u = 0; u < miniature.units_per_block; ++u) {
      if (miniature.scheme_page(block, u)) {
        EXPECT_TRUE(miniature.valid(block, u));
        miniature_offsets.push_back(u);
      }
    }
  }
  ASSERT_EQ(miniature_offsets.size(), 1u);
  const Dftl& scheme = dftl(device);
  ASSERT_EQ(scheme.translation_pages(), 3u);
  for (uint32_t t = 0; t < scheme.translation_pages(); ++t) {
    const SlotId slot = scheme.translation_slot(t);
    ASSERT_NE(slot, kNone) << t;
    EXPECT_EQ(slot % miniature.units_per_block, miniature_offsets[0]) << t;
  }
  // Nothing was written after the layout: the translation pages and units all found a copy.
  EXPECT_EQ(scheme.translation_writes(), 0u);
  // What the translation pages say is where every unit is: a miss reads it from there.
  const Geometry& g = device.geometry();
  uint64_t mismatches = 0;
  for (Lun lun = 0; lun < g.logical_units; ++lun) {
    mismatches += testing::run_one(device, CommandKind::kRead, uint64_t{lun} * g.sectors_per_unit,
                                   g.sectors_per_unit);
  }
  EXPECT_EQ(mismatches, 0u) << device.oracle()->first_mismatch();
}

TEST(DftlSampledAging, TheCacheTakesTheCopiesOfTheMiniaturesEntriesInItsOrder) {
  const config::PlatformConfig platform = dftl_platform(0, 64);
  const AgedPlanes miniature = age_miniature(platform, half_overwritten());
  // The miniature's CMT, least recent first: whether each entry was dirty.
  std::vector<int> dirty_by_rank(16, -1);
  for (const uint64_t state : miniature.unit_state) {
    if ((state & kCached) == 0) continue;
    const auto rank = static_cast<uint32_t>(state);
    ASSERT_LT(rank, dirty_by_rank.size());
    dirty_by_rank[rank] = (state & kDirty) != 0 ? 1 : 0;
  }
  for (const int dirty : dirty_by_rank)
    ASSERT_NE(dirty, -1) << "the miniature's cache was not full";

  FtlDevice device(platform, FtlDeviceOptions{});
  ASSERT_TRUE(precondition(device, half_overwritten()).aged_by_sampling);
  const CachedMappingTable& cache = dftl(device).cache();
  const std::vector<Lun> order = cache.least_recent_first();
  ASSERT_EQ(order.size(), 64u);  // four copies of each of the miniature's 16 entries
  uint32_t dirty = 0;
  for (uint32_t i = 0; i < order.size(); ++i) {
    EXPECT_EQ(cache.dirty(order[i]) ? 1 : 0, dirty_by_rank[i / 4]) << i;
    EXPECT_EQ(cache.slot(order[i]), dftl(device).slot_of(order[i]));
    dirty += cache.dirty(order[i]) ? 1 : 0;
  }
  EXPECT_GT(dirty, 0u);
  EXPECT_LT(dirty, order.size());
}

TEST(DftlSampledAging, TheMiniaturesCacheIsTheDevicesShare) {
  const auto miniature_entries = [](const config::PlatformConfig& device) {
    return miniature_platform(device, 1).ftl.settings.get<DftlSettings>().cache_entries;
  };
  EXPECT_EQ(miniature_entries(dftl_platform(0, 64)), 16u);  // a quarter of the units
  EXPECT_EQ(miniature_entries(dftl_platform(0, 2)), 1u);    // at least one entry
  // A cache given in bytes: as many entries as the device's bytes hold (4-byte entries: 2-byte
  // unit and slot numbers), a quarter of them.
  config::PlatformConfig by_bytes = dftl_platform(0, 0);
  by_bytes.ftl.settings.edit<DftlSettings>().cache_bytes = 4096;
  EXPECT_EQ(miniature_entries(by_bytes), 256u);
}

TEST(DftlSampledAging, ACutRightAfterTheLayoutFindsEveryUnit) {
  FtlDevice device(dftl_platform(0, 64), testing::power_options());
  ASSERT_TRUE(precondition(device, half_overwritten()).aged_by_sampling);
  ASSERT_NO_FATAL_FAILURE(testing::expect_dftl_invariants(device));
  ASSERT_NO_FATAL_FAILURE(testing::expect_cuts_after_layout_lose_nothing(device, 10));
}

// After sampled and after simulated aging, the next random writes cost about as many GC copies
// and translation-page writes. One aged state differs from another, so the means over four seeds
// are compared. The translation writes are a few per cent more after sampled aging, whose units
// sit at random: simulated aging leaves neighbours of the sequential fill together in the blocks
// GC has not collected (and GC moves them together), so a victim's units fall in fewer translation
// pages. Measured here: 1.262 against 1.193 per host write (+5.8 %; over seeds 7-14 +5.0 %, and
// +6.8 % with a miniature of all four dies, so it is not the copies), GC copies -0.8 %.
// docs/ftl.md (sampled aging) states it; the bound below is that, not a guess.
TEST(DftlSampledAging, AgesAsSimulatedAgingDoes) {
  constexpr uint64_t kWrites = 20000;
  const config::PlatformConfig platform = testing::with_aging_room(dftl_platform(0, 256));
  struct After {
    double gc = 0;           // GC copies per host write
    double translation = 0;  // translation-page writes per host write
  };
  const auto after_aging = [&](const char* aging) {
    After mean;
    testing::on_aged_seeds(platform, aging, [&](FtlDevice& device) {
      const uint64_t translation_before = dftl(device).translation_writes();
      mean.gc += testing::gc_copies_per_write(device, kWrites, 5) / 4;
      mean.translation +=
          double(dftl(device).translation_writes() - translation_before) / kWrites / 4;
    });
    return mean;
  };
  const After by_sampling = after_aging("sampled");
  const After by_simulation = after_aging("simulated");
  EXPECT_NEAR(by_sampling.gc / by_simulation.gc, 1.0, 0.03)
      << "sampled " << by_sampling.gc << ", simulated " << by_simulation.gc;
  EXPECT_GT(by_sampling.translation, by_simulation.translation);  // the locality lost
  EXPECT_NEAR(by_sampling.translation / by_simulation.translation, 1.0, 0.08)
      << "sampled " << by_sampling.translation << ", simulated " << by_simulation.translation;
}

}  // namespace
}  // namespace ssd::ftl
