// The line store under the data cache and the sector layer's write buffer: least recently used
// order over every line, the dirty lines' own order, write-back keeping a line clean, forgetting
// part of a line, and frames reused once their line leaves.
#include "ftl/cache/cache_lines.h"

#include <gtest/gtest.h>

#include <vector>

namespace ssd::ftl {
namespace {

// Writes `line` with token `token` in every slot of `slots`.
void put(CacheLines& lines, uint64_t line, uint64_t slots, Token token, bool dirty) {
  const std::vector<Token> tokens(4, token);
  lines.write(line, slots, tokens.data(), dirty);
}

TEST(CacheLines, TheLeastRecentlyUsedLineLeavesFirstAndATouchMovesALine) {
  CacheLines lines(4);
  put(lines, 10, 0b1, 1, false);
  put(lines, 11, 0b1, 2, false);
  put(lines, 12, 0b1, 3, false);
  lines.touch(10);
  CacheLines::Victim victim;
  lines.evict_oldest(victim);
  EXPECT_EQ(victim.line, 11u);
  lines.evict_oldest(victim);
  EXPECT_EQ(victim.line, 12u);
  lines.evict_oldest(victim);
  EXPECT_EQ(victim.line, 10u);
  EXPECT_EQ(victim.tokens[0], 1u);
  EXPECT_TRUE(lines.empty());
}

TEST(CacheLines, AWriteMergesSlotsAndReportsAHit) {
  CacheLines lines(4);
  EXPECT_FALSE(lines.write(7, 0b0001, std::vector<Token>{5, 0, 0, 0}.data(), true));
  EXPECT_TRUE(lines.write(7, 0b0100, std::vector<Token>{0, 0, 6, 0}.data(), false));
  EXPECT_EQ(lines.valid(7), 0b0101u);
  EXPECT_EQ(lines.dirty(7), 0b0001u);
  EXPECT_EQ(lines.tokens(7)[0], 5u);
  EXPECT_EQ(lines.tokens(7)[2], 6u);
}

// A read fill (clean data) never replaces a dirty slot: the cache's copy is newer.
TEST(CacheLines, CleanDataDoesNotReplaceDirtySlots) {
  CacheLines lines(4);
  put(lines, 3, 0b0011, 9, true);
  put(lines, 3, 0b1111, 4, false);
  EXPECT_EQ(lines.tokens(3)[0], 9u);
  EXPECT_EQ(lines.tokens(3)[1], 9u);
  EXPECT_EQ(lines.tokens(3)[2], 4u);
  EXPECT_EQ(lines.dirty(3), 0b0011u);
  EXPECT_EQ(lines.valid(3), 0b1111u);
}

// Write-back takes the least recently written dirty line, whatever clean lines are older, and
// keeps it, clean.
TEST(CacheLines, WriteBackTakesTheOldestDirtyLineAndKeepsItClean) {
  CacheLines lines(4);
  put(lines, 1, 0b1, 1, false);
  put(lines, 2, 0b1, 2, true);
  put(lines, 3, 0b1, 3, true);
  put(lines, 2, 0b10, 4, true);  // line 2 written again: now the newer dirty line
  EXPECT_EQ(lines.dirty_lines(), 2u);
  CacheLines::Victim victim;
  ASSERT_TRUE(lines.clean_oldest_dirty(victim));
  EXPECT_EQ(victim.line, 3u);
  ASSERT_TRUE(lines.clean_oldest_dirty(victim));
  EXPECT_EQ(victim.line, 2u);
  EXPECT_EQ(victim.dirty, 0b11u);
  EXPECT_FALSE(lines.clean_oldest_dirty(victim));
  EXPECT_EQ(lines.dirty_lines(), 0u);
  EXPECT_EQ(lines.lines(), 3u);
  EXPECT_EQ(lines.valid(2), 0b11u);
}

TEST(CacheLines, ForgettingEverySlotDropsTheLineAndItsFrameIsReused) {
  CacheLines lines(4);
  put(lines, 1, 0b11, 1, true);
  put(lines, 2, 0b1, 2, true);
  const uint32_t frame = lines.frame(1);
  lines.forget(1, 0b01);
  EXPECT_EQ(lines.valid(1), 0b10u);
  EXPECT_EQ(lines.dirty_lines(), 2u);
  lines.forget(1, 0b10);
  EXPECT_EQ(lines.valid(1), 0u);
  EXPECT_EQ(lines.frame(1), kNone);
  EXPECT_EQ(lines.dirty_lines(), 1u);
  put(lines, 9, 0b1, 3, false);
  EXPECT_EQ(lines.frame(9), frame);
  EXPECT_EQ(lines.frames(), 2u);
}

// With a frame budget, fresh frames go first; then an evicted line's frame before the ones freed
// otherwise; a rehomed line takes another frame when there is one and frees its own.
TEST(CacheLines, FramesWithinABudgetAreReusedEvictedFirstAndRehomingMovesALine) {
  CacheLines lines(4, 3);
  put(lines, 1, 0b1, 1, true);
  put(lines, 2, 0b1, 2, true);
  EXPECT_EQ(lines.frame(1), 0u);
  EXPECT_EQ(lines.frame(2), 1u);
  EXPECT_EQ(lines.next_free_at(), 0u);  // a fresh frame
  EXPECT_EQ(lines.rehome(1), 2u);       // into the fresh frame; frame 0 freed
  EXPECT_EQ(lines.tokens(1)[0], 1u);
  EXPECT_EQ(lines.dirty_lines(), 2u);
  CacheLines::Victim victim;
  lines.evict_oldest(victim);  // line 2 (line 1 was moved, so it is the newer): frame 1
  EXPECT_EQ(victim.line, 2u);
  EXPECT_EQ(victim.frame, 1u);
  put(lines, 3, 0b1, 3, false);
  EXPECT_EQ(lines.frame(3), 1u);  // the evicted line's frame, before the one rehoming freed
  put(lines, 4, 0b1, 4, false);
  EXPECT_EQ(lines.frame(4), 0u);
  EXPECT_EQ(lines.next_free_at(), CacheLines::kNever);
  EXPECT_EQ(lines.rehome(4), 0u);  // every frame holds a line: it stays
  EXPECT_EQ(lines.frames(), 3u);
}

// With a clock, the free frame that frees first is taken, whatever the order they were freed in.
TEST(CacheLines, WithAClockTheFreeFrameThatFreesFirstIsTaken) {
  struct Clock : FrameClock {
    Picoseconds frame_free_at(uint32_t frame) const override { return frame == 0 ? 50 : 10; }
    Picoseconds now() const override { return 0; }
  } clock;
  CacheLines lines(4, 2);
  lines.set_frame_clock(&clock);
  put(lines, 1, 0b1, 1, false);
  put(lines, 2, 0b1, 2, false);
  lines.drop(1);  // frame 0 freed first
  lines.drop(2);  // then frame 1
  EXPECT_EQ(lines.next_free_at(), 10u);
  put(lines, 3, 0b1, 3, false);
  EXPECT_EQ(lines.frame(3), 1u);
}

TEST(CacheLines, CleaningALineThatHoldsNothingDirtyDoesNothing) {
  CacheLines lines(4);
  put(lines, 1, 0b1, 1, false);
  CacheLines::Victim victim;
  EXPECT_FALSE(lines.clean(1, victim));
  EXPECT_FALSE(lines.clean(2, victim));
  put(lines, 1, 0b10, 2, true);
  ASSERT_TRUE(lines.clean(1, victim));
  EXPECT_EQ(victim.dirty, 0b10u);
  EXPECT_EQ(lines.dirty(1), 0u);
}

}  // namespace
}  // namespace ssd::ftl
