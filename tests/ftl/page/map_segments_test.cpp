// Mapping segments (ftl/page/map_segments.h) on hand-built cases: the clean -> sparse -> dense ->
// full states of shared/papers/nvram-mapping-table.md, section 3.1, at the dense threshold's edge,
// with a short last segment, and the dirty list a sync walks (take_dirty).
#include "ftl/page/map_segments.h"

#include <gtest/gtest.h>

#include <ostream>
#include <stdexcept>
#include <vector>

namespace ssd::ftl {

// Failure messages name the state.
static void PrintTo(SegmentState state, std::ostream* os) { *os << to_string(state); }

namespace {

TEST(MapSegments, CountsAndBoundaries) {
  const MapSegments m(20, 8, 0.25);
  EXPECT_EQ(m.count(), 3u);
  EXPECT_EQ(m.segment_of(0), 0u);
  EXPECT_EQ(m.segment_of(7), 0u);
  EXPECT_EQ(m.segment_of(8), 1u);
  EXPECT_EQ(m.segment_of(19), 2u);
  EXPECT_EQ(m.first_entry(2), 16u);
  EXPECT_EQ(m.entries_in(0), 8u);
  EXPECT_EQ(m.entries_in(1), 8u);
  EXPECT_EQ(m.entries_in(2), 4u);  // the short last segment
  EXPECT_FALSE(m.any_dirty());
  for (uint32_t s = 0; s < m.count(); ++s) EXPECT_EQ(m.state(s), SegmentState::kClean);
}

TEST(MapSegments, ASegmentNeedsAnEntry) {
  EXPECT_THROW(MapSegments(16, 0, 0.25), std::invalid_argument);
}

TEST(MapSegments, CleanSparseDenseFullAsEntriesAreDirtied) {
  MapSegments m(32, 8, 0.25);
  const Lun base = m.first_entry(1);
  EXPECT_EQ(m.state(1), SegmentState::kClean);
  m.mark_dirty(base + 5);
  EXPECT_EQ(m.state(1), SegmentState::kSparse);
  m.mark_dirty(base + 0);  // 2 of 8 = 0.25: not above the threshold
  EXPECT_EQ(m.dirty_entries(1), 2u);
  EXPECT_EQ(m.state(1), SegmentState::kSparse);
  m.mark_dirty(base + 7);  // 3 of 8 is above it
  EXPECT_EQ(m.state(1), SegmentState::kDense);
  for (Lun lun = base; lun < base + 5; ++lun) m.mark_dirty(lun);
  EXPECT_EQ(m.dirty_entries(1), 7u);  // all but entry 6
  EXPECT_EQ(m.state(1), SegmentState::kDense);
  m.mark_dirty(base + 7);
  EXPECT_EQ(m.state(1), SegmentState::kDense);  // the same entry again
  for (Lun lun = base; lun < base + 8; ++lun) m.mark_dirty(lun);
  EXPECT_EQ(m.dirty_entries(1), 8u);
  EXPECT_EQ(m.state(1), SegmentState::kFull);
  // The neighbours are untouched.
  EXPECT_EQ(m.state(0), SegmentState::kClean);
  EXPECT_EQ(m.state(2), SegmentState::kClean);
  EXPECT_FALSE(m.dirty(base - 1));
  EXPECT_FALSE(m.dirty(base + 8));
  EXPECT_STREQ(to_string(m.state(1)), "full");
}

TEST(MapSegments, RedirtyingAnEntryDoesNotCountTwice) {
  MapSegments m(16, 8, 0.25);
  for (int i = 0; i < 5; ++i) m.mark_dirty(3);
  EXPECT_EQ(m.dirty_entries(0), 1u);
  EXPECT_TRUE(m.dirty(3));
  m.mark_dirty(4);
  EXPECT_EQ(m.dirty_entries(0), 2u);
  EXPECT_EQ(m.state(0), SegmentState::kSparse);
  EXPECT_EQ(m.take_dirty(), (std::vector<uint32_t>{0}));  // listed once
}

TEST(MapSegments, ThresholdOneIsNeverDense) {
  MapSegments m(16, 8, 1.0);
  for (Lun lun = 0; lun < 7; ++lun) {
    m.mark_dirty(lun);
    EXPECT_EQ(m.state(0), SegmentState::kSparse) << lun + 1 << " dirty";
  }
  m.mark_dirty(7);
  EXPECT_EQ(m.state(0), SegmentState::kFull);
}

TEST(MapSegments, ASmallThresholdMakesTwoDirtyEntriesDense) {
  MapSegments m(16, 8, 0.125);  // 1 of 8 is at the threshold, 2 above it
  m.mark_dirty(8);
  EXPECT_EQ(m.state(1), SegmentState::kSparse);
  m.mark_dirty(9);
  EXPECT_EQ(m.state(1), SegmentState::kDense);
}

TEST(MapSegments, AShortLastSegmentIsFullWhenAllOfItsEntriesAreDirty) {
  MapSegments m(20, 8, 0.25);  // segment 2 holds entries 16..19
  m.mark_dirty(16);            // 1 of 4 = 0.25: sparse
  EXPECT_EQ(m.state(2), SegmentState::kSparse);
  m.mark_dirty(17);  // 2 of 4: dense
  EXPECT_EQ(m.state(2), SegmentState::kDense);
  m.mark_dirty(18);
  EXPECT_EQ(m.state(2), SegmentState::kDense);
  m.mark_dirty(19);
  EXPECT_EQ(m.dirty_entries(2), 4u);
  EXPECT_EQ(m.state(2), SegmentState::kFull);
}

TEST(MapSegments, MarkCleanReturnsToClean) {
  MapSegments m(24, 8, 0.25);
  for (Lun lun = 8; lun < 16; ++lun) m.mark_dirty(lun);
  m.mark_dirty(2);
  ASSERT_EQ(m.state(1), SegmentState::kFull);
  m.mark_clean(1);
  EXPECT_EQ(m.state(1), SegmentState::kClean);
  EXPECT_EQ(m.dirty_entries(1), 0u);
  for (Lun lun = 8; lun < 16; ++lun) EXPECT_FALSE(m.dirty(lun)) << lun;
  EXPECT_TRUE(m.dirty(2));  // another segment keeps its dirty entry
  EXPECT_EQ(m.state(0), SegmentState::kSparse);
  // Dirtied again after cleaning: counted from zero.
  m.mark_dirty(9);
  EXPECT_EQ(m.dirty_entries(1), 1u);
  EXPECT_EQ(m.state(1), SegmentState::kSparse);
  m.mark_clean(2);  // a clean segment stays clean
  EXPECT_EQ(m.state(2), SegmentState::kClean);
}

TEST(MapSegments, TakeDirtyListsSegmentsInOrderEachOnceAndForgetsThem) {
  MapSegments m(64, 8, 0.25);
  m.mark_dirty(50);  // segment 6
  m.mark_dirty(3);   // 0
  m.mark_dirty(51);  // 6 again
  m.mark_dirty(20);  // 2
  m.mark_dirty(5);   // 0 again
  m.mark_dirty(63);  // 7
  EXPECT_TRUE(m.any_dirty());
  EXPECT_EQ(m.take_dirty(), (std::vector<uint32_t>{0, 2, 6, 7}));
  EXPECT_FALSE(m.any_dirty());
  EXPECT_TRUE(m.take_dirty().empty());
  // Taking the list does not clean the entries: that is mark_clean's job.
  EXPECT_EQ(m.state(6), SegmentState::kSparse);
  // Segment 2 made durable, then dirtied again: listed by the next call; segment 6 was not made
  // durable and is dirtied again by a new entry: listed again too (its dirty count is still 3).
  m.mark_clean(2);
  m.mark_clean(0);
  m.mark_clean(7);
  m.mark_dirty(21);
  EXPECT_EQ(m.take_dirty(), (std::vector<uint32_t>{2}));
  m.mark_clean(2);
  m.mark_clean(6);
  m.mark_dirty(52);
  m.mark_dirty(22);
  EXPECT_EQ(m.take_dirty(), (std::vector<uint32_t>{2, 6}));
}

TEST(MapSegments, ASegmentCleanedAndDirtiedTwiceBeforeTakeIsListedOnce) {
  MapSegments m(32, 8, 0.25);
  m.mark_dirty(9);
  m.mark_clean(1);
  m.mark_dirty(10);
  m.mark_clean(1);
  m.mark_dirty(11);
  m.mark_dirty(30);
  EXPECT_EQ(m.take_dirty(), (std::vector<uint32_t>{1, 3}));
  EXPECT_EQ(m.dirty_entries(1), 1u);
}

}  // namespace
}  // namespace ssd::ftl
