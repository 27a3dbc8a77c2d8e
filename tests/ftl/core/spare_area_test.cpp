// SpareArea: a block's words appear when first read or written, as its state says: erased (all
// ones) or laid out by a sequential fill (each page's units from its place in the stripe).
#include "ftl/core/spare_area.h"

#include <gtest/gtest.h>

#include <stdexcept>

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

TEST_F(SpareAreaTest, AWriteRangeHoldsWhatIsWrittenAndErasedWordsAndStaysInItsBlock) {
  const PageId first = g.first_page(4) + g.pages_per_block - 2;  // the last two pages of block 4
  uint32_t* words = spare.write_range(first, 2);
  words[0] = 1;
  words[2] = 2;
  EXPECT_EQ(spare.read(first)[0], 1u);
  EXPECT_EQ(spare.read(first)[1], kNone);
  EXPECT_EQ(spare.read(first + 1)[0], 2u);
  EXPECT_EQ(spare.read(first + 1)[1], kNone);
  EXPECT_THROW(spare.write_range(first, 3), std::logic_error);  // into block 5
}

// A block's words take memory from when they are first touched until its erase, which hands that
// memory to the next block: the table's used part follows the blocks holding data at once.
TEST_F(SpareAreaTest, AnEraseHandsTheBlocksMemoryToTheNextBlockTouched) {
  EXPECT_EQ(spare.peak_blocks_in_memory(), 0u);
  spare.fill_by_layout(1, 2);  // laid out: no memory yet
  EXPECT_EQ(spare.peak_blocks_in_memory(), 0u);
  const Lun laid_out = spare.read(g.first_page(1))[0];
  spare.write(g.first_page(2))[0] = 22;
  spare.write(g.first_page(3))[1] = 33;
  EXPECT_EQ(spare.peak_blocks_in_memory(), 3u);
  spare.erase(2);
  spare.erase(1);
  // Blocks 4 and 5 reuse what 1 and 2 gave back; their words are erased, not what 1 and 2 held.
  EXPECT_EQ(spare.read(g.first_page(4))[0], kNone);
  EXPECT_EQ(spare.read(g.first_page(5) + 1)[0], kNone);
  spare.write(g.first_page(4))[0] = 44;
  EXPECT_EQ(spare.peak_blocks_in_memory(), 3u);
  EXPECT_EQ(spare.read(g.first_page(3))[1], 33u);  // a block not erased keeps its words
  EXPECT_EQ(spare.read(g.first_page(4))[0], 44u);
  EXPECT_EQ(spare.read(g.first_page(2))[0], kNone);
  EXPECT_EQ(spare.peak_blocks_in_memory(), 4u);  // block 2, read once erased, takes memory again
  spare.fill_by_layout(1, 2);
  EXPECT_EQ(spare.read(g.first_page(1))[0], laid_out);
  for (uint32_t b = 0; b < 6; ++b) spare.erase(b);
  for (uint32_t b = 6; b < 10; ++b) spare.write(g.first_page(b))[0] = b;
  EXPECT_EQ(spare.peak_blocks_in_memory(), 5u);
  for (uint32_t b = 6; b < 10; ++b) EXPECT_EQ(spare.read(g.first_page(b))[0], b);
}

}  // namespace
}  // namespace ssd::ftl
