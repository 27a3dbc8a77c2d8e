// PermutationAhead (ftl/core/permutation_ahead.h): the numbers RandomPermutation::next() gives, in
// its order, across the worker's chunks and its ring, and a clean stop whenever the reader stops.
#include "ftl/core/permutation_ahead.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <stdexcept>

#include "ftl/core/random_permutation.h"

namespace ssd::ftl {
namespace {

constexpr uint64_t kChunk = PermutationAhead::kChunk;

TEST(PermutationAhead, GivesNextsNumbersInItsOrder) {
  // Counts within a chunk, at a chunk's end and past it, past the ring of four chunks, and past
  // the permutation's own length (next() then starts the same order again).
  const struct {
    uint64_t n;
    uint64_t count;
  } cases[] = {{17, 5},
               {17, 40},
               {1000, kChunk - 1},
               {70000, kChunk},
               {70000, kChunk + 1},
               {300000, 9 * kChunk + 123},
               {5, 3 * kChunk}};
  for (const auto& c : cases) {
    SCOPED_TRACE(testing::Message() << "n " << c.n << " count " << c.count);
    RandomPermutation expected(c.n, 11);
    PermutationAhead ahead(c.n, 11, c.count);
    for (uint64_t i = 0; i < c.count; ++i) ASSERT_EQ(ahead.next(), expected.next()) << i;
    EXPECT_THROW(ahead.next(), std::logic_error);
  }
}

TEST(PermutationAhead, StopsCleanlyWhateverIsLeft) {
  { PermutationAhead none(100, 1, 0); }  // no worker at all
  { PermutationAhead untouched(1000000, 2, 1000000); }
  {
    PermutationAhead partly(1000000, 3, 1000000);
    for (int i = 0; i < 100000; ++i) partly.next();  // the worker blocked on a full ring
  }
  PermutationAhead none(10, 4, 0);
  EXPECT_THROW(none.next(), std::logic_error);
  EXPECT_THROW(PermutationAhead(0, 4, 1), std::invalid_argument);  // nothing to give
  PermutationAhead empty(0, 4, 0);
}

}  // namespace
}  // namespace ssd::ftl
