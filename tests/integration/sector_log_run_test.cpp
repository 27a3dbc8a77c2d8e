// The sector layer on the whole timed platform (platforms/sector-log.toml: DAC, 64 MB of DRAM
// shared by the write buffer and the sector map): sub-page writes end to end with the oracle
// checking sectors, and the layer's figures counting the measured pass only.
#include <gtest/gtest.h>

#include <string>

#include "tests/integration/run_support.h"

namespace ssd::testing {
namespace {

double figure(const report::RunReport& report, const std::string& name) {
  for (const auto& f : report.mapping_figures) {
    if (f.name == name) return f.value;
  }
  ADD_FAILURE() << "no figure mapping." << name;
  return -1;
}

// 4 MiB of log (4 blocks a plane) beside DAC's streams needs more than the platform's 3 %.
const std::vector<std::string> kLogOn = {"ftl.over_provisioning=0.06",
                                         "ftl.sector_log.size_bytes=4194304",
                                         "workload.request_bytes=512", "workload.align_bytes=512"};

TEST(SectorLogRun, SubPageWritesPassTheOracleThroughBufferLogAndDac) {
  std::vector<std::string> overrides = kLogOn;
  overrides.insert(overrides.end(),
                   {"workload.size_distribution=uniform", "workload.request_bytes_max=16384",
                    "workload.requests=30000", "workload.flush_every_writes=0",
                    "workload.address_span_bytes=33554432", "ftl.write_buffer.bytes=1048576"});
  const report::RunReport report = run_platform("platforms/sector-log.toml", overrides);
  expect_clean_run(report);
  EXPECT_GT(figure(report, "log_page_programs"), 0.0);
  EXPECT_GT(figure(report, "log_erases"), 0.0) << "the 4 MiB log must have cleaned its tail";
  EXPECT_GT(figure(report, "buffer_evictions"), 0.0);
  EXPECT_GT(figure(report, "log_page_reads"), 0.0);
  EXPECT_LE(figure(report, "dram_peak_bytes"), 1048576.0);
}

// Every write is one sector, so each is one sub-page write: the figure equals the measured
// writes exactly, the warm-up pass's writes left out.
TEST(SectorLogRun, FiguresCountTheMeasuredPassOnly) {
  std::vector<std::string> overrides = kLogOn;
  overrides.insert(overrides.end(), {"workload.requests=4000", "workload.passes=2"});
  const report::RunReport report = run_platform("platforms/sector-log.toml", overrides);
  expect_clean_run(report);
  EXPECT_EQ(report.warmup_passes, 1u);
  EXPECT_EQ(figure(report, "subpage_writes"), static_cast<double>(report.writes));
}

}  // namespace
}  // namespace ssd::testing
