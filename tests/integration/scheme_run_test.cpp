// Whole-platform runs of every classical baseline scheme: the bundled default scenario on the
// default platform, selected by ftl.scheme, with the integrity oracle on; then a run on a full
// device so that merges or GC run all the time. One TEST per run, each in its own process.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "config/config_loader.h"
#include "models/platform/ssd_platform.h"
#include "tests/integration/run_support.h"

namespace ssd {
namespace {

report::RunReport run_scheme(const std::string& scheme, std::vector<std::string> overrides = {}) {
  overrides.push_back("ftl.scheme=" + scheme);
  return testing::run_platform("platforms/default.toml", overrides);
}

using testing::expect_clean_run;

// A full device, overwritten once, then random writes, reads and trims: constant GC or merges.
const std::vector<std::string> kFullDevice = {
    "precondition.fill_ratio=1.0", "precondition.overwrite_ratio=0.5", "workload.read_ratio=0.3",
    "workload.trim_ratio=0.05", "workload.requests=20000"};

TEST(SchemeRun, BlockMappingPassesTheOracle) {
  const auto report = run_scheme("block");
  expect_clean_run(report);
  EXPECT_GT(report.gc_invocations, 0u);  // random updates copy blocks
}

TEST(SchemeRun, BlockMappingOnAFullDevicePassesTheOracle) {
  const auto report = run_scheme("block", kFullDevice);
  expect_clean_run(report);
  EXPECT_GT(report.gc_units_written, report.host_units_written);
}

TEST(SchemeRun, NftlPassesTheOracle) {
  const auto report = run_scheme("nftl");
  expect_clean_run(report);
  EXPECT_GT(report.nand_spare_reads, 0u);  // the backward search of replacement blocks
}

TEST(SchemeRun, NftlOnAFullDevicePassesTheOracle) {
  const auto report = run_scheme("nftl", kFullDevice);
  expect_clean_run(report);
  EXPECT_GT(report.gc_invocations, 0u);
}

TEST(SchemeRun, FastPassesTheOracle) { expect_clean_run(run_scheme("fast")); }

TEST(SchemeRun, FastOnAFullDevicePassesTheOracle) {
  const auto report = run_scheme("fast", kFullDevice);
  expect_clean_run(report);
  EXPECT_GT(report.gc_invocations, 0u);
}

TEST(SchemeRun, DftlPassesTheOracleAndReportsItsHitRatio) {
  const auto report = run_scheme("dftl");
  expect_clean_run(report);
  ASSERT_TRUE(report.mapping_cache_hit_ratio.has_value());
  EXPECT_GT(*report.mapping_cache_hit_ratio, 0.0);
  EXPECT_LT(*report.mapping_cache_hit_ratio, 1.0);
}

TEST(SchemeRun, DftlOnAFullDeviceWithASmallCachePassesTheOracle) {
  std::vector<std::string> overrides = kFullDevice;
  overrides.push_back("ftl.dftl.cache_entries=256");
  const auto report = run_scheme("dftl", overrides);
  expect_clean_run(report);
  EXPECT_GT(report.gc_invocations, 0u);
}

// The extent schemes: GC splits or rewrites extents; the mapping cost shows as CPU work.
TEST(SchemeRun, EmtOnAFullDevicePassesTheOracle) {
  const auto report = run_scheme("emt", kFullDevice);
  expect_clean_run(report);
  EXPECT_GT(report.gc_invocations, 0u);
  EXPECT_GT(report.controller.tree_nodes, 0u);
  EXPECT_EQ(report.controller.hash_probes, 0u);
  EXPECT_FALSE(report.accelerator.has_value());
}

TEST(SchemeRun, VetOnAFullDevicePassesTheOracle) {
  const auto report = run_scheme("vet", kFullDevice);
  expect_clean_run(report);
  EXPECT_GT(report.gc_invocations, 0u);
  EXPECT_GT(report.controller.hash_probes, 0u);
  EXPECT_GT(report.controller.mapping_cycles, 0u);
  EXPECT_LT(report.controller.mapping_cycles, report.controller.cpu_cycles);
}

// The accelerator's reference model answers VET's commands through the TLM target; with the
// RTL built, the Verilated engine does (every answer checked against the model), in its
// 1024 x 4 size, where many nodes overflow to software.
void expect_accelerated_run(const std::string& engine, uint32_t bucket_bits, uint32_t ways) {
  std::vector<std::string> overrides = kFullDevice;
  overrides.push_back("ftl.vet.hash_backend=accelerator");
  overrides.push_back("accelerator.engine=" + engine);
  overrides.push_back("accelerator.bucket_bits=" + std::to_string(bucket_bits));
  overrides.push_back("accelerator.ways=" + std::to_string(ways));
  const auto report = run_scheme("vet", overrides);
  expect_clean_run(report);
  EXPECT_GT(report.gc_invocations, 0u);
  ASSERT_TRUE(report.accelerator.has_value());
  const auto& a = *report.accelerator;
  EXPECT_EQ(a.engine, engine);
  EXPECT_EQ(a.buckets, 1u << bucket_bits);
  EXPECT_EQ(a.ways, ways);
  EXPECT_GT(a.commands, 0u);
  EXPECT_GE(a.cycles, 3 * a.commands);           // at least the pipeline's 3 cycles each
  EXPECT_EQ(a.wait_ns, a.cycles * 2500 / 1000);  // 400 MHz: 2.5 ns a cycle
  EXPECT_GT(a.entries, 0u);
}

TEST(SchemeRun, VetOnTheAcceleratorModelPassesTheOracle) { expect_accelerated_run("model", 13, 8); }

#if SSD_HAVE_RTL
TEST(SchemeRun, VetOnTheRtlAcceleratorPassesTheOracle) { expect_accelerated_run("rtl", 10, 4); }
#endif

}  // namespace
}  // namespace ssd
