// The LMT tree of shared/papers/lmt-translation-caching.md, section 5, under a threshold too large
// to replace anything: the paper's node sizes and memory count, a lookup adding its offset to the
// unit's page (the paper's Fig. 2 example), merges of units whose pages continue each other in both
// directions, deletion of older units a write covers, newer units strictly inside or partly over
// older ones, node splits past FANOUT with every lookup still right, removal of emptied nodes,
// relocation as a new write, and the work each call counts. The structure is checked after every
// call.
#include "ftl/translation_cache/lmt_tree.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "tests/ftl/translation_cache/expect_work.h"

namespace ssd::ftl {
namespace {

constexpr uint64_t kLarge = uint64_t(1) << 30;  // never reached: nothing is replaced

// A tree whose every call is followed by the structural checks and the paper's memory count.
struct CheckedTree {
  explicit CheckedTree(uint32_t fanout = 9)
      : fanout(fanout), tree(kLarge, fanout, LmtReplacement::kWeight) {}

  uint32_t fanout;
  LmtTree tree;
  CpuWork work;

  void insert(Lun lun, PageId page, uint32_t count) {
    tree.insert(lun, page, count, work);
    check();
  }
  PageId lookup(Lun lun) {
    const PageId page = tree.lookup(lun, work);
    check();
    return page;
  }
  void check() const {
    EXPECT_NO_THROW(tree.check_invariants());
    EXPECT_EQ(tree.memory_bytes(), uint64_t(tree.nodes()) * LmtTree::node_bytes(fanout) +
                                       uint64_t(tree.units()) * LmtTree::kUnitBytes);
  }
  // Units [lun, lun + count) all answer with pages [page, page + count).
  void expect_range(Lun lun, PageId page, uint32_t count) {
    for (uint32_t i = 0; i < count; ++i) EXPECT_EQ(lookup(lun + i), page + i) << "unit " << lun + i;
  }
  void expect_unknown(Lun lun, uint32_t count) {
    for (uint32_t i = 0; i < count; ++i) EXPECT_EQ(lookup(lun + i), kNone) << "unit " << lun + i;
  }
};

TEST(LmtTree, NodesHaveThePapersSizesForFanouts9_19And41) {
  EXPECT_EQ(LmtTree::node_bytes(9), 128u);
  EXPECT_EQ(LmtTree::node_bytes(19), 256u);
  EXPECT_EQ(LmtTree::node_bytes(41), 512u);
  EXPECT_EQ(LmtTree::kUnitBytes, 20u);
}

TEST(LmtTree, AnEmptyTreeIsOnlyItsRootAndKnowsNoUnit) {
  CheckedTree t;
  EXPECT_EQ(t.tree.nodes(), 1u);
  EXPECT_EQ(t.tree.units(), 0u);
  EXPECT_EQ(t.tree.memory_bytes(), 128u);
  EXPECT_EQ(t.lookup(0), kNone);
  EXPECT_EQ(t.lookup(12345), kNone);
  EXPECT_EQ(t.tree.stats().lookups, 2u);
  EXPECT_EQ(t.tree.stats().hits, 0u);
}

TEST(LmtTree, ALookupAddsItsOffsetInTheUnitToTheUnitsPage) {
  CheckedTree t;
  t.insert(90, 230, 30);  // the paper's Fig. 2 unit (lba 90, pba 230, size 30)
  EXPECT_EQ(t.tree.units(), 1u);
  EXPECT_EQ(t.tree.depth(), 1u);
  EXPECT_EQ(t.tree.memory_bytes(), 128u + 20u);
  EXPECT_EQ(t.lookup(100), 240u);
  EXPECT_EQ(t.lookup(90), 230u);
  EXPECT_EQ(t.lookup(119), 259u);
  EXPECT_EQ(t.lookup(89), kNone);
  EXPECT_EQ(t.lookup(120), kNone);
  EXPECT_EQ(t.tree.stats().lookups, 5u);
  EXPECT_EQ(t.tree.stats().hits, 3u);
  EXPECT_EQ(t.tree.stats().insertions, 1u);
}

TEST(LmtTree, SequentialWritesWhosePagesContinueMergeIntoOneUnit) {
  for (uint32_t fanout : {9u, 19u, 41u}) {
    SCOPED_TRACE(fanout);
    CheckedTree t(fanout);
    for (uint32_t i = 0; i < 50; ++i) {
      t.insert(1000 + 4 * i, 7000 + 4 * i, 4);
      ASSERT_EQ(t.tree.units(), 1u) << "after write " << i;
    }
    EXPECT_GT(t.work.unit_merges, 0u);
    EXPECT_GT(t.tree.stats().insertion_work.unit_merges, 0u);
    EXPECT_EQ(t.tree.nodes(), 1u);
    t.expect_range(1000, 7000, 200);
    t.expect_unknown(999, 1);
    t.expect_unknown(1200, 1);
  }
}

TEST(LmtTree, AWriteJustBeforeAUnitWhosePagesItContinuesMergesWithIt) {
  CheckedTree t;
  t.insert(0, 500, 12);  // one list over [0, 11]
  t.insert(8, 108, 4);   // trims the first unit to [0, 7]
  t.insert(4, 104, 4);   // trims it to [0, 3]; continues into [8, 11]: merges (s.lba + s.size)
  EXPECT_EQ(t.tree.units(), 2u);
  t.expect_range(0, 500, 4);
  t.expect_range(4, 104, 8);
  t.insert(0, 100, 4);  // covers what is left of the first unit and continues into [4, 11]
  EXPECT_EQ(t.tree.units(), 1u);
  EXPECT_GT(t.tree.stats().insertion_work.unit_merges, 0u);
  t.expect_range(0, 100, 12);
}

TEST(LmtTree, AdjacentWritesWhosePagesDoNotContinueStaySeparateUnits) {
  CheckedTree t;
  t.insert(0, 100, 4);
  t.insert(4, 300, 4);  // adjacent logically, not physically
  t.insert(8, 312, 4);  // the previous unit's pages would continue at 304, not 312
  EXPECT_EQ(t.tree.units(), 3u);
  t.expect_range(0, 100, 4);
  t.expect_range(4, 300, 4);
  t.expect_range(8, 312, 4);
}

TEST(LmtTree, AWriteOfAWholeRangeRemovesTheOlderUnitsInsideIt) {
  CheckedTree t;
  t.insert(0, 500, 16);  // one list over [0, 15]
  t.insert(2, 100, 2);
  t.insert(6, 200, 2);
  t.insert(10, 300, 2);
  EXPECT_GE(t.tree.units(), 4u);
  t.insert(0, 1000, 16);
  EXPECT_EQ(t.tree.units(), 1u);
  t.expect_range(0, 1000, 16);
  t.insert(4, 2000, 4);
  t.insert(3, 3000, 6);  // covers [4, 7] exactly and more
  t.expect_range(0, 1000, 3);
  t.expect_range(3, 3000, 6);
  t.expect_range(9, 1009, 7);
  // The newest, and the older unit left whole around it: the paper only deletes older units that
  // newer ones cover and trims partly overlapped ones.
  EXPECT_EQ(t.tree.units(), 2u);
}

TEST(LmtTree, ANewerUnitInsideAnOlderOneAnswersOnlyForItsOwnRange) {
  CheckedTree t;
  t.insert(0, 100, 16);
  t.insert(4, 500, 4);
  t.expect_range(0, 100, 4);
  t.expect_range(4, 500, 4);
  t.expect_range(8, 108, 8);
}

TEST(LmtTree, AnOlderUnitMovedToTheListHeadByAHitDoesNotHideTheNewerUnitInsideIt) {
  CheckedTree t;
  t.insert(0, 100, 16);
  t.insert(4, 500, 4);
  for (int round = 0; round < 3; ++round) {
    EXPECT_EQ(t.lookup(15), 115u);  // the older unit is the most recently used now
    EXPECT_EQ(t.lookup(5), 501u);
    EXPECT_EQ(t.lookup(0), 100u);
    EXPECT_EQ(t.lookup(7), 503u);
  }
}

TEST(LmtTree, APartlyOverlappingNewerUnitLeavesTheOlderOnlyItsOwnPart) {
  CheckedTree t;
  t.insert(0, 100, 8);
  t.insert(4, 500, 8);  // over the older's right part and beyond
  EXPECT_EQ(t.tree.units(), 2u);
  t.expect_range(0, 100, 4);
  t.expect_range(4, 500, 8);
  t.insert(40, 200, 8);
  t.insert(36, 600, 8);  // over the older's left part and before it
  EXPECT_EQ(t.tree.units(), 4u);
  t.expect_range(36, 600, 8);
  t.expect_range(44, 204, 4);
  t.expect_unknown(12, 24);
}

TEST(LmtTree, AWriteAcrossTwoListsTrimsBothAndLeavesTheirOuterParts) {
  CheckedTree t;
  t.insert(0, 100, 8);
  t.insert(20, 200, 8);
  t.insert(4, 900, 20);  // [4, 23]: the right of the first and the left of the second
  EXPECT_EQ(t.tree.units(), 3u);
  t.expect_range(0, 100, 4);
  t.expect_range(4, 900, 20);
  t.expect_range(24, 204, 4);
  t.expect_unknown(28, 4);
}

// Disjoint, non-adjacent units with unrelated pages, each needing its own child range.
std::vector<PageId> write_scattered(CheckedTree& t, uint32_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<PageId> pages(n);
  for (uint32_t i = 0; i < n; ++i) {
    pages[i] = 100000 + 37 * ((i * 7919u) % n) + rng() % 5;  // never continuing a neighbour
    t.insert(10 * i, pages[i], 1 + i % 3);
  }
  return pages;
}

TEST(LmtTree, MoreDisjointUnitsThanFanoutSplitNodesAndEveryLookupStaysRight) {
  for (uint32_t fanout : {9u, 19u, 41u}) {
    SCOPED_TRACE(fanout);
    CheckedTree t(fanout);
    const uint32_t n = 20 * fanout;
    const std::vector<PageId> pages = write_scattered(t, n, fanout);
    EXPECT_GT(t.tree.depth(), 1u);
    EXPECT_GT(t.tree.nodes(), 1u);
    EXPECT_EQ(t.tree.units(), n);
    for (uint32_t i = 0; i < n; ++i) {
      t.expect_range(10 * i, pages[i], 1 + i % 3);
      t.expect_unknown(10 * i + 1 + i % 3, 10 - (1 + i % 3));
    }
  }
}

TEST(LmtTree, AWriteOverHalfASplitTreeRemovesTheUnitsAndNodesUnderIt) {
  for (uint32_t fanout : {9u, 19u, 41u}) {
    SCOPED_TRACE(fanout);
    CheckedTree t(fanout);
    const uint32_t n = 30 * fanout;  // even: no unit straddles 10 * n / 2
    const std::vector<PageId> pages = write_scattered(t, n, 7);
    const uint32_t nodes_before = t.tree.nodes();
    t.insert(0, 1, 10 * (n / 2));
    EXPECT_EQ(t.tree.units(), 1 + n / 2);
    EXPECT_LT(t.tree.nodes(), nodes_before);
    t.expect_range(0, 1, 10 * (n / 2));
    for (uint32_t i = n / 2; i < n; ++i) t.expect_range(10 * i, pages[i], 1 + i % 3);
  }
}

TEST(LmtTree, AWriteOverEverythingLeavesOneUnitOnASinglePathOfNodes) {
  for (uint32_t fanout : {9u, 19u, 41u}) {
    SCOPED_TRACE(fanout);
    CheckedTree t(fanout);
    const uint32_t n = 30 * fanout;
    write_scattered(t, n, 3);
    ASSERT_GT(t.tree.depth(), 1u);
    t.insert(0, 50, 10 * n);
    EXPECT_EQ(t.tree.units(), 1u);
    EXPECT_EQ(t.tree.nodes(), t.tree.depth());  // every emptied node was removed
    t.expect_range(0, 50, 10 * n);
    t.insert(10 * n + 5, 7, 1);  // the tree still takes new units
    EXPECT_EQ(t.lookup(10 * n + 5), 7u);
  }
}

TEST(LmtTree, ForgetDropsTheRangeFromEveryUnitAndNodeAndCutsAUnitAroundIt) {
  CheckedTree t;
  t.insert(0, 1000, 64);                                                   // one unit [0, 63]
  for (Lun lun = 100; lun < 400; lun += 10) t.insert(lun, 5000 + lun, 4);  // splits the root
  ASSERT_GT(t.tree.depth(), 1u);
  const uint32_t nodes_before = t.tree.nodes();
  t.tree.forget(10, 20, t.work);  // inside [0, 63]: the larger side [30, 63] stays
  t.check();
  t.expect_unknown(0, 30);
  t.expect_range(30, 1030, 34);
  t.tree.forget(100, 300, t.work);  // every unit from 100 on, and the nodes that held them
  t.check();
  for (Lun lun = 100; lun < 400; lun += 10) t.expect_unknown(lun, 4);
  EXPECT_LT(t.tree.nodes(), nodes_before);
  EXPECT_EQ(t.tree.units(), 1u);
  t.tree.forget(0, 1000, t.work);
  t.check();
  EXPECT_EQ(t.tree.units(), 0u);
  EXPECT_EQ(t.tree.nodes(), 1u);  // the root stays
  t.insert(7, 77, 1);             // and still works
  t.expect_range(7, 77, 1);
}

TEST(LmtTree, ARelocationIsTheNewestCopyOfItsRange) {
  CheckedTree t;
  t.insert(0, 100, 8);
  t.insert(3, 400, 2);
  t.tree.relocate(0, 900, 32, t.work);
  t.check();
  t.expect_range(0, 900, 32);
  EXPECT_EQ(t.tree.units(), 1u);
  EXPECT_EQ(t.tree.stats().insertions, 3u);  // insert() and relocate() calls
}

TEST(LmtTree, EachCallCountsItsWorkIntoTheCallersCounterAndTheStats) {
  LmtTree tree(kLarge, 9, LmtReplacement::kSecondChance);
  CpuWork lookups;
  CpuWork insertions;
  uint64_t counter = tree.system_counter();
  for (uint32_t i = 0; i < 200; ++i) {
    tree.insert(13 * i, 5 * i + (i % 2) * 1000, 1 + i % 4, insertions);
    EXPECT_GT(tree.system_counter(), counter);
    counter = tree.system_counter();
    tree.lookup(13 * i + 1, lookups);
    EXPECT_GT(tree.system_counter(), counter);
    counter = tree.system_counter();
  }
  tree.relocate(0, 100000, 32, insertions);
  const TranslationCacheStats& s = tree.stats();
  EXPECT_EQ(s.insertions, 201u);
  EXPECT_EQ(s.lookups, 200u);
  EXPECT_EQ(s.hits, 150u);  // the units of size 1 miss at offset 1
  EXPECT_GT(lookups.tree_nodes, 0u);
  EXPECT_GT(insertions.tree_nodes, 0u);
  expect_same_work(s.lookup_work, lookups);
  expect_same_work(s.insertion_work, insertions);
}

}  // namespace
}  // namespace ssd::ftl
