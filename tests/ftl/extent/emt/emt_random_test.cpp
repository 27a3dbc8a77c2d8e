// EMT against the per-unit reference map (tests/ftl/extent/reference_extent_map.h) on random
// workloads of mixed extent sizes: every lookup and every displaced set must match the reference
// after merging runs, and the stored extents must stay disjoint, with the tree valid and balanced.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "ftl/core/random.h"
#include "ftl/extent/emt/emt_map.h"
#include "tests/ftl/extent/emt/extent_printing.h"
#include "tests/ftl/extent/reference_extent_map.h"

namespace ssd::ftl {
namespace {

using testing::merge_runs;
using testing::ReferenceExtentMap;

struct Workload {
  uint64_t logical_units;
  uint64_t slots;
  int operations;
  uint64_t seed;
};

// Mostly small requests, some medium, a few large ones, as block traces have.
uint32_t draw_length(Random& rng, uint64_t logical_units) {
  const uint64_t r = rng.below(100);
  uint64_t length;
  if (r < 60) {
    length = 1 + rng.below(8);
  } else if (r < 90) {
    length = 9 + rng.below(56);
  } else if (r < 99) {
    length = 65 + rng.below(448);
  } else {
    length = 513 + rng.below(3584);
  }
  return static_cast<uint32_t>(std::min<uint64_t>(length, logical_units));
}

// A start for `length` units: now and then flush against either end of the space.
Lun draw_start(Random& rng, uint64_t logical_units, uint32_t length) {
  const uint64_t r = rng.below(100);
  if (r == 0) return 0;
  if (r == 1) return static_cast<Lun>(logical_units - length);
  return static_cast<Lun>(rng.below(logical_units - length + 1));
}

void check_whole_map(EmtMap& map, const ReferenceExtentMap& ref, uint64_t logical_units, int op) {
  ASSERT_EQ(map.tree().check(), "") << "after operation " << op;
  ASSERT_LE(map.tree().height(), 2.0 * std::log2(double(map.nodes()) + 1.0));
  const std::vector<Extent> stored = map.extents();
  uint64_t previous_end = 0, units = 0;
  for (const Extent& e : stored) {
    ASSERT_GT(e.length, 0u);
    ASSERT_GE(e.lun, previous_end) << "stored extents overlap after operation " << op;
    previous_end = e.end();
    units += e.length;
  }
  ASSERT_LE(previous_end, logical_units);
  ASSERT_EQ(units, ref.mapped_units());
  ASSERT_EQ(merge_runs(stored), ref.lookup(0, static_cast<uint32_t>(logical_units)));
  ASSERT_EQ(map.pieces(), stored.size());
  ASSERT_EQ(map.nodes(), stored.size());
  ASSERT_EQ(map.memory_bytes(), EmtMap::kRootBytes + stored.size() * map.node_bytes());
}

// Half inserts, a tenth trims, the rest lookups (of a range, or of one unit through slot_of).
void run(const Workload& w) {
  CpuWork cpu;
  EmtMap map({w.logical_units, w.slots}, cpu);
  ReferenceExtentMap ref;
  Random rng(w.seed);
  std::vector<Extent> out;
  uint64_t max_nodes = 0;
  for (int op = 0; op < w.operations; ++op) {
    const uint64_t kind = rng.below(100);
    const uint32_t length = draw_length(rng, w.logical_units);
    const Lun lun = draw_start(rng, w.logical_units, length);
    out.clear();
    if (kind < 50) {
      const Extent e{lun, length, static_cast<SlotId>(rng.below(w.slots - length + 1))};
      const std::vector<Extent> expected = ref.lookup(lun, length);
      ASSERT_EQ(map.insert(e, out), 1u);
      ref.insert(e);
      ASSERT_EQ(merge_runs(out), expected) << "displaced by insert at operation " << op;
      ASSERT_EQ(map.slot_of(lun + length - 1), e.slot + length - 1);
    } else if (kind < 60) {
      const std::vector<Extent> expected = ref.lookup(lun, length);
      map.erase(lun, length, out);
      ref.erase(lun, length);
      ASSERT_EQ(merge_runs(out), expected) << "displaced by erase at operation " << op;
    } else if (kind < 90) {
      map.lookup(lun, length, out);
      ASSERT_EQ(merge_runs(out), ref.lookup(lun, length)) << "lookup at operation " << op;
    } else {
      const std::vector<Extent> expected = ref.lookup(lun, 1);
      ASSERT_EQ(map.slot_of(lun), expected.empty() ? kNone : expected[0].slot) << op;
    }
    // Answers are ascending, disjoint and inside the range, whatever the kind.
    uint64_t previous_end = lun;
    for (const Extent& e : out) {
      ASSERT_GE(e.lun, previous_end);
      ASSERT_GT(e.length, 0u);
      previous_end = e.end();
    }
    ASSERT_LE(previous_end, uint64_t{lun} + length);
    max_nodes = std::max<uint64_t>(max_nodes, map.nodes());
    if (op % 5000 == 0 || op == w.operations - 1) {
      check_whole_map(map, ref, w.logical_units, op);
      if (::testing::Test::HasFatalFailure()) return;
    }
  }
  // Logarithmic work: per operation, a few tree heights at most on average.
  const double height_bound = 2.0 * std::log2(double(max_nodes) + 1.0);
  ::testing::Test::RecordProperty("tree_nodes_per_operation",
                                  std::to_string(double(cpu.tree_nodes) / w.operations));
  ::testing::Test::RecordProperty("max_nodes", std::to_string(max_nodes));
  EXPECT_LT(double(cpu.tree_nodes) / w.operations, 4.0 * height_bound);
  EXPECT_GT(max_nodes, 50u);
}

// A small space: nearly every write overlaps several extents and splits some.
TEST(EmtRandom, SmallSpaceHeavyOverlap) { run({4096, 1u << 16, 400000, 1}); }

// A larger space where extents accumulate (thousands of nodes).
TEST(EmtRandom, LargerSpaceManyExtents) { run({1u << 16, 1u << 20, 400000, 2}); }

// A space of 2^20 units, so the tree grows deep before overwrites catch up.
TEST(EmtRandom, WideSpaceDeepTree) { run({1u << 20, 1u << 22, 250000, 3}); }

}  // namespace
}  // namespace ssd::ftl
