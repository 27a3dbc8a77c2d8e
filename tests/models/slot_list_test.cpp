// SlotList (models/common/slot_list.h): dropping the front moves a start index, not the elements;
// what is left reads, inserts and erases as a std::vector of it would; the storage is compacted
// once the dropped part is at least half of it, without changing what the list holds, and given
// back once what is left is a small part of it.
#include "models/common/slot_list.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

namespace ssd::models {
namespace {

std::vector<int> contents(const SlotList<int>& list) { return {list.begin(), list.end()}; }

TEST(SlotList, DroppingTheFrontLeavesTheRestAsAVector) {
  SlotList<int> list;
  std::vector<int> reference;
  for (int i = 0; i < 10; ++i) {
    list.insert(list.end(), i);
    reference.push_back(i);
  }
  list.drop_front(list.begin() + 3);
  reference.erase(reference.begin(), reference.begin() + 3);
  EXPECT_EQ(contents(list), reference);
  EXPECT_EQ(list.size(), 7u);
  EXPECT_EQ(list.front(), 3);
  EXPECT_EQ(list[2], 5);
  EXPECT_EQ(*list.data(), 3);
  EXPECT_EQ(list.back(), 9);

  // Insert and erase in the middle, resize: as on the vector.
  list.insert(list.begin() + 1, 100);
  reference.insert(reference.begin() + 1, 100);
  list.erase(list.begin() + 4, list.begin() + 6);
  reference.erase(reference.begin() + 4, reference.begin() + 6);
  list.resize(list.size() + 2);
  reference.resize(reference.size() + 2);
  EXPECT_EQ(contents(list), reference);

  list.drop_front(list.end());
  EXPECT_TRUE(list.empty());
  EXPECT_EQ(list.size(), 0u);
}

// A list used as a queue (add at the back, drop from the front) far beyond the compaction
// threshold keeps exactly what a vector erased from the front would.
TEST(SlotList, CompactionKeepsWhatTheListHolds) {
  SlotList<int> list;
  std::vector<int> reference;
  int next = 0;
  for (int round = 0; round < 2000; ++round) {
    for (int k = 0; k < 3; ++k) {
      list.insert(list.end(), next);
      reference.push_back(next++);
    }
    const auto drop = static_cast<std::ptrdiff_t>(round % 4);
    list.drop_front(list.begin() + std::min<std::ptrdiff_t>(drop, list.size()));
    reference.erase(reference.begin(),
                    reference.begin() + std::min<std::ptrdiff_t>(drop, reference.size()));
    ASSERT_EQ(list.size(), reference.size()) << round;
    if (!reference.empty()) {
      ASSERT_EQ(list.front(), reference.front()) << round;
    }
  }
  EXPECT_EQ(contents(list), reference);
  list.clear();
  EXPECT_TRUE(list.empty());
}

// After a burst the list's storage shrinks with what it holds: a die's reservations after a long
// backlog of GC do not keep the backlog's memory for the rest of the run.
TEST(SlotList, StorageFollowsWhatIsLeftAfterABurst) {
  SlotList<int> list;
  for (int i = 0; i < 10'000; ++i) list.insert(list.end(), i);
  ASSERT_GE(list.capacity(), 10'000u);
  list.drop_front(list.begin() + 9'990);
  EXPECT_EQ(contents(list),
            (std::vector<int>{9990, 9991, 9992, 9993, 9994, 9995, 9996, 9997, 9998, 9999}));
  EXPECT_LE(list.capacity(), 4u * 32u);
  // A list that stays large keeps its room: no reallocation per compaction.
  for (int i = 0; i < 1'000; ++i) list.insert(list.end(), i);
  const size_t room = list.capacity();
  list.drop_front(list.begin() + 600);
  EXPECT_EQ(list.size(), 410u);
  EXPECT_EQ(list.capacity(), room);
}

}  // namespace
}  // namespace ssd::models
