// RandomPermutation (ftl/core/random_permutation.h): every number once before any again, in the
// order the committed results were measured with (sampled aging lays units out in it, and
// workload.random_map draws in it), whether the images are computed one at a time or in batches.
#include "ftl/core/random_permutation.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

namespace ssd::ftl {
namespace {

TEST(RandomPermutation, EveryNumberOnceBeforeAnyAgainThenTheSameOrder) {
  // 1 and 2: the smallest domains; 16 and 17: a power of four and just past it (most images of the
  // domain of 64 then fall outside); others between.
  for (const uint64_t n : {1u, 2u, 3u, 5u, 16u, 17u, 1000u, 4097u, 70000u}) {
    SCOPED_TRACE(n);
    RandomPermutation order(n, 9);
    std::vector<uint64_t> first(n);
    std::vector<bool> seen(n, false);
    for (uint64_t i = 0; i < n; ++i) {
      first[i] = order.next();
      ASSERT_LT(first[i], n);
      EXPECT_FALSE(seen[first[i]]) << "drawn twice: " << first[i];
      seen[first[i]] = true;
    }
    for (uint64_t i = 0; i < 2 * n; ++i) ASSERT_EQ(order.next(), first[i % n]) << i;
  }
}

TEST(RandomPermutation, AtIsAPermutationToo) {
  for (const uint64_t n : {1u, 17u, 4097u}) {
    RandomPermutation order(n, 3);
    std::vector<bool> seen(n, false);
    for (uint64_t i = 0; i < n; ++i) {
      const uint64_t image = order.at(i);
      ASSERT_LT(image, n);
      EXPECT_FALSE(seen[image]);
      seen[image] = true;
    }
  }
}

// The first numbers of two orders as the one-at-a-time implementation gave them (before next()
// computed its images in batches): the batches must not change the order.
TEST(RandomPermutation, TheOrderTheResultsWereMeasuredWith) {
  const auto first = [](uint64_t n) {
    RandomPermutation order(n, 42);
    std::vector<uint64_t> out;
    for (int i = 0; i < 12; ++i) out.push_back(order.next());
    return out;
  };
  EXPECT_EQ(first(1000),
            (std::vector<uint64_t>{615, 206, 921, 472, 653, 955, 934, 113, 409, 273, 61, 620}));
  EXPECT_EQ(first(70000), (std::vector<uint64_t>{47046, 41374, 54043, 50450, 65699, 24811, 50321,
                                                 12054, 59165, 2356, 27898, 10846}));
}

}  // namespace
}  // namespace ssd::ftl
