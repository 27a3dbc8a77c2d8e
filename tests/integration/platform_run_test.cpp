// Whole-platform runs: the bundled default scenario on every bundled platform file, with the
// integrity oracle on. Each TEST elaborates its own platform, so ctest runs each in its own
// process (SystemC cannot elaborate twice).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "config/config_loader.h"
#include "ftl/scheme_registry.h"
#include "models/platform/ssd_platform.h"
#include "tests/integration/run_support.h"

namespace ssd {
namespace {

using testing::expect_clean_run;
using testing::run_platform;
using testing::source_path;

TEST(PlatformRun, DefaultPlatformAndScenarioPassTheOracle) {
  const auto report = run_platform("platforms/default.toml");
  expect_clean_run(report);
  EXPECT_GT(report.flushes, 0u);
}

// workload.passes = 3: two untimed passes warm the device up, only the third is reported; the
// warm-up passes' reads are checked too.
TEST(PlatformRun, WarmUpPassesRunBeforeTheReportedOne) {
  const auto report =
      run_platform("platforms/default.toml", {"workload.passes=3", "workload.requests=3000"});
  expect_clean_run(report);
  EXPECT_EQ(report.reads + report.writes + report.flushes + report.trims, 3000u);
  EXPECT_EQ(report.warmup_passes, 2u);
  EXPECT_EQ(report.warmup_requests, 6000u);
  EXPECT_EQ(report.integrity_checked_reads, 3 * report.reads);
}

TEST(PlatformRun, DefaultPlatformWithGarbageCollectionPassesTheOracle) {
  const auto report = run_platform(
      "platforms/default.toml",
      {"precondition.fill_ratio=1.0", "precondition.overwrite_ratio=1.0", "workload.read_ratio=0.3",
       "workload.trim_ratio=0.05", "workload.requests=30000"});
  expect_clean_run(report);
  EXPECT_GT(report.gc_invocations, 0u);
  EXPECT_GT(report.gc_units_written, 0u);
}

TEST(PlatformRun, PackedUnitsPassTheOracle) {
  // Two 2 KiB mapping units per 4 KiB page, with sub-unit writes.
  const auto report = run_platform("platforms/default.toml",
                                   {"ftl.mapping_unit_bytes=2048", "workload.request_bytes=512",
                                    "workload.request_bytes_max=8192", "workload.align_bytes=512",
                                    "workload.size_distribution=uniform"});
  expect_clean_run(report);
}

TEST(PlatformRun, K9k4g08PlatformPassesTheOracle) {
  expect_clean_run(run_platform("platforms/k9k4g08-80gb.toml", {"workload.requests=5000"}));
}

TEST(PlatformRun, JasmineOpenSsdPlatformPassesTheOracle) {
  expect_clean_run(run_platform("platforms/jasmine-openssd.toml", {"workload.requests=5000"}));
}

TEST(PlatformRun, Mqsim512GbPlatformPassesTheOracle) {
  expect_clean_run(run_platform("platforms/mqsim-512gb.toml",
                                {"workload.requests=5000", "precondition.fill_ratio=0.01"}));
}

}  // namespace
}  // namespace ssd

namespace ssd {
namespace {

// The oracle must see lost data through the whole platform: erase a block full of preconditioned
// data behind the FTL's back, then read everything back.
TEST(PlatformRun, LostDataIsReportedAsMismatches) {
  const auto config = config::load_config(
      source_path("platforms/default.toml"), source_path("scenarios/default.toml"),
      {"run.progress=false", "precondition.fill_ratio=1.0", "workload.read_ratio=1.0",
       "workload.pattern=sequential", "workload.requests=4000", "workload.request_bytes=65536",
       "workload.flush_every_writes=0"},
      ftl::scheme_catalog());
  models::SsdPlatform platform("ssd", config, models::PlatformRunOptions{});
  platform.precondition();
  ftl::FlashArray& flash = platform.device().flash();
  ASSERT_GT(flash.write_pointer(0), 0u);
  flash.erase(0);
  const auto report = platform.run();
  EXPECT_GT(report.integrity_mismatches, 0u);
  EXPECT_FALSE(report.integrity_first_mismatch.empty());
}

}  // namespace
}  // namespace ssd
