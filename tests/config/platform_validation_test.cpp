// Platform rules: impossible geometry, bad mapping units, OP/GC pairs with which GC cannot free
// space, and out-of-range values are rejected naming the file (or source) and the key.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "config/capacity.h"
#include "config/config_loader.h"
#include "config_test_support.h"

namespace ssd::config::test {
namespace {

using ::testing::HasSubstr;

TEST(PlatformValidation, ZeroChannelCount) {
  EXPECT_THAT(platform_error("[nand]\nchannels = 0\n"),
              HasSubstr("FILE:2: key 'nand.channels': must be >= 1 (got 0)"));
}

TEST(PlatformValidation, EveryNandCountMustBePositive) {
  for (const char* key : {"chips_per_channel", "dies_per_chip", "planes_per_die",
                          "blocks_per_plane", "pages_per_block", "page_bytes", "spare_bytes"}) {
    EXPECT_THAT(platform_error(std::string("[nand]\n") + key + " = 0\n"),
                HasSubstr(std::string("key 'nand.") + key + "': must be"))
        << key;
  }
}

TEST(PlatformValidation, PageNotMultipleOfSector) {
  EXPECT_THAT(platform_error("[nand]\npage_bytes = 5000\n"),
              HasSubstr("FILE:2: key 'nand.page_bytes': must be a multiple of nand.sector_bytes"));
}

TEST(PlatformValidation, SectorMustBePowerOfTwo) {
  EXPECT_THAT(platform_error("[nand]\nsector_bytes = 1536\npage_bytes = 3072\n"),
              HasSubstr("key 'nand.sector_bytes': must be a power of two"));
  EXPECT_THAT(platform_error("[nand]\nsector_bytes = 256\n"),
              HasSubstr("key 'nand.sector_bytes': must be >= 512"));
}

TEST(PlatformValidation, TooManyPagesPerBlock) {
  EXPECT_THAT(platform_error("[nand]\npages_per_block = 65536\nblocks_per_plane = 64\n"),
              HasSubstr("key 'nand.pages_per_block': must be in [1, 65535]"));
}

TEST(PlatformValidation, BadMappingUnit) {
  EXPECT_THAT(platform_error("[ftl]\nmapping_unit_bytes = 1000\n"),
              HasSubstr("key 'ftl.mapping_unit_bytes': must be 0 (one page) or a multiple"));
  EXPECT_THAT(platform_error("[ftl]\nmapping_unit_bytes = 1536\n"),
              HasSubstr("key 'ftl.mapping_unit_bytes': must divide nand.page_bytes (4096)"));
  EXPECT_THAT(platform_error("[ftl]\nmapping_unit_bytes = 8192\n"),
              HasSubstr("key 'ftl.mapping_unit_bytes': must divide"));
}

TEST(PlatformValidation, TooManyUnitsPerPage) {
  EXPECT_THAT(platform_error("[nand]\npage_bytes = 32768\n[ftl]\nmapping_unit_bytes = 512\n"),
              HasSubstr("FILE:4: key 'ftl.mapping_unit_bytes': gives 64 units per page"));
}

TEST(PlatformValidation, TooManyMappingUnitsForThirtyTwoBits) {
  // 8 x 8 x 4 x 4 x 16384 x 256 pages = 2^32 pages of one unit each.
  EXPECT_THAT(platform_error("[nand]\nchannels = 8\nchips_per_channel = 8\ndies_per_chip = 4\n"
                             "planes_per_die = 4\nblocks_per_plane = 16384\n"
                             "pages_per_block = 256\n"),
              HasSubstr("key 'nand.blocks_per_plane': the device has 4294967296 mapping units"));
}

TEST(PlatformValidation, OverProvisioningOutOfRange) {
  EXPECT_THAT(platform_error("[ftl]\nover_provisioning = 0.95\n"),
              HasSubstr("FILE:2: key 'ftl.over_provisioning': must be in (0, 0.9) (got 0.95)"));
  EXPECT_THAT(platform_error("[ftl]\nover_provisioning = 0\n"),
              HasSubstr("key 'ftl.over_provisioning': must be in (0, 0.9)"));
}

TEST(PlatformValidation, GcThresholdOutOfRange) {
  EXPECT_THAT(platform_error("[ftl]\ngc_threshold = 0.5\n"),
              HasSubstr("key 'ftl.gc_threshold': must be in (0, 0.5)"));
}

TEST(PlatformValidation, GcThresholdReservingFewerThanTwoBlocks) {
  // ceil(0.004 x 256) = 2 passes, ceil(0.003 x 256) = 1 fails.
  EXPECT_THAT(platform_error("[ftl]\ngc_threshold = 0.003\n"),
              HasSubstr("key 'ftl.gc_threshold': keeps only 1 free block(s) per plane"));
}

TEST(PlatformValidation, OverProvisioningNotAboveGcReserve) {
  // 256 blocks: reserve ceil(0.05 x 256) = 13, hidden floor(0.055 x 256) = 14 <= 13 + 1.
  EXPECT_THAT(platform_error("[ftl]\nover_provisioning = 0.055\n"),
              HasSubstr("FILE:2: key 'ftl.over_provisioning': hides 14 blocks per plane"));
  // floor(0.06 x 256) = 15 > 14 passes.
  TempToml ok("[ftl]\nover_provisioning = 0.06\n");
  EXPECT_NO_THROW(load_config(ok.path(), "", {}));
}

TEST(PlatformValidation, UnknownEnumValues) {
  EXPECT_THAT(platform_error("[ftl]\ngc_policy = \"fifo\"\n"),
              HasSubstr("key 'ftl.gc_policy': must be one of: greedy (got 'fifo')"));
  EXPECT_THAT(platform_error("[nvram]\nkind = \"sram\"\n"),
              HasSubstr("key 'nvram.kind': must be one of: none, stt-mram, pcm"));
}

TEST(PlatformValidation, SpareReadSlowerThanPageRead) {
  EXPECT_THAT(platform_error("[nand]\nt_read_us = 50\nt_spare_read_us = 60\n"),
              HasSubstr("key 'nand.t_spare_read_us': must not exceed nand.t_read_us"));
}

TEST(PlatformValidation, PageTypeTimingLists) {
  // A list gives one time per page type; the two lists name the same types, or one is a single
  // value for every type.
  EXPECT_THAT(platform_error("[nand]\nt_read_us = [50, 70, 90]\nt_program_us = [500, 900]\n"),
              HasSubstr("key 'nand.t_program_us': has 2 page types; the other timing list has 3"));
  EXPECT_THAT(platform_error("[nand]\nt_program_us = []\n"),
              HasSubstr("FILE:2: key 'nand.t_program_us': must not be an empty list"));
  EXPECT_THAT(platform_error("[nand]\nt_program_us = [500, 0]\n"),
              HasSubstr("key 'nand.t_program_us': each element must be in (0, 1000000] (got "
                        "[500, 0])"));
  EXPECT_THAT(platform_error("[nand]\nt_read_us = [50, \"slow\"]\n"),
              HasSubstr("key 'nand.t_read_us': element 1: expected number, got a string"));
  EXPECT_THAT(platform_error("[nand]\nt_read_us = [50, 60, 70, 80, 90, 100, 110, 120, 130]\n"),
              HasSubstr("key 'nand.t_read_us': gives 9 page types; at most 8 are supported"));
  // A spare-area read may not be slower than the fastest page read.
  EXPECT_THAT(platform_error("[nand]\nt_read_us = [15, 60]\nt_spare_read_us = 20\n"),
              HasSubstr("key 'nand.t_spare_read_us': must not exceed nand.t_read_us"));
}

TEST(PlatformValidation, PageTypeOrderNamesKnownTypesAndTilesABlock) {
  EXPECT_THAT(platform_error("[nand]\nt_program_us = [500, 900]\npage_type_order = [0, 2]\n"),
              HasSubstr("key 'nand.page_type_order': element 1 is page type 2, but "
                        "nand.t_read_us and nand.t_program_us give 2 page type(s)"));
  EXPECT_THAT(platform_error("[nand]\npages_per_block = 64\nt_program_us = [500, 900]\n"
                             "page_type_order = [0, 0, 1]\n"),
              HasSubstr("key 'nand.page_type_order': has 3 entries; it must tile a block: its "
                        "length must divide nand.pages_per_block (64)"));
  EXPECT_THAT(platform_error("[nand]\npage_type_order = [0, -1]\n"),
              HasSubstr("key 'nand.page_type_order': element 1: must not be negative"));
  // Valid: a scalar still reads as one value, lists as one per type, in a file or with --set.
  TempToml file("[nand]\nt_read_us = 45\nt_program_us = [500, 1500]\npage_type_order = [0, 1]\n");
  const LoadedConfig c = load_config(file.path(), "", {"nand.t_read_us=[40, 80]"});
  EXPECT_EQ(c.platform.nand.t_read_us, (std::vector<double>{40, 80}));
  EXPECT_EQ(c.platform.nand.t_program_us, (std::vector<double>{500, 1500}));
  EXPECT_EQ(c.platform.nand.page_type_order, (std::vector<uint32_t>{0, 1}));
  EXPECT_EQ(load_config(file.path(), "", {}).platform.nand.t_read_us, std::vector<double>{45});
}

TEST(PlatformValidation, TimingsMustBePositive) {
  EXPECT_THAT(platform_error("[nand]\nt_erase_us = 0\n"),
              HasSubstr("key 'nand.t_erase_us': must be in (0, 1000000] (got 0)"));
  EXPECT_THAT(platform_error("[nand]\nchannel_mt_s = -1\n"),
              HasSubstr("key 'nand.channel_mt_s': must be in [0.001, 1000000] (got -1)"));
}

TEST(PlatformValidation, SchemeMustBeKnown) {
  EXPECT_THAT(platform_error("[ftl]\nscheme = \"\"\n"),
              HasSubstr("FILE:2: key 'ftl.scheme': must name a scheme (known: page, block, "));
  EXPECT_THAT(platform_error("[ftl]\nscheme = \"pagez\"\n"),
              HasSubstr("FILE:2: key 'ftl.scheme': unknown scheme 'pagez' (known: page, "));
}

TEST(PlatformValidation, NvramNeedsCapacityAndBandwidthWhenPresent) {
  EXPECT_THAT(platform_error("[nvram]\nkind = \"pcm\"\nbandwidth_mb_s = 100\n"),
              HasSubstr("key 'nvram.capacity_bytes': must be > 0 when nvram.kind is 'pcm'"));
  EXPECT_THAT(platform_error("[nvram]\nkind = \"pcm\"\ncapacity_bytes = 4096\n"),
              HasSubstr("key 'nvram.bandwidth_mb_s': must be >= 0.001 when nvram.kind is 'pcm'"));
}

TEST(PlatformValidation, CapacitorHoldUpNeedsCapacitorsAndIsNotNegative) {
  EXPECT_THAT(platform_error("[controller]\ncapacitor_hold_up_us = 500\n"),
              HasSubstr("key 'controller.capacitor_hold_up_us': needs "
                        "controller.capacitor_backed = true"));
  EXPECT_THAT(platform_error("[controller]\ncapacitor_backed = true\n"
                             "capacitor_hold_up_us = -1\n"),
              HasSubstr("key 'controller.capacitor_hold_up_us': must be in [0, 1000000000]"));
  EXPECT_THAT(platform_error("[controller]\ncapacitor_backed = true\n"
                             "capacitor_hold_up_us = 1e-7\n"),
              HasSubstr("key 'controller.capacitor_hold_up_us': must be 0 (no limit) or at least "
                        "0.001 (1 ns)"));
}

TEST(PlatformValidation, DramAndHostLimits) {
  EXPECT_THAT(platform_error("[dram]\ncapacity_bytes = 0\n"),
              HasSubstr("key 'dram.capacity_bytes': must be >= 1"));
  EXPECT_THAT(platform_error("[dram]\nread_latency_ns = -1\n"),
              HasSubstr("key 'dram.read_latency_ns': must be in [0, 1000000000] (got -1)"));
  EXPECT_THAT(platform_error("[host]\npcie_lanes = 3\n"),
              HasSubstr("key 'host.pcie_lanes': must be one of: 1, 2, 4, 8, 16 (got 3)"));
  EXPECT_THAT(platform_error("[host]\nsubmission_queues = 0\n"),
              HasSubstr("key 'host.submission_queues': must be >= 1"));
  EXPECT_THAT(platform_error("[sim]\nquantum_ns = 0\n"),
              HasSubstr("key 'sim.quantum_ns': must be in (0, 1000000000000] (got 0)"));
  EXPECT_THAT(platform_error("[controller]\ncpu_mhz = 0\n"),
              HasSubstr("key 'controller.cpu_mhz': must be in [0.001, 1000000] (got 0)"));
}

TEST(PlatformValidation, ValidatePlatformNamesGivenSource) {
  PlatformConfig p;
  p.nand.channels = 0;
  EXPECT_THAT(error_of([&] { validate_platform(p, "my-source"); }),
              HasSubstr("my-source: key 'nand.channels': must be >= 1"));
}

TEST(Capacity, LogicalCapacityIsWholeUnitsAfterOverProvisioning) {
  PlatformConfig p;  // 2 x 2 x 256 x 64 pages of 4 KiB = 65536 pages
  EXPECT_EQ(physical_capacity_bytes(p), 65536ull * 4096);
  EXPECT_EQ(mapping_unit_bytes(p), 4096u);
  // floor(65536 x 0.93) = 60948 units (the float product is 60948.48).
  EXPECT_EQ(logical_capacity_bytes(p), 60948ull * 4096);
  p.ftl.mapping_unit_bytes = 2048;
  EXPECT_EQ(logical_capacity_bytes(p), 121896ull * 2048);
}

TEST(Capacity, RatiosLandingOnWholeNumbersAreNotRoundedAway) {
  PlatformConfig p;
  p.nand.blocks_per_plane = 1000;
  p.ftl.over_provisioning = 0.07;  // 1000 x 0.07 and 1000 x 0.93 are not exact in binary
  p.ftl.gc_threshold = 0.05;
  EXPECT_EQ(over_provisioned_blocks_per_plane(p), 70u);
  EXPECT_EQ(gc_reserve_blocks_per_plane(p), 50u);
  p.nand.channels = 1;
  p.nand.chips_per_channel = 1;
  p.nand.pages_per_block = 1;
  EXPECT_EQ(logical_capacity_bytes(p), 930ull * 4096);
}

}  // namespace
}  // namespace ssd::config::test

