// The data cache on the whole platform (docs/cache.md): with power cuts, a write-back cache loses
// nothing durable and rolls back what only it held; with power-loss protection
// (controller.capacitor_backed) the capacitors' flush rolls nothing back, and the report says how
// long each cut held the device up; capacitors too small for that flush
// (controller.capacitor_hold_up_us) lose acknowledged writes, and the report says so.
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

TEST(CacheRun, CapacitorsThatRunOutLoseAcknowledgedWritesAndSaySo) {
  // Capacitors that last 10 us: less than one program (tPROG 500 us on this platform), so a
  // flush with dirty lines to write back cannot complete. (That capacitors which last long
  // enough change nothing is tests/cli/capacitor_test.sh: it compares two runs.)
  std::vector<std::string> overrides = cached_with_cuts();
  overrides.push_back("controller.capacitor_backed=true");
  overrides.push_back("controller.capacitor_hold_up_us=10");
  const report::RunReport report = run_platform("platforms/default.toml", overrides);
  ASSERT_TRUE(report.power.has_value());
  const report::RunReport::Power& power = *report.power;
  EXPECT_GE(power.hold_up_exhausted, 1u);
  ASSERT_EQ(power.hold_up_ns.size(), 8u);
  for (const uint64_t ns : power.hold_up_ns) EXPECT_LE(ns, 10000u);
  // The drive acknowledged those writes as durable; the check holds it to that.
  EXPECT_GT(power.lost_durable_units, 0u);
  EXPECT_NE(power.first_loss.find("the capacitors ran out after 10 us"), std::string::npos)
      << power.first_loss;
}

// Sequential 4 KiB reads at queue depth 1 on a full device (one run per test: one SystemC
// elaboration per process). Without read-ahead each read waits for its own flash read: tR (50 us)
// and the page's transfer. With 64 KiB read ahead, every read after the first two finds its
// data in the cache (read ahead behind the reads before it), so most complete without a flash
// read in their way: the median is below tR. The oracle checks every unit read ahead when a read
// takes it.
report::RunReport sequential_reads_at_depth_one(uint64_t read_ahead_bytes) {
  return run_platform(
      "platforms/default.toml",
      {"precondition.fill_ratio=1.0", "workload.read_ratio=1.0", "workload.pattern=sequential",
       "workload.queue_depth=1", "workload.requests=8000",
       "cache.read_ahead_bytes=" + std::to_string(read_ahead_bytes)});
}

constexpr double kTReadNs = 50'000;  // platforms/default.toml

void expect_clean_reads(const report::RunReport& report) {
  EXPECT_EQ(report.reads, 8000u);
  EXPECT_EQ(report.integrity_checked_reads, 8000u);
  EXPECT_EQ(report.integrity_mismatches, 0u) << report.integrity_first_mismatch;
  ASSERT_TRUE(report.cache.has_value());
}

TEST(CacheRun, WithoutReadAheadASequentialReadAtDepthOneWaitsForTheFlash) {
  const report::RunReport report = sequential_reads_at_depth_one(0);
  expect_clean_reads(report);
  EXPECT_EQ(report.cache->read_ahead_units, 0u);
  EXPECT_GT(report.latency_read.percentile(0.5), kTReadNs);
}

TEST(CacheRun, WithReadAheadASequentialReadAtDepthOneFindsItsDataInTheCache) {
  const report::RunReport report = sequential_reads_at_depth_one(65536);
  expect_clean_reads(report);
  EXPECT_EQ(report.cache->read_ahead_hit_units, 8000u - 2u);  // all but the first two reads'
  EXPECT_GE(report.cache->read_ahead_units, report.cache->read_ahead_hit_units);
  EXPECT_LT(report.latency_read.percentile(0.5), kTReadNs);
}

}  // namespace
}  // namespace ssd::testing
