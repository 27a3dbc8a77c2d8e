#include "ftl/core/flash_array.h"

#include <gtest/gtest.h>

#include <stdexcept>

#include "tests/ftl/tiny_platform.h"

namespace ssd::ftl {
namespace {

class FlashArrayTest : public ::testing::Test {
 protected:
  Geometry g = Geometry::from_platform(testing::tiny_platform(2048));
  FlashArray flash{g, 2, true};
  Token tokens[2] = {11, 22};
  uint32_t spare[2] = {5, 6};
};

TEST_F(FlashArrayTest, ProgramStoresTokensAndSpare) {
  flash.program(g.first_page(3), tokens, spare);
  EXPECT_TRUE(flash.is_programmed(g.first_page(3)));
  EXPECT_FALSE(flash.is_programmed(g.first_page(3) + 1));
  EXPECT_EQ(flash.token(g.first_slot(g.first_page(3)) + 1), 22u);
  EXPECT_EQ(flash.spare(g.first_page(3))[0], 5u);
  EXPECT_EQ(flash.spare(g.first_page(3) + 1)[0], kNone);  // erased reads as all ones
}

TEST_F(FlashArrayTest, PagesOfABlockMustBeProgrammedInOrderAndOnce) {
  EXPECT_THROW(flash.program(g.first_page(0) + 1, tokens, spare), std::logic_error);
  flash.program(g.first_page(0), tokens, spare);
  EXPECT_THROW(flash.program(g.first_page(0), tokens, spare), std::logic_error);
}

TEST_F(FlashArrayTest, EraseMakesTheBlockWritableAndCounts) {
  for (uint32_t p = 0; p < g.pages_per_block; ++p)
    flash.program(g.first_page(1) + p, tokens, spare);
  flash.erase(1);
  EXPECT_EQ(flash.write_pointer(1), 0u);
  EXPECT_EQ(flash.erase_count(1), 1u);
  EXPECT_EQ(flash.token(g.first_slot(g.first_page(1))), 0u);
  flash.program(g.first_page(1), tokens, spare);
}

TEST_F(FlashArrayTest, SpareNeedMustFitTheDevice) {
  EXPECT_THROW(FlashArray(g, 17, false), std::invalid_argument);  // 68 bytes > 64
}

TEST_F(FlashArrayTest, PowerCutUndoesOnlyWhatHadNotCompleted) {
  flash.set_journal(true);
  const uint64_t first = flash.journal_next_entry();
  flash.program(g.first_page(2), tokens, spare);
  flash.program(g.first_page(2) + 1, tokens, spare);
  flash.journal_complete(first, 100);
  flash.journal_complete(first + 1, 300);
  EXPECT_EQ(flash.power_cut(200).undone, 1u);
  EXPECT_TRUE(flash.is_programmed(g.first_page(2)));
  EXPECT_FALSE(flash.is_programmed(g.first_page(2) + 1));
  EXPECT_EQ(flash.spare(g.first_page(2) + 1)[0], kNone);
}

TEST_F(FlashArrayTest, PowerCutDuringEraseRestoresTheBlock) {
  flash.set_journal(true);
  flash.program(g.first_page(4), tokens, spare);
  flash.journal_complete(flash.journal_next_entry() - 1, 10);
  const uint64_t erase_entry = flash.journal_next_entry();
  flash.erase(4);
  flash.journal_complete(erase_entry, 1000);
  flash.power_cut(500);
  EXPECT_TRUE(flash.is_programmed(g.first_page(4)));
  EXPECT_EQ(flash.token(g.first_slot(g.first_page(4))), 11u);
  EXPECT_EQ(flash.spare(g.first_page(4))[1], 6u);
  EXPECT_EQ(flash.erase_count(4), 0u);
}

TEST_F(FlashArrayTest, RetiredOperationsSurviveAnyCut) {
  flash.set_journal(true);
  flash.program(g.first_page(5), tokens, spare);
  flash.journal_complete(flash.journal_next_entry() - 1, 50);
  flash.journal_retire(60);
  EXPECT_EQ(flash.power_cut(0).undone, 0u);
  EXPECT_TRUE(flash.is_programmed(g.first_page(5)));
}

TEST_F(FlashArrayTest, ACutInAProgramsArrayTimeTearsThePage) {
  flash.set_journal(true);
  const PageId page = g.first_page(6);
  flash.program(page, tokens, spare);
  flash.journal_complete(flash.journal_next_entry() - 1, 300, /*array_start=*/100);
  const FlashArray::CutResult cut = flash.power_cut(200);
  EXPECT_EQ(cut.torn_programs, 1u);
  EXPECT_EQ(cut.undone, 0u);
  // The page is consumed but fails its ECC: what it holds is garbage, not what was programmed.
  EXPECT_TRUE(flash.is_programmed(page));
  EXPECT_FALSE(flash.readable(page));
  EXPECT_NE(flash.token(g.first_slot(page)), 11u);
  EXPECT_NE(flash.spare(page)[0], 5u);
  EXPECT_THROW(flash.program(page, tokens, spare), std::logic_error);
  // The pages after it are still erased and readable; an erase makes the torn one whole again.
  EXPECT_TRUE(flash.readable(page + 1));
  flash.erase(6);
  EXPECT_TRUE(flash.readable(page));
  flash.program(page, tokens, spare);
  EXPECT_EQ(flash.token(g.first_slot(page)), 11u);
}

TEST_F(FlashArrayTest, ACutBeforeAProgramsArrayTimeUndoesIt) {
  flash.set_journal(true);
  const PageId page = g.first_page(6);
  flash.program(page, tokens, spare);
  flash.journal_complete(flash.journal_next_entry() - 1, 300, /*array_start=*/250);
  EXPECT_EQ(flash.power_cut(200).undone, 1u);  // still moving its data over the channel
  EXPECT_FALSE(flash.is_programmed(page));
  EXPECT_TRUE(flash.readable(page));
}

TEST_F(FlashArrayTest, ATornEraseLeavesTheBlockNeitherErasedNorIntact) {
  flash.set_journal(true);
  flash.program(g.first_page(7), tokens, spare);
  flash.journal_complete(flash.journal_next_entry() - 1, 10, 5);
  const uint64_t erase_entry = flash.journal_next_entry();
  flash.erase(7);
  flash.journal_complete(erase_entry, 1000, 100);
  EXPECT_EQ(flash.power_cut(500).torn_erases, 1u);
  EXPECT_TRUE(flash.erase_torn(7));
  EXPECT_EQ(flash.erase_count(7), 1u);  // the pulse wore it
  for (uint32_t p = 0; p < g.pages_per_block; ++p) {
    EXPECT_FALSE(flash.readable(g.first_page(7) + p));
  }
  EXPECT_NE(flash.token(g.first_slot(g.first_page(7))), 11u);
  // No page takes a program until a complete erase.
  EXPECT_THROW(flash.program(g.first_page(7), tokens, spare), std::logic_error);
  flash.erase(7);
  EXPECT_FALSE(flash.erase_torn(7));
  EXPECT_TRUE(flash.readable(g.first_page(7)));
  flash.program(g.first_page(7), tokens, spare);
}

TEST_F(FlashArrayTest, TornPagesAreTheSameGarbageEveryTime) {
  FlashArray other{g, 2, true};
  for (FlashArray* array : {&flash, &other}) {
    array->set_journal(true);
    array->program(g.first_page(8), tokens, spare);
    array->journal_complete(array->journal_next_entry() - 1, 300, 100);
    array->power_cut(200);
  }
  EXPECT_EQ(flash.spare(g.first_page(8))[1], other.spare(g.first_page(8))[1]);
  EXPECT_EQ(flash.token(g.first_slot(g.first_page(8))), other.token(g.first_slot(g.first_page(8))));
}

}  // namespace
}  // namespace ssd::ftl
