// NVRAM residency of mapping segments (ftl/page/nvram_segments.h) on hand-built cases: capacity,
// the segment age of shared/papers/nvram-mapping-table.md section 3.3 (zero when copied in, +1 at
// every sync, reset when copied again) and which copy is the oldest (ties: lowest segment).
#include "ftl/page/nvram_segments.h"

#include <gtest/gtest.h>

#include <stdexcept>

namespace ssd::ftl {
namespace {

TEST(NvramSegments, CapacityFullAndHolds) {
  NvramSegments n(2, 10);
  EXPECT_EQ(n.capacity(), 2u);
  EXPECT_EQ(n.size(), 0u);
  EXPECT_FALSE(n.full());
  for (uint32_t s = 0; s < 10; ++s) EXPECT_FALSE(n.holds(s));
  n.copy_in(7);
  EXPECT_TRUE(n.holds(7));
  EXPECT_EQ(n.size(), 1u);
  EXPECT_FALSE(n.full());
  n.copy_in(3);
  EXPECT_TRUE(n.full());
  EXPECT_EQ(n.size(), 2u);
  EXPECT_TRUE(n.holds(3));
  EXPECT_FALSE(n.holds(4));
}

TEST(NvramSegments, CopyInWithNoRoomThrows) {
  NvramSegments n(2, 10);
  n.copy_in(1);
  n.copy_in(2);
  EXPECT_THROW(n.copy_in(3), std::logic_error);
  EXPECT_FALSE(n.holds(3));
  EXPECT_EQ(n.size(), 2u);
  NvramSegments none(0, 4);
  EXPECT_TRUE(none.full());
  EXPECT_THROW(none.copy_in(0), std::logic_error);
}

TEST(NvramSegments, AgeGrowsByOnePerSync) {
  NvramSegments n(4, 10);
  n.begin_sync();
  n.copy_in(5);
  EXPECT_EQ(n.age(5), 0u);
  n.begin_sync();
  EXPECT_EQ(n.age(5), 1u);
  n.begin_sync();
  n.begin_sync();
  EXPECT_EQ(n.age(5), 3u);
  n.copy_in(6);
  EXPECT_EQ(n.age(6), 0u);
  EXPECT_EQ(n.age(5), 3u);
}

TEST(NvramSegments, OldestIsTheCopyOfTheEarliestSync) {
  NvramSegments n(4, 10);
  n.begin_sync();
  n.copy_in(8);  // copied at sync 1
  n.begin_sync();
  n.copy_in(2);  // sync 2
  n.begin_sync();
  n.copy_in(0);  // sync 3
  // Ages 2, 1, 0: segment 8 is oldest although its number is the highest.
  EXPECT_EQ(n.age(8), 2u);
  EXPECT_EQ(n.age(2), 1u);
  EXPECT_EQ(n.age(0), 0u);
  EXPECT_EQ(n.oldest(), 8u);
  n.remove(8);
  EXPECT_EQ(n.oldest(), 2u);
  n.remove(2);
  EXPECT_EQ(n.oldest(), 0u);
}

TEST(NvramSegments, TiesGoToTheLowestSegment) {
  NvramSegments n(4, 10);
  n.begin_sync();
  n.copy_in(9);
  n.copy_in(4);
  n.copy_in(6);
  EXPECT_EQ(n.oldest(), 4u);
  n.begin_sync();
  n.copy_in(1);  // younger, although lower
  EXPECT_EQ(n.oldest(), 4u);
  n.remove(4);
  EXPECT_EQ(n.oldest(), 6u);
}

TEST(NvramSegments, CopyingAHeldSegmentAgainResetsItsAgeAndNeedsNoRoom) {
  NvramSegments n(2, 10);
  n.begin_sync();
  n.copy_in(3);
  n.copy_in(4);
  n.begin_sync();
  n.begin_sync();
  ASSERT_TRUE(n.full());
  EXPECT_EQ(n.oldest(), 3u);
  EXPECT_NO_THROW(n.copy_in(3));  // re-accessed: no room needed
  EXPECT_EQ(n.size(), 2u);
  EXPECT_EQ(n.age(3), 0u);
  EXPECT_EQ(n.age(4), 2u);
  EXPECT_EQ(n.oldest(), 4u);
  n.begin_sync();
  n.copy_in(4);
  EXPECT_EQ(n.oldest(), 3u);
  EXPECT_EQ(n.age(3), 1u);
}

TEST(NvramSegments, RemoveFreesRoom) {
  NvramSegments n(2, 10);
  n.copy_in(1);
  n.copy_in(2);
  n.remove(1);
  EXPECT_FALSE(n.holds(1));
  EXPECT_FALSE(n.full());
  EXPECT_EQ(n.size(), 1u);
  EXPECT_EQ(n.oldest(), 2u);
  n.remove(1);  // not held: nothing happens
  EXPECT_EQ(n.size(), 1u);
  EXPECT_NO_THROW(n.copy_in(5));
  EXPECT_TRUE(n.holds(5));
  EXPECT_TRUE(n.full());
  // A removed segment copied in again starts from age zero.
  n.begin_sync();
  n.remove(2);
  n.copy_in(2);
  EXPECT_EQ(n.age(2), 0u);
  EXPECT_EQ(n.oldest(), 5u);
}

}  // namespace
}  // namespace ssd::ftl
