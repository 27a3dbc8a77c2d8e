// Shared by the whole-platform tests: run a bundled platform and scenario with overrides (one
// SystemC elaboration, so one call per TEST), and the checks every clean run must pass.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "config/config_loader.h"
#include "ftl/scheme_registry.h"
#include "models/platform/ssd_platform.h"

namespace ssd::testing {

inline std::string source_path(const std::string& relative) {
  return std::string(SSD_SOURCE_DIR) + "/" + relative;
}

inline report::RunReport run_platform(const std::string& platform_file,
                                      std::vector<std::string> overrides = {},
                                      const models::PlatformRunOptions& options = {}) {
  overrides.push_back("run.progress=false");
  const auto config =
      config::load_config(source_path(platform_file), source_path("scenarios/default.toml"),
                          overrides, ftl::scheme_catalog());
  models::SsdPlatform platform("ssd", config, options);
  platform.precondition();
  return platform.run();
}

// Oracle on, reads checked and all correct, work done on both sides of the device.
inline void expect_clean_run(const report::RunReport& report) {
  EXPECT_TRUE(report.integrity_enabled);
  EXPECT_GT(report.integrity_checked_reads, 0u);
  EXPECT_EQ(report.integrity_mismatches, 0u) << report.integrity_first_mismatch;
  EXPECT_GT(report.reads, 0u);
  EXPECT_GT(report.writes, 0u);
  EXPECT_GT(report.simulated_ns, 0u);
  EXPECT_GT(report.latency_read.mean(), 0.0);
  EXPECT_GT(report.nand_programs, 0u);
  EXPECT_GT(report.mapping_memory_bytes, 0u);
}

}  // namespace ssd::testing
