// GreedyVictimPolicy on the tiny platform's block manager: the full block of the plane with the
// fewest valid units, ties to the lowest block number; open and free blocks and other planes'
// blocks are never chosen; kNone when the plane has no full block. make_victim_policy by name.
#include "ftl/core/victim_policy.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "tests/ftl/core/core_test_support.h"

namespace ssd::ftl {
namespace {

class VictimPolicyTest : public ::testing::Test {
 protected:
  Geometry g = core_test::tiny_geometry(1024);  // 64 blocks per plane, 64 slots per block
  BlockManager blocks{g, 4};
  GreedyVictimPolicy greedy;

  // Opens the next free block of `plane`, gives it `valid` valid units and closes it (full).
  BlockId full_block(uint32_t plane, uint32_t valid) {
    const BlockId b = open_block(plane, valid);
    blocks.close_block(b);
    return b;
  }
  BlockId open_block(uint32_t plane, uint32_t valid) {
    const BlockId b = blocks.open_block(plane);
    for (uint32_t u = 0; u < valid; ++u) blocks.add_valid(g.first_slot(g.first_page(b)) + u);
    return b;
  }
};

TEST_F(VictimPolicyTest, PicksTheFullBlockWithTheFewestValidUnits) {
  full_block(1, 5);                    // 64
  const BlockId b = full_block(1, 2);  // 65
  full_block(1, 7);                    // 66
  EXPECT_EQ(b, 65u);
  EXPECT_EQ(greedy.select(blocks, 1), 65u);
}

TEST_F(VictimPolicyTest, TiesGoToTheLowestBlockNumber) {
  full_block(1, 3);  // 64
  full_block(1, 2);  // 65
  full_block(1, 2);  // 66
  full_block(1, 2);  // 67
  EXPECT_EQ(greedy.select(blocks, 1), 65u);
}

TEST_F(VictimPolicyTest, AnEmptyFullBlockIsTakenBeforeLaterOnes) {
  full_block(1, 1);  // 64
  full_block(1, 0);  // 65
  full_block(1, 0);  // 66
  EXPECT_EQ(greedy.select(blocks, 1), 65u);
}

TEST_F(VictimPolicyTest, TheChoiceFollowsTheValidCounts) {
  const BlockId a = full_block(1, 4);
  const BlockId b = full_block(1, 6);
  EXPECT_EQ(greedy.select(blocks, 1), a);
  for (uint32_t u = 0; u < 3; ++u) blocks.remove_valid(g.first_slot(g.first_page(b)) + u);
  EXPECT_EQ(greedy.select(blocks, 1), b);  // 3 < 4
}

TEST_F(VictimPolicyTest, OpenAndFreeBlocksAreNeverChosen) {
  open_block(1, 0);                        // 64: open, nothing valid
  const BlockId full = full_block(1, 60);  // 65
  // Blocks 66..127 are free with no valid unit.
  EXPECT_EQ(greedy.select(blocks, 1), full);
}

TEST_F(VictimPolicyTest, NoneWhenThePlaneHasNoFullBlock) {
  EXPECT_EQ(greedy.select(blocks, 1), kNone);  // all free
  open_block(1, 0);
  EXPECT_EQ(greedy.select(blocks, 1), kNone);  // one open
  full_block(0, 0);
  full_block(2, 0);
  EXPECT_EQ(greedy.select(blocks, 1), kNone);  // full blocks elsewhere only
}

TEST_F(VictimPolicyTest, OnlyThePlaneAskedForIsSearched) {
  full_block(0, 0);                       // 0
  const BlockId mine = full_block(1, 9);  // 64
  full_block(2, 1);                       // 128
  EXPECT_EQ(greedy.select(blocks, 1), mine);
  EXPECT_EQ(greedy.select(blocks, 0), 0u);
  EXPECT_EQ(greedy.select(blocks, 2), 128u);
}

TEST_F(VictimPolicyTest, AReleasedBlockIsNoLongerAVictim) {
  const BlockId a = full_block(3, 0);
  const BlockId b = full_block(3, 1);
  EXPECT_EQ(greedy.select(blocks, 3), a);
  blocks.release_block(a);
  EXPECT_EQ(greedy.select(blocks, 3), b);
}

TEST(VictimPolicyFactory, GreedyByName) {
  const auto policy = make_victim_policy("greedy");
  ASSERT_NE(policy, nullptr);
  EXPECT_NE(dynamic_cast<const GreedyVictimPolicy*>(policy.get()), nullptr);
}

TEST(VictimPolicyFactory, UnknownNameThrowsInvalidArgumentNamingIt) {
  try {
    make_victim_policy("cost-benefit");
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("'cost-benefit'"), std::string::npos) << e.what();
  }
  EXPECT_THROW(make_victim_policy("Greedy"), std::invalid_argument);  // names are exact
  EXPECT_THROW(make_victim_policy(""), std::invalid_argument);
}

}  // namespace
}  // namespace ssd::ftl
