// The plane live limit (ftl/core/plane_balance.h): a plane may hold its fair share of the live
// units plus half of its headroom, and blocks lent to a layer above the scheme (the sector log's
// region) come off that headroom.
#include "ftl/core/plane_balance.h"

#include <gtest/gtest.h>

#include "config/capacity.h"
#include "tests/ftl/tiny_platform.h"

namespace ssd::ftl {
namespace {

TEST(PlaneBalance, FairShareAndHalfTheHeadroom) {
  const config::PlatformConfig p = testing::tiny_platform();
  const Geometry g = Geometry::from_platform(p);
  // 64 blocks x 16 pages = 1024 slots a plane; reserve 4 blocks + 1 = 80 slots; 8 planes share
  // 75 % of 8192 slots: 768 each; headroom 1024 - 80 - 768 = 176, half of it 88.
  EXPECT_EQ(plane_live_limit(p, g), 768u + 88u);
  EXPECT_EQ(plane_live_limit(p, g), plane_live_limit(config::gc_reserve_blocks_per_plane(p), g, 0));
}

TEST(PlaneBalance, HeldBlocksComeOffTheHeadroom) {
  const config::PlatformConfig p = testing::tiny_platform();
  const Geometry g = Geometry::from_platform(p);
  // Two blocks held (lent, or open for more streams): 32 slots fewer, so 16 fewer may be live.
  EXPECT_EQ(plane_live_limit(p, g, 2), 768u + 72u);
  // Past the headroom the limit is the fair share.
  EXPECT_EQ(plane_live_limit(p, g, 20), 768u);
}

}  // namespace
}  // namespace ssd::ftl
