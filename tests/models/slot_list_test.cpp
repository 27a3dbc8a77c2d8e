// SlotList (models/common/slot_list.h): dropping the front moves a start index, not the elements;
// what is left reads, inserts and erases as a std::vector of it would; the storage is compacted
// once the dropped part is at least half of it, without changing what the list holds.
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

}  // namespace
}  // namespace ssd::models
