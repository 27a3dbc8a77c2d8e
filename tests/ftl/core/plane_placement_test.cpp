// ftl.placement on the tiny platform (4 dies of 2 planes; stripe order planes 0 2 4 6 1 3 5 7;
// 1 KiB units, 4 per page): round_robin follows the stripe whatever the free space,
// most_free_plane keeps the stripe's die but takes its plane with the most free blocks,
// least_busy_die takes the die whose queued work ends first (then its emptier plane), static
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

// The dies' queued work, set by hand.
class FixedDieLoad final : public DieLoad {
 public:
  Picoseconds work_ends(uint32_t die) const override { return ends[die]; }
  Picoseconds ends[4] = {};
};

TEST_F(PlanePlacementTest, LeastBusyDieTakesTheDieWhoseWorkEndsFirst) {
  ASSERT_NO_FATAL_FAILURE(take_two_blocks_from_plane_0());
  FixedDieLoad load;
  load.ends[0] = 500;
  load.ends[1] = 300;
  load.ends[2] = 100;
  load.ends[3] = 100;
  t.backend.set_die_load(&load);
  // From stripe position 0 (die 0): dies 2 and 3 end first; die 2 comes first in stripe order.
  const PlaneChoice choice =
      choose_plane(t.blocks, PlacementPolicy::kLeastBusyDie, 0, 0, 0, 4, &t.backend);
  EXPECT_EQ(g.die_of_plane(choice.plane), 2u);
  EXPECT_EQ(choice.stripe_position, 2u);
  // From position 3 (die 3), die 3 comes first of the two.
  EXPECT_EQ(
      g.die_of_plane(
          choose_plane(t.blocks, PlacementPolicy::kLeastBusyDie, 0, 3, 0, 4, &t.backend).plane),
      3u);
  // On its die it takes the plane with the most free blocks.
  load.ends[0] = 0;
  EXPECT_EQ(choose_plane(t.blocks, PlacementPolicy::kLeastBusyDie, 0, 1, 0, 4, &t.backend).plane,
            1u);
}

TEST_F(PlanePlacementTest, LeastBusyDieWithoutLoadOrWithIdleDiesStripes) {
  ASSERT_NO_FATAL_FAILURE(take_two_blocks_from_plane_0());
  FixedDieLoad idle;
  for (uint32_t k = 0; k < g.planes(); ++k) {
    const PlaneChoice expected =
        choose_plane(t.blocks, PlacementPolicy::kMostFreePlane, 0, k, 0, 4);
    const PlaneChoice no_load =
        choose_plane(t.blocks, PlacementPolicy::kLeastBusyDie, 0, k, 0, 4, &t.backend);
    t.backend.set_die_load(&idle);
    const PlaneChoice all_idle =
        choose_plane(t.blocks, PlacementPolicy::kLeastBusyDie, 0, k, 0, 4, &t.backend);
    t.backend.set_die_load(nullptr);
    EXPECT_EQ(no_load.plane, expected.plane) << k;
    EXPECT_EQ(all_idle.plane, expected.plane) << k;
    EXPECT_EQ(all_idle.stripe_position, expected.stripe_position) << k;
  }
}

TEST_F(PlanePlacementTest, LeastBusyDieSkipsPlanesPastTheLiveLimit) {
  FixedDieLoad load;
  load.ends[0] = 900;
  load.ends[1] = 900;
  load.ends[2] = 900;
  load.ends[3] = 100;  // die 3 is the least busy, but its planes are at the limit
  for (uint32_t plane : {6u, 7u}) {
    for (uint32_t i = 0; i < 8; ++i)
      t.blocks.add_valid(g.first_slot(g.first_page(plane * g.blocks_per_plane)) + i);
  }
  t.backend.set_die_load(&load);
  const PlaneChoice choice =
      choose_plane(t.blocks, PlacementPolicy::kLeastBusyDie, 8, 0, 0, 4, &t.backend);
  EXPECT_NE(g.die_of_plane(choice.plane), 3u);
  EXPECT_EQ(g.die_of_plane(choice.plane), 0u);  // the first of the level dies in stripe order
}

TEST_F(PlanePlacementTest, LeastBusyDieSpreadsOneCommandsPagesOverTheDies) {
  // Die 3 is idle, the others busy: one command's four pages still go to four dies (least busy
  // first), since the timing learns of them only after the command; the next command starts
  // again from die 3.
  FixedDieLoad load;
  load.ends[0] = 300;
  load.ends[1] = 200;
  load.ends[2] = 400;
  load.ends[3] = 0;
  t.backend.set_die_load(&load);
  UnitWriter host{t.backend, t.blocks, OpClass::kHostWrite};
  host.set_placement(PlacementPolicy::kLeastBusyDie);
  t.backend.begin_command();
  for (Lun lun = 0; lun < 16; ++lun) host.append(lun, 100 + lun);  // four pages
  ASSERT_EQ(t.backend.ops().size(), 4u);
  const uint32_t expected_dies[] = {3, 1, 0, 2};
  for (size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(g.die_of_plane(plane_of_op(i)), expected_dies[i]) << i;
  }
  t.backend.begin_command();
  for (Lun lun = 16; lun < 20; ++lun) host.append(lun, 100 + lun);
  ASSERT_EQ(t.backend.ops().size(), 1u);
  EXPECT_EQ(g.die_of_plane(plane_of_op(0)), 3u);
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
  EXPECT_EQ(placement_policy("least_busy_die"), PlacementPolicy::kLeastBusyDie);
}

}  // namespace
}  // namespace ssd::ftl
