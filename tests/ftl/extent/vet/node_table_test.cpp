// The two node tables alone: insert/find/update/erase/adjust_count, growth and clear, cuckoo kick
// chains and rehashing, the probe-counting rule (node_table.h), and both against
// std::unordered_map on random operations.
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <unordered_map>

#include "ftl/core/random.h"
#include "ftl/core/types.h"
#include "ftl/extent/vet/chaining_table.h"
#include "ftl/extent/vet/cuckoo_table.h"

namespace ssd::ftl {
namespace {

NodeValue leaf(uint32_t a) { return NodeValue{a, 1, a * 3}; }

// Keys (unit-level, as VET makes them) whose hashes satisfy `same`.
template <typename Same>
std::vector<uint64_t> keys_where(size_t n, Same&& same) {
  std::vector<uint64_t> out;
  for (uint64_t u = 0; out.size() < n; ++u) {
    if (same(vet_key(u, 0))) out.push_back(vet_key(u, 0));
  }
  return out;
}

TEST(ChainingTable, InsertFindUpdateErase) {
  CpuWork cpu;
  ChainingTable t(cpu);
  NodeValue v;
  EXPECT_FALSE(t.find(7, v));
  t.insert(7, leaf(1));
  t.insert(vet_key(5, 2), leaf(2));
  EXPECT_EQ(t.size(), 2u);
  ASSERT_TRUE(t.find(7, v));
  EXPECT_EQ(v, leaf(1));
  t.update(7, leaf(9));
  ASSERT_TRUE(t.find(7, v));
  EXPECT_EQ(v, leaf(9));
  EXPECT_THROW(t.update(8, leaf(1)), std::logic_error);
  EXPECT_TRUE(t.erase(7));
  EXPECT_FALSE(t.erase(7));
  EXPECT_FALSE(t.find(7, v));
  EXPECT_EQ(t.size(), 1u);
  t.clear();
  EXPECT_EQ(t.size(), 0u);
  EXPECT_EQ(t.bucket_count(), 53u);
}

TEST(ChainingTable, AdjustCount) {
  CpuWork cpu;
  ChainingTable t(cpu);
  NodeValue v;
  EXPECT_EQ(t.adjust_count(100, +1), 1u);  // absent: inserted as {1, 0, 0}
  ASSERT_TRUE(t.find(100, v));
  EXPECT_EQ(v, (NodeValue{1, 0, 0}));
  EXPECT_EQ(t.adjust_count(100, +1), 2u);
  EXPECT_EQ(t.adjust_count(100, -1), 1u);
  EXPECT_EQ(t.adjust_count(100, -1), 0u);  // removed at zero
  EXPECT_FALSE(t.find(100, v));
  EXPECT_EQ(t.size(), 0u);
  EXPECT_THROW(t.adjust_count(100, -1), std::logic_error);
  t.insert(200, leaf(4));
  EXPECT_THROW(t.adjust_count(200, +1), std::logic_error);  // a leaf has no count
}

// Clark's rule: grow to the next prime once the entries would exceed 0.65 x buckets; entries are
// relinked by their stored hash, one probe each.
TEST(ChainingTable, GrowsAtLoadFactorAndCountsRelinking) {
  CpuWork cpu;
  ChainingTable t(cpu);
  for (uint64_t u = 0; u < 35; ++u) t.insert(vet_key(u, 0), leaf(uint32_t(u)));
  EXPECT_EQ(t.bucket_count(), 53u);  // ceil(53 x 0.65) = 35
  const uint64_t before = cpu.hash_probes;
  t.insert(vet_key(35, 0), leaf(35));
  EXPECT_EQ(t.bucket_count(), 97u);
  EXPECT_EQ(cpu.hash_probes - before, 35u + 1u);
  for (uint64_t u = 0; u < 36; ++u) {
    NodeValue v;
    ASSERT_TRUE(t.find(vet_key(u, 0), v));
    EXPECT_EQ(v, leaf(uint32_t(u)));
  }
  for (uint64_t u = 36; u < 5000; ++u) t.insert(vet_key(u, 0), leaf(uint32_t(u)));
  EXPECT_LE(double(t.size()), 0.65 * t.bucket_count() + 1);
  EXPECT_EQ(t.memory_bytes(10), 5000u * (10 + 8) + uint64_t{t.bucket_count()} * 4);
  t.clear();
  EXPECT_EQ(t.bucket_count(), 53u);
  EXPECT_EQ(t.memory_bytes(10), 53u * 4);
}

// find, update, erase: 1 + (chain entries examined - 1); insert: 1 (head of the chain).
TEST(ChainingTable, ProbeRule) {
  CpuWork cpu;
  ChainingTable t(cpu);
  const auto same = keys_where(4, [](uint64_t k) { return vet_hash(k) % 53 == 7; });
  const auto empty = keys_where(1, [](uint64_t k) { return vet_hash(k) % 53 == 8; });
  auto cost = [&](auto&& op) {
    const uint64_t before = cpu.hash_probes;
    op();
    return cpu.hash_probes - before;
  };
  NodeValue v;
  for (int i = 0; i < 3; ++i) EXPECT_EQ(cost([&] { t.insert(same[i], leaf(i)); }), 1u);
  // The chain is same[2] -> same[1] -> same[0].
  EXPECT_EQ(cost([&] { t.find(same[2], v); }), 1u);
  EXPECT_EQ(cost([&] { t.find(same[1], v); }), 2u);
  EXPECT_EQ(cost([&] { t.find(same[0], v); }), 3u);
  EXPECT_EQ(cost([&] { t.find(same[3], v); }), 3u);   // a miss examines the whole chain
  EXPECT_EQ(cost([&] { t.find(empty[0], v); }), 1u);  // an empty bucket
  EXPECT_EQ(cost([&] { t.update(same[0], leaf(5)); }), 3u);
  EXPECT_EQ(cost([&] { t.erase(same[1]); }), 2u);
  EXPECT_EQ(cost([&] { t.find(same[0], v); }), 2u);
  EXPECT_EQ(cost([&] { t.adjust_count(same[3], +1); }), 2u);  // searched 2, linked at the head
  EXPECT_EQ(cost([&] { t.find(same[3], v); }), 1u);
  EXPECT_EQ(t.longest_chain(), 3u);
}

TEST(CuckooTable, InsertFindUpdateErase) {
  CpuWork cpu;
  CuckooTable t(cpu);
  NodeValue v;
  EXPECT_FALSE(t.find(7, v));
  t.insert(7, leaf(1));
  ASSERT_TRUE(t.find(7, v));
  EXPECT_EQ(v, leaf(1));
  t.update(7, leaf(2));
  ASSERT_TRUE(t.find(7, v));
  EXPECT_EQ(v, leaf(2));
  EXPECT_THROW(t.update(8, leaf(1)), std::logic_error);
  EXPECT_THROW(t.insert(kVetNoKey, leaf(1)), std::invalid_argument);
  EXPECT_TRUE(t.erase(7));
  EXPECT_FALSE(t.erase(7));
  EXPECT_EQ(t.size(), 0u);
  EXPECT_EQ(t.adjust_count(9, +1), 1u);
  EXPECT_EQ(t.adjust_count(9, -1), 0u);
  EXPECT_EQ(t.size(), 0u);
  EXPECT_THROW(t.adjust_count(9, -1), std::logic_error);
}

// Pagh and Rodler's bound: MaxLoop = ceil(3 log_{1+eps} r); the table doubles when the entries
// would pass r / (1 + eps), and every slot of both tables counts in the memory.
TEST(CuckooTable, SizeLimitsAndGrowth) {
  CpuWork cpu;
  CuckooTable t(cpu);
  EXPECT_EQ(t.table_slots(), 16u);
  EXPECT_EQ(t.max_loop(), 38u);  // ceil(3 x 4 ln 2 / ln 1.25) = ceil(37.27)
  for (uint64_t u = 0; u < 12; ++u) t.insert(vet_key(u, 0), leaf(uint32_t(u)));
  EXPECT_EQ(t.table_slots(), 16u);  // 12 <= 16 / 1.25
  t.insert(vet_key(12, 0), leaf(12));
  EXPECT_EQ(t.table_slots(), 32u);
  EXPECT_EQ(t.memory_bytes(10), 2u * 32 * 10);
  for (uint64_t u = 0; u < 13; ++u) {
    NodeValue v;
    ASSERT_TRUE(t.find(vet_key(u, 0), v));
    EXPECT_EQ(v, leaf(uint32_t(u)));
  }
  t.clear();
  EXPECT_EQ(t.table_slots(), 16u);
}

// A key in T0 costs one probe, in T1 two, a miss two; an insertion whose slot in T0 is taken
// kicks the holder to its slot in T1: 1 + 1 kick.
TEST(CuckooTable, KickChainAndProbeRule) {
  CpuWork cpu;
  CuckooTable t(cpu);
  const uint64_t m0 = vet_hash_multiplier(0), m1 = vet_hash_multiplier(1);
  auto i0 = [&](uint64_t k) { return vet_hash(k, m0) >> 28; };
  auto i1 = [&](uint64_t k) { return vet_hash(k, m1) >> 28; };
  // Three keys sharing T0's slot, with three different T1 slots.
  const uint64_t a = vet_key(0, 0);
  std::vector<uint64_t> k{a};
  for (uint64_t u = 1; k.size() < 3; ++u) {
    const uint64_t key = vet_key(u, 0);
    bool fresh = i0(key) == i0(a);
    for (uint64_t other : k) fresh = fresh && i1(key) != i1(other);
    if (fresh) k.push_back(key);
  }
  auto cost = [&](auto&& op) {
    const uint64_t before = cpu.hash_probes;
    op();
    return cpu.hash_probes - before;
  };
  NodeValue v;
  EXPECT_EQ(cost([&] { t.insert(k[0], leaf(0)); }), 1u);
  EXPECT_EQ(t.table_of(k[0]), 0);
  EXPECT_EQ(cost([&] { t.find(k[0], v); }), 1u);
  EXPECT_EQ(cost([&] { t.insert(k[1], leaf(1)); }), 2u);  // k[0] kicked to T1
  EXPECT_EQ(t.table_of(k[1]), 0);
  EXPECT_EQ(t.table_of(k[0]), 1);
  EXPECT_EQ(cost([&] { t.find(k[0], v); }), 2u);
  EXPECT_EQ(v, leaf(0));
  EXPECT_EQ(cost([&] { t.insert(k[2], leaf(2)); }), 2u);  // k[1] kicked to its own T1 slot
  EXPECT_EQ(t.table_of(k[2]), 0);
  EXPECT_EQ(t.table_of(k[1]), 1);
  EXPECT_EQ(cost([&] { t.find(vet_key(999, 3), v); }), 2u);  // a miss looks at both
  EXPECT_EQ(t.rehashes(), 0u);
}

// Three keys with the same slot in both tables cannot all be placed: after MaxLoop rounds the
// table is rehashed with the next multipliers, and every key is found again.
TEST(CuckooTable, RehashesWhenKicksRunOut) {
  CpuWork cpu;
  CuckooTable t(cpu);
  const uint64_t m0 = vet_hash_multiplier(0), m1 = vet_hash_multiplier(1);
  std::map<std::pair<uint32_t, uint32_t>, std::vector<uint64_t>> by_slots;
  std::vector<uint64_t> trio;
  for (uint64_t u = 0; trio.empty(); ++u) {
    const uint64_t key = vet_key(u, 0);
    auto& same = by_slots[{vet_hash(key, m0) >> 28, vet_hash(key, m1) >> 28}];
    same.push_back(key);
    if (same.size() == 3) trio = same;
  }
  t.insert(trio[0], leaf(0));
  t.insert(trio[1], leaf(1));
  EXPECT_EQ(t.rehashes(), 0u);
  const uint64_t before = cpu.hash_probes;
  t.insert(trio[2], leaf(2));
  EXPECT_GE(t.rehashes(), 1u);
  EXPECT_GT(cpu.hash_probes - before, 2 * uint64_t{t.max_loop()});  // the kicks were counted
  EXPECT_EQ(t.size(), 3u);
  for (int i = 0; i < 3; ++i) {
    NodeValue v;
    ASSERT_TRUE(t.find(trio[i], v));
    EXPECT_EQ(v, leaf(i));
  }
}

// Both tables against std::unordered_map on random operations over a key set that grows and
// shrinks (growth, rehashes, the free list).
TEST(NodeTables, MatchUnorderedMap) {
  for (int which = 0; which < 2; ++which) {
    CpuWork cpu;
    std::unique_ptr<NodeTable> t;
    if (which == 0) {
      t = std::make_unique<ChainingTable>(cpu);
    } else {
      t = std::make_unique<CuckooTable>(cpu);
    }
    std::unordered_map<uint64_t, NodeValue> ref;
    Random rng(11 + which);
    for (int i = 0; i < 300000; ++i) {
      const uint64_t phase = (i / 50000) % 2;  // grow, then shrink, then grow...
      const uint64_t key = vet_key(rng.below(40000), uint32_t(rng.below(3)));
      const uint64_t r = rng.below(100);
      NodeValue v;
      const bool present = ref.count(key) != 0;
      ASSERT_EQ(t->find(key, v), present);
      if (present) {
        ASSERT_EQ(v, ref[key]);
      }
      if (r < (phase == 0 ? 60u : 20u)) {
        if (!present) {
          t->insert(key, leaf(uint32_t(i)));
          ref[key] = leaf(uint32_t(i));
        } else {
          t->update(key, leaf(uint32_t(i)));
          ref[key] = leaf(uint32_t(i));
        }
      } else {
        ASSERT_EQ(t->erase(key), present);
        ref.erase(key);
      }
      ASSERT_EQ(t->size(), ref.size());
    }
    uint64_t visited = 0;
    t->for_each([&](uint64_t key, const NodeValue& v) {
      ++visited;
      ASSERT_EQ(ref.at(key), v);
    });
    EXPECT_EQ(visited, ref.size());
  }
}

}  // namespace
}  // namespace ssd::ftl
