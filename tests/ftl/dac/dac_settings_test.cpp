// DAC's settings and rules (ftl/dac/dac_settings.h, dac_descriptor.cpp) as a run meets them,
// through the platform validation ssdsim runs: the regions' write streams must fit the platform's
// GC reserve and over-provisioning, refused naming ftl.dac.regions; the first region must exist.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "ftl/core/page_store_rules.h"
#include "ftl/dac/dac_settings.h"
#include "tests/config/config_test_support.h"
#include "tests/ftl/tiny_platform.h"

namespace ssd::config::test {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;

// The tiny device (64 blocks per plane) as DAC runs it.
PlatformConfig platform(uint32_t regions, double over_provisioning = 0.25,
                        double gc_threshold = 0.05) {
  PlatformConfig p = ssd::testing::tiny_platform();
  p.ftl.scheme = "dac";
  p.ftl.over_provisioning = over_provisioning;
  p.ftl.gc_threshold = gc_threshold;
  p.ftl.settings.edit<ftl::DacSettings>().regions = regions;
  return p;
}

std::string refusal(const PlatformConfig& p) {
  return error_of([&] { validate_platform(p, "test"); });
}

TEST(DacSettings, TheDefaultsRunOnTheTinyAndTheBundledPlatform) {
  EXPECT_NO_THROW(validate_platform(platform(4), "test"));
  EXPECT_NO_THROW(validate_platform(platform(1), "test"));
  const PlatformConfig loaded =
      load_config(bundled("platforms/default.toml"), "", {"ftl.scheme=dac"}).platform;
  EXPECT_EQ(loaded.ftl.settings.get<ftl::DacSettings>().regions, 4u);
  EXPECT_NO_THROW(validate_platform(loaded, "test"));
}

// 64 blocks, 15 % over-provisioning: 9 hidden blocks per plane, a reserve of 4 (the core rule,
// 9 > 4 + 1, holds). Four regions keep 4 host and 3 GC open blocks and 3 free blocks for GC:
// more than 10 hidden blocks needed. Two regions need more than 4.
TEST(DacSettings, RegionsThePlatformCannotHoldAreRefusedNamingTheKey) {
  const std::string message = refusal(platform(4, 0.15));
  EXPECT_THAT(message, AllOf(HasSubstr("ftl.dac.regions"), HasSubstr("4 host and 3 GC"),
                             HasSubstr("more than 10"), HasSubstr("hides 9"),
                             HasSubstr("ftl.over_provisioning")));
  EXPECT_NO_THROW(validate_platform(platform(2, 0.15), "test"));
}

// A GC reserve of 3 blocks (4 % of 64) cannot keep a free block for each of 3 GC streams and
// let GC start before the host reaches them.
TEST(DacSettings, AReserveTooSmallForTheGcStreamsIsRefused) {
  const std::string message = refusal(platform(4, 0.25, 0.04));
  EXPECT_THAT(message, AllOf(HasSubstr("ftl.dac.regions"), HasSubstr("GC reserve"),
                             HasSubstr("at least 4"), HasSubstr("ftl.gc_threshold")));
  EXPECT_NO_THROW(validate_platform(platform(3, 0.25, 0.04), "test"));
}

TEST(DacSettings, OneStreamMeansTheCoreRules) {
  // With one host and one GC stream the rule asks no more than the core's own.
  PlatformConfig p = platform(1, 0.07, 0.05);
  p.nand.blocks_per_plane = 256;  // reserve 13, 17 hidden
  EXPECT_FALSE(ftl::check_page_streams(p, 1, 1, "x").has_value());
}

TEST(DacSettings, TheFirstRegionMustExist) {
  PlatformConfig p = platform(2);
  p.ftl.settings.edit<ftl::DacSettings>().first_region = 2;
  EXPECT_THAT(refusal(p), AllOf(HasSubstr("ftl.dac.first_region"), HasSubstr("below")));
}

TEST(DacSettings, RegionsOutOfRangeAreRefusedByTheLoader) {
  for (const char* regions : {"ftl.dac.regions=9", "ftl.dac.regions=0"}) {
    EXPECT_THAT(error_of([&] {
                  load_config("", "", {"ftl.scheme=dac", regions});
                }),
                HasSubstr("ftl.dac.regions"))
        << regions;
  }
}

}  // namespace
}  // namespace ssd::config::test
