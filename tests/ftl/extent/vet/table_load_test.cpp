// Loading VET's node table in bulk (NodeTable::begin_load, VetMap::begin_ordered_fill): the table
// must end as the inserts one by one leave it, down to the order of every hash chain and the
// bucket count, which later operations' probe counts depend on; and a map filled in order must be
// the one insert_unmapped() one by one makes, in every variant.
#include <gtest/gtest.h>

#include <cstdint>
#include <set>
#include <utility>
#include <vector>

#include "ftl/core/cpu_work.h"
#include "ftl/core/random.h"
#include "ftl/extent/vet/chaining_table.h"
#include "ftl/extent/vet/vet_hash.h"
#include "tests/ftl/extent/vet/vet_test_support.h"

namespace ssd::ftl {
namespace {

using Entries = std::vector<std::pair<uint64_t, NodeValue>>;

// Every entry in the order for_each() visits them: bucket by bucket, each chain head to tail.
Entries walk(const NodeTable& table) {
  Entries out;
  table.for_each([&](uint64_t key, const NodeValue& value) { out.emplace_back(key, value); });
  return out;
}

// Keys whose vet_hash is 0, all of them: j / multiplier (mod 2^64) times the multiplier is j,
// whose high 32 bits are 0. Such keys share their bucket at every bucket count, so their order
// in a chain goes back through every growth (a fill of 16.6 M nodes has about 32 k pairs of keys
// with the same 32-bit hash).
uint64_t key_hashing_to_zero(uint64_t j) {
  const uint64_t m = vet_hash_multiplier(0);
  uint64_t inverse = m;  // Newton's iteration for m^-1 mod 2^64 (m is odd)
  for (int i = 0; i < 6; ++i) inverse *= 2 - m * inverse;
  return j * inverse;
}

// Distinct keys of mixed levels, as VET makes them, and every 16th one of those hashing to 0.
std::vector<uint64_t> distinct_keys(size_t n, uint64_t seed) {
  Random random(seed);
  std::vector<uint64_t> keys;
  for (uint64_t i = 0; keys.size() < n; ++i) {
    if (i % 16 == 15) {
      keys.push_back(key_hashing_to_zero(i + 1));  // a multiple of the inverse: no level-key
      continue;
    }
    const auto level = static_cast<uint32_t>(random.below(5));
    keys.push_back(vet_key((i << 4) | random.below(16), level));  // distinct: i survives the shift
  }
  return keys;
}

// The loaded table against the inserted one: the same chains, then the same answers and probe
// counts for a mix of operations that goes on using both (links, free list, growth). The load is
// told to expect `expected` entries (n if 0).
void expect_loads_as_inserted(size_t n, size_t expected = 0) {
  SCOPED_TRACE(n);
  CpuWork inserted_work, loaded_work;
  ChainingTable inserted(inserted_work);
  ChainingTable loaded(loaded_work);
  const std::vector<uint64_t> keys = distinct_keys(n, 11 + n);
  ASSERT_TRUE(loaded.begin_load(expected != 0 ? expected : n));
  std::vector<uint32_t> handles;
  for (size_t i = 0; i < n; ++i) {
    const NodeValue value{static_cast<uint32_t>(i), static_cast<uint32_t>(i % 3), 7};
    inserted.insert(keys[i], value);
    handles.push_back(loaded.load(keys[i], value));
  }
  // Values changed while loading, as VET raises its internal nodes' counts.
  for (size_t i = 0; i < n; i += 5) {
    NodeValue value{static_cast<uint32_t>(i), static_cast<uint32_t>(i % 3), 7};
    value.w0 += 100;
    inserted.update(keys[i], value);
    loaded.loaded_value(handles[i]) = value;
  }
  loaded.end_load();
  EXPECT_EQ(loaded.size(), inserted.size());
  EXPECT_EQ(loaded.bucket_count(), inserted.bucket_count());
  EXPECT_EQ(loaded.longest_chain(), inserted.longest_chain());
  ASSERT_EQ(walk(loaded), walk(inserted));

  inserted_work.clear();
  Random random(5);
  for (int i = 0; i < 20000; ++i) {
    const uint64_t key =
        n > 0 && random.below(2) == 0 ? keys[random.below(n)] : vet_key(random.below(1u << 20), 9);
    NodeValue a, b;
    switch (random.below(4)) {
      case 0:
        ASSERT_EQ(loaded.find(key, a), inserted.find(key, b));
        EXPECT_EQ(a, b);
        break;
      case 1:
        ASSERT_EQ(loaded.erase(key), inserted.erase(key));
        break;
      case 2:
        if (!inserted.find(key, b)) {
          inserted.insert(key, NodeValue{1, 2, 3});
          loaded.insert(key, NodeValue{1, 2, 3});
        }
        break;
      default: {
        const uint64_t internal = vet_key(random.below(64) << 30, 30);  // only ever counted
        ASSERT_EQ(loaded.adjust_count(internal, 1), inserted.adjust_count(internal, 1));
      }
    }
  }
  // The loading itself is not counted (untimed work); everything after it is, alike.
  loaded_work.clear();
  inserted_work.clear();
  for (const uint64_t key : keys) {
    NodeValue a, b;
    EXPECT_EQ(loaded.find(key, a), inserted.find(key, b));
  }
  EXPECT_EQ(loaded_work.hash_probes, inserted_work.hash_probes);
  EXPECT_EQ(walk(loaded), walk(inserted));
}

TEST(ChainingTableLoad, KeysOfOneHashAreWhatTheTestNeedsThemToBe) {
  std::set<uint64_t> keys;
  for (uint64_t j = 1; j <= 1000; ++j) {
    EXPECT_EQ(vet_hash(key_hashing_to_zero(j)), 0u);
    keys.insert(key_hashing_to_zero(j));
  }
  EXPECT_EQ(keys.size(), 1000u);
  const std::vector<uint64_t> mixed = distinct_keys(300000, 1);
  EXPECT_EQ(std::set<uint64_t>(mixed.begin(), mixed.end()).size(), mixed.size());
}

TEST(ChainingTableLoad, EndsAsTheInsertsOneByOneWould) {
  // Nothing; below, at and past the first growth (35 entries in 53 buckets); many growths.
  for (const size_t n : {0, 1, 35, 36, 37, 1000, 131073, 300000}) expect_loads_as_inserted(n);
}

TEST(ChainingTableLoad, EndsSoPastTheRoomMadeForIt) {
  // The pool moves while loading; the bucket array (786,433 heads) spans two of the pieces its
  // pages are populated by.
  expect_loads_as_inserted(300000, 75000);
}

TEST(ChainingTableLoad, OnlyATableWhosePoolWasNeverUsed) {
  CpuWork work;
  ChainingTable table(work);
  table.insert(vet_key(1, 0), NodeValue{1, 1, 1});
  EXPECT_FALSE(table.begin_load(1));
  ASSERT_TRUE(table.erase(vet_key(1, 0)));
  EXPECT_FALSE(table.begin_load(1)) << "empty, but the free list would be taken first";
  table.clear();
  EXPECT_TRUE(table.begin_load(1));
  EXPECT_THROW(ChainingTable(work).load(vet_key(2, 0), NodeValue{}), std::logic_error);
}

// Ascending extents with gaps, of lengths that make pieces at many levels, in a space of 2^16.
std::vector<Extent> ascending_extents(uint64_t seed) {
  Random random(seed);
  std::vector<Extent> out;
  uint64_t lun = random.below(3);
  while (true) {
    const auto length = static_cast<uint32_t>(1 + random.below(random.below(4) == 0 ? 300 : 20));
    if (lun + length > (1u << 16)) break;
    out.push_back({static_cast<Lun>(lun), length, static_cast<SlotId>(random.below(1u << 20))});
    lun += length + (random.below(3) == 0 ? random.below(50) : 0);
  }
  return out;
}

TEST(VetOrderedFill, LeavesTheMapOneByOneInsertsLeave) {
  const ExtentSpace space{1u << 16, 1u << 21};
  for (const VetOptions& options : vet_test::all_variants()) {
    SCOPED_TRACE(vet_test::variant_name(options));
    CpuWork one_work, bulk_work;
    VetMap one(space, options, one_work);
    VetMap bulk(space, options, bulk_work);
    const std::vector<Extent> extents = ascending_extents(3);
    bulk.begin_ordered_fill(extents.size());
    for (const Extent& e : extents) {
      EXPECT_EQ(bulk.insert_unmapped(e), one.insert_unmapped(e));
    }
    bulk.end_ordered_fill();
    EXPECT_EQ(bulk.check(), "");
    EXPECT_EQ(bulk.node_set().size(), one.node_set().size());
    EXPECT_EQ(vet_test::node_strings(bulk), vet_test::node_strings(one));
    EXPECT_EQ(walk(bulk.table()), walk(one.table()));
    EXPECT_EQ(bulk.memory_bytes(), one.memory_bytes());
    EXPECT_EQ(bulk.records(), one.records());

    // Then the same random work on both costs the same and finds the same.
    vet_test::Workload workload(space.logical_units, 9);
    std::vector<Extent> found_one, found_bulk, displaced_one, displaced_bulk;
    for (int i = 0; i < 3000; ++i) {
      const uint32_t length = workload.length();
      const Lun lun = workload.start(length);
      one_work.clear();
      bulk_work.clear();
      if (i % 2 == 0) {
        const Extent e{lun, length, static_cast<SlotId>(i * 64)};
        displaced_one.clear();
        displaced_bulk.clear();
        one.insert(e, displaced_one);
        bulk.insert(e, displaced_bulk);
        ASSERT_EQ(displaced_bulk, displaced_one);
      } else {
        found_one.clear();
        found_bulk.clear();
        one.lookup(lun, length, found_one);
        bulk.lookup(lun, length, found_bulk);
        ASSERT_EQ(found_bulk, found_one);
      }
      ASSERT_EQ(bulk_work.hash_probes, one_work.hash_probes) << "operation " << i;
    }
  }
}

// The loading relies on the order (a marker not loaded last at its depth is new): an extent out
// of order is refused, not loaded as a second copy of a node.
TEST(VetOrderedFill, RefusesAnExtentOutOfOrder) {
  CpuWork work;
  VetMap map(ExtentSpace{1u << 16, 1u << 21}, VetOptions{}, work);
  map.begin_ordered_fill(3);
  map.insert_unmapped({64, 8, 0});
  EXPECT_THROW(map.insert_unmapped({60, 2, 100}), std::logic_error);
  EXPECT_THROW(map.insert_unmapped({64, 8, 200}), std::logic_error);
}

}  // namespace
}  // namespace ssd::ftl
