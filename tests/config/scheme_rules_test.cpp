// Platform rules of particular mapping schemes (docs/schemes.md): the block-granular schemes map
// whole pages, FAST needs room for its log blocks, DFTL's cache must hold an entry.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "config/config_loader.h"
#include "config_test_support.h"

namespace ssd::config::test {
namespace {

using ::testing::HasSubstr;

TEST(SchemeRules, BlockGranularSchemesMapWholePages) {
  for (const char* scheme : {"block", "nftl", "fast"}) {
    EXPECT_THAT(platform_error(std::string("[ftl]\nscheme = \"") + scheme +
                               "\"\nmapping_unit_bytes = 2048\n"),
                HasSubstr("FILE:3: key 'ftl.mapping_unit_bytes': must be 0 or nand.page_bytes "
                          "(4096) for the " +
                          std::string(scheme) + " scheme"))
        << scheme;
    TempToml whole_page(std::string("[ftl]\nscheme = \"") + scheme +
                        "\"\nmapping_unit_bytes = 4096\n");
    EXPECT_NO_THROW(load_config(whole_page.path(), "", {})) << scheme;
  }
}

TEST(SchemeRules, FastLogBlocksMustFitInTheHiddenBlocks) {
  // Default platform: 1024 blocks, 953 data blocks, 4 planes: at most 63 log blocks.
  EXPECT_THAT(platform_error("[ftl]\nscheme = \"fast\"\nfast_log_blocks_ratio = 0.07\n"),
              HasSubstr("FILE:3: key 'ftl.fast_log_blocks_ratio': gives 72 log blocks; with 953 "
                        "data blocks and 2 free blocks per plane they need 1033 of the 1024"));
  TempToml fits("[ftl]\nscheme = \"fast\"\nfast_log_blocks_ratio = 0.06\n");
  EXPECT_NO_THROW(load_config(fits.path(), "", {}));
  // The rule is FAST's only: page mapping ignores the ratio.
  TempToml page("[ftl]\nscheme = \"page\"\nfast_log_blocks_ratio = 0.4\n");
  EXPECT_NO_THROW(load_config(page.path(), "", {}));
}

TEST(SchemeRules, DftlCacheMustHoldAnEntry) {
  EXPECT_THAT(platform_error("[ftl]\ndftl_cache_bytes = 4\n"),
              HasSubstr("key 'ftl.dftl_cache_bytes': must be >= 8"));
}

TEST(SchemeRules, PageMappingKeepsSubPageUnits) {
  TempToml file("[ftl]\nscheme = \"page\"\nmapping_unit_bytes = 2048\n");
  EXPECT_NO_THROW(load_config(file.path(), "", {}));
}

}  // namespace
}  // namespace ssd::config::test
