// gc.victims_per_command: how GC falls into host commands (the mean, over victims, of the victims
// run in the same command). On the default platform a page holds one unit, so a 4 KiB write with
// the cache off opens one new page: incremental GC runs at most one victim before it (a read runs
// none), blocking GC runs victims until the plane is back at its reserve. Each case is its own
// test (SystemC elaborates once per process).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/integration/run_support.h"

namespace ssd {
namespace {

report::RunReport aged_random_writes(const std::string& gc_mode) {
  return testing::run_platform(
      "platforms/default.toml",
      {"ftl.scheme=page", "ftl.gc_mode=" + gc_mode, "cache.mode=off", "precondition.fill_ratio=1.0",
       "precondition.overwrite_ratio=0.5", "workload.read_ratio=0.3", "workload.requests=4000"});
}

TEST(GcVictimsPerCommand, IncrementalGcRunsOneVictimPerCommandAtMost) {
  const report::RunReport report = aged_random_writes("incremental");
  testing::expect_clean_run(report);
  ASSERT_GT(report.gc_invocations, 100u);
  // Every victim ran in a host command, each command ran at most one: the squares sum to the
  // victims.
  EXPECT_EQ(report.gc_victims_in_commands, report.gc_invocations);
  EXPECT_EQ(report.gc_victims_squared_by_command, report.gc_victims_in_commands);
}

TEST(GcVictimsPerCommand, BlockingGcRunsItsVictimsInBursts) {
  const report::RunReport report = aged_random_writes("blocking");
  testing::expect_clean_run(report);
  ASSERT_GT(report.gc_invocations, 100u);
  EXPECT_EQ(report.gc_victims_in_commands, report.gc_invocations);
  // Victims until the plane is back at its reserve: with victims nearly full (an aged device at
  // 7 % over-provisioning) that takes many, all in the command that found the plane short.
  const double per_command = static_cast<double>(report.gc_victims_squared_by_command) /
                             static_cast<double>(report.gc_victims_in_commands);
  EXPECT_GT(per_command, 5.0);
}

}  // namespace
}  // namespace ssd
