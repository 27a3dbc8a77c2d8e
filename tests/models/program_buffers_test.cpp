// ProgramBuffers (models/controller/program_buffers.h): a page is held while its program is in
// flight and not after; a later program of the same page replaces the earlier one; the table
// stays the size of the programs in flight however many pages pass through it, and grows when
// many are in flight at once.
#include "models/controller/program_buffers.h"

#include <gtest/gtest.h>

namespace ssd::models {
namespace {

TEST(ProgramBuffers, APageIsHeldUntilItsProgramCompletes) {
  ProgramBuffers buffers;
  buffers.programmed(7, 500);
  EXPECT_TRUE(buffers.holds(7, 0));
  EXPECT_TRUE(buffers.holds(7, 499));
  EXPECT_FALSE(buffers.holds(7, 500));
  EXPECT_FALSE(buffers.holds(8, 0));  // never programmed
}

TEST(ProgramBuffers, AReprogrammedPageTakesItsLatestCompletion) {
  ProgramBuffers buffers;
  buffers.programmed(7, 500);
  buffers.advance(600);
  buffers.programmed(7, 1500);
  EXPECT_TRUE(buffers.holds(7, 1000));
  EXPECT_FALSE(buffers.holds(7, 1500));
}

TEST(ProgramBuffers, ATableOfProgramsInFlightNotOfTheRun) {
  ProgramBuffers buffers;
  const size_t initial = buffers.capacity();
  // A million pages, each program done before the next ten start: at most ten in flight.
  for (ftl::PageId page = 0; page < 1'000'000; ++page) {
    const Picoseconds now = Picoseconds{page} * 100;
    buffers.advance(now);
    buffers.programmed(page, now + 1000);
    ASSERT_TRUE(buffers.holds(page, now));
    if (page >= 10) {
      ASSERT_FALSE(buffers.holds(page - 10, now)) << page;
    }
    if (page >= 9) {
      ASSERT_TRUE(buffers.holds(page - 9, now)) << page;
    }
  }
  EXPECT_EQ(buffers.capacity(), initial);
}

TEST(ProgramBuffers, GrowsWhileManyProgramsAreInFlight) {
  ProgramBuffers buffers;
  for (ftl::PageId page = 0; page < 100'000; ++page) buffers.programmed(page * 3, 1'000'000);
  for (ftl::PageId page = 0; page < 100'000; ++page) {
    ASSERT_TRUE(buffers.holds(page * 3, 0)) << page;
    ASSERT_FALSE(buffers.holds(page * 3 + 1, 0)) << page;
  }
  EXPECT_GE(buffers.capacity(), 2u * 100'000);  // at most half full
}

}  // namespace
}  // namespace ssd::models