namespace ssd::config::test {
namespace {

// The data cache (cache.*, docs/cache.md): each impossible setting is refused naming its key.
TEST(PlatformValidation, DataCacheSettingsThatCannotWork) {
  EXPECT_THAT(platform_error("[cache]\nmode = \"write_behind\"\n"),
              HasSubstr("FILE:2: key 'cache.mode'"));
  EXPECT_THAT(platform_error("[cache]\nmode = \"write_back\"\n"),
              HasSubstr("key 'cache.capacity_bytes': must hold at least one cache line (4096 "
                        "bytes) when cache.mode is 'write_back' (got 0)"));
  EXPECT_THAT(platform_error("[cache]\nmode = \"write_back\"\ncapacity_bytes = 1048576\n"
                             "line_bytes = 6144\n"),
              HasSubstr("key 'cache.line_bytes': must be a multiple of the mapping unit (4096 "
                        "bytes) of at most 64 units (got 6144)"));
  EXPECT_THAT(platform_error("[cache]\nmode = \"write_back\"\ncapacity_bytes = 1048576\n"
                             "line_bytes = 528384\n"),
              HasSubstr("key 'cache.line_bytes'"));
  EXPECT_THAT(platform_error("[dram]\ncapacity_bytes = 1048576\n[cache]\nmode = \"write_back\"\n"
                             "capacity_bytes = 2097152\n"),
              HasSubstr("key 'cache.capacity_bytes': must fit in the controller DRAM "
                        "(dram.capacity_bytes = 1048576) (got 2097152)"));
  EXPECT_THAT(platform_error("[cache]\nmode = \"write_back\"\ncapacity_bytes = 1048576\n"
                             "dirty_high_watermark = 0.5\ndirty_low_watermark = 0.6\n"),
              HasSubstr("key 'cache.dirty_low_watermark': must be <= cache.dirty_high_watermark"));
  EXPECT_THAT(platform_error("[cache]\ndirty_high_watermark = 0\n"),
              HasSubstr("key 'cache.dirty_high_watermark'"));
  // Read-ahead: whole mapping units, no more than the cache, and only with a cache.
  EXPECT_THAT(platform_error("[cache]\nmode = \"write_back\"\ncapacity_bytes = 1048576\n"
                             "read_ahead_bytes = 6144\n"),
              HasSubstr("key 'cache.read_ahead_bytes': must be whole mapping units (4096 bytes) "
                        "of at most cache.capacity_bytes (1048576) (got 6144)"));
  EXPECT_THAT(platform_error("[cache]\nmode = \"write_back\"\ncapacity_bytes = 1048576\n"
                             "read_ahead_bytes = 2097152\n"),
              HasSubstr("key 'cache.read_ahead_bytes'"));
  EXPECT_THAT(platform_error("[cache]\nread_ahead_bytes = 65536\n"),
              HasSubstr("key 'cache.read_ahead_bytes': needs a data cache (cache.mode is 'off')"));
  EXPECT_THAT(platform_error("[cache]\nmode = \"write_back\"\ncapacity_bytes = 1048576\n"
                             "read_ahead_trigger = 0\n"),
              HasSubstr("key 'cache.read_ahead_trigger'"));
}

// The sector layer keeps its own write buffer: a data cache above it is refused.
TEST(PlatformValidation, DataCacheIsRefusedOverTheSectorLayer) {
  EXPECT_THAT(platform_error("[ftl.write_buffer]\nbytes = 8388608\n[cache]\nmode = "
                             "\"write_back\"\ncapacity_bytes = 1048576\n"),
              HasSubstr("key 'cache.mode': must be off with the sector layer"));
}

}  // namespace
}  // namespace ssd::config::test
