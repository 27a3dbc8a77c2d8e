// ftl.placement on the tiny platform (4 dies of 2 planes; stripe order planes 0 2 4 6 1 3 5 7;
// 1 KiB units, 4 per page): round_robin follows the stripe whatever the free space,
// most_free_plane keeps the stripe's die but takes its plane with the most free blocks, static
// puts logical unit n on the stripe's plane n mod 8; the extent FTL's chunks follow the same
// choice (choose_plane).
#include "ftl/core/plane_placement.h"

#include <gtest/gtest.h>

#include "ftl/core/unit_writer.h"
#include "tests/ftl/core/core_test_support.h"

namespace ssd::ftl {
namespace {

class PlanePlacementTest : public ::testing::Test {
 protected:
  core_test::TinyFlash t{1024};
  const Geometry& g = t.geometry;

  // Plane 0 (die 0's first) has two blocks fewer free than plane 1.
  void take_two_blocks_from_plane_0() {
    t.blocks.open_block(0);
    t.blocks.open_block(0);
    ASSERT_EQ(t.blocks.free_blocks(0) + 2, t.blocks.free_blocks(1));
  }
  uint32_t plane_of_op(size_t i) const {
    return g.plane_of_block(g.block_of_page(t.backend.ops()[i].page));
  }
};

TEST_F(PlanePlacementTest, RoundRobinFollowsTheStripeWhateverTheFreeSpace) {
  ASSERT_NO_FATAL_FAILURE(take_two_blocks_from_plane_0());
  EXPECT_EQ(choose_plane(t.blocks, PlacementPolicy::kRoundRobin, 0, 0, 0, 4).plane, 0u);
  EXPECT_EQ(choose_plane(t.blocks, PlacementPolicy::kRoundRobin, 0, 4, 0, 4).plane, 1u);
}

TEST_F(PlanePlacementTest, MostFreePlaneKeepsTheDieAndTakesItsEmptierPlane) {
  ASSERT_NO_FATAL_FAILURE(take_two_blocks_from_plane_0());
  const PlaneChoice first = choose_plane(t.blocks, PlacementPolicy::kMostFreePlane, 0, 0, 0, 4);
  EXPECT_EQ(first.plane, 1u);  // die 0, its second plane
  EXPECT_EQ(first.stripe_position, 0u);
  // Die 1's planes are level: the stripe's own plane (2) wins the tie.
  EXPECT_EQ(choose_plane(t.blocks, PlacementPolicy::kMostFreePlane, 0, 1, 0, 4).plane, 2u);
}

TEST_F(PlanePlacementTest, MostFreePlaneWritesThroughTheUnitWriter) {
  ASSERT_NO_FATAL_FAILURE(take_two_blocks_from_plane_0());
  UnitWriter host{t.backend, t.blocks, OpClass::kHostWrite};
  host.set_placement(PlacementPolicy::kMostFreePlane);
  for (Lun lun = 0; lun < 8; ++lun) host.append(lun, 100 + lun);  // two pages
  ASSERT_EQ(t.backend.ops().size(), 2u);
  EXPECT_EQ(plane_of_op(0), 1u);  // die 0: plane 1 has more free blocks
  EXPECT_EQ(plane_of_op(1), 2u);  // then die 1, as the stripe goes on
}

TEST_F(PlanePlacementTest, StaticPutsALogicalUnitOnAFixedPlane) {
  UnitWriter host{t.backend, t.blocks, OpClass::kHostWrite};
  host.set_placement(PlacementPolicy::kStatic);
  // Units 0, 8, 16 and 24 share plane 0 of the stripe, 3, 11, 19, 27 its fourth (plane 6) ...
  for (Lun lun = 0; lun < 32; ++lun) {
    const SlotId slot = host.append(lun, 100 + lun);
    EXPECT_EQ(g.plane_of_block(g.block_of_page(g.page_of_slot(slot))),
              g.plane_in_stripe_order(lun % g.planes()))
        << "unit " << lun;
  }
  EXPECT_EQ(t.backend.ops().size(), 8u);  // each plane's page filled by its four units
}

TEST_F(PlanePlacementTest, ThePoliciesAreNamedAsTheKeySaysThem) {
  EXPECT_EQ(placement_policy("round_robin"), PlacementPolicy::kRoundRobin);
  EXPECT_EQ(placement_policy("most_free_plane"), PlacementPolicy::kMostFreePlane);
  EXPECT_EQ(placement_policy("static"), PlacementPolicy::kStatic);
}

}  // namespace
}  // namespace ssd::ftl
