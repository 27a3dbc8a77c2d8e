// What the variants share and where they differ: identical translations (LIS vs BIS, PD vs PF,
// chaining vs cuckoo, software vs accelerator) piece by piece on one workload; BIS storing fewer
// nodes than LIS (Table 2's direction); the memory figure following the documented layout; the
// cost of a one-unit search being the plain binary search; PD records whose one-byte count fills
// up; bad arguments.
#include <gtest/gtest.h>

#include <memory>

#include "ftl/extent/vet/chaining_table.h"
#include "ftl/extent/vet/cuckoo_table.h"
#include "tests/ftl/extent/reference_extent_map.h"
#include "tests/ftl/extent/vet/vet_test_support.h"

namespace ssd::ftl {
namespace {

using vet_test::key_of;
using vet_test::Op;
using vet_test::variant_name;

struct Fleet {
  explicit Fleet(uint64_t logical_units) {
    variants = vet_test::all_variants();
    for (const VetOptions& o : vet_test::accelerator_variants()) variants.push_back(o);
    cpu.resize(variants.size());
    for (size_t v = 0; v < variants.size(); ++v) {
      maps.push_back(
          std::make_unique<VetMap>(ExtentSpace{logical_units, 1u << 30}, variants[v], cpu[v]));
    }
  }
  std::vector<VetOptions> variants;
  std::vector<CpuWork> cpu;
  std::vector<std::unique_ptr<VetMap>> maps;
};

// All eight variants, and the accelerator backend in three sizes, on one workload: every answer
// (lookups, displaced sets, one-unit translations) identical piece by piece after every operation,
// the same pieces stored, the same node count within LIS and within BIS. Every 5000 operations the
// whole space is compared.
TEST(VetVariants, IdenticalTranslations) {
  const uint64_t units = 70001;
  Fleet fleet(units);
  vet_test::Workload workload(units, 0xabc);
  std::vector<Extent> first, out;
  for (int i = 1; i <= 150000; ++i) {
    const Op op = workload.next();
    SlotId first_slot = kNone;
    for (size_t v = 0; v < fleet.maps.size(); ++v) {
      VetMap& map = *fleet.maps[v];
      out.clear();
      if (op.kind == Op::kInsert) map.insert(Extent{op.lun, op.length, op.slot}, out);
      if (op.kind == Op::kErase) map.erase(op.lun, op.length, out);
      if (op.kind == Op::kLookup) map.lookup(op.lun, op.length, out);
      if (op.kind == Op::kSlotOf) {
        const SlotId slot = map.slot_of(op.lun);
        if (v == 0) first_slot = slot;
        ASSERT_EQ(slot, first_slot) << variant_name(fleet.variants[v]) << ", operation " << i;
      }
      if (v == 0) first = out;
      ASSERT_EQ(out, first) << variant_name(fleet.variants[v]) << ", operation " << i;
    }
    if (i % 5000 == 0) {
      for (size_t v = 0; v < fleet.maps.size(); ++v) {
        out.clear();
        fleet.maps[v]->lookup(0, uint32_t(units), out);
        if (v == 0) first = out;
        ASSERT_EQ(out, first) << variant_name(fleet.variants[v]) << ", operation " << i;
        ASSERT_EQ(fleet.maps[v]->pieces(), fleet.maps[0]->pieces());
        // Variants 0-3 are LIS, 4-7 BIS (all_variants order); the accelerator's follow.
        const bool lis = fleet.variants[v].insertion == VetInsertion::kLis;
        ASSERT_EQ(fleet.maps[v]->nodes(), fleet.maps[lis ? 0 : 4]->nodes());
      }
    }
  }
  for (const auto& map : fleet.maps) EXPECT_EQ(map->check(), "");
}

// BIS keeps only the internal nodes the binary search visits: never more nodes than LIS, and
// fewer bytes for the same layout and table (sec. 6.2.1, Table 2: BIS below LIS on every trace).
TEST(VetVariants, BisUsesFewerNodesThanLis) {
  for (uint64_t units : {uint64_t{4096}, uint64_t{70001}, uint64_t{1} << 24}) {
    CpuWork cpu_lis, cpu_bis;
    VetMap lis(ExtentSpace{units, 1u << 30}, VetOptions{VetInsertion::kLis}, cpu_lis);
    VetMap bis(ExtentSpace{units, 1u << 30}, VetOptions{VetInsertion::kBis}, cpu_bis);
    vet_test::Workload workload(units, 0x77);
    std::vector<Extent> out;
    for (int i = 1; i <= 30000; ++i) {
      const Op op = workload.next();
      if (op.kind != Op::kInsert) continue;
      lis.insert(Extent{op.lun, op.length, op.slot}, out);
      bis.insert(Extent{op.lun, op.length, op.slot}, out);
      ASSERT_LE(bis.nodes(), lis.nodes()) << "operation " << i;
    }
    EXPECT_EQ(bis.pieces(), lis.pieces());
    EXPECT_LT(bis.nodes(), lis.nodes()) << units;
    EXPECT_LT(bis.memory_bytes(), lis.memory_bytes()) << units;
    // Writes cost BIS fewer probes too (Table 3's direction).
    EXPECT_LT(cpu_bis.hash_probes, cpu_lis.hash_probes) << units;
  }
}

// The layout of vet_memory.h on Fig. 2's trie (256 units, 4096 slots): key ceil((8 + 4) / 8) = 2
// bytes, start and length bytes(257) = 2 each, slot bytes(4096) = 2. PF node 8 bytes; PD node
// 2 + 4 + 1 = 7 bytes and a record 2 + 2 + 2 + 1 = 7 bytes.
TEST(VetVariants, MemoryFollowsTheLayout) {
  const ExtentSpace space{256, 4096};
  for (const VetOptions& o : vet_test::all_variants()) {
    CpuWork cpu;
    VetMap map(space, o, cpu);
    std::vector<Extent> out;
    map.insert(Extent{0, 144, 1000}, out);
    map.insert(Extent{200, 16, 2000}, out);
    map.insert(Extent{224, 32, 3000}, out);
    const bool pf = o.layout == VetLayout::kPointerFree;
    EXPECT_EQ(map.layout().key_bytes, 2u);
    EXPECT_EQ(map.node_bytes(), pf ? 8u : 7u);
    EXPECT_EQ(map.layout().pd_record_bytes, 7u);
    const uint64_t records = pf ? 0 : 3 * 7;
    const uint64_t n = map.nodes();  // 13 (LIS) or 9 (BIS)
    if (o.hash == VetHash::kChaining) {
      // Entries: node + 4-byte hash + 4-byte next; 53 buckets of 4 bytes.
      EXPECT_EQ(map.memory_bytes(), n * (map.node_bytes() + 8) + 53 * 4 + records)
          << variant_name(o);
    } else {
      auto& cuckoo = dynamic_cast<CuckooTable&>(map.table());
      EXPECT_EQ(map.memory_bytes(), 2u * cuckoo.table_slots() * map.node_bytes() + records)
          << variant_name(o);
    }
  }
  // A 256 GiB device of 4 KiB units: B = 26, key ceil(31 / 8) = 4 bytes, units 4, slots 4.
  CpuWork cpu;
  VetMap big(ExtentSpace{uint64_t{1} << 26, (uint64_t{1} << 26) * 107 / 100}, VetOptions{}, cpu);
  EXPECT_EQ(big.universe_bits(), 26u);
  EXPECT_EQ(big.layout().key_bytes, 4u);
  EXPECT_EQ(big.layout().pf_node_bytes, 16u);
  EXPECT_EQ(big.layout().pd_node_bytes, 9u);
  EXPECT_EQ(big.layout().pd_record_bytes, 13u);
  EXPECT_EQ(big.memory_bytes(), 53u * 4);  // empty: the buckets
}

// A one-unit lookup costs what the plain binary search costs (decision 5), no more than
// ceil(log2(B + 2)) table operations; a lookup over a hole skips it without probing each unit.
TEST(VetVariants, SearchCost) {
  for (const VetOptions& o : vet_test::all_variants()) {
    const uint64_t units = 1u << 20;
    CpuWork cpu;
    VetMap map(ExtentSpace{units, 1u << 30}, o, cpu);
    std::vector<Extent> out;
    // An empty trie: a lookup of 65536 units costs a handful of probes (the first probe at depth
    // 10 covers 1024 units, and the absent run is searched once above it).
    uint64_t before = cpu.hash_probes;
    map.lookup(4096, 65536, out);
    EXPECT_TRUE(out.empty());
    EXPECT_LE(cpu.hash_probes - before, 2u * (64 + 8)) << variant_name(o);
    vet_test::Workload workload(units, 0x31);
    for (int i = 0; i < 20000; ++i) {
      const Op op = workload.next();
      if (op.kind == Op::kInsert) map.insert(Extent{op.lun, op.length, op.slot}, out);
    }
    Random rng(5);
    for (int i = 0; i < 2000; ++i) {
      const Lun lun = Lun(rng.below(units));
      before = cpu.hash_probes;
      const SlotId slot = map.slot_of(lun);
      const uint64_t binary = cpu.hash_probes - before;
      out.clear();
      before = cpu.hash_probes;
      map.lookup(lun, 1, out);
      ASSERT_EQ(cpu.hash_probes - before, binary) << variant_name(o);
      ASSERT_EQ(out.empty() ? kNone : out[0].slot, slot);
      ASSERT_LE(map.search_path(lun).size(), 5u);  // depths 0..20: ceil(log2(22))
    }
  }
}

// PD-VET: a record's count is one byte. One extent of 1024 units fragmented by 512 one-unit
// overwrites leaves far more than 255 leaves translating by it: the record is copied when full.
TEST(VetVariants, PdRecordCountStaysInItsByte) {
  for (VetHash hash : {VetHash::kChaining, VetHash::kCuckoo}) {
    CpuWork cpu;
    VetMap map(ExtentSpace{4096, 1u << 20},
               VetOptions{VetInsertion::kBis, VetLayout::kPointerDependent, hash}, cpu);
    testing::ReferenceExtentMap ref;
    std::vector<Extent> out;
    map.insert(Extent{1024, 1024, 5000}, out);
    ref.insert(Extent{1024, 1024, 5000});
    for (Lun u = 1025; u < 2048; u += 2) {
      map.insert(Extent{u, 1, 100000 + u}, out);
      ref.insert(Extent{u, 1, 100000 + u});
    }
    EXPECT_EQ(map.check(), "");
    EXPECT_GT(map.pieces(), 1000u);
    // 512 one-unit extents have a record each; the fragments of the big one need several.
    EXPECT_GE(map.records(), 512u + 3);
    out.clear();
    map.lookup(0, 4096, out);
    EXPECT_EQ(testing::merge_runs(out), ref.lookup(0, 4096));
  }
}

TEST(VetVariants, BadArguments) {
  CpuWork cpu;
  EXPECT_THROW(VetMap(ExtentSpace{0, 10}, VetOptions{}, cpu), std::invalid_argument);
  EXPECT_THROW(VetMap(ExtentSpace{(uint64_t{1} << 32) + 1, 10}, VetOptions{}, cpu),
               std::invalid_argument);
  VetMap map(ExtentSpace{100, 1000}, VetOptions{}, cpu);
  std::vector<Extent> out;
  EXPECT_THROW(map.insert(Extent{90, 11, 0}, out), std::out_of_range);
  EXPECT_THROW(map.lookup(100, 1, out), std::out_of_range);
  EXPECT_THROW(map.slot_of(100), std::out_of_range);
  EXPECT_THROW(map.erase(50, 51, out), std::out_of_range);
  EXPECT_THROW(map.insert(Extent{0, 1, kNone}, out), std::invalid_argument);
  EXPECT_EQ(map.insert(Extent{5, 0, 7}, out), 0u);  // empty: nothing
  map.lookup(5, 0, out);
  map.erase(5, 0, out);
  EXPECT_TRUE(out.empty());
  EXPECT_EQ(map.nodes(), 0u);
  // The whole universe as one extent (100 units in a 128-unit universe: 64 + 32 + 4).
  EXPECT_EQ(map.insert(Extent{0, 100, 0}, out), 3u);
  EXPECT_EQ(map.slot_of(99), 99u);
  EXPECT_EQ(map.check(), "");
}

// PD-VET follows a pointer per leaf it translates by: one table_lookups each; PF-VET does not.
TEST(VetVariants, PdCountsTheRecordAccess) {
  for (VetLayout layout : {VetLayout::kPointerDependent, VetLayout::kPointerFree}) {
    CpuWork cpu;
    VetMap map(ExtentSpace{256, 4096}, VetOptions{VetInsertion::kBis, layout}, cpu);
    std::vector<Extent> out;
    map.insert(Extent{0, 144, 1000}, out);
    const uint64_t before = cpu.table_lookups;
    map.lookup(0, 256, out);
    EXPECT_EQ(cpu.table_lookups - before, layout == VetLayout::kPointerDependent ? 2u : 0u);
  }
}

}  // namespace
}  // namespace ssd::ftl
