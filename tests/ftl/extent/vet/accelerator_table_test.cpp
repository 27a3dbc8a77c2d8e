// VET's node table on the hash-lookup accelerator (ftl/extent/vet/accelerator_table.h), on the
// engine's reference model: entries the engine refuses live in the software overflow table and
// every operation sees both places; the same answers as a software table on random operations; each
// command counted with its latency; the multi-level lookup used for one-address searches,
// trusted only when it ends on a leaf.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <stdexcept>
#include <vector>

#include "ftl/core/random.h"
#include "ftl/extent/vet/accelerator_table.h"
#include "ftl/extent/vet/chaining_table.h"
#include "ftl/extent/vet/vet_map.h"
#include "rtl/model/vet_hash_model.h"
#include "tests/ftl/extent/vet/vet_test_support.h"

namespace ssd::ftl {
namespace {

using Entries = std::map<uint64_t, std::tuple<uint32_t, uint32_t, uint32_t>>;

Entries entries_of(const NodeTable& table) {
  Entries out;
  table.for_each([&](uint64_t key, const NodeValue& v) { out[key] = {v.w0, v.w1, v.w2}; });
  return out;
}

NodeValue leaf(uint32_t n) { return NodeValue{n, n + 1, n + 2}; }

// 2 buckets x 1 way: at most two keys fit, the rest overflow.
TEST(AcceleratorTable, KeepsWhatTheEngineRefusesInSoftware) {
  CpuWork cpu;
  rtl::HashEngineModel engine({1, 1});
  AcceleratorTable table(engine, cpu);
  for (uint32_t k = 1; k <= 10; ++k) table.insert(uint64_t{k} << 6, leaf(k));
  EXPECT_EQ(table.size(), 10u);
  EXPECT_LE(table.engine_entries(), 2u);
  EXPECT_EQ(table.engine_entries(), engine.size());
  EXPECT_EQ(table.overflow_entries(), 10u - table.engine_entries());
  EXPECT_EQ(table.overflows(), table.overflow_entries());
  for (uint32_t k = 1; k <= 10; ++k) {
    NodeValue v;
    ASSERT_TRUE(table.find(uint64_t{k} << 6, v)) << k;
    EXPECT_EQ(v, leaf(k));
    table.update(uint64_t{k} << 6, leaf(k + 100));
  }
  EXPECT_EQ(entries_of(table).size(), 10u);
  for (uint32_t k = 1; k <= 10; ++k) {
    NodeValue v;
    ASSERT_TRUE(table.find(uint64_t{k} << 6, v));
    EXPECT_EQ(v, leaf(k + 100));
    EXPECT_TRUE(table.erase(uint64_t{k} << 6));
    EXPECT_FALSE(table.erase(uint64_t{k} << 6));
  }
  EXPECT_EQ(table.size(), 0u);
  EXPECT_EQ(engine.size(), 0u);
}

// Every command is counted with the engine's latency (3 cycles for one key); the software table
// is probed only when it holds something; adjust_count is a read, then a write.
TEST(AcceleratorTable, CountsCommandsAndCycles) {
  CpuWork cpu;
  rtl::HashEngineModel engine({10, 4});
  AcceleratorTable table(engine, cpu);
  NodeValue v;
  EXPECT_FALSE(table.find(64, v));
  EXPECT_EQ(cpu.accelerator_commands, 1u);
  EXPECT_EQ(cpu.accelerator_cycles, rtl::HashEngineModel::kPipelineCycles);
  EXPECT_EQ(cpu.hash_probes, 0u);

  cpu.clear();
  EXPECT_EQ(table.adjust_count(64, +1), 1u);  // FIND (absent), INSERT
  EXPECT_EQ(table.adjust_count(64, +2), 3u);  // FIND, UPDATE
  EXPECT_EQ(table.adjust_count(64, -3), 0u);  // FIND, DELETE
  EXPECT_EQ(cpu.accelerator_commands, 6u);
  EXPECT_EQ(cpu.accelerator_cycles, 6u * rtl::HashEngineModel::kPipelineCycles);
  EXPECT_EQ(table.size(), 0u);

  // With something in the overflow table, an engine miss also probes it.
  rtl::HashEngineModel tiny({1, 1});
  CpuWork cpu2;
  AcceleratorTable small(tiny, cpu2);
  for (uint32_t k = 1; k <= 4; ++k) small.insert(uint64_t{k} << 6, leaf(k));
  ASSERT_GT(small.overflow_entries(), 0u);
  cpu2.clear();
  EXPECT_FALSE(small.find(uint64_t{99} << 6, v));
  EXPECT_EQ(cpu2.accelerator_commands, 1u);
  EXPECT_GE(cpu2.hash_probes, 1u);
}

// Internal counts kept in the overflow table go up and down there; at 0 the entry goes.
TEST(AcceleratorTable, CountsLiveWhereTheirEntryLives) {
  CpuWork cpu;
  rtl::HashEngineModel engine({1, 1});
  AcceleratorTable table(engine, cpu);
  for (uint32_t k = 1; k <= 6; ++k) EXPECT_EQ(table.adjust_count(uint64_t{k} << 6, +2), 2u);
  ASSERT_GT(table.overflow_entries(), 0u);
  for (uint32_t k = 1; k <= 6; ++k) EXPECT_EQ(table.adjust_count(uint64_t{k} << 6, +1), 3u);
  for (uint32_t k = 1; k <= 6; ++k) EXPECT_EQ(table.adjust_count(uint64_t{k} << 6, -3), 0u);
  EXPECT_EQ(table.size(), 0u);
  EXPECT_EQ(table.overflow_entries(), 0u);
}

TEST(AcceleratorTable, RefusesWhatTheTrieNeverDoes) {
  CpuWork cpu;
  rtl::HashEngineModel engine({4, 2});
  AcceleratorTable table(engine, cpu);
  EXPECT_THROW(table.update(64, leaf(1)), std::logic_error);
  EXPECT_THROW(table.adjust_count(64, -1), std::logic_error);
  table.insert(64, leaf(1));
  EXPECT_THROW(table.insert(64, leaf(2)), std::logic_error);
  EXPECT_THROW(table.adjust_count(64, +1), std::logic_error);  // a leaf has no count
  table.adjust_count(128, +1);
  EXPECT_THROW(table.adjust_count(128, -2), std::logic_error);
}

// The engine's whole table as built, plus the overflow table.
TEST(AcceleratorTable, MemoryIsTheEngineTablePlusTheOverflow) {
  CpuWork cpu, software_cpu;
  rtl::HashEngineModel engine({2, 1});
  AcceleratorTable table(engine, cpu);
  ChainingTable software(software_cpu);
  const uint64_t slots = 4;
  EXPECT_EQ(table.memory_bytes(12),
            slots * AcceleratorTable::kSlotBytes + 1 + software.memory_bytes(12));
  for (uint32_t k = 1; k <= 20; ++k) table.insert(uint64_t{k} << 6, leaf(k));
  ASSERT_GE(table.overflow_entries(), 16u);
  // A software table of as many entries has the overflow table's size (growth depends on count).
  for (uint64_t k = 0; k < table.overflow_entries(); ++k) software.insert(k << 6, leaf(1));
  EXPECT_EQ(table.memory_bytes(12),
            slots * AcceleratorTable::kSlotBytes + 1 + software.memory_bytes(12));
}

// The same operations on the accelerator table (a small engine: many overflows) and on a
// software chaining table give the same answers and leave the same entries.
TEST(AcceleratorTable, AnswersLikeASoftwareTable) {
  CpuWork cpu, software_cpu;
  rtl::HashEngineModel engine({4, 3});
  AcceleratorTable table(engine, cpu);
  ChainingTable software(software_cpu);
  Random rng(0xacce1);
  std::vector<uint64_t> present;
  for (int i = 0; i < 200000; ++i) {
    const uint64_t r = rng.below(100);
    const uint64_t fresh = (rng.below(4000) << 6) | rng.below(20);
    const bool have = !present.empty();
    const uint64_t old = have ? present[rng.below(present.size())] : 0;
    NodeValue a, b;
    if (r < 30) {
      const bool in_a = table.find(fresh, a), in_b = software.find(fresh, b);
      ASSERT_EQ(in_a, in_b) << i;
      if (in_a) {
        ASSERT_EQ(a, b);
      } else {
        table.insert(fresh, leaf(uint32_t(i)));
        software.insert(fresh, leaf(uint32_t(i)));
        present.push_back(fresh);
      }
    } else if (r < 50 && have) {
      ASSERT_TRUE(table.find(old, a));
      ASSERT_TRUE(software.find(old, b));
      ASSERT_EQ(a, b) << i;
      if (a.w1 != 0) {
        table.update(old, leaf(uint32_t(i)));
        software.update(old, leaf(uint32_t(i)));
      }
    } else if (r < 65 && have) {
      ASSERT_EQ(table.erase(old), software.erase(old)) << i;
      present.erase(std::find(present.begin(), present.end(), old));
    } else if (r < 90) {
      // Counts on keys that are internal nodes or absent.
      const uint64_t key = (rng.below(4000) << 6) | 20 | rng.below(8);
      NodeValue v;
      const bool known = software.find(key, v);
      const int32_t delta = known ? (rng.below(2) ? 1 : -int32_t(v.w0)) : 1 + int32_t(rng.below(3));
      ASSERT_EQ(table.adjust_count(key, delta), software.adjust_count(key, delta)) << i;
      auto it = std::find(present.begin(), present.end(), key);
      const bool now = software.find(key, v);
      if (now && it == present.end()) present.push_back(key);
      if (!now && it != present.end()) present.erase(it);
    } else {
      ASSERT_EQ(table.find(fresh, a), software.find(fresh, b)) << i;
    }
    ASSERT_EQ(table.size(), software.size()) << i;
  }
  EXPECT_EQ(entries_of(table), entries_of(software));
  EXPECT_GT(table.overflows(), 0u);
  EXPECT_GT(table.engine_entries(), 0u);
}

// A one-unit search is one MLOOKUP, whether a leaf holds the unit or not, as long as the engine
// holds the whole trie; once some nodes live in software, a miss is searched again probe by probe.
TEST(AcceleratorTable, OneAddressSearchesUseTheMultiLevelLookup) {
  CpuWork cpu;
  VetMap map(ExtentSpace{1 << 16, 1 << 20}, vet_test::on_reference_engine(VetOptions{}, {10, 4}),
             cpu);
  std::vector<Extent> displaced, found;
  map.insert(Extent{1000, 24, 5000}, displaced);
  cpu.clear();
  EXPECT_EQ(map.slot_of(1010), 5010u);
  EXPECT_EQ(cpu.accelerator_commands, 1u);
  EXPECT_EQ(cpu.hash_probes, 0u);
  cpu.clear();
  EXPECT_EQ(map.slot_of(30000), kNone);
  EXPECT_EQ(cpu.accelerator_commands, 1u);
  cpu.clear();
  map.lookup(30000, 1, found);
  EXPECT_TRUE(found.empty());
  EXPECT_EQ(cpu.accelerator_commands, 1u);

  CpuWork tiny_cpu;
  // Two slots: most of the trie overflows to software.
  VetMap tiny(ExtentSpace{1 << 16, 1 << 20}, vet_test::on_reference_engine(VetOptions{}, {1, 1}),
              tiny_cpu);
  tiny.insert(Extent{1000, 24, 5000}, displaced);
  tiny_cpu.clear();
  EXPECT_EQ(tiny.slot_of(30000), kNone);
  EXPECT_GT(tiny_cpu.accelerator_commands, 1u);
}

// When the leaf's search path partly overflowed to software, MLOOKUP may miss it; the search
// then falls back to probing level by level and still finds it.
TEST(AcceleratorTable, SearchesFindLeavesWhosePathOverflowed) {
  CpuWork cpu, software_cpu;
  // Two slots: nearly everything overflows.
  VetMap map(ExtentSpace{1 << 12, 1 << 20}, vet_test::on_reference_engine(VetOptions{}, {1, 1}),
             cpu);
  VetMap software(ExtentSpace{1 << 12, 1 << 20}, VetOptions{}, software_cpu);
  std::vector<Extent> displaced;
  Random rng(5);
  for (int i = 0; i < 300; ++i) {
    const Lun lun = static_cast<Lun>(rng.below(4000));
    const uint32_t length = 1 + static_cast<uint32_t>(rng.below(60));
    map.insert(Extent{lun, length, SlotId(i * 64)}, displaced);
    software.insert(Extent{lun, length, SlotId(i * 64)}, displaced);
  }
  for (Lun u = 0; u < 4096; ++u) ASSERT_EQ(map.slot_of(u), software.slot_of(u)) << u;
  EXPECT_EQ(map.check(), "");
}

}  // namespace
}  // namespace ssd::ftl
