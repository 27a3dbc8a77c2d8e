// ProgramBuffers (models/controller/program_buffers.h): a page is held while its program is in
// flight and not after; a later program of the same page replaces the earlier one; the table
// stays the size of the programs in flight however many pages pass through it, and grows when
// many are in flight at once; runs of consecutive pages (which share a hashed place) and scattered
// pages mixed answer as a plain map of page -> completion does.
#include "models/controller/program_buffers.h"

#include <gtest/gtest.h>

#include <random>
#include <unordered_map>

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

TEST(ProgramBuffers, RunsAndScatteredPagesAnswerAsAMapDoes) {
  // Blocks written page by page in runs (as a die's streams and GC's copies are) beside pages
  // drawn at random, the clock moving on: every answer against a map of the latest completions.
  std::mt19937_64 random(12);
  ProgramBuffers buffers;
  std::unordered_map<ftl::PageId, Picoseconds> done_at;
  ftl::PageId run_page[4] = {0, 1000, 5003, 70001};  // four streams, some not group-aligned
  Picoseconds now = 0;
  for (int step = 0; step < 400'000; ++step) {
    now += random() % 50;
    buffers.advance(now);
    ftl::PageId page;
    if (random() % 4 != 0) {
      page = run_page[random() % 4]++;
    } else {
      page = static_cast<ftl::PageId>(random() % 200'000);
    }
    const Picoseconds done = now + 1 + random() % 20'000;
    buffers.programmed(page, done);
    done_at[page] = done;
    // Ask about pages near this one and far from it, at times from now on.
    for (int k = 0; k < 3; ++k) {
      const ftl::PageId asked =
          k == 0 ? page - random() % 8 : static_cast<ftl::PageId>(random() % 200'000);
      const Picoseconds at = now + random() % 10'000;
      const auto it = done_at.find(asked);
      ASSERT_EQ(buffers.holds(asked, at), it != done_at.end() && it->second > at)
          << "step " << step << " page " << asked;
    }
  }
}

}  // namespace
}  // namespace ssd::models
