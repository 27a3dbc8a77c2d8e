// The sector layer's rules (ftl/sector_log/sector_layer_descriptor.cpp) and the 64-sector unit
// limit, as a run meets them through the platform validation ssdsim runs: each refusal names the
// key to change; the layer's keys load from --set on page and DAC and are refused elsewhere.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "ftl/sector_log/sector_log_settings.h"
#include "tests/config/config_test_support.h"
#include "tests/ftl/tiny_platform.h"

namespace ssd::config::test {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;

// The tiny device: 64 blocks of 16 x 4 KiB pages per plane, 8 planes, 16 hidden blocks per plane
// (25 %), a GC reserve of 4.
PlatformConfig platform(uint64_t log_blocks, uint64_t dram_bytes) {
  PlatformConfig p = ssd::testing::tiny_platform();
  p.ftl.settings.edit<ftl::SectorLogSettings>().size_bytes = log_blocks * 16 * 4096;
  p.ftl.settings.edit<ftl::WriteBufferSettings>().bytes = dram_bytes;
  return p;
}

std::string refusal(const PlatformConfig& p) {
  return error_of([&] { validate_platform(p, "test"); });
}

TEST(SectorLayerRules, ALogThatFitsTheSpareBlocksRuns) {
  EXPECT_NO_THROW(validate_platform(platform(16, 0), "test"));
  EXPECT_NO_THROW(validate_platform(platform(80, 1 << 20), "test"));  // 10 a plane: 10+4+2 = 16
}

TEST(SectorLayerRules, ALogLargerThanTheSpareBlocksIsRefused) {
  EXPECT_THAT(refusal(platform(88, 1 << 20)),  // 11 a plane: 11 + 4 + 2 > 16
              AllOf(HasSubstr("ftl.sector_log.size_bytes"), HasSubstr("11 blocks per plane"),
                    HasSubstr("ftl.over_provisioning")));
}

TEST(SectorLayerRules, UnderDacTheLogFitsBesideTheRegionsStreams) {
  // Four regions keep 4 host and 3 GC open blocks and 3 free blocks for GC: 11 of the 16 hidden
  // blocks a plane, leaving 5 for the log (where page mapping leaves 10).
  PlatformConfig p = platform(40, 1 << 20);
  p.ftl.scheme = "dac";
  EXPECT_NO_THROW(validate_platform(p, "test"));
  p = platform(48, 1 << 20);
  p.ftl.scheme = "dac";
  EXPECT_THAT(refusal(p), AllOf(HasSubstr("ftl.sector_log.size_bytes"),
                                HasSubstr("6 blocks per plane"), HasSubstr("keeps 11")));
  p.ftl.scheme = "page";
  EXPECT_NO_THROW(validate_platform(p, "test"));
}

TEST(SectorLayerRules, TheLogIsWholeBlocksAndAtLeastTwo) {
  PlatformConfig p = platform(4, 0);
  p.ftl.settings.edit<ftl::SectorLogSettings>().size_bytes += 4096;
  EXPECT_THAT(refusal(p),
              AllOf(HasSubstr("ftl.sector_log.size_bytes"), HasSubstr("whole number of blocks")));
  EXPECT_THAT(refusal(platform(1, 0)), HasSubstr("at least two"));
}

TEST(SectorLayerRules, HashBucketsNeedALogAndAtMostItsSectors) {
  PlatformConfig p = platform(0, 0);
  p.ftl.settings.edit<ftl::SectorLogSettings>().hash_buckets = 1024;
  EXPECT_THAT(refusal(p),
              AllOf(HasSubstr("ftl.sector_log.hash_buckets"), HasSubstr("there is no sector log")));
  p = platform(16, 0);  // 16 blocks x 16 pages x 8 sectors
  p.ftl.settings.edit<ftl::SectorLogSettings>().hash_buckets = 2048;
  EXPECT_NO_THROW(validate_platform(p, "test"));
  p.ftl.settings.edit<ftl::SectorLogSettings>().hash_buckets = 2049;
  EXPECT_THAT(refusal(p), AllOf(HasSubstr("ftl.sector_log.hash_buckets"),
                                HasSubstr("at most the sector log's 2048 sectors")));
}

TEST(SectorLayerRules, TheDramMustHoldTheMapOfTwoLogBlocks) {
  EXPECT_THAT(refusal(platform(16, 16 * 1024)),
              AllOf(HasSubstr("ftl.write_buffer.bytes"), HasSubstr("at least")));
}

TEST(SectorLayerRules, KeysLoadOnPageAndDac) {
  for (const char* scheme : {"page", "dac"}) {
    const PlatformConfig loaded =
        load_config(bundled("platforms/default.toml"), "",
                    {std::string("ftl.scheme=") + scheme, "cache.mode=off",
                     "ftl.write_buffer.bytes=8388608", "ftl.sector_log.size_bytes=4194304",
                     "ftl.over_provisioning=0.12"})
            .platform;
    EXPECT_EQ(loaded.ftl.settings.get<ftl::WriteBufferSettings>().bytes, 8388608u) << scheme;
    EXPECT_EQ(loaded.ftl.settings.get<ftl::SectorLogSettings>().size_bytes, 4194304u) << scheme;
    EXPECT_NO_THROW(validate_platform(loaded, "test")) << scheme;
  }
}

TEST(SectorLayerRules, OtherSchemesRefuseTheLayersKeys) {
  for (const char* scheme : {"dftl", "block", "vet", "lsb"}) {
    PlatformConfig p = platform(0, 1 << 20);
    p.ftl.scheme = scheme;
    EXPECT_THAT(refusal(p), AllOf(HasSubstr("ftl.write_buffer.bytes"), HasSubstr(scheme)));
    p = platform(16, 0);
    p.ftl.scheme = scheme;
    EXPECT_THAT(refusal(p), HasSubstr("ftl.sector_log.size_bytes")) << scheme;
  }
}

TEST(SectorLayerRules, UnitsOfMoreThanSixtyFourSectorsAreRefused) {
  PlatformConfig p = ssd::testing::tiny_platform();
  p.nand.page_bytes = 65536;  // one 128-sector unit a page
  EXPECT_THAT(refusal(p), AllOf(HasSubstr("nand.page_bytes"), HasSubstr("128 sectors"),
                                HasSubstr("at most 64")));
  p.ftl.mapping_unit_bytes = 32768;
  EXPECT_NO_THROW(validate_platform(p, "test"));
  p.nand.page_bytes = 32768;
  p.ftl.mapping_unit_bytes = 0;
  EXPECT_NO_THROW(validate_platform(p, "test"));
}

}  // namespace
}  // namespace ssd::config::test
