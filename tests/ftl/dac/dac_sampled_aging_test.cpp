// DAC aged by sampling (precondition.aging = sampled, ftl/core/sampled_aging.h): each unit laid
// out takes the region of the miniature's unit in its slot and that unit's age scaled to the
// device, an explicit young threshold is scaled down in the miniature, a cut right after the
// layout finds every unit, and the device then ages as a DAC device aged by simulation does.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "ftl/core/ftl_device.h"
#include "ftl/core/preconditioner.h"
#include "ftl/core/sampled_aging.h"
#include "tests/ftl/dac/dac_checks.h"
#include "tests/ftl/power/power_cut_rig.h"
#include "tests/ftl/scheme_workloads.h"
#include "tests/ftl/tiny_platform.h"

namespace ssd::ftl {
namespace {

using testing::dac;
using testing::dac_platform;
using testing::half_overwritten;

TEST(DacSampledAging, EachUnitTakesTheRegionAndScaledAgeOfItsSlot) {
  // 4 dies; the one-die miniature holds a quarter of the units exactly (6144 = 4 x 1536), so
  // every valid slot of the device copies one of the miniature's and no unit is left over.
  const config::PlatformConfig platform = dac_platform(4);
  const AgedPlanes miniature = age_miniature(platform, half_overwritten());
  FtlDevice device(platform, FtlDeviceOptions{});
  ASSERT_TRUE(precondition(device, half_overwritten()).aged_by_sampling);
  ASSERT_NO_FATAL_FAILURE(testing::expect_dac_invariants(device));
  const Geometry& g = device.geometry();
  const double scale = double(g.logical_units) / double(miniature.logical_units);
  ASSERT_EQ(scale, 4.0);

  std::vector<uint64_t> expected_regions(4, 0);
  std::vector<uint32_t> expected_ages;
  for (uint64_t slot = 0; slot < miniature.unit_state.size(); ++slot) {
    if (!miniature.valid(slot / miniature.units_per_block,
                         static_cast<uint32_t>(slot % miniature.units_per_block))) {
      continue;
    }
    const uint64_t state = miniature.unit_state[slot];
    expected_regions[state >> 32] += 4;
    const auto age = static_cast<uint32_t>(std::round(double(uint32_t(state)) * scale));
    expected_ages.insert(expected_ages.end(), 4, age);
  }
  std::vector<uint64_t> regions(4, 0);
  std::vector<uint32_t> ages;
  for (Lun lun = 0; lun < g.logical_units; ++lun) {
    ++regions[dac(device).region_of(lun)];
    ages.push_back(dac(device).age_of(lun));
  }
  EXPECT_EQ(regions, expected_regions);
  EXPECT_GT(regions[0], 0u);
  EXPECT_GT(g.logical_units - regions[0], 0u);  // aging promoted some: regions are carried
  std::sort(ages.begin(), ages.end());
  std::sort(expected_ages.begin(), expected_ages.end());
  EXPECT_EQ(ages, expected_ages);
  EXPECT_NE(ages.front(), ages.back());
}

TEST(DacSampledAging, AnExplicitYoungThresholdIsScaledToTheMiniature) {
  // The miniature holds a quarter of the tiny device's units.
  const auto young_in_miniature = [](uint64_t young_writes) {
    return miniature_platform(dac_platform(4, young_writes), 1)
        .ftl.settings.get<DacSettings>()
        .young_writes;
  };
  EXPECT_EQ(young_in_miniature(1000), 250u);
  EXPECT_EQ(young_in_miniature(2), 1u);  // at least one write
  EXPECT_EQ(young_in_miniature(0), 0u);  // a quarter of the units, whatever they are
}

TEST(DacSampledAging, ACutRightAfterTheLayoutFindsEveryUnit) {
  FtlDevice device(dac_platform(4), testing::power_options());
  ASSERT_TRUE(precondition(device, half_overwritten()).aged_by_sampling);
  ASSERT_NO_FATAL_FAILURE(testing::expect_cuts_after_layout_lose_nothing(device, 10));
}

// After sampled and after simulated aging, the next random writes move about as many units in GC
// and promote about as many: the laid-out regions decide where GC copies go, the ages which
// rewrites are young. One aged state differs from another (over seeds 7-10 the WAF ranged
// 8.95-9.10 simulated and 8.94-9.32 sampled), so the means of four seeds are compared.
TEST(DacSampledAging, AgesAsSimulatedAgingDoes) {
  constexpr uint64_t kWrites = 10000;
  const config::PlatformConfig platform = testing::with_aging_room(dac_platform(4));
  struct After {
    double waf = 0;
    double promotions = 0;
  };
  // The next writes' means over the aged states of four seeds.
  const auto after_aging = [&](const char* aging) {
    After mean;
    testing::on_aged_seeds(platform, aging, [&](FtlDevice& device) {
      const uint64_t promotions_before = dac(device).promotions();
      mean.waf += (1.0 + testing::gc_copies_per_write(device, kWrites, 5)) / 4;
      mean.promotions += double(dac(device).promotions() - promotions_before) / 4;
    });
    return mean;
  };
  const After sampled_mean = after_aging("sampled");
  const After simulated_mean = after_aging("simulated");
  EXPECT_NEAR(sampled_mean.waf / simulated_mean.waf, 1.0, 0.03)
      << "sampled " << sampled_mean.waf << ", simulated " << simulated_mean.waf;
  EXPECT_NEAR(sampled_mean.promotions / simulated_mean.promotions, 1.0, 0.05)
      << "sampled " << sampled_mean.promotions << ", simulated " << simulated_mean.promotions;
}

}  // namespace
}  // namespace ssd::ftl
