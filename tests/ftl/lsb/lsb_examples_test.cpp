// The LSB paper's worked examples (shared/papers/lsb-large-superblock-ftl.md, figures 4 to 8) on
// a fresh tiny device with its layout (64-page blocks, 64-byte spare areas, N = G = 8): which
// pages become PT and PMD pages, what their spare areas name, the direct reference of a
// single-page write, the two-, three- and four-level translations, and the MIW when a PMD page's
// PBMT would overflow.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ftl/lsb/lsb_ftl.h"
#include "ftl/lsb/lsb_settings.h"
#include "tests/ftl/hybrid/block_scheme_fixture.h"

namespace ssd::ftl {
namespace {

using testing::run_one;

config::PlatformConfig paper_platform() {
  config::PlatformConfig p = testing::tiny_platform();
  p.nand.pages_per_block = 64;
  p.nand.spare_bytes = 64;
  p.ftl.scheme = "lsb";
  p.ftl.over_provisioning = 0.25;
  LsbSettings& s = p.ftl.settings.edit<LsbSettings>();
  s.superblock_blocks = 32;
  s.groups_per_block = 8;
  return p;
}

class LsbExamples : public ::testing::Test {
 protected:
  config::PlatformConfig platform = paper_platform();
  FtlDevice device{platform, FtlDeviceOptions{}};
  const Geometry& g = device.geometry();

