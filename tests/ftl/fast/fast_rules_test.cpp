// FAST's settings and rules (ftl/fast/fast_settings.h, fast_rules.h) as a user meets them through
// the configuration loader.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "ftl/fast/fast_rules.h"
#include "ftl/fast/fast_settings.h"
#include "tests/config/config_test_support.h"

namespace ssd::config::test {
namespace {

using ::testing::HasSubstr;

TEST(FastRules, LogBlocksMustFitInTheHiddenBlocks) {
  // Default platform: 1024 blocks, 953 data blocks, 4 planes: at most 63 log blocks.
  EXPECT_THAT(platform_error("[ftl]\nscheme = \"fast\"\n[ftl.fast]\nlog_blocks_ratio = 0.07\n"),
              HasSubstr("FILE:4: key 'ftl.fast.log_blocks_ratio': gives 72 log blocks; with 953 "
                        "data blocks and 2 free blocks per plane they need 1033 of the 1024"));
  TempToml fits("[ftl]\nscheme = \"fast\"\nfast.log_blocks_ratio = 0.06\n");
  const LoadedConfig loaded = load_config(fits.path(), "", {});
  EXPECT_DOUBLE_EQ(loaded.platform.ftl.settings.get<ftl::FastSettings>().log_blocks_ratio, 0.06);
  EXPECT_EQ(ftl::fast_log_blocks(loaded.platform), 61u);
  // The rule is FAST's only: page mapping ignores the ratio (its range still holds).
  TempToml page("[ftl]\nscheme = \"page\"\nfast.log_blocks_ratio = 0.4\n");
  EXPECT_NO_THROW(load_config(page.path(), "", {}));
  EXPECT_THAT(platform_error("[ftl]\nscheme = \"page\"\nfast.log_blocks_ratio = 0.6\n"),
              HasSubstr("key 'ftl.fast.log_blocks_ratio': must be in (0, 0.5)"));
}

TEST(FastRules, TheOldKeyNameIsRefusedWithTheNewOne) {
  EXPECT_THAT(platform_error("[ftl]\nfast_log_blocks_ratio = 0.03\n"),
              HasSubstr("FILE:2: key 'ftl.fast_log_blocks_ratio': renamed to "
                        "'ftl.fast.log_blocks_ratio'"));
  EXPECT_THAT(error_of([] { load_config("", "", {"ftl.fast_log_blocks_ratio=0.03"}); }),
              HasSubstr("--set: key 'ftl.fast_log_blocks_ratio': renamed to "
                        "'ftl.fast.log_blocks_ratio'"));
}

}  // namespace
}  // namespace ssd::config::test
