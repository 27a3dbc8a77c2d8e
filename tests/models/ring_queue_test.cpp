// RingQueue (models/common/ring_queue.h): first in, first out, across its ring's wrap and its
// growth; indexing from the front; storage at most twice the longest the queue has been, however
// many elements went through it.
#include "models/common/ring_queue.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <deque>

namespace ssd::models {
namespace {

TEST(RingQueue, KeepsOrderAcrossTheWrapAndGrowth) {
  RingQueue<int> queue;
  std::deque<int> reference;
  int next = 0;
  // Lengths that rise (growth while the front is mid-ring) and fall (wraps), checked whole.
  for (int round = 0; round < 3000; ++round) {
    const int pushes = round % 7 == 0 ? 40 : 3;
    for (int k = 0; k < pushes; ++k) {
      queue.push_back(next);
      reference.push_back(next++);
    }
    for (int k = 0; k < 4 && !reference.empty(); ++k) {
      ASSERT_EQ(queue.front(), reference.front()) << round;
      queue.pop_front();
      reference.pop_front();
    }
    ASSERT_EQ(queue.size(), reference.size()) << round;
    for (size_t i = 0; i < reference.size(); ++i) ASSERT_EQ(queue[i], reference[i]) << round;
    if (!reference.empty()) {
      ASSERT_EQ(queue.back(), reference.back()) << round;
    }
  }
  queue.back() = -1;  // elements are writable in place
  EXPECT_EQ(queue[queue.size() - 1], -1);
  queue.clear();
  EXPECT_TRUE(queue.empty());
  queue.push_back(5);
  EXPECT_EQ(queue.front(), 5);
  EXPECT_EQ(queue.size(), 1u);
}

// The NAND timing's per-die GC queue: pushed at the back and taken from the front, a few
// victims' worth at a time, for a whole run.
TEST(RingQueue, StorageFollowsTheLongestQueueNotTheRun) {
  RingQueue<int> queue;
  int pushed = 0;
  int popped = 0;
  size_t longest = 0;
  for (int round = 0; round < 400'000; ++round) {
    const int length = 200 + round % 300;  // swings between 200 and 499
    while (pushed - popped < length) queue.push_back(pushed++);
    longest = std::max(longest, queue.size());
    for (int k = 0; k < 3; ++k) {
      ASSERT_EQ(queue.front(), popped) << round;
      queue.pop_front();
      ++popped;
    }
  }
  EXPECT_GT(pushed, 1'000'000);
  EXPECT_EQ(longest, 499u);
  EXPECT_LE(queue.capacity(), 2 * longest);
  EXPECT_GE(queue.capacity(), longest);
}

}  // namespace
}  // namespace ssd::models
