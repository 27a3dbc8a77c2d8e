// The platform and scenario files shipped in the repository load, validate, and describe the
// devices their comments claim.
#include <gtest/gtest.h>

#include <vector>

#include "config/capacity.h"
#include "config/config_loader.h"
#include "config_test_support.h"

namespace ssd::config::test {
namespace {

constexpr uint64_t kGiB = 1ull << 30;

LoadedConfig load_platform(const std::string& name) {
  return load_config(bundled("platforms/" + name + ".toml"), bundled("scenarios/default.toml"), {});
}

uint64_t total_blocks(const NandConfig& n) {
  return uint64_t{n.channels} * n.chips_per_channel * n.dies_per_chip * n.planes_per_die *
         n.blocks_per_plane;
}

TEST(BundledFiles, DefaultPlatformAndScenarioLoad) {
  const LoadedConfig c = load_platform("default");
  EXPECT_EQ(c.platform.name, "default");
  EXPECT_EQ(physical_capacity_bytes(c.platform), 256ull << 20);
  EXPECT_EQ(c.scenario.workload.requests, 20000u);
  EXPECT_EQ(c.scenario.workload.queue_depth, 8u);
  EXPECT_EQ(c.scenario.workload.flush_every_writes, 64u);
  EXPECT_DOUBLE_EQ(c.scenario.precondition.fill_ratio, 0.5);
}

TEST(BundledFiles, K9k4g08MatchesLsbPaperTable) {
  const LoadedConfig c = load_platform("k9k4g08-80gb");
  EXPECT_EQ(total_blocks(c.platform.nand), 655360u);
  EXPECT_EQ(c.platform.nand.page_bytes, 2048u);
  EXPECT_EQ(c.platform.nand.spare_bytes, 64u);
  EXPECT_EQ(physical_capacity_bytes(c.platform), 80 * kGiB);
  EXPECT_DOUBLE_EQ(c.platform.nand.t_spare_read_us, 28.0);
}

TEST(BundledFiles, JasmineMatchesNvramPaperTable) {
  const LoadedConfig c = load_platform("jasmine-openssd");
  EXPECT_EQ(physical_capacity_bytes(c.platform), 8 * kGiB);
  EXPECT_EQ(uint64_t{c.platform.nand.pages_per_block} * c.platform.nand.page_bytes, 1u << 20);
  EXPECT_EQ(c.platform.nvram.kind, "stt-mram");
  EXPECT_EQ(c.platform.nvram.capacity_bytes, 1u << 20);
  // One 4-byte entry per page gives the paper's 4 MB mapping table.
  EXPECT_EQ(physical_capacity_bytes(c.platform) / mapping_unit_bytes(c.platform) * 4, 4u << 20);
}

TEST(BundledFiles, MqsimIs512GiBWithFourKiBUnits) {
  const LoadedConfig c = load_platform("mqsim-512gb");
  EXPECT_EQ(physical_capacity_bytes(c.platform), 512 * kGiB);
  EXPECT_EQ(mapping_unit_bytes(c.platform), 4096u);
  EXPECT_EQ(c.platform.nand.dies_per_chip, 2u);
  EXPECT_EQ(c.platform.nand.planes_per_die, 2u);
}

TEST(BundledFiles, LmtNftlMatchesLmtPaperPrototype) {
  const LoadedConfig c = load_platform("lmt-nftl-20gb");
  EXPECT_EQ(physical_capacity_bytes(c.platform), 20 * kGiB);
  EXPECT_EQ(c.platform.nand.page_bytes, 512u);
  EXPECT_EQ(c.platform.nand.spare_bytes, 16u);
  EXPECT_EQ(uint64_t{c.platform.nand.pages_per_block} * c.platform.nand.page_bytes, 16u << 10);
  EXPECT_DOUBLE_EQ(c.platform.nand.t_spare_read_us, 50.0);
  EXPECT_EQ(c.platform.nand.t_read_us, std::vector<double>{50.0});
  EXPECT_EQ(c.platform.nand.t_program_us, std::vector<double>{250.0});
  EXPECT_EQ(c.platform.ftl.scheme, "nftl");
}

TEST(BundledFiles, LmtDesktopLikeScenarioHasThePapersTraceShape) {
  const LoadedConfig c = load_config(bundled("platforms/lmt-nftl-20gb.toml"),
                                     bundled("bench/scenarios/lmt-desktop-like.toml"), {});
  const WorkloadConfig& w = c.scenario.workload;
  // 1,669,228 distinct 512-byte sectors, rounded up to 4 KiB.
  EXPECT_GE(w.address_span_bytes, 1669228ull * 512);
  EXPECT_LT(w.address_span_bytes, 1669228ull * 512 + 4096);
  // Mean request 32.5 sectors: the trace's 13.2 M sectors written and 2.8 M read within 1.5 %.
  const double mean_sectors = (w.request_bytes + w.request_bytes_max) / 2.0 / 512.0;
  EXPECT_NEAR(w.requests * (1 - w.read_ratio) * mean_sectors, 13198805, 0.015 * 13198805);
  EXPECT_NEAR(w.requests * w.read_ratio * mean_sectors, 2797996, 0.015 * 2797996);
}

TEST(BundledFiles, EmptyPathsKeepStructDefaults) {
  const LoadedConfig c = load_config("", "", {});
  EXPECT_EQ(c.platform.nand.channels, PlatformConfig{}.nand.channels);
  EXPECT_EQ(c.scenario.workload.requests, ScenarioConfig{}.workload.requests);
  EXPECT_NO_THROW(validate_platform(c.platform, "defaults"));
  EXPECT_NO_THROW(validate_scenario(c.scenario, c.platform, "defaults"));
}

}  // namespace
}  // namespace ssd::config::test
