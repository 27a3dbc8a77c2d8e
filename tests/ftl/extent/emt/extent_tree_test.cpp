// The red-black tree under EMT on its own: a million random operations against std::map with the
// red-black rules and the height bound checked periodically, node indices staying put across
// deletions, and the node-visit counting rule of docs/emt.md on small trees worked by hand and
// in closed form on large ones.
#include "ftl/extent/emt/extent_tree.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <map>
#include <stdexcept>
#include <vector>

#include "ftl/core/random.h"

namespace ssd::ftl {
namespace {

constexpr uint32_t kNil = ExtentTree::kNil;

// Nodes above `n` (0 for the root). Reads links directly: not counted.
uint32_t depth(const ExtentTree& t, uint32_t n) {
  uint32_t d = 0;
  while (t.parent(n) != kNil) {
    n = t.parent(n);
    ++d;
  }
  return d;
}

double rb_height_bound(uint32_t n) { return 2.0 * std::log2(double(n) + 1.0); }

TEST(ExtentTree, EmptyTreeAnswersNothingAndCountsNothing) {
  CpuWork cpu;
  ExtentTree t(cpu);
  EXPECT_EQ(t.find(5), kNil);
  EXPECT_EQ(t.bracket(5).at_or_below, kNil);
  EXPECT_EQ(t.bracket(5).above, kNil);
  EXPECT_EQ(t.first(), kNil);
  EXPECT_EQ(t.last(), kNil);
  EXPECT_EQ(t.size(), 0u);
  EXPECT_EQ(t.height(), 0u);
  EXPECT_EQ(t.check(), "");
  EXPECT_EQ(cpu.tree_nodes, 0u);
}

TEST(ExtentTree, DuplicateStartIsRefused) {
  CpuWork cpu;
  ExtentTree t(cpu);
  t.insert(10, 1, 0);
  EXPECT_THROW(t.insert(10, 2, 5), std::logic_error);
  EXPECT_EQ(t.size(), 1u);
  EXPECT_EQ(t.check(), "");
}

// Inserting 1, 2, 3 and erasing 2, counted by hand against the rule in docs/emt.md.
TEST(ExtentTree, CountsVisitsByTheDocumentedRule) {
  CpuWork cpu;
  ExtentTree t(cpu);
  t.insert(1, 1, 0);  // new node only
  EXPECT_EQ(cpu.tree_nodes, 1u);
  t.insert(2, 1, 0);  // compares 1, new node; parent black: no fix-up
  EXPECT_EQ(cpu.tree_nodes, 3u);
  // Compares 1 and 2, new node; fix-up: uncle is nil (not counted), one left rotation at 1 that
  // hands across nothing.
  t.insert(3, 1, 0);
  EXPECT_EQ(cpu.tree_nodes, 6u);
  ASSERT_EQ(t.start(t.root()), 2u);
  EXPECT_EQ(t.check(), "");

  cpu.clear();
  EXPECT_EQ(t.find(3), t.right(t.root()));  // 2, 3
  EXPECT_EQ(cpu.tree_nodes, 2u);
  cpu.clear();
  const ExtentTree::Bracket b = t.bracket(2);  // 2, 3 (a key + 0.001 search goes on to a leaf)
  EXPECT_EQ(t.start(b.at_or_below), 2u);
  EXPECT_EQ(t.start(b.above), 3u);
  EXPECT_EQ(cpu.tree_nodes, 2u);

  // Erase the root 2 (children 1 and 3, both red): no parent; the successor 3 is its right child
  // (1); 3 has no right child; 1's parent link is rewritten (1). The removed colour (3's) is red:
  // no fix-up.
  const uint32_t three = t.find(3);
  cpu.clear();
  t.erase(t.root());
  EXPECT_EQ(cpu.tree_nodes, 2u);
  EXPECT_EQ(t.size(), 2u);
  EXPECT_EQ(t.root(), three);  // node 3 moved into the root's place and kept its index
  EXPECT_EQ(t.check(), "");
  // find: 3, 1 (2); erase: its parent 3 (1); a red leaf has no child to move and needs no fix-up.
  cpu.clear();
  t.erase(t.find(1));
  EXPECT_EQ(cpu.tree_nodes, 3u);
  EXPECT_EQ(t.check(), "");
}

// Successor and predecessor count exactly the nodes they move through: down the left spine of
// the right subtree, or up to the first ancestor reached from its left; both are |depth change|
// (or the depth when walking off the root).
TEST(ExtentTree, NeighbourStepsCountTheNodesMovedThrough) {
  CpuWork cpu;
  ExtentTree t(cpu);
  Random rng(7);
  while (t.size() < 5000) {
    const Lun k = static_cast<Lun>(rng.below(1u << 20));
    if (t.bracket(k).at_or_below == kNil || t.start(t.bracket(k).at_or_below) != k) {
      t.insert(k, 1, 0);
    }
  }
  for (int i = 0; i < 20000; ++i) {
    const uint32_t n = t.bracket(static_cast<Lun>(rng.below(1u << 20))).at_or_below;
    if (n == kNil) continue;
    cpu.clear();
    const uint32_t s = t.successor(n);
    const uint64_t succ_visits = cpu.tree_nodes;
    cpu.clear();
    const uint32_t p = t.predecessor(n);
    const uint64_t pred_visits = cpu.tree_nodes;
    const auto expect = [&](uint32_t to) -> uint64_t {
      if (to == kNil) return depth(t, n);
      const uint32_t a = depth(t, n), b = depth(t, to);
      return a > b ? a - b : b - a;
    };
    ASSERT_EQ(succ_visits, expect(s));
    ASSERT_EQ(pred_visits, expect(p));
    // A search for key + 0.001 ends below whichever of its two answers is deeper.
    const Lun key = t.start(n);
    cpu.clear();
    const ExtentTree::Bracket b = t.bracket(key);
    ASSERT_EQ(b.at_or_below, n);
    ASSERT_EQ(b.above, s);
    const uint32_t deepest = std::max(depth(t, n), s == kNil ? 0u : depth(t, s));
    ASSERT_EQ(cpu.tree_nodes, deepest + 1);
    cpu.clear();
    ASSERT_EQ(t.find(key), n);
    ASSERT_EQ(cpu.tree_nodes, depth(t, n) + 1);
  }
}

// A million random operations on a key space small enough that inserts and erases balance out
// around 20,000 nodes, checked against std::map (key -> node index: indices must stay put).
TEST(ExtentTree, MillionRandomOperationsMatchStdMap) {
  CpuWork cpu;
  ExtentTree t(cpu);
  std::map<Lun, uint32_t> ref;
  Random rng(20240611);
  constexpr uint32_t kKeys = 1u << 17;
  constexpr int kOps = 1000000;
  uint32_t max_size = 0;
  for (int op = 0; op < kOps; ++op) {
    const Lun key = static_cast<Lun>(rng.below(kKeys));
    const uint32_t what = static_cast<uint32_t>(rng.below(100));
    if (what < 30) {  // insert
      if (ref.count(key)) continue;
      const uint32_t n = t.insert(key, key % 97 + 1, key ^ 0x5555u);
      ref.emplace(key, n);
    } else if (what < 55) {  // erase a present key (or miss)
      auto it = ref.lower_bound(key);
      if (it == ref.end()) continue;
      const uint32_t n = t.find(it->first);
      ASSERT_EQ(n, it->second);
      t.erase(n);
      ref.erase(it);
    } else if (what < 70) {  // search
      const uint32_t n = t.find(key);
      auto it = ref.find(key);
      ASSERT_EQ(n, it == ref.end() ? kNil : it->second);
    } else if (what < 90) {  // predecessor(key + 0.001) and the next node
      const ExtentTree::Bracket b = t.bracket(key);
      auto above = ref.upper_bound(key);
      ASSERT_EQ(b.above, above == ref.end() ? kNil : above->second);
      ASSERT_EQ(b.at_or_below, above == ref.begin() ? kNil : std::prev(above)->second);
    } else {  // successor / predecessor from a node in hand
      auto it = ref.lower_bound(key);
      if (it == ref.end()) continue;
      auto next = std::next(it);
      ASSERT_EQ(t.successor(it->second), next == ref.end() ? kNil : next->second);
      ASSERT_EQ(t.predecessor(it->second), it == ref.begin() ? kNil : std::prev(it)->second);
    }
    ASSERT_EQ(t.size(), ref.size());
    max_size = std::max<uint32_t>(max_size, t.size());
    if (op % 20000 == 0 || op == kOps - 1) {
      ASSERT_EQ(t.check(), "") << "after operation " << op;
      ASSERT_LE(t.height(), rb_height_bound(t.size())) << "after operation " << op;
      // Every node still holds its own key and data.
      for (const auto& [k, n] : ref) {
        ASSERT_EQ(t.start(n), k);
        ASSERT_EQ(t.length(n), k % 97 + 1);
        ASSERT_EQ(t.slot(n), k ^ 0x5555u);
      }
    }
  }
  EXPECT_GT(max_size, 15000u);
  // Every operation is logarithmic: on average well under a few heights of nodes.
  EXPECT_LT(double(cpu.tree_nodes) / kOps, 3.0 * rb_height_bound(max_size));
  // In order from first() to last().
  uint32_t n = t.first();
  for (const auto& entry : ref) {
    ASSERT_EQ(n, entry.second);
    n = t.successor(n);
  }
  EXPECT_EQ(n, kNil);
  EXPECT_EQ(t.last(), ref.empty() ? kNil : ref.rbegin()->second);
}

// Ascending and descending insertion (the unbalanced BST's worst case) and draining to empty.
TEST(ExtentTree, SortedInsertionsStayBalancedAndDrain) {
  CpuWork cpu;
  ExtentTree t(cpu);
  constexpr uint32_t kN = 100000;
  for (uint32_t k = 0; k < kN; ++k) t.insert(2 * k, 1, k);
  for (uint32_t k = kN; k-- > 0;) t.insert(2 * k + 1, 1, k);
  ASSERT_EQ(t.check(), "");
  EXPECT_LE(t.height(), rb_height_bound(t.size()));
  const uint64_t pool = t.size();
  // Erase every other node from the front, then the rest from the back.
  for (uint32_t k = 0; k < 2 * kN; k += 2) t.erase(t.find(k));
  ASSERT_EQ(t.check(), "");
  EXPECT_LE(t.height(), rb_height_bound(t.size()));
  while (t.size() > 0) t.erase(t.last());
  EXPECT_EQ(t.check(), "");
  EXPECT_EQ(t.root(), kNil);
  // Freed nodes are reused: refilling does not grow the pool past what it was.
  for (uint32_t k = 0; k < pool; ++k) {
    const uint32_t n = t.insert(k, 1, 0);
    ASSERT_LE(n, pool);
  }
  EXPECT_EQ(t.check(), "");
}

// append() (a start above every other, no descent) builds the very tree insert() builds: the
// same root, links, colours and node indices, through erases that remove the largest node and
// others, and a start that is not the largest (append() then inserts).
TEST(ExtentTree, AppendBuildsTheTreeInsertBuilds) {
  CpuWork cpu_a, cpu_b;
  ExtentTree appended(cpu_a), inserted(cpu_b);
  Random random(5);
  std::vector<uint32_t> nodes;
  Lun next = 1;
  for (int i = 0; i < 20000; ++i) {
    const uint64_t draw = random.below(100);
    if (draw < 8 && !nodes.empty()) {  // erase the largest node, or any
      const size_t at = draw < 4 ? nodes.size() - 1 : random.below(nodes.size());
      appended.erase(nodes[at]);
      inserted.erase(nodes[at]);
      nodes.erase(nodes.begin() + static_cast<std::ptrdiff_t>(at));
      continue;
    }
    // Mostly above every start; sometimes below the largest (a gap left by an erase, or new).
    Lun start = next;
    if (draw < 12 && next > 1) start = static_cast<Lun>(random.below(next));
    if (inserted.find(start) != kNil) continue;
    next = std::max(next, start + 1 + static_cast<Lun>(random.below(4)));
    const uint32_t a = appended.append(start, 1, start);
    const uint32_t b = inserted.insert(start, 1, start);
    ASSERT_EQ(a, b) << "step " << i;
    nodes.insert(std::upper_bound(
                     nodes.begin(), nodes.end(), a,
                     [&](uint32_t x, uint32_t y) { return inserted.start(x) < inserted.start(y); }),
                 a);
  }
  ASSERT_EQ(appended.size(), inserted.size());
  ASSERT_EQ(appended.root(), inserted.root());
  EXPECT_EQ(appended.check(), "");
  for (const uint32_t n : nodes) {
    ASSERT_EQ(appended.start(n), inserted.start(n));
    ASSERT_EQ(appended.left(n), inserted.left(n));
    ASSERT_EQ(appended.right(n), inserted.right(n));
    ASSERT_EQ(appended.parent(n), inserted.parent(n));
    ASSERT_EQ(appended.red(n), inserted.red(n));
  }
}

// Every node's links and colour, and the root, the same in both trees.
void expect_same_tree(const ExtentTree& a, const ExtentTree& b, uint32_t nodes) {
  ASSERT_EQ(a.size(), b.size());
  ASSERT_EQ(a.root(), b.root()) << nodes << " nodes";
  for (uint32_t n = 1; n <= nodes; ++n) {
    ASSERT_EQ(a.start(n), b.start(n)) << "node " << n << " of " << nodes;
    ASSERT_EQ(a.left(n), b.left(n)) << "node " << n << " of " << nodes;
    ASSERT_EQ(a.right(n), b.right(n)) << "node " << n << " of " << nodes;
    ASSERT_EQ(a.parent(n), b.parent(n)) << "node " << n << " of " << nodes;
    ASSERT_EQ(a.red(n), b.red(n)) << "node " << n << " of " << nodes;
  }
}

// Appends deferred and linked at once (link_ascending's closed form) build the tree append()
// builds one by one, for every count up to 3,000 and some up to a million, and count nothing.
TEST(ExtentTree, DeferredAppendsBuildTheTreeAppendsBuild) {
  CpuWork one_cpu;
  ExtentTree one_by_one(one_cpu);
  std::vector<uint32_t> counts;
  for (uint32_t n = 0; n <= 3000; ++n) counts.push_back(n);
  for (const uint32_t n : {4093u, 5118u, 10237u, 40958u, 65535u, 98301u, 655358u, 1000003u}) {
    counts.push_back(n);
  }
  uint32_t appended = 0;
  for (const uint32_t n : counts) {
    for (; appended < n; ++appended) one_by_one.append(3 * appended + 1, 2, appended);
    CpuWork cpu;
    ExtentTree deferred(cpu);
    deferred.begin_appends();
    for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(deferred.append(3 * i + 1, 2, i), i + 1);
    deferred.end_appends();
    EXPECT_EQ(cpu.tree_nodes, 0u);
    expect_same_tree(deferred, one_by_one, n);
    if (n % 500 == 0 || n > 3000) {
      ASSERT_EQ(deferred.check(), "") << n << " nodes";
    }
  }
  // After it, the tree is a tree like any other: appends and erases go on as on the other.
  CpuWork cpu;
  ExtentTree deferred(cpu);
  deferred.begin_appends();
  for (uint32_t i = 0; i < appended; ++i) deferred.append(3 * i + 1, 2, i);
  deferred.end_appends();
  for (uint32_t i = appended; i < appended + 100; ++i) {
    deferred.append(3 * i + 1, 2, i);
    one_by_one.append(3 * i + 1, 2, i);
  }
  deferred.erase(deferred.find(1));
  one_by_one.erase(one_by_one.find(1));
  EXPECT_EQ(deferred.last(), one_by_one.last());
  expect_same_tree(deferred, one_by_one, appended + 100);
}

// A tree that has held a node appends one by one (its freed nodes are reused out of start
// order), and a deferred append must be above the one before.
TEST(ExtentTree, DeferredAppendsNeedAFreshTreeAndRisingStarts) {
  CpuWork cpu_a, cpu_b;
  ExtentTree used(cpu_a), fresh(cpu_b);
  used.erase(used.insert(100, 1, 0));
  used.begin_appends();
  fresh.begin_appends();
  for (uint32_t i = 0; i < 50; ++i) {
    used.append(i + 1, 1, i);
    fresh.append(i + 1, 1, i);
  }
  EXPECT_EQ(used.check(), "");  // linked as it went
  EXPECT_GT(cpu_a.tree_nodes, 0u);
  used.end_appends();
  fresh.end_appends();
  EXPECT_EQ(used.check(), "");
  EXPECT_EQ(fresh.check(), "");
  EXPECT_EQ(used.height(), fresh.height());

  CpuWork cpu;
  ExtentTree tree(cpu);
  tree.begin_appends();
  tree.append(10, 1, 0);
  EXPECT_THROW(tree.append(10, 1, 1), std::logic_error);
  EXPECT_THROW(tree.append(3, 1, 1), std::logic_error);
}

}  // namespace
}  // namespace ssd::ftl
