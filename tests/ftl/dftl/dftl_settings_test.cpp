// DFTL's settings (ftl/dftl/dftl_settings.h) as a user meets them through the configuration
// loader.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "ftl/dftl/dftl_settings.h"
#include "tests/config/config_test_support.h"

namespace ssd::config::test {
namespace {

using ::testing::HasSubstr;

TEST(DftlSettings, CacheMustHoldAnEntry) {
  EXPECT_THAT(platform_error("[ftl.dftl]\ncache_bytes = 4\n"),
              HasSubstr("key 'ftl.dftl.cache_bytes': must be >= 8"));
}

TEST(DftlSettings, KeysAreReadIntoTheGroup) {
  const LoadedConfig c = load_config(
      "", "", {"ftl.scheme=dftl", "ftl.dftl.cache_entries=256", "ftl.dftl.cache_bytes=64"});
  EXPECT_EQ(c.platform.ftl.settings.get<ftl::DftlSettings>().cache_entries, 256u);
  EXPECT_EQ(c.platform.ftl.settings.get<ftl::DftlSettings>().cache_bytes, 64u);
}

TEST(DftlSettings, OldKeyNamesAreRefusedWithTheNewOnes) {
  EXPECT_THAT(error_of([] { load_config("", "", {"ftl.dftl_cache_entries=4"}); }),
              HasSubstr("key 'ftl.dftl_cache_entries': renamed to 'ftl.dftl.cache_entries'"));
  EXPECT_THAT(platform_error("[ftl]\ndftl_cache_bytes = 4096\n"),
              HasSubstr("key 'ftl.dftl_cache_bytes': renamed to 'ftl.dftl.cache_bytes'"));
}

}  // namespace
}  // namespace ssd::config::test
