// The data cache on the whole platform (docs/cache.md): with power cuts, a write-back cache loses
// nothing durable and rolls back what only it held; with power-loss protection
// (controller.capacitor_backed) the capacitors' flush rolls nothing back, and the report says how
// long each cut held the device up.
#include <gtest/gtest.h>

#include "tests/integration/run_support.h"

namespace ssd::testing {
namespace {

std::vector<std::string> cached_with_cuts() {
  return {"cache.mode=write_back",
          "cache.capacity_bytes=16777216",
          "cache.dirty_high_watermark=0.5",
          "cache.dirty_low_watermark=0.25",
          "power.cuts=8",
          "workload.requests=8000"};
}

TEST(CacheRun, AWriteBackCacheThroughPowerCutsLosesNothingDurable) {
  const report::RunReport report = run_platform("platforms/default.toml", cached_with_cuts());
  expect_clean_run(report);
  ASSERT_TRUE(report.cache.has_value());
  ASSERT_TRUE(report.power.has_value());
  EXPECT_EQ(report.power->cuts, 8u);
  EXPECT_EQ(report.power->lost_durable_units, 0u) << report.power->first_loss;
  EXPECT_GT(report.power->rolled_back_units, 0u);  // acknowledged in DRAM, never flushed
  EXPECT_TRUE(report.power->hold_up_ns.empty());
}

TEST(CacheRun, WithCapacitorsACutRollsNothingBack) {
  std::vector<std::string> overrides = cached_with_cuts();
  overrides.push_back("controller.capacitor_backed=true");
  const report::RunReport report = run_platform("platforms/default.toml", overrides);
  expect_clean_run(report);
  ASSERT_TRUE(report.power.has_value());
  EXPECT_EQ(report.power->lost_durable_units, 0u) << report.power->first_loss;
  EXPECT_EQ(report.power->rolled_back_units, 0u);
  ASSERT_EQ(report.power->hold_up_ns.size(), 8u);
  uint64_t longest = 0;
  for (const uint64_t ns : report.power->hold_up_ns) longest = std::max(longest, ns);
  EXPECT_GT(longest, 0u);  // a flush of dirty lines takes flash time
}

}  // namespace
}  // namespace ssd::testing
