// The platform and scenario files shipped in the repository load, validate, and describe the
// devices their comments claim.
#include <gtest/gtest.h>

#include <vector>

#include "config/capacity.h"
#include "config/config_loader.h"
#include "config_test_support.h"
#include "ftl/core/geometry.h"
#include "ftl/page/map_layout.h"
#include "ftl/page/page_settings.h"
#include "ftl/sector_log/sector_log_settings.h"

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

// The sector-log paper's SSD: table 1's latencies, DAC, 64 MB shared DRAM, 3 % over-provisioning;
// every page-size variant (the block kept at 256 KiB) is a valid platform of the same capacity.
TEST(BundledFiles, SectorLogPlatformAndItsPageSizeVariants) {
  const LoadedConfig c = load_platform("sector-log");
  EXPECT_EQ(c.platform.ftl.scheme, "dac");
  EXPECT_EQ(c.platform.nand.t_read_us, std::vector<double>{165.6});
  EXPECT_EQ(c.platform.nand.t_program_us, std::vector<double>{905.8});
  EXPECT_EQ(c.platform.nand.t_erase_us, 1500.0);
  EXPECT_DOUBLE_EQ(c.platform.ftl.over_provisioning, 0.03);
  EXPECT_EQ(c.platform.ftl.settings.get<ftl::WriteBufferSettings>().bytes, 64u << 20);
  for (uint32_t page : {4096u, 8192u, 16384u, 32768u}) {
    const LoadedConfig v =
        load_config(bundled("platforms/sector-log.toml"), bundled("scenarios/default.toml"),
                    {"nand.page_bytes=" + std::to_string(page),
                     "nand.pages_per_block=" + std::to_string(262144 / page),
                     "ftl.over_provisioning=0.06", "ftl.sector_log.size_bytes=4194304"});
    EXPECT_EQ(physical_capacity_bytes(v.platform), 512ull << 20) << page;
  }
}

TEST(BundledFiles, JasmineMatchesNvramPaperTable) {
  const LoadedConfig c = load_platform("jasmine-openssd");
  EXPECT_EQ(physical_capacity_bytes(c.platform), 8 * kGiB);
  EXPECT_EQ(uint64_t{c.platform.nand.pages_per_block} * c.platform.nand.page_bytes, 1u << 20);
  EXPECT_EQ(c.platform.nvram.kind, "stt-mram");
  EXPECT_EQ(c.platform.nvram.capacity_bytes, 1u << 20);
  // One 4-byte entry per page gives the paper's 4 MB mapping table.
  EXPECT_EQ(physical_capacity_bytes(c.platform) / mapping_unit_bytes(c.platform) * 4, 4u << 20);
  // Table 2: 8 KB pages, 128 per block, read 400 us, write 1300 us, DRAM 400 ns; 4-byte entries
  // in 8 KB segments; section 4: 64 MB DRAM, the 25 % threshold, STT-MRAM at 10 ns.
  EXPECT_EQ(c.platform.nand.page_bytes, 8192u);
  EXPECT_EQ(c.platform.nand.pages_per_block, 128u);
  EXPECT_EQ(c.platform.nand.t_read_us, std::vector<double>{400.0});
  EXPECT_EQ(c.platform.nand.t_program_us, std::vector<double>{1300.0});
  EXPECT_DOUBLE_EQ(c.platform.dram.read_latency_ns, 400.0);
  EXPECT_EQ(c.platform.dram.capacity_bytes, 64u << 20);
  EXPECT_DOUBLE_EQ(c.platform.nvram.read_latency_ns, 10.0);
  EXPECT_DOUBLE_EQ(c.platform.nvram.write_latency_ns, 10.0);
  const ftl::PageSettings& page = c.platform.ftl.settings.get<ftl::PageSettings>();
  EXPECT_EQ(page.map_sync, "nvram");
  EXPECT_DOUBLE_EQ(page.dense_threshold, 0.25);
  const ftl::MapLayout m = ftl::map_layout(c.platform, ftl::Geometry::from_platform(c.platform));
  EXPECT_EQ(m.entry_bytes, 4u);
  EXPECT_EQ(m.segment_bytes, 8192u);
  EXPECT_EQ(m.entries_per_segment, 2048u);
  EXPECT_EQ(m.units_per_segment, 1u);              // a segment is one 8 KiB map page
  EXPECT_NEAR(double(m.table_bytes), 4e6, 0.1e6);  // the logical 93 %: 3.9 MB
  EXPECT_EQ(m.nvram_segments, 128u);               // 1 MiB of 8 KiB segments
}

// The stand-ins for the LSB paper's traces carry the shape of its table II: the request count
// divided by 100 and the mean request size (uniform sizes from one 2 KiB page to twice the mean
// less one page), and they load on the paper's platform.
TEST(BundledFiles, LsbWorkloadsHaveThePapersTable2Shape) {
  struct Trace {
    const char* name;
    double requests, pages;
  };
  for (const Trace& t : {Trace{"linuxpc", 3065832, 55046573}, Trace{"winpc", 3142853, 32065652},
                         Trace{"wproxy", 885632, 30355360}, Trace{"iozone", 348217, 73033569}}) {
    const WorkloadConfig w =
        load_config(bundled("platforms/k9k4g08-80gb.toml"),
                    bundled(std::string("bench/scenarios/lsb-") + t.name + "-like.toml"), {})
            .scenario.workload;
    EXPECT_NEAR(double(w.requests), t.requests / 100, 0.5) << t.name;
    const double mean_pages = (w.request_bytes + w.request_bytes_max) / 2.0 / 2048;
    EXPECT_NEAR(mean_pages, t.pages / t.requests, 0.5) << t.name;
    EXPECT_EQ(w.request_bytes, 2048u) << t.name;
    EXPECT_EQ(w.read_ratio, 0.0) << t.name;
  }
}

// The stand-ins for the NVRAM paper's workloads carry the shape of its table 3: mapping entries
// written per synchronization (one 8 KiB write is one entry on Jasmine) and the sync count.
TEST(BundledFiles, NvramWorkloadsHaveThePapersTable3Shape) {
  const auto load = [](const std::string& name) {
    return load_config(bundled("platforms/jasmine-openssd.toml"),
                       bundled("bench/scenarios/" + name + ".toml"), {})
        .scenario.workload;
  };
  const WorkloadConfig varmail = load("nvram-varmail-like");
  EXPECT_EQ(varmail.request_bytes, 8192u);
  EXPECT_EQ(varmail.flush_every_writes, 869u);
  EXPECT_EQ(varmail.sync_call, "fsync");
  // 869 writes, the journal write and the flush per sync.
  EXPECT_EQ(varmail.requests, 2251u * (869 + 2));
  const WorkloadConfig oltp = load("nvram-oltp-like");
  EXPECT_EQ(oltp.request_bytes, 8192u);
  EXPECT_EQ(oltp.flush_every_writes, 153u);
  EXPECT_EQ(oltp.sync_call, "fdatasync");
  EXPECT_GE(oltp.requests, 2904u * (153 + 1));  // the journal writes come only when files grow
  EXPECT_LT(oltp.requests, 2904u * (153 + 2));
  const WorkloadConfig fio = load("nvram-fio-sync");
  EXPECT_EQ(fio.request_bytes, 4096u);
  EXPECT_EQ(fio.flush_every_writes, 1u);
  EXPECT_EQ(fio.queue_depth, 1u);
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
