// The Superblock FTL's settings (ftl/superblock/superblock_settings.h) and rules
// (ftl/superblock/superblock_descriptor.cpp) as a run meets them: through the platform validation
// ssdsim runs and the configuration loader. A superblock layout that does not fit the pages of a
// block or the spare area, a PBMT that cannot name the device's blocks, no update block, a cache
// too small for a write and a merge, or a mapping unit below a page stops the run naming the key
// to change; the bundled LSB-paper platform passes with the paper's 348 mapping bits of 352.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ftl/core/geometry.h"
#include "ftl/scheme_registry.h"
#include "ftl/superblock/superblock_settings.h"
#include "ftl/superblock/superblock_spare.h"
#include "tests/config/config_test_support.h"
#include "tests/ftl/tiny_platform.h"

namespace ssd::config::test {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::Not;

// The superblock FTL tests' device: 8 planes of 64 blocks (512) of 64 pages, a 64-byte spare.
PlatformConfig platform() {
  PlatformConfig p = ssd::testing::tiny_platform();
  p.nand.pages_per_block = 64;
  p.nand.spare_bytes = 64;
  p.ftl.scheme = "superblock";
  return p;
}
ftl::SuperblockSettings& settings(PlatformConfig& p) {
  return p.ftl.settings.edit<ftl::SuperblockSettings>();
}

// The message validating `p` gives ("" and a test failure when it passes).
std::string refusal(const PlatformConfig& p) {
  return error_of([&] { validate_platform(p, "test"); });
}

ftl::SuperblockSpareLayout layout_of(const PlatformConfig& p) {
  return ftl::SuperblockSpareLayout::of(p.ftl.settings.get<ftl::SuperblockSettings>(),
                                        ftl::Geometry::from_platform(p), p.nand.spare_bytes);
}

TEST(SuperblockSettings, TheTestPlatformPassesAndTheKeysAreRead) {
  EXPECT_NO_THROW(validate_platform(platform(), "test"));
  const LoadedConfig c =
      load_config("", "",
                  {"ftl.scheme=superblock", "ftl.superblock.superblock_blocks=2",
                   "ftl.superblock.max_physical_blocks=6", "ftl.superblock.groups_per_block=8",
                   "ftl.superblock.pages_per_group=8", "ftl.superblock.cache_entries=12",
                   "ftl.superblock.di_bytes=16", "ftl.superblock.pbn_bytes=2"});
  const ftl::SuperblockSettings& s = c.platform.ftl.settings.get<ftl::SuperblockSettings>();
  EXPECT_EQ(s.superblock_blocks, 2u);
  EXPECT_EQ(s.max_physical_blocks, 6u);
  EXPECT_EQ(s.groups_per_block, 8u);
  EXPECT_EQ(s.pages_per_group, 8u);
  EXPECT_EQ(s.cache_entries, 12u);
  EXPECT_EQ(s.di_bytes, 16u);
  EXPECT_EQ(s.pbn_bytes, 2u);
}

TEST(SuperblockSettings, TheDefaultsAreThePapersConfiguration) {
  const ftl::SuperblockSettings s;
  EXPECT_EQ(s.superblock_blocks, 4u);
  EXPECT_EQ(s.max_physical_blocks, 8u);
  EXPECT_EQ(s.groups_per_block, 4u);
  EXPECT_EQ(s.pages_per_group, 0u);  // the block's pages over the groups: 16 on 64-page blocks
  EXPECT_EQ(s.di_bytes, 20u);
  EXPECT_EQ(s.pbn_bytes, 3u);
  EXPECT_EQ(layout_of(platform()).group_pages, 16u);
}

TEST(SuperblockSettings, PagesPerGroupZeroSplitsTheBlockEvenly) {
  PlatformConfig p = platform();
  settings(p).groups_per_block = 8;
  EXPECT_NO_THROW(validate_platform(p, "test"));
  EXPECT_EQ(layout_of(p).group_pages, 8u);
  EXPECT_EQ(layout_of(p).mapping_bits(), 7u * 24 + (8 + 8) * 9);
  settings(p).groups_per_block = 3;  // 64 / 3 = 21: 63 pages
  EXPECT_THAT(refusal(p), AllOf(HasSubstr("key 'ftl.superblock.groups_per_block'"),
                                HasSubstr("(64), got 3 x 21")));
  settings(p).groups_per_block = 128;  // more groups than pages
  EXPECT_THAT(refusal(p), HasSubstr("key 'ftl.superblock.groups_per_block'"));
  settings(p).groups_per_block = 0;
  EXPECT_THAT(refusal(p), HasSubstr("key 'ftl.superblock.groups_per_block'"));
  settings(p).groups_per_block = 4;
  settings(p).pages_per_group = 16;  // the same, given
  EXPECT_NO_THROW(validate_platform(p, "test"));
  EXPECT_EQ(layout_of(p).mapping_bits(), 348u);
}

TEST(SuperblockSettings, GroupsTimesPagesMustBeTheBlocksPages) {
  PlatformConfig p = platform();
  settings(p).pages_per_group = 8;  // 4 x 8 = 32 of 64
  EXPECT_THAT(refusal(p), AllOf(HasSubstr("key 'ftl.superblock.groups_per_block'"),
                                HasSubstr("(64), got 4 x 8")));
  settings(p).groups_per_block = 8;  // 8 x 8
  EXPECT_NO_THROW(validate_platform(p, "test"));
  settings(p).groups_per_block = 16;  // 16 x 8 = 128
  EXPECT_THAT(refusal(p), HasSubstr("key 'ftl.superblock.groups_per_block'"));
  // Through a file: the key's line is named.
  EXPECT_THAT(platform_error("[ftl]\nscheme = \"superblock\"\n[ftl.superblock]\n"
                             "groups_per_block = 3\n"),
              HasSubstr("key 'ftl.superblock.groups_per_block'"));
}

TEST(SuperblockSettings, GroupsAndPagesThatDoNotFitTheSpareAreaAreRefused) {
  PlatformConfig p = platform();
  settings(p).groups_per_block = 1;
  settings(p).pages_per_group = 64;  // PBMT 168 + (1 + 64) x 9 = 753 bits of 352
  EXPECT_THAT(refusal(p), AllOf(HasSubstr("key 'ftl.superblock.pages_per_group'"),
                                HasSubstr("ftl.superblock.groups_per_block"),
                                HasSubstr("= 753 bits"), HasSubstr("leave 352")));
  settings(p).groups_per_block = 2;
  settings(p).pages_per_group = 32;  // 168 + 34 x 9 = 474
  EXPECT_THAT(refusal(p), HasSubstr("key 'ftl.superblock.pages_per_group'"));
  settings(p).groups_per_block = 8;
  settings(p).pages_per_group = 8;  // 168 + 16 x 9 = 312
  EXPECT_NO_THROW(validate_platform(p, "test"));
}

TEST(SuperblockSettings, TheSpareAreaBoundIsExact) {
  // The paper's layout takes 348 bits; a 21-byte DI leaves 344.
  PlatformConfig p = platform();
  EXPECT_EQ(layout_of(p).mapping_bits(), 348u);
  settings(p).di_bytes = 21;
  EXPECT_THAT(refusal(p), AllOf(HasSubstr("key 'ftl.superblock.pages_per_group'"),
                                HasSubstr("= 348 bits"), HasSubstr("leave 344")));
  // A ninth block: an 8-entry PBMT of 24 bits and 4-bit block indices, 192 + 20 x 10 = 392.
  p = platform();
  settings(p).max_physical_blocks = 9;
  EXPECT_THAT(refusal(p),
              AllOf(HasSubstr("key 'ftl.superblock.pages_per_group'"),
                    HasSubstr("ftl.superblock.max_physical_blocks"), HasSubstr("= 392 bits")));
  // Fewer blocks fit: 5 blocks, 4 x 24 + 20 x 9 = 276.
  settings(p).max_physical_blocks = 5;
  EXPECT_NO_THROW(validate_platform(p, "test"));
  // A larger spare area takes the ninth block.
  settings(p).max_physical_blocks = 9;
  p.nand.spare_bytes = 128;
  EXPECT_NO_THROW(validate_platform(p, "test"));
}

TEST(SuperblockSettings, ASuperblockNeedsAnUpdateBlockBeyondItsDataBlocks) {
  PlatformConfig p = platform();
  settings(p).max_physical_blocks = 4;  // = superblock_blocks
  EXPECT_THAT(refusal(p), AllOf(HasSubstr("key 'ftl.superblock.max_physical_blocks'"),
                                HasSubstr("ftl.superblock.superblock_blocks")));
  settings(p).max_physical_blocks = 3;
  EXPECT_THAT(refusal(p), HasSubstr("key 'ftl.superblock.max_physical_blocks'"));
  settings(p).max_physical_blocks = 5;
  EXPECT_NO_THROW(validate_platform(p, "test"));
  settings(p).superblock_blocks = 1;
  settings(p).max_physical_blocks = 2;
  EXPECT_NO_THROW(validate_platform(p, "test"));
  settings(p).superblock_blocks = 2;
  EXPECT_THAT(refusal(p), HasSubstr("key 'ftl.superblock.max_physical_blocks'"));
  EXPECT_THAT(platform_error("[ftl]\nscheme = \"superblock\"\n[ftl.superblock]\n"
                             "superblock_blocks = 8\nmax_physical_blocks = 8\n"),
              HasSubstr("key 'ftl.superblock.max_physical_blocks'"));
}

// A superblock's blocks all sit on its home plane: it may not hold more than a plane has.
TEST(SuperblockSettings, MoreBlocksThanAPlaneHoldsAreRefused) {
  PlatformConfig p = platform();  // 64 blocks a plane
  p.nand.spare_bytes = 512;       // room in the spare area for a long PBMT
  settings(p).max_physical_blocks = 65;
  EXPECT_THAT(refusal(p), AllOf(HasSubstr("key 'ftl.superblock.max_physical_blocks'"),
                                HasSubstr("nand.blocks_per_plane")));
  settings(p).max_physical_blocks = 64;
  EXPECT_NO_THROW(validate_platform(p, "test"));
}

TEST(SuperblockSettings, ADataInformationFillingTheSpareAreaIsRefused) {
  PlatformConfig p = platform();
  settings(p).di_bytes = 64;
  EXPECT_THAT(refusal(p),
              AllOf(HasSubstr("key 'ftl.superblock.di_bytes'"), HasSubstr("64-byte spare area")));
  settings(p).di_bytes = 100;
  EXPECT_THAT(refusal(p), HasSubstr("key 'ftl.superblock.di_bytes'"));
  settings(p).di_bytes = 63;  // leaves room, but not enough for the map
  EXPECT_THAT(refusal(p), AllOf(HasSubstr("key 'ftl.superblock.pages_per_group'"),
                                Not(HasSubstr("key 'ftl.superblock.di_bytes'"))));
  // Fewer than the 8 bytes of LPN and sequence number.
  EXPECT_THAT(platform_error("[ftl.superblock]\ndi_bytes = 7\n"),
              HasSubstr("key 'ftl.superblock.di_bytes'"));
}

TEST(SuperblockSettings, PbnsTooShortForTheDevicesBlocksAreRefused) {
  PlatformConfig p = platform();  // 512 blocks
  settings(p).pbn_bytes = 1;
  EXPECT_THAT(refusal(p),
              AllOf(HasSubstr("key 'ftl.superblock.pbn_bytes'"), HasSubstr("512 blocks")));
  settings(p).pbn_bytes = 2;
  EXPECT_NO_THROW(validate_platform(p, "test"));
  // One byte names 255 blocks and the unused entry (all ones): 248 blocks pass, 256 do not.
  p.nand.blocks_per_plane = 31;  // 8 planes
  settings(p).pbn_bytes = 1;
  EXPECT_NO_THROW(validate_platform(p, "test"));
  p.nand.blocks_per_plane = 32;
  EXPECT_THAT(refusal(p),
              AllOf(HasSubstr("key 'ftl.superblock.pbn_bytes'"), HasSubstr("256 blocks")));
  EXPECT_THAT(platform_error("[ftl]\nscheme = \"superblock\"\n[ftl.superblock]\n"
                             "pbn_bytes = 5\n"),
              HasSubstr("key 'ftl.superblock.pbn_bytes'"));
}

TEST(SuperblockSettings, ACacheOfOneEntryIsRefused) {
  PlatformConfig p = platform();
  settings(p).cache_entries = 1;
  EXPECT_THAT(refusal(p), HasSubstr("key 'ftl.superblock.cache_entries'"));
  settings(p).cache_entries = 2;
  EXPECT_NO_THROW(validate_platform(p, "test"));
  EXPECT_THAT(platform_error("[ftl]\nscheme = \"superblock\"\n[ftl.superblock]\n"
                             "cache_entries = 1\n"),
              HasSubstr("key 'ftl.superblock.cache_entries'"));
  EXPECT_THAT(platform_error("[ftl.superblock]\ncache_entries = 0\n"),
              HasSubstr("key 'ftl.superblock.cache_entries'"));
}

TEST(SuperblockSettings, AMappingUnitBelowAPageIsRefused) {
  PlatformConfig p = platform();
  p.ftl.mapping_unit_bytes = 2048;
  EXPECT_THAT(refusal(p), AllOf(HasSubstr("key 'ftl.mapping_unit_bytes'"),
                                HasSubstr("for the superblock scheme")));
  p.ftl.mapping_unit_bytes = 4096;
  EXPECT_NO_THROW(validate_platform(p, "test"));
  EXPECT_THAT(platform_error("[ftl]\nscheme = \"superblock\"\nmapping_unit_bytes = 2048\n"),
              HasSubstr("FILE:3: key 'ftl.mapping_unit_bytes': must be 0 or nand.page_bytes "
                        "(4096) for the superblock scheme"));
}

TEST(SuperblockSettings, TheRulesApplyOnlyToTheSuperblockScheme) {
  PlatformConfig p = platform();
  settings(p).groups_per_block = 3;  // would be refused for the superblock scheme
  settings(p).cache_entries = 1;
  p.ftl.scheme = "nftl";
  EXPECT_NO_THROW(validate_platform(p, "test"));
}

TEST(SuperblockSettings, TheLsbPapersPlatformPassesWithThePapersLayout) {
  const LoadedConfig c =
      load_config(bundled("platforms/k9k4g08-80gb.toml"), "", {"ftl.scheme=superblock"});
  EXPECT_EQ(c.platform.ftl.scheme, "superblock");
  const ftl::SuperblockSpareLayout l = layout_of(c.platform);
  EXPECT_EQ(l.mapping_bits(), 348u);
  EXPECT_EQ(l.available_bits(), 352u);
  EXPECT_EQ(l.pbn_bits, 24u);  // 655360 blocks need 3 bytes ...
  std::vector<std::string> two_bytes = {"ftl.scheme=superblock", "ftl.superblock.pbn_bytes=2"};
  EXPECT_THAT(error_of([&] { load_config(bundled("platforms/k9k4g08-80gb.toml"), "", two_bytes); }),
              AllOf(HasSubstr("key 'ftl.superblock.pbn_bytes'"),
                    HasSubstr("655360 blocks")));  // ... 2 bytes name 65535
}

// The flash keeps of each page's spare area only the words the format fills: on MQSim's device
// (448-byte spare areas, 256-page blocks) superblock's defaults fill 160 bits of DI and
// 7 x 24 + (4 + 64) x 11 = 916 mapping bits, 34 words; LSB's longer format (a PT page:
// 31 x 24 + 32 x 13 + 1 = 1161 bits, equation (1)) with its DI, 42. So the device fits this
// machine class (before, the whole 112 words per page asked for 28 GiB).
TEST(SuperblockSettings, TheFlashKeepsOnlyTheSpareWordsTheFormatFills) {
  const PlatformConfig sb = load_config(bundled("platforms/mqsim-512gb.toml"), "",
                                        {"ftl.scheme=superblock", "ftl.mapping_unit_bytes=8192"})
                                .platform;
  EXPECT_EQ(ftl::scheme_spare_words("superblock", sb, false), 34u);
  EXPECT_EQ(ftl::scheme_spare_words("superblock", sb, true), 34u);
  const PlatformConfig lsb = load_config(bundled("platforms/mqsim-512gb.toml"), "",
                                         {"ftl.scheme=lsb", "ftl.mapping_unit_bytes=8192"})
                                 .platform;
  EXPECT_EQ(ftl::scheme_spare_words("lsb", lsb, false), 42u);
  const uint64_t pages = ftl::Geometry::from_platform(sb).pages();
  EXPECT_LT(ftl::simulator_bytes(sb, false, false), pages * 112 * 4 / 2);
  EXPECT_GE(ftl::simulator_bytes(sb, false, false), pages * 34 * 4);
}

}  // namespace
}  // namespace ssd::config::test
