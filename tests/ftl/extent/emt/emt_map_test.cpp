// EMT on worked cases: Fig. 7 of the paper, each departure from the printed Algorithms 4 and 5
// (docs/emt.md), the edges of the address space, empty maps and unmapped ranges, the memory
// layout and what a lookup costs.
#include "ftl/extent/emt/emt_map.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

#include "ftl/core/memory_sizes.h"
#include "tests/ftl/extent/emt/extent_printing.h"

namespace ssd::ftl {
namespace {

using Extents = std::vector<Extent>;

struct Emt {
  explicit Emt(uint64_t logical_units = 256, uint64_t slots = 4096)
      : map({logical_units, slots}, cpu) {}
  Extents insert(Extent e) {
    Extents displaced;
    EXPECT_EQ(map.insert(e, displaced), 1u);
    EXPECT_EQ(map.tree().check(), "");
    return displaced;
  }
  Extents erase(Lun lun, uint32_t length) {
    Extents displaced;
    map.erase(lun, length, displaced);
    EXPECT_EQ(map.tree().check(), "");
    return displaced;
  }
  Extents lookup(Lun lun, uint32_t length) {
    Extents found;
    map.lookup(lun, length, found);
    return found;
  }
  CpuWork cpu;
  EmtMap map;
};

// Fig. 7, in Fig. 2's 8-bit universe (256 units). Fig. 2's canonical extents give
//   e1 = {<0*******>, <1000****>} = [0, 128) + [128, 144)  = <0, 144>
//   e2 = {<11001***>, <11010***>} = [200, 208) + [208, 216) = <200, 16>
//   e3 = {<111*****>}              = [224, 256)              = <224, 32>
// (the transcribed strings lost some '*'; these are the 8-bit readings). e7 = <80, 160> covers
// [80, 240):
//   e1 [0, 144) overlaps it in [80, 144): e1' = [0, 80) = <0, 80> is left;
//   e2 [200, 216) lies inside it: evicted;
//   e3 [224, 256) overlaps it in [224, 240): e3' = [240, 256) = <240, 16> is left, its slots
//   starting 16 after e3's.
// So the nodes after are e1' <0, 80>, e7 <80, 160>, e3' <240, 16>, as Fig. 7(b) draws them.
TEST(EmtMap, Figure7NewExtentOverThreeStoredOnes) {
  Emt t;
  const Extent e1{0, 144, 1000}, e2{200, 16, 2000}, e3{224, 32, 3000}, e7{80, 160, 500};
  t.insert(e1);
  t.insert(e2);
  t.insert(e3);
  ASSERT_EQ(t.map.extents(), (Extents{e1, e2, e3}));

  const Extents displaced = t.insert(e7);
  EXPECT_EQ(displaced, (Extents{{80, 64, 1080}, {200, 16, 2000}, {224, 16, 3000}}));
  EXPECT_EQ(t.map.extents(), (Extents{{0, 80, 1000}, e7, {240, 16, 3016}}));
  EXPECT_EQ(t.map.nodes(), 3u);
  EXPECT_EQ(t.map.pieces(), 3u);
  EXPECT_EQ(t.lookup(0, 256), (Extents{{0, 80, 1000}, e7, {240, 16, 3016}}));
}

TEST(EmtMap, InsertExactlyOverAnExtentReplacesIt) {
  Emt t;
  t.insert({10, 5, 100});
  EXPECT_EQ(t.insert({10, 5, 200}), (Extents{{10, 5, 100}}));
  EXPECT_EQ(t.map.extents(), (Extents{{10, 5, 200}}));
}

TEST(EmtMap, InsertInsideAnExtentSplitsItIntoThree) {
  Emt t;
  t.insert({0, 100, 1000});
  EXPECT_EQ(t.insert({40, 10, 3000}), (Extents{{40, 10, 1040}}));
  EXPECT_EQ(t.map.extents(), (Extents{{0, 40, 1000}, {40, 10, 3000}, {50, 50, 1050}}));
}

// Printed Algorithm 4 deletes the predecessor found at line 2 even when it ends before the
// write; here it ends exactly where the write starts and must survive (departure 1), as must
// the neighbour that starts exactly where the write ends.
TEST(EmtMap, TouchingNeighboursAreNotDisturbed) {
  Emt t;
  t.insert({0, 10, 100});
  t.insert({20, 10, 300});
  EXPECT_EQ(t.insert({10, 10, 200}), Extents{});
  EXPECT_EQ(t.map.extents(), (Extents{{0, 10, 100}, {10, 10, 200}, {20, 10, 300}}));
  // A predecessor well before the write, with a gap.
  Emt u;
  u.insert({0, 4, 100});
  EXPECT_EQ(u.insert({10, 4, 200}), Extents{});
  EXPECT_EQ(u.map.extents(), (Extents{{0, 4, 100}, {10, 4, 200}}));
}

// Printed line 4 (s_n < s_t + l_t - 1) misses an extent whose last unit is the write's first,
// and line 5 would keep that unit (departure 3).
TEST(EmtMap, WriteStartingOnAnExtentsLastUnit) {
  Emt t;
  t.insert({0, 10, 100});
  EXPECT_EQ(t.insert({9, 5, 500}), (Extents{{9, 1, 109}}));
  EXPECT_EQ(t.map.extents(), (Extents{{0, 9, 100}, {9, 5, 500}}));
}

// Printed line 7 (s_t < s_n + l_n - 1) misses an extent starting at the write's last unit.
TEST(EmtMap, WriteEndingOnAnExtentsFirstUnit) {
  Emt t;
  t.insert({20, 10, 200});
  t.insert({0, 5, 100});  // a predecessor that does not reach the write
  EXPECT_EQ(t.insert({15, 6, 500}), (Extents{{20, 1, 200}}));
  EXPECT_EQ(t.map.extents(), (Extents{{0, 5, 100}, {15, 6, 500}, {21, 9, 201}}));
}

// No extent starts at or before the write: the printed loop would not run (departure 2).
TEST(EmtMap, WriteWithNoPredecessorStillDisplaces) {
  Emt t;
  t.insert({10, 10, 100});
  t.insert({30, 5, 300});
  EXPECT_EQ(t.insert({5, 28, 900}), (Extents{{10, 10, 100}, {30, 3, 300}}));
  EXPECT_EQ(t.map.extents(), (Extents{{5, 28, 900}, {33, 2, 303}}));
}

TEST(EmtMap, WriteOverManyExtentsWithHolesBetween) {
  Emt t;
  for (Lun s = 0; s < 200; s += 10) t.insert({s, 5, 1000 + s});
  const Extents displaced = t.insert({12, 170, 3000});  // [12, 182)
  Extents expected{{12, 3, 1012}};
  for (Lun s = 20; s < 180; s += 10) expected.push_back({s, 5, 1000 + s});
  expected.push_back({180, 2, 1180});
  EXPECT_EQ(displaced, expected);
  EXPECT_EQ(
      t.map.extents(),
      (Extents{{0, 5, 1000}, {10, 2, 1010}, {12, 170, 3000}, {182, 3, 1182}, {190, 5, 1190}}));
}

TEST(EmtMap, FirstAndLastUnitsOfTheSpace) {
  Emt t(256);
  t.insert({0, 1, 10});
  t.insert({255, 1, 20});
  EXPECT_EQ(t.lookup(0, 256), (Extents{{0, 1, 10}, {255, 1, 20}}));
  EXPECT_EQ(t.map.slot_of(0), 10u);
  EXPECT_EQ(t.map.slot_of(255), 20u);
  EXPECT_EQ(t.map.slot_of(254), kNone);
  EXPECT_EQ(t.insert({250, 6, 30}), (Extents{{255, 1, 20}}));
  EXPECT_EQ(t.insert({0, 256, 1000}), (Extents{{0, 1, 10}, {250, 6, 30}}));
  EXPECT_EQ(t.map.extents(), (Extents{{0, 256, 1000}}));
  Extents ignored;
  EXPECT_THROW(t.map.insert({250, 7, 0}, ignored), std::out_of_range);
  EXPECT_THROW(t.map.lookup(256, 1, ignored), std::out_of_range);
  EXPECT_THROW(t.map.insert({0, 10, 4090}, ignored), std::out_of_range);  // slots beyond the device
  EXPECT_EQ(t.map.extents(), (Extents{{0, 256, 1000}}));
}

TEST(EmtMap, EmptyMapLooksUpNothingForFree) {
  Emt t;
  EXPECT_EQ(t.lookup(0, 256), Extents{});
  EXPECT_EQ(t.map.slot_of(17), kNone);
  EXPECT_EQ(t.erase(0, 256), Extents{});
  EXPECT_EQ(t.cpu.tree_nodes, 0u);
  EXPECT_EQ(t.map.nodes(), 0u);
  EXPECT_EQ(t.map.memory_bytes(), EmtMap::kRootBytes);
}

TEST(EmtMap, EraseOfUnmappedRangesChangesNothing) {
  Emt t;
  t.insert({10, 10, 100});
  t.insert({40, 10, 400});
  EXPECT_EQ(t.erase(0, 10), Extents{});
  EXPECT_EQ(t.erase(20, 20), Extents{});
  EXPECT_EQ(t.erase(50, 206), Extents{});
  EXPECT_EQ(t.map.extents(), (Extents{{10, 10, 100}, {40, 10, 400}}));
  // Partly mapped: the overlapped parts go, the rest stays.
  EXPECT_EQ(t.erase(15, 30), (Extents{{15, 5, 105}, {40, 5, 400}}));
  EXPECT_EQ(t.map.extents(), (Extents{{10, 5, 100}, {45, 5, 405}}));
  // From inside one extent: split in two.
  EXPECT_EQ(t.erase(11, 2), (Extents{{11, 2, 101}}));
  EXPECT_EQ(t.map.extents(), (Extents{{10, 1, 100}, {13, 2, 103}, {45, 5, 405}}));
  EXPECT_EQ(t.erase(0, 256).size(), 3u);
  EXPECT_EQ(t.map.nodes(), 0u);
}

// Printed Algorithm 5 gives up at the first unmapped unit; we return every mapped part.
TEST(EmtMap, LookupAcrossHolesReturnsEveryMappedPart) {
  Emt t;
  t.insert({10, 10, 100});
  t.insert({30, 10, 300});
  t.insert({40, 5, 900});
  EXPECT_EQ(t.lookup(0, 100), (Extents{{10, 10, 100}, {30, 10, 300}, {40, 5, 900}}));
  EXPECT_EQ(t.lookup(15, 20), (Extents{{15, 5, 105}, {30, 5, 300}}));
  EXPECT_EQ(t.lookup(20, 10), Extents{});
  EXPECT_EQ(t.lookup(39, 2), (Extents{{39, 1, 309}, {40, 1, 900}}));
  EXPECT_EQ(t.map.slot_of(35), 305u);
  EXPECT_EQ(t.map.slot_of(25), kNone);
}

// A lookup inside one stored extent stops at it (line 6 of Algorithm 5) without visiting its
// successor; slot_of costs exactly a one-unit lookup.
TEST(EmtMap, LookupCostsTheDescentPlusTheSuccessorsWalked) {
  Emt t(1u << 16, 1u << 16);
  Extents d;
  for (Lun s = 0; s < 60000; s += 7) t.map.insert({s, 5, s}, d);
  ASSERT_TRUE(d.empty());
  ASSERT_EQ(t.map.tree().check(), "");
  for (Lun u = 0; u < 60000; u += 13) {
    t.cpu.clear();
    const SlotId slot = t.map.slot_of(u);
    const uint64_t one = t.cpu.tree_nodes;
    EXPECT_EQ(slot, u % 7 < 5 ? SlotId{u} : kNone);
    t.cpu.clear();
    t.lookup(u, 1);
    EXPECT_EQ(t.cpu.tree_nodes, one);
    EXPECT_LE(one, t.map.tree().height());
    EXPECT_GE(one, 1u);
  }
  // A lookup spanning k extents walks k - 1 successors after the descent.
  t.cpu.clear();
  EXPECT_EQ(t.lookup(700, 70).size(), 10u);
  EXPECT_LE(t.cpu.tree_nodes, t.map.tree().height() + 9 * 2 * t.map.tree().height());
  EXPECT_GT(t.cpu.tree_nodes, 9u);
}

// node = start and length of bytes(logical_units + 1), first slot of bytes(slots), three 4-byte
// pointers, one colour byte; plus the 4-byte root pointer.
TEST(EmtMap, MemoryIsNodesTimesTheDocumentedLayout) {
  CpuWork cpu;
  EmtMap small({256, 4096}, cpu);  // 2 + 2 + 2 + 12 + 1
  EXPECT_EQ(small.node_bytes(), 19u);
  EmtMap big({1ull << 24, 1ull << 25}, cpu);  // bytes(2^24 + 1) = 4, bytes(2^25) = 4
  EXPECT_EQ(big.node_bytes(), 4u + 4u + 4u + 12u + 1u);
  EmtMap mid({1ull << 20, 3ull << 20}, cpu);  // 3 + 3 + 3 + 12 + 1
  EXPECT_EQ(mid.node_bytes(), 22u);
  std::vector<Extent> d;
  for (Lun s = 0; s < 1000; s += 10) mid.insert({s, 3, s}, d);
  EXPECT_EQ(mid.nodes(), 100u);
  EXPECT_EQ(mid.memory_bytes(), 4u + 100u * 22u);
  EXPECT_EQ(bytes_to_name((1ull << 24) + 1), 4u);
}

TEST(EmtMap, RejectsASpaceWhoseEndsDoNotFit) {
  CpuWork cpu;
  EXPECT_THROW(EmtMap({0, 16}, cpu), std::invalid_argument);
  EXPECT_THROW(EmtMap({1ull << 32, 16}, cpu), std::invalid_argument);
  EXPECT_NO_THROW(EmtMap({(1ull << 32) - 1, 16}, cpu));
}

TEST(EmtMap, ZeroLengthRequestsDoNothing) {
  Emt t;
  t.insert({5, 5, 5});
  Extents d;
  EXPECT_EQ(t.map.insert({7, 0, 0}, d), 0u);
  t.map.erase(7, 0, d);
  t.map.lookup(7, 0, d);
  EXPECT_TRUE(d.empty());
  EXPECT_EQ(t.map.extents(), (Extents{{5, 5, 5}}));
}

}  // namespace
}  // namespace ssd::ftl
