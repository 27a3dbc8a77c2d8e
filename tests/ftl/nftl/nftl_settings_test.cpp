// NFTL's settings (ftl/nftl/nftl_settings.h) as a user meets them through the configuration
// loader: the translation-cache keys are read, and a bad kind or a threshold too small for the
// chosen cache stops the run with the key named.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ftl/nftl/nftl_settings.h"
#include "tests/config/config_test_support.h"

namespace ssd::config::test {
namespace {

using ::testing::HasSubstr;

TEST(NftlSettings, KeysAreReadIntoTheGroup) {
  const LoadedConfig c =
      load_config("", "",
                  {"ftl.scheme=nftl", "ftl.mapping_unit_bytes=0", "ftl.nftl.cache=\"lmt-scwr\"",
                   "ftl.nftl.cache_bytes=65536", "ftl.nftl.lmt_fanout=41",
                   "ftl.nftl.cache_fill_on_read=true", "ftl.nftl.cache_on_fold=\"forget\""});
  const ftl::NftlSettings& s = c.platform.ftl.settings.get<ftl::NftlSettings>();
  EXPECT_EQ(s.cache, "lmt-scwr");
  EXPECT_EQ(s.cache_bytes, 65536u);
  EXPECT_EQ(s.lmt_fanout, 41u);
  EXPECT_TRUE(s.cache_fill_on_read);
  EXPECT_EQ(s.cache_on_fold, "forget");
}

TEST(NftlSettings, AnUnknownFoldPolicyIsRefused) {
  EXPECT_THAT(platform_error("[ftl.nftl]\ncache_on_fold = \"ignore\"\n"),
              HasSubstr("key 'ftl.nftl.cache_on_fold'"));
}

TEST(NftlSettings, AnUnknownCacheKindIsRefused) {
  EXPECT_THAT(platform_error("[ftl]\nscheme = \"nftl\"\n[ftl.nftl]\ncache = \"lfu\"\n"),
              HasSubstr("key 'ftl.nftl.cache'"));
}

TEST(NftlSettings, AThresholdBelowTheCachesLeastStateIsRefused) {
  // FANOUT 19: a 256-byte root and a 20-byte unit at least.
  EXPECT_THAT(error_of([] {
                load_config(
                    "", "",
                    {"ftl.scheme=nftl", "ftl.mapping_unit_bytes=0", "ftl.nftl.cache=\"lmt-wr\"",
                     "ftl.nftl.lmt_fanout=19", "ftl.nftl.cache_bytes=275"});
              }),
              HasSubstr("ftl.nftl.cache_bytes"));
  EXPECT_NO_THROW(
      load_config("", "",
                  {"ftl.scheme=nftl", "ftl.mapping_unit_bytes=0", "ftl.nftl.cache=\"lmt-wr\"",
                   "ftl.nftl.lmt_fanout=19", "ftl.nftl.cache_bytes=276"}));
}

TEST(NftlSettings, ACacheLargerThanTheControllersDramIsRefused) {
  const std::vector<std::string> sets = {"ftl.scheme=nftl", "ftl.mapping_unit_bytes=0",
                                         "ftl.nftl.cache=\"lru\"", "dram.capacity_bytes=1048576"};
  std::vector<std::string> over = sets;
  over.push_back("ftl.nftl.cache_bytes=1048577");
  EXPECT_THAT(error_of([&] { load_config("", "", over); }),
              HasSubstr("key 'ftl.nftl.cache_bytes': is larger than the controller's DRAM"));
  std::vector<std::string> fits = sets;
  fits.push_back("ftl.nftl.cache_bytes=1048576");
  EXPECT_NO_THROW(load_config("", "", fits));
}

TEST(NftlSettings, AFanoutOutsideItsRangeIsRefused) {
  EXPECT_THAT(platform_error("[ftl.nftl]\nlmt_fanout = 2\n"),
              HasSubstr("key 'ftl.nftl.lmt_fanout': must be in [3, 1024]"));
}

}  // namespace
}  // namespace ssd::config::test
