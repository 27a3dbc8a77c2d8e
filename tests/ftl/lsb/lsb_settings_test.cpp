// The LSB FTL's settings (ftl/lsb/lsb_settings.h) and rules (ftl/lsb/lsb_descriptor.cpp) as a run
// meets them: through the platform validation ssdsim runs and the configuration loader. Groups
// that do not make up a block, a PT or PMD page that does not fit the spare area (equations (1)
// and (2)), a DI filling the spare area, PBNs that cannot name the device's blocks, a cache too
// small for a write and a merge, an unknown key or a mapping unit below a page stop the run naming
// the key to change; the paper's K9F1G16U0M layout passes with 241 and 345 bits of 352, and the
// bundled platforms take `--ftl lsb` with its defaults.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ftl/core/geometry.h"
#include "ftl/lsb/lsb_settings.h"
#include "ftl/lsb/lsb_spare.h"
#include "tests/config/config_test_support.h"
#include "tests/ftl/tiny_platform.h"

namespace ssd::config::test {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::Not;

// The LSB FTL tests' device: 8 planes of 64 blocks (512) of 64 pages, a 64-byte spare (the
// paper's K9F1G16U0M spare area).
PlatformConfig platform() {
  PlatformConfig p = ssd::testing::tiny_platform();
  p.nand.pages_per_block = 64;
  p.nand.spare_bytes = 64;
  p.ftl.scheme = "lsb";
  return p;
}
ftl::LsbSettings& settings(PlatformConfig& p) { return p.ftl.settings.edit<ftl::LsbSettings>(); }

// The message validating `p` gives ("" and a test failure when it passes).
std::string refusal(const PlatformConfig& p) {
  return error_of([&] { validate_platform(p, "test"); });
}

ftl::LsbSpareLayout layout_of(const PlatformConfig& p) {
  const ftl::LsbSettings& s = p.ftl.settings.get<ftl::LsbSettings>();
  const uint32_t pages = p.nand.pages_per_block;
  const uint32_t group_pages =
      s.pages_per_group != 0 ? s.pages_per_group : pages / s.groups_per_block;
  return ftl::LsbSpareLayout::of(s.groups_per_block, group_pages, pages, p.nand.spare_bytes,
                                 s.di_bytes, s.pbn_bytes);
}

TEST(LsbSettings, TheTestPlatformPassesAndTheKeysAreRead) {
  EXPECT_NO_THROW(validate_platform(platform(), "test"));
  const LoadedConfig c =
      load_config("", "",
                  {"ftl.scheme=lsb", "ftl.lsb.superblock_blocks=64", "ftl.lsb.groups_per_block=4",
                   "ftl.lsb.pages_per_group=16", "ftl.lsb.cache_entries=12", "ftl.lsb.di_bytes=16",
                   "ftl.lsb.pbn_bytes=2"});
  EXPECT_EQ(c.platform.ftl.scheme, "lsb");
  const ftl::LsbSettings& s = c.platform.ftl.settings.get<ftl::LsbSettings>();
  EXPECT_EQ(s.superblock_blocks, 64u);
  EXPECT_EQ(s.groups_per_block, 4u);
  EXPECT_EQ(s.pages_per_group, 16u);
  EXPECT_EQ(s.cache_entries, 12u);
  EXPECT_EQ(s.di_bytes, 16u);
  EXPECT_EQ(s.pbn_bytes, 2u);
  // Through a file as well.
  TempToml file(
      "[ftl]\nscheme = \"lsb\"\n[ftl.lsb]\nsuperblock_blocks = 30\ncache_entries = 40\n"
      "groups_per_block = 16\n");
  const LoadedConfig f = load_config(file.path(), "", {});
  EXPECT_EQ(f.platform.ftl.settings.get<ftl::LsbSettings>().superblock_blocks, 30u);
  EXPECT_EQ(f.platform.ftl.settings.get<ftl::LsbSettings>().cache_entries, 40u);
  EXPECT_EQ(f.platform.ftl.settings.get<ftl::LsbSettings>().groups_per_block, 16u);
}

TEST(LsbSettings, TheDefaultsAreThePapersConfiguration) {
  const ftl::LsbSettings s;
  EXPECT_EQ(s.superblock_blocks, 512u);
  EXPECT_EQ(s.groups_per_block, 8u);
  EXPECT_EQ(s.pages_per_group, 0u);  // the block's pages over the groups: 8 on 64-page blocks
  EXPECT_EQ(s.cache_entries, 16u);
  EXPECT_EQ(s.di_bytes, 20u);
  EXPECT_EQ(s.pbn_bytes, 3u);
  EXPECT_EQ(layout_of(platform()).group_pages, 8u);
}

// Section III.A's example, the K9F1G16U0M: 64-page blocks, a 64-byte spare of which the DI takes
// 20 bytes, N = G = 8 and 3-byte PBNs: a PT page needs 241 bits, a PMD page 345, and 352 are
// there.
TEST(LsbSettings, ThePapersExamplePassesWith241And345Of352Bits) {
  const PlatformConfig p = platform();
  EXPECT_NO_THROW(validate_platform(p, "test"));
  const ftl::LsbSpareLayout l = layout_of(p);
  EXPECT_EQ(l.groups, 8u);
  EXPECT_EQ(l.group_pages, 8u);
  EXPECT_EQ(l.pt_page_bits(), 241u);
  EXPECT_EQ(l.pmd_page_bits(), 345u);
  EXPECT_EQ(l.available_bits(), 352u);
  // The same figures given explicitly.
  PlatformConfig q = platform();
  settings(q).groups_per_block = 8;
  settings(q).pages_per_group = 8;
  settings(q).di_bytes = 20;
  settings(q).pbn_bytes = 3;
  EXPECT_NO_THROW(validate_platform(q, "test"));
}

TEST(LsbSettings, GroupsTimesPagesMustBeTheBlocksPages) {
  PlatformConfig p = platform();
  settings(p).pages_per_group = 16;  // 8 x 16 = 128 of 64
  EXPECT_THAT(refusal(p),
              AllOf(HasSubstr("key 'ftl.lsb.groups_per_block'"),
                    HasSubstr("ftl.lsb.pages_per_group"), HasSubstr("(64), got 8 x 16")));
  settings(p).pages_per_group = 4;  // 8 x 4 = 32
  EXPECT_THAT(refusal(p),
              AllOf(HasSubstr("key 'ftl.lsb.groups_per_block'"), HasSubstr("(64), got 8 x 4")));
  settings(p).pages_per_group = 8;  // 8 x 8
  EXPECT_NO_THROW(validate_platform(p, "test"));
  settings(p).pages_per_group = 0;
  settings(p).groups_per_block = 3;  // 64 / 3 = 21: 63 pages
  EXPECT_THAT(refusal(p),
              AllOf(HasSubstr("key 'ftl.lsb.groups_per_block'"), HasSubstr("(64), got 3 x 21")));
  settings(p).groups_per_block = 128;  // more groups than pages: 128 x 0
  EXPECT_THAT(refusal(p), HasSubstr("key 'ftl.lsb.groups_per_block'"));
  settings(p).groups_per_block = 0;
  EXPECT_THAT(refusal(p), HasSubstr("key 'ftl.lsb.groups_per_block'"));
  // Through a file: the key's line is named.
  EXPECT_THAT(platform_error("[ftl]\nscheme = \"lsb\"\n[ftl.lsb]\ngroups_per_block = 3\n"),
              HasSubstr("FILE:4: key 'ftl.lsb.groups_per_block'"));
  EXPECT_THAT(platform_error("[ftl]\nscheme = \"lsb\"\n[ftl.lsb]\npages_per_group = 7\n"),
              HasSubstr("key 'ftl.lsb.groups_per_block'"));
}

TEST(LsbSettings, GroupsThatDoNotFitTheSpareAreaAreRefusedWithBothEquations) {
  PlatformConfig p = platform();
  p.nand.spare_bytes = 32;  // N = G = 8: 241 and 345 bits, but 256 - 160 = 96 there
  EXPECT_THAT(refusal(p), AllOf(HasSubstr("key 'ftl.lsb.groups_per_block'"),
                                HasSubstr("ftl.lsb.pages_per_group"), HasSubstr("N = 8, G = 8"),
                                HasSubstr("241 bits"), HasSubstr("equation (1)"), HasSubstr("345"),
                                HasSubstr("equation (2)"), HasSubstr("leave 96")));
  // N = 4, G = 16: a PT page needs 15 x 24 + 16 x 10 + 1 = 521 bits, more than 352 ...
  p = platform();
  settings(p).groups_per_block = 4;
  EXPECT_EQ(layout_of(p).pt_page_bits(), 521u);
  EXPECT_EQ(layout_of(p).pmd_page_bits(), 273u);
  EXPECT_THAT(refusal(p),
              AllOf(HasSubstr("key 'ftl.lsb.groups_per_block'"), HasSubstr("N = 4, G = 16"),
                    HasSubstr("521 bits"), HasSubstr("leave 352")));
  // ... which a 128-byte spare holds (864 bits).
  p.nand.spare_bytes = 128;
  EXPECT_NO_THROW(validate_platform(p, "test"));
  // N = 16, G = 4: a PMD page needs 16 x 24 + 4 x 11 + 16 x 10 + 1 = 589 bits.
  p = platform();
  settings(p).groups_per_block = 16;
  settings(p).pbn_bytes = 3;
  EXPECT_EQ(layout_of(p).pmd_page_bits(), 589u);
  EXPECT_THAT(refusal(p), AllOf(HasSubstr("key 'ftl.lsb.groups_per_block'"),
                                HasSubstr("N = 16, G = 4"), HasSubstr("589")));
  p.nand.spare_bytes = 128;
  EXPECT_NO_THROW(validate_platform(p, "test"));
  // 2-byte PBNs are not enough on 64 bytes: 16 x 16 + 44 + 160 + 1 = 461 bits of 352.
  p.nand.spare_bytes = 64;
  settings(p).pbn_bytes = 2;
  EXPECT_EQ(layout_of(p).pmd_page_bits(), 461u);
  EXPECT_THAT(refusal(p), HasSubstr("key 'ftl.lsb.groups_per_block'"));
  // A single group of 64 pages: a PT page of 63 PBNs.
  p = platform();
  settings(p).groups_per_block = 1;
  EXPECT_THAT(refusal(p),
              AllOf(HasSubstr("key 'ftl.lsb.groups_per_block'"), HasSubstr("N = 1, G = 64")));
}

TEST(LsbSettings, TheSpareAreaBoundIsExact) {
  // The PMD page takes 345 bits: a 21-byte DI leaves 344.
  PlatformConfig p = platform();
  settings(p).di_bytes = 21;
  EXPECT_EQ(layout_of(p).available_bits(), 344u);
  EXPECT_THAT(refusal(p), AllOf(HasSubstr("key 'ftl.lsb.groups_per_block'"), HasSubstr("345"),
                                HasSubstr("21 of DI leave 344")));
  // A PT page of 2-byte PBNs: 7 x 16 + 72 + 1 = 185; a PMD page 8 x 16 + 80 + 72 + 1 = 281. With
  // 4-byte PBNs: 7 x 32 + 73 = 297 and 8 x 32 + 153 = 409, more than 352.
  settings(p).di_bytes = 20;
  settings(p).pbn_bytes = 2;
  EXPECT_EQ(layout_of(p).pt_page_bits(), 185u);
  EXPECT_EQ(layout_of(p).pmd_page_bits(), 281u);
  EXPECT_NO_THROW(validate_platform(p, "test"));
  settings(p).pbn_bytes = 4;
  EXPECT_EQ(layout_of(p).pmd_page_bits(), 409u);
  EXPECT_THAT(refusal(p), AllOf(HasSubstr("key 'ftl.lsb.groups_per_block'"), HasSubstr("409")));
  // 409 bits fit a 72-byte spare less a 20-byte DI (416), not less a 21-byte one (408).
  p.nand.spare_bytes = 72;
  EXPECT_NO_THROW(validate_platform(p, "test"));
  settings(p).di_bytes = 21;
  EXPECT_THAT(refusal(p),
              AllOf(HasSubstr("key 'ftl.lsb.groups_per_block'"), HasSubstr("leave 408")));
}

TEST(LsbSettings, ADataInformationFillingTheSpareAreaIsRefused) {
  PlatformConfig p = platform();
  settings(p).di_bytes = 64;
  EXPECT_THAT(refusal(p),
              AllOf(HasSubstr("key 'ftl.lsb.di_bytes'"), HasSubstr("64-byte spare area")));
  settings(p).di_bytes = 100;
  EXPECT_THAT(refusal(p), HasSubstr("key 'ftl.lsb.di_bytes'"));
  settings(p).di_bytes = 63;  // leaves a byte, not enough for the map
  EXPECT_THAT(refusal(p), AllOf(HasSubstr("key 'ftl.lsb.groups_per_block'"),
                                Not(HasSubstr("key 'ftl.lsb.di_bytes'"))));
  // Fewer than the 8 bytes of LPN and sequence number.
  EXPECT_THAT(platform_error("[ftl]\nscheme = \"lsb\"\n[ftl.lsb]\ndi_bytes = 7\n"),
              HasSubstr("key 'ftl.lsb.di_bytes'"));
  EXPECT_THAT(platform_error("[ftl]\nscheme = \"lsb\"\n[ftl.lsb]\ndi_bytes = 64\n"
                             "[nand]\nspare_bytes = 64\n"),
              HasSubstr("key 'ftl.lsb.di_bytes'"));
}

TEST(LsbSettings, PbnsTooShortForTheDevicesBlocksAreRefused) {
  PlatformConfig p = platform();  // 512 blocks
  settings(p).pbn_bytes = 1;
  EXPECT_THAT(refusal(p), AllOf(HasSubstr("key 'ftl.lsb.pbn_bytes'"), HasSubstr("512 blocks")));
  settings(p).pbn_bytes = 2;
  EXPECT_NO_THROW(validate_platform(p, "test"));
  // One byte names 255 blocks and the unused entry (all ones): 248 blocks pass, 256 do not.
  p.nand.blocks_per_plane = 31;  // 8 planes
  settings(p).pbn_bytes = 1;
  EXPECT_NO_THROW(validate_platform(p, "test"));
  p.nand.blocks_per_plane = 32;
  EXPECT_THAT(refusal(p), AllOf(HasSubstr("key 'ftl.lsb.pbn_bytes'"), HasSubstr("256 blocks")));
  EXPECT_THAT(platform_error("[ftl]\nscheme = \"lsb\"\n[ftl.lsb]\npbn_bytes = 5\n"),
              HasSubstr("key 'ftl.lsb.pbn_bytes'"));
  EXPECT_THAT(platform_error("[ftl]\nscheme = \"lsb\"\n[ftl.lsb]\npbn_bytes = 0\n"),
              HasSubstr("key 'ftl.lsb.pbn_bytes'"));
}

TEST(LsbSettings, ACacheOfOneEntryIsRefused) {
  PlatformConfig p = platform();
  settings(p).cache_entries = 1;
  EXPECT_THAT(refusal(p), HasSubstr("key 'ftl.lsb.cache_entries'"));
  settings(p).cache_entries = 2;
  EXPECT_NO_THROW(validate_platform(p, "test"));
  EXPECT_THAT(platform_error("[ftl]\nscheme = \"lsb\"\n[ftl.lsb]\ncache_entries = 1\n"),
              HasSubstr("FILE:4: key 'ftl.lsb.cache_entries'"));
  EXPECT_THAT(platform_error("[ftl.lsb]\ncache_entries = 0\n"),
              HasSubstr("key 'ftl.lsb.cache_entries'"));
}

TEST(LsbSettings, ASuperblockOfNoLogicalBlockIsRefused) {
  EXPECT_THAT(platform_error("[ftl]\nscheme = \"lsb\"\n[ftl.lsb]\nsuperblock_blocks = 0\n"),
              HasSubstr("key 'ftl.lsb.superblock_blocks'"));
  // Any size from a few logical blocks to more than the device holds (one superblock).
  PlatformConfig p = platform();
  settings(p).superblock_blocks = 4;
  EXPECT_NO_THROW(validate_platform(p, "test"));
  settings(p).superblock_blocks = 100000;
  EXPECT_NO_THROW(validate_platform(p, "test"));
}

// Each superblock keeps a partly written block: 384 one-block superblocks need more than the
// 128 over-provisioned blocks of the test device, 96 four-block ones fit beside the 8 planes'.
TEST(LsbSettings, SuperblocksTooManyForTheOverProvisioningAreRefused) {
  PlatformConfig p = platform();
  settings(p).superblock_blocks = 1;
  try {
    validate_platform(p, "test");
    ADD_FAILURE() << "accepted";
  } catch (const std::exception& e) {
    EXPECT_THAT(e.what(), HasSubstr("ftl.lsb.superblock_blocks"));
    EXPECT_THAT(e.what(), HasSubstr("makes 384 superblocks"));
    EXPECT_THAT(e.what(), HasSubstr("leave 128"));
  }
  settings(p).superblock_blocks = 4;
  EXPECT_NO_THROW(validate_platform(p, "test"));
}

TEST(LsbSettings, AnUnknownKeyIsRefused) {
  EXPECT_THAT(platform_error("[ftl]\nscheme = \"lsb\"\n[ftl.lsb]\nbogus = 1\n"),
              HasSubstr("FILE:4: key 'ftl.lsb.bogus': unknown key"));
  EXPECT_THAT(error_of([] {
                load_config("", "", {"ftl.scheme=lsb", "ftl.lsb.bogus=1"});
              }),
              HasSubstr("--set: key 'ftl.lsb.bogus': unknown key"));
}

TEST(LsbSettings, AMappingUnitBelowAPageIsRefused) {
  PlatformConfig p = platform();
  p.ftl.mapping_unit_bytes = 2048;
  EXPECT_THAT(refusal(p),
              AllOf(HasSubstr("key 'ftl.mapping_unit_bytes'"), HasSubstr("for the lsb scheme")));
  p.ftl.mapping_unit_bytes = 4096;
  EXPECT_NO_THROW(validate_platform(p, "test"));
  EXPECT_THAT(platform_error("[ftl]\nscheme = \"lsb\"\nmapping_unit_bytes = 2048\n"),
              HasSubstr("FILE:3: key 'ftl.mapping_unit_bytes': must be 0 or nand.page_bytes "
                        "(4096) for the lsb scheme"));
}

TEST(LsbSettings, TheRulesApplyOnlyToTheLsbScheme) {
  PlatformConfig p = platform();
  settings(p).groups_per_block = 3;  // would be refused for the LSB scheme
  settings(p).cache_entries = 1;
  settings(p).di_bytes = 64;
  p.ftl.scheme = "superblock";
  EXPECT_NO_THROW(validate_platform(p, "test"));
  p.ftl.scheme = "page";
  EXPECT_NO_THROW(validate_platform(p, "test"));
}

// `--ftl lsb` with its defaults on the bundled platforms: the default one (64-page blocks, a
// 128-byte spare) and the LSB paper's 80 GB K9K4G08 device (64-page blocks, a 64-byte spare,
// 655360 blocks, which 3-byte PBNs name and 2-byte ones do not).
TEST(LsbSettings, TheBundledPlatformsPassWithTheDefaults) {
  const LoadedConfig d = load_config(bundled("platforms/default.toml"), "", {"ftl.scheme=lsb"});
  EXPECT_EQ(d.platform.ftl.scheme, "lsb");
  EXPECT_NO_THROW(validate_platform(d.platform, "default"));
  EXPECT_EQ(layout_of(d.platform).available_bits(), 128u * 8 - 160);
  EXPECT_TRUE(layout_of(d.platform).fits());

  const LoadedConfig k =
      load_config(bundled("platforms/k9k4g08-80gb.toml"), "", {"ftl.scheme=lsb"});
  EXPECT_EQ(k.platform.ftl.scheme, "lsb");
  EXPECT_NO_THROW(validate_platform(k.platform, "k9k4g08"));
  const ftl::LsbSpareLayout l = layout_of(k.platform);
  EXPECT_EQ(l.pt_page_bits(), 241u);
  EXPECT_EQ(l.pmd_page_bits(), 345u);
  EXPECT_EQ(l.available_bits(), 352u);
  EXPECT_EQ(l.pbn_bits, 24u);
  EXPECT_EQ(ftl::Geometry::from_platform(k.platform).blocks(), 655360u);
  const std::vector<std::string> two_bytes = {"ftl.scheme=lsb", "ftl.lsb.pbn_bytes=2"};
  EXPECT_THAT(error_of([&] { load_config(bundled("platforms/k9k4g08-80gb.toml"), "", two_bytes); }),
              AllOf(HasSubstr("key 'ftl.lsb.pbn_bytes'"), HasSubstr("655360 blocks")));
}

}  // namespace
}  // namespace ssd::config::test
