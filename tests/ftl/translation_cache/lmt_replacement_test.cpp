// LMT's replacement under its memory threshold (shared/papers/lmt-translation-caching.md, 5.4):
// both WR and SCWR stay under the threshold and never answer with an old page; sequential writes
// that merge need no replacement at all; WR releases the leaf of least weight AT / NT whole; SCWR
// releases only the second (least recently used) half of each list of the leaf and prunes and
// cuts the first half so that no older unit answers for a released newer one, nor for a part a
// cut dropped from a newer unit of the first half.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <random>
#include <vector>

#include "ftl/translation_cache/lmt_tree.h"

namespace ssd::ftl {
namespace {

constexpr uint64_t kLarge = uint64_t(1) << 30;
constexpr LmtReplacement kPolicies[] = {LmtReplacement::kWeight, LmtReplacement::kSecondChance};

const char* name_of(LmtReplacement policy) {
  return policy == LmtReplacement::kWeight ? "WR" : "SCWR";
}

void insert_checked(LmtTree& tree, Lun lun, PageId page, uint32_t count, uint64_t threshold) {
  CpuWork work;
  tree.insert(lun, page, count, work);
  EXPECT_NO_THROW(tree.check_invariants());
  EXPECT_LE(tree.memory_bytes(), threshold);
}

TEST(LmtReplacement, UnderASmallThresholdBothPoliciesReplaceAndStayUnderIt) {
  for (LmtReplacement policy : kPolicies) {
    for (uint32_t fanout : {9u, 19u, 41u}) {
      SCOPED_TRACE(testing::Message() << name_of(policy) << " fanout " << fanout);
      const uint64_t threshold = 4 * LmtTree::node_bytes(fanout) + 10 * LmtTree::kUnitBytes;
      LmtTree tree(threshold, fanout, policy);
      std::mt19937 rng(fanout);
      std::vector<PageId> newest(4000, kNone);
      PageId next_page = 0;
      for (uint32_t i = 0; i < 3000; ++i) {
        const Lun lun = 10 * (rng() % 390);
        const uint32_t count = 1 + rng() % 9;
        next_page += 3;  // no write continues the previous one's pages
        insert_checked(tree, lun, next_page, count, threshold);
        for (uint32_t k = 0; k < count; ++k) newest[lun + k] = next_page + k;
        next_page += count;
        CpuWork work;
        const Lun probe = rng() % 4000;
        const PageId page = tree.lookup(probe, work);
        ASSERT_TRUE(page == kNone || page == newest[probe]) << "unit " << probe << " op " << i;
      }
      EXPECT_GT(tree.stats().replacements, 0u);
      EXPECT_LE(tree.memory_bytes(), threshold);
    }
  }
}

TEST(LmtReplacement, SequentialWritesMergeIntoOneUnitAndFitTheSmallestThreshold) {
  for (LmtReplacement policy : kPolicies) {
    for (uint32_t fanout : {9u, 19u, 41u}) {
      SCOPED_TRACE(testing::Message() << name_of(policy) << " fanout " << fanout);
      const uint64_t threshold = LmtTree::node_bytes(fanout) + LmtTree::kUnitBytes;
      LmtTree tree(threshold, fanout, policy);
      for (uint32_t i = 0; i < 100; ++i) insert_checked(tree, 8 * i, 4000 + 8 * i, 8, threshold);
      EXPECT_EQ(tree.units(), 1u);
      EXPECT_EQ(tree.stats().replacements, 0u);
      CpuWork work;
      for (Lun lun = 0; lun < 800; lun += 7) EXPECT_EQ(tree.lookup(lun, work), 4000 + lun);
    }
  }
}

// Ten disjoint units of four at lun 10 * i: the root leaf (FANOUT 9) splits into two leaves, units
// 0-3 certainly in the first and 5-9 certainly in the second.
void write_ten_units(LmtTree& tree, uint64_t threshold) {
  for (uint32_t i = 0; i < 10; ++i) insert_checked(tree, 10 * i, 1000 * (i + 1), 4, threshold);
}

TEST(LmtReplacement, WeightReplacementReleasesTheLeafOfLeastAccessTimePerUnitWhole) {
  LmtTree probe(kLarge, 9, LmtReplacement::kWeight);
  write_ten_units(probe, kLarge);
  ASSERT_EQ(probe.nodes(), 3u);  // a root over two leaves
  ASSERT_EQ(probe.depth(), 2u);
  const uint64_t threshold = probe.memory_bytes();

  LmtTree tree(threshold, 9, LmtReplacement::kWeight);
  write_ten_units(tree, threshold);
  ASSERT_EQ(tree.stats().replacements, 0u);
  CpuWork work;
  for (int round = 0; round < 50; ++round) {  // the second leaf is accessed, the first is not
    for (uint32_t i = 5; i < 10; ++i) ASSERT_EQ(tree.lookup(10 * i, work), 1000 * (i + 1));
  }
  insert_checked(tree, 91, 77777, 1, threshold);  // inside unit 9: one unit over the threshold
  EXPECT_GT(tree.stats().replacements, 0u);
  for (uint32_t i = 0; i < 4; ++i) EXPECT_EQ(tree.lookup(10 * i + 1, work), kNone) << "unit " << i;
  for (uint32_t i = 5; i < 10; ++i) EXPECT_EQ(tree.lookup(10 * i + 2, work), 1000 * (i + 1) + 2);
  EXPECT_EQ(tree.lookup(91, work), 77777u);
}

// Three lists in the root leaf over [100k, 100k + 15], k = 0, 1, 2: each was one unit, then
// overwritten a quarter at a time with pages continuing nothing, so its LRU order is quarters
// 3, 2, 1, 0 (most recently used first); quarter 3 deleted what was left of the first unit.
PageId quarter_page(uint32_t list, uint32_t quarter) { return 50000 + 1000 * list + 100 * quarter; }

uint64_t write_three_lists(LmtTree& tree, uint64_t threshold) {
  uint64_t peak = 0;
  for (uint32_t k = 0; k < 3; ++k) {
    insert_checked(tree, 100 * k, 10000 + 1000 * k, 16, threshold);
    peak = std::max(peak, tree.memory_bytes());
    for (uint32_t q = 0; q < 4; ++q) {
      insert_checked(tree, 100 * k + 4 * q, quarter_page(k, q), 4, threshold);
      peak = std::max(peak, tree.memory_bytes());
    }
  }
  return peak;
}

TEST(LmtReplacement, SecondChanceKeepsTheRecentHalfOfEachListWhereWeightReleasesTheLeaf) {
  LmtTree probe(kLarge, 9, LmtReplacement::kWeight);
  const uint64_t threshold = write_three_lists(probe, kLarge);
  ASSERT_EQ(probe.nodes(), 1u);
  ASSERT_EQ(probe.units(), 12u);
  ASSERT_EQ(probe.memory_bytes(), threshold);  // full: one more unit is over

  for (LmtReplacement policy : kPolicies) {
    SCOPED_TRACE(name_of(policy));
    LmtTree tree(threshold, 9, policy);
    write_three_lists(tree, threshold);
    ASSERT_EQ(tree.stats().replacements, 0u);
    ASSERT_EQ(tree.units(), 12u);
    // Strictly inside list 0's quarter 0: list 0 is now new, q3, q2, q1, q0 and one unit too many.
    insert_checked(tree, 1, 99999, 1, threshold);
    EXPECT_GT(tree.stats().replacements, 0u);
    CpuWork work;
    if (policy == LmtReplacement::kWeight) {  // the only leaf goes whole
      for (Lun lun = 0; lun < 300; ++lun) {
        if (lun != 1) {
          EXPECT_EQ(tree.lookup(lun, work), kNone) << lun;
        }
      }
      const PageId newest = tree.lookup(1, work);  // released with the leaf, or inserted after
      EXPECT_TRUE(newest == kNone || newest == 99999u);
      continue;
    }
    for (uint32_t k = 1; k < 3; ++k) {  // four units each: quarters 3 and 2 stay, 1 and 0 go
      for (uint32_t q = 0; q < 4; ++q) {
        for (uint32_t i = 0; i < 4; ++i) {
          const PageId want = q >= 2 ? quarter_page(k, q) + i : kNone;
          EXPECT_EQ(tree.lookup(100 * k + 4 * q + i, work), want) << "list " << k << " q" << q;
        }
      }
    }
    // List 0 had five (new, q3, q2, q1, q0): its first two stay and its last two go, whichever
    // half quarter 2 counts in.
    EXPECT_EQ(tree.lookup(1, work), 99999u);
    for (Lun lun : {0u, 2u, 3u, 4u, 5u, 6u, 7u}) EXPECT_EQ(tree.lookup(lun, work), kNone) << lun;
    for (uint32_t i = 0; i < 4; ++i) EXPECT_EQ(tree.lookup(12 + i, work), quarter_page(0, 3) + i);
    for (Lun lun = 8; lun < 12; ++lun) {
      const PageId page = tree.lookup(lun, work);
      EXPECT_TRUE(page == kNone || page == quarter_page(0, lun / 4) + lun % 4) << lun;
    }
  }
}

// List A: an older unit over [0, 15] with a newer one strictly inside at [4, 7], the older then
// hit (first half) so the newer is the tail (second half): the cut must drop the older's middle.
// List B: an older unit trimmed by a newer one over its right part, then hit. List C takes the
// unit that goes over the threshold.
uint64_t write_hazards(LmtTree& tree, uint64_t threshold) {
  CpuWork work;
  insert_checked(tree, 0, 1000, 16, threshold);
  insert_checked(tree, 4, 2000, 4, threshold);
  EXPECT_EQ(tree.lookup(0, work), 1000u);
  insert_checked(tree, 100, 3000, 8, threshold);
  insert_checked(tree, 104, 4000, 8, threshold);
  EXPECT_EQ(tree.lookup(100, work), 3000u);
  insert_checked(tree, 200, 6000, 16, threshold);
  return tree.memory_bytes();
}

// Writes `scene` into an SCWR tree whose threshold is exactly what the scene takes (measured on a
// tree that never replaces), checks that the scene fit in the root leaf as `units` units with no
// replacement, then inserts one unit strictly inside list C's unit at 200: over the threshold, so
// SCWR runs.
std::unique_ptr<LmtTree> scene_then_one_over(uint64_t (*scene)(LmtTree&, uint64_t),
                                             uint32_t units) {
  LmtTree probe(kLarge, 9, LmtReplacement::kSecondChance);
  const uint64_t threshold = scene(probe, kLarge);
  EXPECT_EQ(probe.nodes(), 1u);
  EXPECT_EQ(probe.units(), units);
  auto tree = std::make_unique<LmtTree>(threshold, 9, LmtReplacement::kSecondChance);
  scene(*tree, threshold);
  EXPECT_EQ(tree->stats().replacements, 0u);
  insert_checked(*tree, 205, 7000, 1, threshold);
  EXPECT_GT(tree->stats().replacements, 0u);
  return tree;
}

TEST(LmtReplacement, SecondChanceCutsAndPrunesSoNoOlderUnitAnswersForAReleasedNewerOne) {
  const std::unique_ptr<LmtTree> replaced = scene_then_one_over(write_hazards, 5);
  LmtTree& tree = *replaced;
  CpuWork work;
  // Hazard 2: the newer [4, 7] went; the older keeps its larger part [8, 15] and not [4, 7].
  for (Lun lun = 4; lun < 8; ++lun) EXPECT_EQ(tree.lookup(lun, work), kNone) << lun;
  for (Lun lun = 8; lun < 16; ++lun) EXPECT_EQ(tree.lookup(lun, work), 1000 + lun) << lun;
  for (Lun lun = 0; lun < 4; ++lun) {
    const PageId page = tree.lookup(lun, work);
    EXPECT_TRUE(page == kNone || page == 1000 + lun) << lun;
  }
  // Hazard 1: the newer [104, 111] went; the older answers only for [100, 103].
  for (Lun lun = 100; lun < 104; ++lun) EXPECT_EQ(tree.lookup(lun, work), 3000 + lun - 100);
  for (Lun lun = 104; lun < 112; ++lun) EXPECT_EQ(tree.lookup(lun, work), kNone) << lun;
  EXPECT_EQ(tree.lookup(205, work), 7000u);
  EXPECT_NO_THROW(tree.check_invariants());
}

// List A: R over [0, 63], then k over [30, 45] strictly inside it, then s at 32 strictly inside
// both; hits on R and then on k leave the order k, R, s, so s is the second half. Cutting k around
// s keeps its larger side [33, 45] and drops [30, 31]; cutting R keeps its larger side [0, 31].
// R must not then answer for 30 and 31, which k (newer) held. List C takes the unit that goes over.
uint64_t write_nested(LmtTree& tree, uint64_t threshold) {
  CpuWork work;
  insert_checked(tree, 0, 1000, 64, threshold);   // R
  insert_checked(tree, 30, 2000, 16, threshold);  // k
  insert_checked(tree, 32, 3000, 1, threshold);   // s
  EXPECT_EQ(tree.lookup(0, work), 1000u);
  EXPECT_EQ(tree.lookup(30, work), 2000u);
  insert_checked(tree, 200, 6000, 16, threshold);
  return tree.memory_bytes();
}

TEST(LmtReplacement, SecondChanceCutsNeverExposeAnOlderUnitWhereTheDroppedPartHidIt) {
  const std::unique_ptr<LmtTree> replaced = scene_then_one_over(write_nested, 4);
  LmtTree& tree = *replaced;
  CpuWork work;
  for (Lun lun = 0; lun < 64; ++lun) {
    const PageId newest = lun == 32 ? 3000 : (lun >= 30 && lun < 46) ? 2000 + lun - 30 : 1000 + lun;
    const PageId page = tree.lookup(lun, work);
    EXPECT_TRUE(page == kNone || page == newest)
        << "unit " << lun << " answered " << page << ", newest is " << newest;
  }
}

}  // namespace
}  // namespace ssd::ftl
