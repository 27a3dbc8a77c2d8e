// GroupedStores (ftl/core/grouped_stores.h): the table after flush() is the one the stores made
// one by one leave, whatever their order, the groups' sizes and the table's length; into a table of
// values or into one member of a table of structs.
#include "ftl/core/grouped_stores.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "ftl/core/random.h"

namespace ssd::ftl {
namespace {

void expect_as_one_by_one(uint64_t entries, uint64_t stores, uint64_t buffered) {
  SCOPED_TRACE(::testing::Message()
               << entries << " entries, " << stores << " stores, " << buffered << " held");
  std::vector<uint32_t> direct(entries, 7), grouped(entries, 7);
  GroupedStores<uint32_t> batch(grouped.data(), entries, buffered);
  Random random(entries + stores);
  for (uint64_t i = 0; i < stores; ++i) {
    const uint64_t index = random.below(entries);
    const auto value = static_cast<uint32_t>(random.next());
    direct[index] = value;  // later stores to an entry win, as one by one
    batch.store(index, value);
  }
  batch.flush();
  EXPECT_EQ(grouped, direct);
  // Nothing is held after a flush: more stores, another flush.
  batch.store(entries - 1, 5);
  direct[entries - 1] = 5;
  batch.flush();
  EXPECT_EQ(grouped, direct);
}

TEST(GroupedStores, TheTableEndsAsWithStoresOneByOne) {
  expect_as_one_by_one(1, 10, 1 << 20);
  expect_as_one_by_one(1000, 5000, 1 << 20);  // one group, never full before the flush
  // Several 2 MiB groups (524,288 entries each), the last one short; groups filled many times.
  expect_as_one_by_one(3 * 524288 + 1000, 2000000, 4096);
  expect_as_one_by_one(3 * 524288 + 1000, 300000, 1 << 20);
}

TEST(GroupedStores, NothingReachesTheTableBeforeItsGroupFillsOrTheFlush) {
  std::vector<uint32_t> table(100, 0);
  GroupedStores<uint32_t> batch(table.data(), table.size(), 64);  // one group of 64
  for (uint32_t i = 0; i < 63; ++i) batch.store(i, i + 1);
  EXPECT_EQ(table[0], 0u);
  batch.store(63, 64);  // the 64th: the group is flushed
  EXPECT_EQ(table[0], 1u);
  EXPECT_EQ(table[63], 64u);
  batch.store(99, 3);
  EXPECT_EQ(table[99], 0u);
  batch.flush();
  EXPECT_EQ(table[99], 3u);
}

TEST(GroupedStores, IntoAMemberOfEachEntry) {
  // Entries of 24 bytes over several 2 MiB groups, the last one short; only the member named
  // changes.
  struct Entry {
    uint64_t key;
    uint32_t next;
    uint32_t other;
    uint64_t more;
  };
  const uint64_t entries = 3 * ((uint64_t{2} << 20) / sizeof(Entry)) + 77;
  std::vector<Entry> direct(entries, Entry{1, 2, 3, 4}), grouped(direct);
  const auto next_of = [](Entry& entry) -> uint32_t& { return entry.next; };
  GroupedStores<uint32_t, Entry, decltype(next_of)> batch(grouped.data(), entries, 4096, next_of);
  Random random(5);
  for (uint64_t i = 0; i < 400000; ++i) {
    const uint64_t index = random.below(entries);
    const auto value = static_cast<uint32_t>(random.next());
    direct[index].next = value;
    batch.store(index, value);
  }
  batch.flush();
  for (uint64_t i = 0; i < entries; ++i) {
    ASSERT_EQ(grouped[i].next, direct[i].next) << i;
    ASSERT_EQ(grouped[i].key, 1u) << i;  // the other members untouched
    ASSERT_EQ(grouped[i].other, 3u) << i;
    ASSERT_EQ(grouped[i].more, 4u) << i;
  }
}

}  // namespace
}  // namespace ssd::ftl
