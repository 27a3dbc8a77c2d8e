// BlockManager on the tiny platform: per-plane FIFO pools of free blocks (oldest free block
// first), the free/open/full states, valid-unit counts per block and per plane, the GC reserve
// threshold, and the error (naming the plane) when a plane has no free block left.
#include "ftl/core/block_manager.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "tests/ftl/core/core_test_support.h"

namespace ssd::ftl {
namespace {

class BlockManagerTest : public ::testing::Test {
 protected:
  Geometry g = core_test::tiny_geometry(1024);  // 8 planes x 64 blocks, 64 slots per block
  BlockManager blocks{g, 4};

  // The slot of unit `unit` of page `page` of `block`.
  SlotId slot(BlockId block, uint32_t page, uint32_t unit) const {
    return g.first_slot(g.first_page(block) + page) + unit;
  }
};

TEST_F(BlockManagerTest, EveryBlockStartsFreeInItsPlanesPool) {
  ASSERT_EQ(g.planes(), 8u);
  for (uint32_t plane = 0; plane < g.planes(); ++plane) {
    EXPECT_EQ(blocks.free_blocks(plane), 64u) << "plane " << plane;
    EXPECT_EQ(blocks.plane_valid_units(plane), 0u);
  }
  for (BlockId b = 0; b < g.blocks(); ++b) {
    EXPECT_EQ(blocks.state(b), BlockState::kFree) << "block " << b;
    EXPECT_EQ(blocks.valid_units(b), 0u);
  }
}

TEST_F(BlockManagerTest, OpenBlockTakesTheOldestFreeBlockOfThatPlaneOnly) {
  EXPECT_EQ(blocks.open_block(3), 192u);  // plane 3 holds blocks 192..255
  EXPECT_EQ(blocks.open_block(3), 193u);
  EXPECT_EQ(blocks.state(192), BlockState::kOpen);
  EXPECT_EQ(blocks.state(193), BlockState::kOpen);
  EXPECT_EQ(blocks.state(194), BlockState::kFree);
  EXPECT_EQ(blocks.free_blocks(3), 62u);
  EXPECT_EQ(blocks.free_blocks(2), 64u);
  EXPECT_EQ(blocks.free_blocks(4), 64u);
  EXPECT_EQ(blocks.open_block(0), 0u);
}

TEST_F(BlockManagerTest, CloseBlockMarksItFull) {
  const BlockId b = blocks.open_block(1);
  blocks.close_block(b);
  EXPECT_EQ(blocks.state(b), BlockState::kFull);
  EXPECT_EQ(blocks.free_blocks(1), 63u);
}

TEST_F(BlockManagerTest, ReleasedBlocksQueueBehindTheOlderFreeBlocks) {
  const BlockId first = blocks.open_block(0);  // 0
  blocks.close_block(first);
  blocks.release_block(first);
  EXPECT_EQ(blocks.state(first), BlockState::kFree);
  EXPECT_EQ(blocks.free_blocks(0), 64u);
  // Block 0 was erased last, so every block never used comes first.
  for (BlockId expected = 1; expected < 64; ++expected) {
    ASSERT_EQ(blocks.open_block(0), expected);
  }
  EXPECT_EQ(blocks.open_block(0), first);
}

TEST_F(BlockManagerTest, BlocksComeBackInTheOrderTheyWereReleased) {
  for (BlockId b = 0; b < 64; ++b) blocks.open_block(0);
  blocks.release_block(9);
  blocks.release_block(4);
  blocks.release_block(30);
  EXPECT_EQ(blocks.open_block(0), 9u);
  EXPECT_EQ(blocks.open_block(0), 4u);
  EXPECT_EQ(blocks.open_block(0), 30u);
}

TEST_F(BlockManagerTest, BlockOfSlotDividesByTheUnitsOfABlock) {
  EXPECT_EQ(blocks.block_of_slot(0), 0u);
  EXPECT_EQ(blocks.block_of_slot(63), 0u);
  EXPECT_EQ(blocks.block_of_slot(64), 1u);
  EXPECT_EQ(blocks.block_of_slot(slot(200, 15, 3)), 200u);
}

TEST_F(BlockManagerTest, ValidUnitsAreCountedPerBlockAndPerPlane) {
  blocks.add_valid(slot(0, 0, 0));
  blocks.add_valid(slot(0, 5, 2));
  blocks.add_valid(slot(1, 15, 3));
  blocks.add_valid(slot(64, 0, 1));  // plane 1
  EXPECT_EQ(blocks.valid_units(0), 2u);
  EXPECT_EQ(blocks.valid_units(1), 1u);
  EXPECT_EQ(blocks.valid_units(64), 1u);
  EXPECT_EQ(blocks.plane_valid_units(0), 3u);
  EXPECT_EQ(blocks.plane_valid_units(1), 1u);
  EXPECT_EQ(blocks.plane_valid_units(2), 0u);

  blocks.remove_valid(slot(0, 5, 2));
  EXPECT_EQ(blocks.valid_units(0), 1u);
  EXPECT_EQ(blocks.plane_valid_units(0), 2u);
  EXPECT_EQ(blocks.plane_valid_units(1), 1u);
}

TEST_F(BlockManagerTest, ReleaseForgetsTheBlocksValidUnitsInItsPlane) {
  const BlockId b = blocks.open_block(2);  // 128
  blocks.add_valid(slot(b, 0, 0));
  blocks.add_valid(slot(b, 0, 1));
  blocks.add_valid(slot(b + 1, 0, 0));  // another block of plane 2, still free
  blocks.close_block(b);
  blocks.release_block(b);
  EXPECT_EQ(blocks.valid_units(b), 0u);
  EXPECT_EQ(blocks.valid_units(b + 1), 1u);
  EXPECT_EQ(blocks.plane_valid_units(2), 1u);
}

TEST_F(BlockManagerTest, BelowGcThresholdOnlyWhenThePlaneHasFewerFreeBlocksThanTheReserve) {
  EXPECT_EQ(blocks.gc_reserve_blocks(), 4u);
  for (int i = 0; i < 60; ++i) blocks.open_block(5);
  EXPECT_EQ(blocks.free_blocks(5), 4u);
  EXPECT_FALSE(blocks.below_gc_threshold(5));  // exactly at the reserve
  const BlockId b = blocks.open_block(5);
  EXPECT_EQ(blocks.free_blocks(5), 3u);
  EXPECT_TRUE(blocks.below_gc_threshold(5));
  EXPECT_FALSE(blocks.below_gc_threshold(4));
  blocks.release_block(b);
  EXPECT_FALSE(blocks.below_gc_threshold(5));
}

TEST_F(BlockManagerTest, AZeroReserveBecomesOne) {
  BlockManager no_reserve(g, 0);
  EXPECT_EQ(no_reserve.gc_reserve_blocks(), 1u);
  for (int i = 0; i < 63; ++i) no_reserve.open_block(0);
  EXPECT_FALSE(no_reserve.below_gc_threshold(0));
  no_reserve.open_block(0);
  EXPECT_TRUE(no_reserve.below_gc_threshold(0));
}

TEST_F(BlockManagerTest, OpeningOnAnExhaustedPlaneThrowsNamingThePlane) {
  for (int i = 0; i < 64; ++i) blocks.open_block(6);
  try {
    blocks.open_block(6);
    FAIL() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("plane 6 "), std::string::npos) << e.what();
  }
  EXPECT_EQ(blocks.open_block(7), 448u);  // other planes are unaffected
}

TEST(BlockManagerConstruction, ABlockMayHoldAtMost65535Units) {
  Geometry g;
  g.channels = 1;
  g.dies_per_channel = 1;
  g.planes_per_die = 1;
  g.blocks_per_plane = 2;
  g.units_per_page = 32;
  g.pages_per_block = 2047;  // 65504 units
  EXPECT_NO_THROW(BlockManager(g, 1));
  g.pages_per_block = 2048;  // 65536 units
  EXPECT_THROW(BlockManager(g, 1), std::invalid_argument);
}

}  // namespace
}  // namespace ssd::ftl
