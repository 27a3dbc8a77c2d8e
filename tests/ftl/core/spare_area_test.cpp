// SpareArea: a block's words appear when first read or written, as its state says: erased (all
// ones) or laid out by a sequential fill (each page's units from its place in the stripe).
#include "ftl/core/spare_area.h"

#include <gtest/gtest.h>

#include "tests/ftl/tiny_platform.h"

namespace ssd::ftl {
namespace {

class SpareAreaTest : public ::testing::Test {
 protected:
  SpareAreaTest() {
    // Two units per page, two words per page; the stripe visits the planes in reverse, so a
    // plane's position differs from its number.
    SpareArea::SequentialLayout layout;
    layout.named = 2;
    for (uint32_t plane = 0; plane < g.planes(); ++plane) {
      layout.stripe_position_of_plane.push_back(g.planes() - 1 - plane);
    }
    spare.set_layout(layout);
  }

  Geometry g = Geometry::from_platform(testing::tiny_platform(2048));
  SpareArea spare{g, 2};
};

TEST_F(SpareAreaTest, AnUntouchedBlockReadsErased) {
  ASSERT_EQ(g.units_per_page, 2u);
  const BlockId block = g.blocks() - 1;
  for (uint32_t p = 0; p < g.pages_per_block; ++p) {
    EXPECT_EQ(spare.read(g.first_page(block) + p)[0], kNone);
    EXPECT_EQ(spare.read(g.first_page(block) + p)[1], kNone);
  }
}

TEST_F(SpareAreaTest, AnErasedBlockReadsErasedWhateverItHeld) {
  const PageId page = g.first_page(2) + 1;
  spare.write(page)[0] = 7;
  spare.write(page)[1] = 8;
  EXPECT_EQ(spare.read(page)[1], 8u);
  spare.erase(2);
  EXPECT_EQ(spare.read(page)[0], kNone);
  EXPECT_EQ(spare.read(page)[1], kNone);
}

TEST_F(SpareAreaTest, ABlockFilledByTheLayoutNamesTheUnitsOfItsPlaceInTheStripe) {
  // The second block of plane 1 (stripe position planes - 2), its first three pages filled.
  const uint32_t plane = 1;
  const BlockId block = plane * g.blocks_per_plane + 1;
  spare.fill_by_layout(block, 3);
  const uint64_t s = g.planes() - 2;
  for (uint32_t p = 0; p < 3; ++p) {
    const uint64_t q = g.pages_per_block + p;  // the plane's page number
    const auto first_unit = static_cast<Lun>((q * g.planes() + s) * g.units_per_page);
    EXPECT_EQ(spare.read(g.first_page(block) + p)[0], first_unit) << p;
    EXPECT_EQ(spare.read(g.first_page(block) + p)[1], first_unit + 1) << p;
  }
  EXPECT_EQ(spare.read(g.first_page(block) + 3)[0], kNone);  // not filled: erased
}

TEST_F(SpareAreaTest, KeysInsertedAmongTheUnitsTakeTheirPlacesAndShiftTheUnitsAfter) {
  // Plane 0 at stripe position planes - 1: its first page holds stream positions
  // (planes - 1) * 2 and the one after. A key inserted at the second shifts every later unit.
  SpareArea::SequentialLayout layout;
  layout.named = 2;
  for (uint32_t plane = 0; plane < g.planes(); ++plane) {
    layout.stripe_position_of_plane.push_back(g.planes() - 1 - plane);
  }
  const uint64_t first = uint64_t(g.planes() - 1) * 2;
  layout.inserted_at = {1, first + 1};
  layout.inserted_key = {900, 901};
  spare.set_layout(layout);
  spare.fill_by_layout(0, 2);
  EXPECT_EQ(spare.read(g.first_page(0))[0], first - 1);  // one insert before it
  EXPECT_EQ(spare.read(g.first_page(0))[1], 901u);
  // The plane's next page: positions (planes + planes - 1) * 2 on, two inserts before them.
  const uint64_t next = (uint64_t(g.planes()) + g.planes() - 1) * 2;
  EXPECT_EQ(spare.read(g.first_page(0) + 1)[0], next - 2);
  EXPECT_EQ(spare.read(g.first_page(0) + 1)[1], next - 1);
}

TEST_F(SpareAreaTest, WritingAPageOfAFilledBlockKeepsTheOthers) {
  const BlockId block = 0;
  spare.fill_by_layout(block, 2);
  const Lun second = spare.read(g.first_page(block) + 1)[0];
  spare.erase(block);
  spare.fill_by_layout(block, 2);
  spare.write(g.first_page(block) + 2)[0] = 99;  // the next page, programmed after the fill
  EXPECT_EQ(spare.read(g.first_page(block) + 1)[0], second);
  EXPECT_EQ(spare.read(g.first_page(block) + 2)[0], 99u);
}

TEST_F(SpareAreaTest, AWriteRangeAcrossBlocksHoldsWhatIsWrittenAndErasedWords) {
  const PageId first = g.first_page(4) + g.pages_per_block - 1;  // last page of block 4 on
  uint32_t* words = spare.write_range(first, 2);
  words[0] = 1;  // block 4's last page
  words[2] = 2;  // block 5's first page
  EXPECT_EQ(spare.read(first)[0], 1u);
  EXPECT_EQ(spare.read(first)[1], kNone);
  EXPECT_EQ(spare.read(first + 1)[0], 2u);
  EXPECT_EQ(spare.read(first + 1)[1], kNone);
}

}  // namespace
}  // namespace ssd::ftl
