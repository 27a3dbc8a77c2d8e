// The rule the block-granular schemes share (ftl/hybrid/block_rules.h), as a user meets it through
// the configuration loader: they map whole pages; page mapping does not mind.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/config/config_test_support.h"

namespace ssd::config::test {
namespace {

using ::testing::HasSubstr;

TEST(BlockRules, BlockGranularSchemesMapWholePages) {
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

TEST(BlockRules, PageMappingKeepsSubPageUnits) {
  TempToml file("[ftl]\nscheme = \"page\"\nmapping_unit_bytes = 2048\n");
  EXPECT_NO_THROW(load_config(file.path(), "", {}));
}

}  // namespace
}  // namespace ssd::config::test