  const LsbFtl& lsb() const { return dynamic_cast<const LsbFtl&>(device.scheme()); }
  void write(Lun first, uint32_t count) {
    ASSERT_EQ(run_one(device, CommandKind::kWrite, uint64_t(first) * g.sectors_per_unit,
                      count * g.sectors_per_unit),
              0u);
  }
  LsbSpare spare_of(PageId page) {
    return decode_lsb_spare(lsb().layout(), g, page, device.flash().spare(page));
  }
  double figure(const std::string& name) const {
    for (const MappingFigure& f : lsb().mapping_figures()) {
      if (f.name == name) return f.value;
    }
    ADD_FAILURE() << "no figure " << name;
    return -1;
  }
  // Fills logical block `lbn` (same superblock) so that the next write lands in a fresh block.
  void move_to_a_fresh_block(uint32_t lbn) { write(Lun(lbn) * g.pages_per_block, 64); }
};

TEST_F(LsbExamples, TheTestDeviceHasTheLayoutOfEquationsOneAndTwo) {
  EXPECT_EQ(lsb().layout().pt_page_bits(), 241u);
  EXPECT_EQ(lsb().layout().pmd_page_bits(), 345u);
  EXPECT_EQ(lsb().layout().available_bits(), 352u);
}

// Figure 5(a): a request for pages 5 and 6 makes 6 the PMD page and 5 the PT page.
TEST_F(LsbExamples, TheLastPageIsThePmdPageAndTheNextToLastThePtPage) {
  write(5, 2);
  const PageId pmd = lsb().pgd(0);
  EXPECT_EQ(pmd, lsb().peek(6));
  const LsbSpare head = spare_of(pmd);
  EXPECT_TRUE(head.pmd);
  EXPECT_FALSE(spare_of(lsb().peek(5)).pmd);
  EXPECT_EQ(head.pte[5], lsb().peek(5));
  EXPECT_EQ(head.pte[6], pmd);
  EXPECT_EQ(head.pte[0], kNone);  // never written
}

// Figure 5(b): pages 5 to 9: 7 is group 0's PT page, 8 group 1's, 9 the PMD page, whose PDE for
// group 0 names page 7, whose PT names pages 5, 6 and 7.
TEST_F(LsbExamples, EachGroupsLastPageIsItsPtPage) {
  write(5, 5);
  const LsbSpare pmd = spare_of(lsb().pgd(0));
  EXPECT_TRUE(pmd.pmd);
  EXPECT_EQ(lsb().pgd(0), lsb().peek(9));
  EXPECT_EQ(pmd.pde[0], lsb().peek(7));
  const LsbSpare pt0 = spare_of(lsb().peek(7));
  EXPECT_FALSE(pt0.pmd);
  EXPECT_EQ(pt0.pte[5], lsb().peek(5));
  EXPECT_EQ(pt0.pte[6], lsb().peek(6));
  EXPECT_EQ(pt0.pte[7], lsb().peek(7));
  EXPECT_FALSE(spare_of(lsb().peek(8)).pmd);
  EXPECT_FALSE(spare_of(lsb().peek(5)).pmd);  // written before the PT page: PT format too
  // Group 0 through its PT page (PGD, PMD, PT: three levels, two spare reads).
  EXPECT_EQ(lsb().translation_reads(5), 2u);
}

// Figures 4 and 6: pages 9, 10, 11 of block D (10 the PT page, 11 the PMD page), then a
// single-page write to 12: the new PMD page reaches 9 and 10 through the PT page and the old
// PMD page 11 directly, in the same physical block, so no PBMT entry is needed for it.
TEST_F(LsbExamples, ASinglePageWriteRefersToPagesWrittenAfterThePtPageDirectly) {
  write(9, 3);
  const PageId pt = lsb().peek(10), old_pmd = lsb().peek(11);
  write(12, 1);
  const LsbSpare pmd = spare_of(lsb().pgd(0));
  EXPECT_EQ(lsb().pgd(0), lsb().peek(12));
  EXPECT_EQ(pmd.pte[1], pt);       // page 9: indirect, through the PT page
  EXPECT_EQ(pmd.pte[2], pt);       // page 10: the PT page itself
  EXPECT_EQ(pmd.pte[3], old_pmd);  // page 11: direct
  EXPECT_EQ(pmd.pte[4], lsb().pgd(0));
  EXPECT_EQ(g.block_of_page(old_pmd), g.block_of_page(lsb().pgd(0)));
  EXPECT_EQ(lsb().translation_reads(9), 2u);   // three levels
  EXPECT_EQ(lsb().translation_reads(11), 1u);  // two levels
  EXPECT_EQ(figure("miw_writes"), 0.0);
}

// Figure 8: after a write to another group, group 1 is reached through its older PMD page:
// PGD -> new PMD page -> old PMD page -> PT page -> data, three spare reads.
TEST_F(LsbExamples, AnOlderPmdPageMakesTheFourLevelTranslation) {
  write(9, 3);
  write(12, 1);
  const PageId group1_pmd = lsb().pgd(0);
  write(0, 1);
  const LsbSpare pmd = spare_of(lsb().pgd(0));
  EXPECT_EQ(pmd.pde[1], group1_pmd);
  EXPECT_EQ(lsb().translation_reads(9), 3u);   // four levels
  EXPECT_EQ(lsb().translation_reads(11), 2u);  // three: the old PMD page names it directly
  EXPECT_EQ(lsb().translation_reads(0), 1u);
}

// Figure 7: group 1's pages are spread over blocks and the seven other groups' mapping pages sit
// in seven other blocks, so a single-page write's PMD page cannot name every block it needs: the
// group's PT page is copied first (one MIW), and the PMD page then reaches the group through it.
TEST_F(LsbExamples, APbmtOverflowCopiesThePtPageFirst) {
  for (uint32_t group = 0; group < 8; ++group) {
    if (group == 1) continue;
    write(group * 8, 1);  // each other group's mapping page in its own block
    move_to_a_fresh_block(1 + group);
  }
  write(9, 2);  // page 9 the PT page, page 10 a PMD page
  move_to_a_fresh_block(20);
  write(11, 1);  // names 10 directly, in 9's block: the PBMT is full
  move_to_a_fresh_block(21);
  ASSERT_EQ(figure("miw_writes"), 0.0);
  const PageId old_pt = lsb().peek(9);
  write(12, 1);  // would need one block more: the MIW
  EXPECT_EQ(figure("miw_writes"), 1.0);
  const PageId new_pt = lsb().peek(9);
  EXPECT_NE(new_pt, old_pt);
  const LsbSpare copy = spare_of(new_pt);
  EXPECT_FALSE(copy.pmd);
  EXPECT_EQ(copy.pte[1], new_pt);
  EXPECT_EQ(copy.pte[2], lsb().peek(10));
  EXPECT_EQ(copy.pte[3], lsb().peek(11));
  const LsbSpare pmd = spare_of(lsb().pgd(0));
  EXPECT_EQ(pmd.pte[1], new_pt);
  EXPECT_EQ(pmd.pte[2], new_pt);
  EXPECT_EQ(pmd.pte[3], new_pt);
  for (Lun lun : {9u, 10u, 11u, 12u}) EXPECT_LE(lsb().translation_reads(lun), 2u) << lun;
  testing::check_block_scheme(device);
}

}  // namespace
}  // namespace ssd::ftl
