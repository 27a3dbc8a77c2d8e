// Mapping-table durability on flush (ftl.page.map_sync, ftl/page/map_sync.h), end to end through
// PageMapping on a small device, on hand-built cases: the conventional baseline writes every
// dirty segment to flash; nvram runs Algorithm 1 of shared/papers/nvram-mapping-table.md (full
// and dense segments to flash, sparse ones to NVRAM, the oldest copy evicted to flash for room, a
// copy dropped when its segment goes to flash); none writes no map. Also the order of a flush's
// operations (data first, the map behind a barrier) and the report's figures.
//
// The device: 512-byte mapping units (one sector, eight per page), 8-byte entries and one unit
// per segment, so a segment is 64 entries: sparse up to 16 dirty, dense from 17, full at 64; the
// map gets two segments of NVRAM.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "config/config_loader.h"
#include "ftl/core/ftl_device.h"
#include "ftl/page/map_sync.h"
#include "ftl/page/page_mapping.h"
#include "ftl/scheme_registry.h"
#include "tests/ftl/page/map_sync_platform.h"
#include "tests/ftl/scheme_workloads.h"

namespace ssd::ftl {
namespace {

using testing::figure_of;
using testing::map_sync_platform;
using testing::run_one;

class Rig {
 public:
  explicit Rig(const config::PlatformConfig& p)
      : platform(p), device(platform, FtlDeviceOptions{}) {
    // The platform passes the checks a real run makes.
    config::validate_platform(platform, "test", scheme_catalog());
  }

  const PageMapping& scheme() const { return dynamic_cast<const PageMapping&>(device.scheme()); }
  const MapSync& sync() const { return *scheme().map_sync(); }
  Lun logical() const { return device.geometry().logical_units; }

  void write(Lun first, uint32_t count) {
    const uint32_t spu = device.geometry().sectors_per_unit;
    run_one(device, CommandKind::kWrite, uint64_t(first) * spu, count * spu);
  }
  void trim(Lun first, uint32_t count) {
    const uint32_t spu = device.geometry().sectors_per_unit;
    run_one(device, CommandKind::kTrim, uint64_t(first) * spu, count * spu);
  }
  void flush() { run_one(device, CommandKind::kFlush, 0, 0); }

  double figure(const std::string& name) const { return figure_of(scheme(), name).value; }
  uint64_t map_units_on_flash() { return device.backend().written().of(OpClass::kMapping); }
  const std::vector<FlashOp>& ops() { return device.backend().ops().ops(); }
  std::vector<FlashOp> ops_of(OpKind kind, OpClass op_class) {
    std::vector<FlashOp> found;
    for (const FlashOp& op : ops()) {
      if (op.kind == kind && op.op_class == op_class) found.push_back(op);
    }
    return found;
  }
  // The keys the spare area of `page` names, up to the first padding slot.
  std::vector<Lun> keys_in(PageId page) {
    std::vector<Lun> keys;
    const uint32_t* spare = device.flash().spare(page);
    for (uint32_t u = 0; u < device.geometry().units_per_page && spare[u] != kNone; ++u) {
      keys.push_back(spare[u]);
    }
    return keys;
  }
  // The keys of every map page the last command programmed, in order.
  std::vector<Lun> map_keys_programmed() {
    std::vector<Lun> keys;
    for (const FlashOp& op : ops_of(OpKind::kProgram, OpClass::kMapping)) {
      for (Lun key : keys_in(op.page)) keys.push_back(key);
    }
    return keys;
  }

  config::PlatformConfig platform;
  FtlDevice device;
};

// Segment 0: 3 of 64 dirty (sparse); 5: one (sparse); 9: 41 (dense); 12: all 64 (full).
void dirty_four_segments(Rig& rig) {
  rig.write(0, 3);
  rig.write(5 * 64 + 10, 1);
  rig.write(9 * 64, 41);
  rig.write(12 * 64, 64);
}

TEST(MapSyncLayout, TheTestDeviceHasSixtyFourEntrySegmentsOfOneUnit) {
  Rig rig(map_sync_platform("nvram"));
  const MapLayout& m = rig.sync().layout();
  EXPECT_EQ(m.policy, MapSyncPolicy::kNvram);
  EXPECT_EQ(m.logical_units, 49152u);  // 8192 pages x 8 units x 0.75
  EXPECT_EQ(m.entry_bytes, 8u);
  EXPECT_EQ(m.table_bytes, 49152u * 8);
  EXPECT_EQ(m.segment_bytes, 512u);
  EXPECT_EQ(m.entries_per_segment, 64u);
  EXPECT_EQ(m.segments, 768u);
  EXPECT_EQ(m.units_per_segment, 1u);
  EXPECT_EQ(m.nvram_bytes, 1024u);
  EXPECT_EQ(m.nvram_segments, 2u);
  EXPECT_EQ(rig.sync().nvram().capacity(), 2u);
  EXPECT_EQ(rig.figure("nvram_segments"), 2.0);
  EXPECT_EQ(figure_of(rig.scheme(), "map_sync").text, "nvram");
  EXPECT_EQ(rig.scheme().mapping_memory_bytes(), m.table_bytes);  // the DRAM table, 8-byte entries
}

TEST(MapSyncConventional, EveryDirtySegmentGoesToFlashOnce) {
  Rig rig(map_sync_platform("conventional"));
  const Lun L = rig.logical();
  EXPECT_EQ(figure_of(rig.scheme(), "map_sync").text, "conventional");
  dirty_four_segments(rig);
  EXPECT_EQ(rig.sync().first_undurable(rig.scheme().table()), 0u);  // nothing durable yet
  rig.flush();
  EXPECT_EQ(rig.sync().first_undurable(rig.scheme().table()), kNone);
  EXPECT_EQ(rig.figure("syncs"), 1.0);
  EXPECT_EQ(rig.figure("sync_passes"), 1.0);
  EXPECT_EQ(rig.figure("sync_segments_sparse"), 2.0);
  EXPECT_EQ(rig.figure("sync_segments_dense"), 1.0);
  EXPECT_EQ(rig.figure("sync_segments_full"), 1.0);
  EXPECT_EQ(rig.figure("map_segments_to_flash"), 4.0);
  EXPECT_EQ(rig.figure("map_units_written"), 4.0);
  EXPECT_EQ(rig.figure("map_segments_to_flash_per_sync"), 4.0);
  EXPECT_EQ(rig.map_units_on_flash(), 4u * rig.sync().layout().units_per_segment);
  // Nothing to NVRAM.
  EXPECT_EQ(rig.figure("nvram_copies"), 0.0);
  EXPECT_EQ(rig.figure("nvram_evictions"), 0.0);
  EXPECT_EQ(rig.figure("nvram_segments"), 0.0);
  for (const FlashOp& op : rig.ops()) {
    EXPECT_NE(op.kind, OpKind::kNvramWrite);
    EXPECT_NE(op.kind, OpKind::kNvramRead);
  }
  // One list step per dirty segment.
  EXPECT_EQ(rig.device.backend().cpu_work().list_steps, 4u);
  // The map units are stored under keys beyond the logical units, in segment order.
  EXPECT_EQ(rig.map_keys_programmed(), (std::vector<Lun>{L + 0, L + 5, L + 9, L + 12}));

  // A second flush with no writes writes nothing.
  const uint64_t map_units = rig.map_units_on_flash();
  rig.flush();
  for (const FlashOp& op : rig.ops()) EXPECT_FALSE(is_flash_op(op.kind)) << int(op.kind);
  EXPECT_EQ(rig.map_units_on_flash(), map_units);
  EXPECT_EQ(rig.figure("syncs"), 2.0);
  EXPECT_EQ(rig.figure("map_segments_to_flash"), 4.0);
  EXPECT_EQ(rig.figure("map_segments_to_flash_per_sync"), 2.0);
}

TEST(MapSyncConventional, ARewrittenSegmentReplacesItsOldMapUnit) {
  Rig rig(map_sync_platform("conventional"));
  const Lun L = rig.logical();
  rig.write(0, 3);
  rig.flush();
  const std::vector<FlashOp> first = rig.ops_of(OpKind::kProgram, OpClass::kMapping);
  ASSERT_EQ(first.size(), 1u);
  const SlotId old_slot = rig.device.geometry().first_slot(first[0].page);
  EXPECT_TRUE(rig.sync().maps(L, old_slot));
  // A write and a trim in the same segment: one more segment write, the old unit garbage.
  rig.write(7, 1);
  rig.trim(1, 1);
  rig.flush();
  const std::vector<FlashOp> second = rig.ops_of(OpKind::kProgram, OpClass::kMapping);
  ASSERT_EQ(second.size(), 1u);
  const SlotId new_slot = rig.device.geometry().first_slot(second[0].page);
  EXPECT_NE(new_slot, old_slot);
  EXPECT_FALSE(rig.sync().maps(L, old_slot));
  EXPECT_TRUE(rig.sync().maps(L, new_slot));
  EXPECT_EQ(rig.figure("map_segments_to_flash"), 2.0);
  EXPECT_EQ(rig.sync().durable_slot(1), kNone);  // the trim is durable
  EXPECT_EQ(rig.sync().durable_slot(7), rig.scheme().slot_of(7));
  EXPECT_EQ(rig.sync().first_undurable(rig.scheme().table()), kNone);
  // The block of the old map unit counts it no more: only the new unit is valid there.
  const BlockManager& blocks = rig.scheme().store().blocks();
  if (blocks.block_of_slot(old_slot) != blocks.block_of_slot(new_slot)) {
    EXPECT_EQ(blocks.valid_units(blocks.block_of_slot(old_slot)), 0u);
  } else {
    EXPECT_EQ(blocks.valid_units(blocks.block_of_slot(old_slot)), 1u);
  }
}

TEST(MapSyncNvram, SparseToNvramDenseAndFullToFlash) {
  Rig rig(map_sync_platform("nvram"));
  const Lun L = rig.logical();
  dirty_four_segments(rig);
  rig.flush();
  const MapSync& sync = rig.sync();
  EXPECT_EQ(sync.first_undurable(rig.scheme().table()), kNone);
  EXPECT_TRUE(sync.nvram().holds(0));
  EXPECT_TRUE(sync.nvram().holds(5));
  EXPECT_FALSE(sync.nvram().holds(9));
  EXPECT_FALSE(sync.nvram().holds(12));
  EXPECT_EQ(rig.figure("nvram_copies"), 2.0);
  EXPECT_EQ(rig.figure("nvram_hits"), 0.0);
  EXPECT_EQ(rig.figure("nvram_evictions"), 0.0);
  EXPECT_EQ(rig.figure("sync_segments_sparse"), 2.0);
  EXPECT_EQ(rig.figure("sync_segments_dense"), 1.0);
  EXPECT_EQ(rig.figure("sync_segments_full"), 1.0);
  EXPECT_EQ(rig.figure("map_segments_to_flash"), 2.0);
  EXPECT_EQ(rig.map_units_on_flash(), 2u);
  EXPECT_EQ(rig.map_keys_programmed(), (std::vector<Lun>{L + 9, L + 12}));
  const std::vector<FlashOp> nvram_writes = rig.ops_of(OpKind::kNvramWrite, OpClass::kMapping);
  ASSERT_EQ(nvram_writes.size(), 2u);
  for (const FlashOp& op : nvram_writes) EXPECT_EQ(op.bytes, 512u);
  // What recovery reads for the sparse segments comes from NVRAM, and is right.
  EXPECT_EQ(sync.durable_slot(5 * 64 + 10), rig.scheme().slot_of(5 * 64 + 10));
  EXPECT_EQ(sync.durable_slot(2), rig.scheme().slot_of(2));
}

TEST(MapSyncNvram, ASparseSegmentNvramHoldsIsAHitAndItsAgeIsReset) {
  Rig rig(map_sync_platform("nvram"));
  dirty_four_segments(rig);
  rig.flush();
  rig.write(7, 1);  // segment 0 again, sparse
  rig.flush();
  const MapSync& sync = rig.sync();
  EXPECT_EQ(rig.figure("nvram_hits"), 1.0);
  EXPECT_EQ(rig.figure("nvram_copies"), 3.0);
  EXPECT_EQ(sync.nvram().age(0), 0u);
  EXPECT_EQ(sync.nvram().age(5), 1u);
  EXPECT_EQ(sync.nvram().oldest(), 5u);
  EXPECT_TRUE(rig.ops_of(OpKind::kProgram, OpClass::kMapping).empty());
  EXPECT_EQ(rig.map_units_on_flash(), 2u);
  EXPECT_EQ(sync.first_undurable(rig.scheme().table()), kNone);
}

TEST(MapSyncNvram, WithNvramFullANewSparseSegmentEvictsTheOldestCopyToFlash) {
  Rig rig(map_sync_platform("nvram"));
  const Lun L = rig.logical();
  dirty_four_segments(rig);
  rig.flush();      // NVRAM: 0 and 5, both age 0
  rig.write(7, 1);  // segment 0 copied again: 5 is now the oldest
  rig.flush();
  rig.write(20 * 64 + 3, 1);  // segment 20, sparse, NVRAM full
  rig.flush();
  const MapSync& sync = rig.sync();
  EXPECT_FALSE(sync.nvram().holds(5));
  EXPECT_TRUE(sync.nvram().holds(0));
  EXPECT_TRUE(sync.nvram().holds(20));
  EXPECT_EQ(rig.figure("nvram_evictions"), 1.0);
  EXPECT_EQ(rig.figure("nvram_copies"), 4.0);
  EXPECT_EQ(rig.figure("map_segments_to_flash"), 3.0);  // 9, 12, then the evicted 5
  EXPECT_EQ(rig.map_units_on_flash(), 3u);
  EXPECT_EQ(rig.map_keys_programmed(), (std::vector<Lun>{L + 5}));
  // The eviction reads the copy from NVRAM before programming it.
  EXPECT_EQ(rig.ops_of(OpKind::kNvramRead, OpClass::kMapping).size(), 1u);
  EXPECT_EQ(rig.ops_of(OpKind::kNvramRead, OpClass::kMapping)[0].bytes, 512u);
  // Segment 5's units are now durable on flash.
  EXPECT_EQ(sync.durable_slot(5 * 64 + 10), rig.scheme().slot_of(5 * 64 + 10));
  EXPECT_EQ(sync.first_undurable(rig.scheme().table()), kNone);
}

TEST(MapSyncNvram, AnEvictionTieGoesToTheLowestSegment) {
  Rig rig(map_sync_platform("nvram"));
  dirty_four_segments(rig);
  rig.flush();                // NVRAM: 0 and 5, copied at the same sync
  rig.write(30 * 64 + 1, 2);  // segment 30, sparse
  rig.flush();
  EXPECT_FALSE(rig.sync().nvram().holds(0));
  EXPECT_TRUE(rig.sync().nvram().holds(5));
  EXPECT_TRUE(rig.sync().nvram().holds(30));
  EXPECT_EQ(rig.map_keys_programmed(), (std::vector<Lun>{rig.logical() + 0}));
  EXPECT_EQ(rig.sync().first_undurable(rig.scheme().table()), kNone);
}

TEST(MapSyncNvram, AnEvictedCopyWhoseSegmentIsDirtyAgainIsMadeDurableInTheSameSync) {
  Rig rig(map_sync_platform("nvram"));
  rig.write(5 * 64, 1);
  rig.write(9 * 64, 1);
  rig.flush();  // NVRAM: 5 and 9
  // Segment 0 (new) comes first and evicts 5 (the tie's lowest), whose DRAM copy is dirty again:
  // the evicted copy on flash is older than the table, so 5 is handled next and evicts 9.
  rig.write(3, 1);
  rig.write(5 * 64, 1);
  EXPECT_EQ(rig.sync().first_undurable(rig.scheme().table()), 3u);
  rig.flush();
  const MapSync& sync = rig.sync();
  EXPECT_TRUE(sync.nvram().holds(0));
  EXPECT_TRUE(sync.nvram().holds(5));
  EXPECT_FALSE(sync.nvram().holds(9));
  EXPECT_EQ(rig.figure("nvram_evictions"), 2.0);
  EXPECT_EQ(sync.durable_slot(5 * 64), rig.scheme().slot_of(5 * 64));
  EXPECT_EQ(sync.durable_slot(9 * 64), rig.scheme().slot_of(9 * 64));
  EXPECT_EQ(sync.first_undurable(rig.scheme().table()), kNone);
}

TEST(MapSyncNvram, ASegmentThatBecomesDenseGoesToFlashAndItsNvramCopyIsDropped) {
  Rig rig(map_sync_platform("nvram"));
  const Lun L = rig.logical();
  dirty_four_segments(rig);
  rig.flush();  // NVRAM: 0 and 5
  ASSERT_TRUE(rig.sync().nvram().holds(0));
  rig.write(0, 20);  // 20 of 64 dirty: dense
  rig.flush();
  const MapSync& sync = rig.sync();
  EXPECT_FALSE(sync.nvram().holds(0));
  EXPECT_TRUE(sync.nvram().holds(5));
  EXPECT_EQ(rig.figure("nvram_dropped"), 1.0);
  EXPECT_EQ(rig.figure("nvram_evictions"), 0.0);
  EXPECT_EQ(rig.figure("map_segments_to_flash"), 3.0);
  EXPECT_EQ(rig.map_keys_programmed(), (std::vector<Lun>{L + 0}));
  // The drop is a small NVRAM directory write, no segment copy.
  const std::vector<FlashOp> nvram_writes = rig.ops_of(OpKind::kNvramWrite, OpClass::kMapping);
  ASSERT_EQ(nvram_writes.size(), 1u);
  EXPECT_LT(nvram_writes[0].bytes, 512u);
  for (Lun lun = 0; lun < 64; ++lun) {
    EXPECT_EQ(sync.durable_slot(lun), rig.scheme().slot_of(lun)) << lun;
  }
  EXPECT_EQ(sync.first_undurable(rig.scheme().table()), kNone);
  // Sparse again later: copied back in (NVRAM has room: no eviction).
  rig.write(1, 1);
  rig.flush();
  EXPECT_TRUE(sync.nvram().holds(0));
  EXPECT_EQ(rig.figure("nvram_evictions"), 0.0);
  EXPECT_EQ(sync.first_undurable(rig.scheme().table()), kNone);
}

TEST(MapSyncNvram, ASegmentThatBecomesFullDropsItsNvramCopyToo) {
  Rig rig(map_sync_platform("nvram"));
  rig.write(5 * 64 + 10, 1);
  rig.flush();
  ASSERT_TRUE(rig.sync().nvram().holds(5));
  rig.write(5 * 64, 64);
  rig.flush();
  EXPECT_FALSE(rig.sync().nvram().holds(5));
  EXPECT_EQ(rig.figure("sync_segments_full"), 1.0);
  EXPECT_EQ(rig.figure("nvram_dropped"), 1.0);
  EXPECT_EQ(rig.sync().first_undurable(rig.scheme().table()), kNone);
}

// NVRAM of the whole table (nvram_fraction = 1: the paper's "large enough to accommodate all the
// mapping entries") never evicts, also when the table's last segment is short: here 49138 units,
// 767 whole segments and one of 50 entries.
TEST(MapSyncNvram, WithNvramForTheWholeTableNothingIsEverEvicted) {
  config::PlatformConfig p = map_sync_platform("nvram");
  p.ftl.over_provisioning = 0.2502;
  p.nvram.capacity_bytes = 512 * 1024;
  p.ftl.settings.edit<PageSettings>().nvram_fraction = 1.0;
  Rig rig(p);
  const MapLayout& m = rig.sync().layout();
  ASSERT_EQ(m.logical_units, 49138u);
  ASSERT_EQ(m.segments, 768u);
  for (uint32_t s = 0; s < m.segments; ++s) rig.write(Lun(s) * 64, 1);  // every segment sparse
  rig.flush();
  EXPECT_EQ(rig.sync().first_undurable(rig.scheme().table()), kNone);
  EXPECT_EQ(rig.figure("sync_segments_sparse"), 768.0);
  EXPECT_EQ(rig.figure("nvram_copies"), 768.0);
  EXPECT_EQ(rig.figure("nvram_evictions"), 0.0);
  EXPECT_EQ(rig.sync().nvram().size(), 768u);
}

// The operations of one flush: the open data page is programmed first; every map program and
// NVRAM copy into free room then waits for all that came before it but the sync's other map
// writes (kAfterData).
void expect_data_first_then_the_map_behind_a_barrier(const std::string& policy) {
  SCOPED_TRACE(policy);
  Rig rig(map_sync_platform(policy));
  rig.write(0, 1);         // segment 0: sparse
  rig.write(12 * 64, 64);  // segment 12: full; 65 units, so the last data page is still open
  rig.flush();
  const std::vector<FlashOp>& ops = rig.ops();
  size_t data_program = ops.size();
  for (size_t i = 0; i < ops.size(); ++i) {
    if (ops[i].kind == OpKind::kProgram && ops[i].op_class == OpClass::kHostWrite) {
      data_program = i;
      break;
    }
  }
  ASSERT_LT(data_program, ops.size()) << "the flush programmed no data page";
  EXPECT_NE(ops[data_program].after, kAfterAll);
  size_t map_programs = 0;
  size_t nvram_writes = 0;
  size_t segment_reads = 0;
  for (size_t i = 0; i < ops.size(); ++i) {
    const FlashOp& op = ops[i];
    if (op.kind == OpKind::kProgram && op.op_class != OpClass::kHostWrite) {
      EXPECT_EQ(op.op_class, OpClass::kMapping) << i;
      EXPECT_EQ(op.after, kAfterData) << i;
      EXPECT_GT(i, data_program);
      ++map_programs;
    }
    if (op.kind == OpKind::kNvramWrite) {
      EXPECT_EQ(op.op_class, OpClass::kMapping) << i;
      EXPECT_EQ(op.after, kAfterData) << i;
      EXPECT_EQ(op.bytes, rig.sync().layout().segment_bytes) << i;
      EXPECT_GT(i, data_program);
      ++nvram_writes;
    }
    if (op.kind == OpKind::kDramRead && op.op_class == OpClass::kMapping) {
      EXPECT_EQ(op.bytes, rig.sync().layout().segment_bytes) << i;
      EXPECT_GT(i, data_program);
      ++segment_reads;
    }
  }
  EXPECT_EQ(map_programs, 1u);  // both segments' units fit one page (conventional) or one does
  EXPECT_EQ(nvram_writes, policy == "nvram" ? 1u : 0u);
  EXPECT_EQ(segment_reads, 2u);  // each dirty segment is read from DRAM once
}

TEST(MapSyncOperations, DataFirstThenTheMapBehindABarrierConventional) {
  expect_data_first_then_the_map_behind_a_barrier("conventional");
}

TEST(MapSyncOperations, DataFirstThenTheMapBehindABarrierNvram) {
  expect_data_first_then_the_map_behind_a_barrier("nvram");
}

// The stock Jasmine firmware's flush: every segment to flash at every sync, dirty or not; the
// map pages of a segment written again replace its old ones.
TEST(MapSyncWhole, EverySegmentGoesToFlashAtEverySync) {
  Rig rig(map_sync_platform("whole"));
  const uint32_t segments = rig.sync().layout().segments;
  EXPECT_EQ(figure_of(rig.scheme(), "map_sync").text, "whole");
  rig.write(5 * 64 + 10, 1);  // one dirty segment
  rig.flush();
  EXPECT_EQ(rig.sync().first_undurable(rig.scheme().table()), kNone);
  EXPECT_EQ(rig.figure("map_segments_to_flash"), double(segments));
  EXPECT_EQ(rig.figure("sync_segments_sparse"), 0.0);  // none was left dirty for the passes
  EXPECT_EQ(rig.map_units_on_flash(), uint64_t(segments));
  rig.flush();  // nothing dirty: the whole table again
  EXPECT_EQ(rig.figure("map_segments_to_flash"), 2.0 * segments);
  EXPECT_EQ(rig.map_units_on_flash(), 2u * segments);
  EXPECT_EQ(rig.figure("syncs"), 2.0);
  // Each segment's latest map unit is the one valid copy: the first sync's are all stale.
  uint64_t valid = 0;
  for (const FlashOp& op : rig.ops_of(OpKind::kProgram, OpClass::kMapping)) {
    for (Lun key : rig.keys_in(op.page)) valid += key >= rig.logical();
  }
  EXPECT_EQ(valid, uint64_t(segments));
}

// Where in the last command's operations the map page holding `key` was programmed (ops().size()
// when it was not).
size_t program_of(Rig& rig, Lun key) {
  const std::vector<FlashOp>& ops = rig.ops();
  for (size_t i = 0; i < ops.size(); ++i) {
    if (ops[i].kind != OpKind::kProgram) continue;
    for (Lun k : rig.keys_in(ops[i].page)) {
      if (k == key) return i;
    }
  }
  return ops.size();
}

// A copy that leaves NVRAM (evicted for room, or dropped because its segment goes to flash) held
// entries an earlier flush made durable; until the segment's flash copy is programmed NVRAM is
// their only durable home. The NVRAM writes that give its room away or drop it from the
// directory must therefore come after that program and wait for it (kAfterAll: everything issued
// before them, the map programs included): otherwise a power cut between the two loses entries
// already acknowledged.
TEST(MapSyncOperations, AnEvictedCopyLeavesNvramOnlyAfterItsFlashCopyIsProgrammed) {
  Rig rig(map_sync_platform("nvram"));
  dirty_four_segments(rig);
  rig.flush();  // NVRAM: 0 and 5
  rig.write(7, 1);
  rig.flush();  // 0 copied again: 5 is the oldest
  rig.write(20 * 64 + 3, 1);
  rig.flush();  // 20 evicts 5
  ASSERT_FALSE(rig.sync().nvram().holds(5));
  const size_t program = program_of(rig, rig.logical() + 5);
  ASSERT_LT(program, rig.ops().size()) << "segment 5 was not programmed";
  EXPECT_EQ(rig.ops()[program].after, kAfterData);
  size_t nvram_writes = 0;
  for (size_t i = 0; i < rig.ops().size(); ++i) {
    if (rig.ops()[i].kind == OpKind::kNvramWrite) {
      EXPECT_GT(i, program) << "NVRAM write of " << rig.ops()[i].bytes
                            << " bytes before the evicted segment's flash copy is programmed";
      EXPECT_EQ(rig.ops()[i].after, kAfterAll) << i;
      ++nvram_writes;
    }
  }
  EXPECT_EQ(nvram_writes, 2u);  // the new copy into the freed room, the directory word
}

TEST(MapSyncOperations, ADroppedCopyLeavesNvramOnlyAfterItsSegmentsFlashCopyIsProgrammed) {
  Rig rig(map_sync_platform("nvram"));
  rig.write(3, 1);
  rig.flush();  // NVRAM: 0
  rig.write(0, 20);
  rig.flush();  // 0 dense: to flash, its copy dropped
  ASSERT_FALSE(rig.sync().nvram().holds(0));
  const size_t program = program_of(rig, rig.logical() + 0);
  ASSERT_LT(program, rig.ops().size()) << "segment 0 was not programmed";
  for (size_t i = 0; i < rig.ops().size(); ++i) {
    if (rig.ops()[i].kind == OpKind::kNvramWrite) {
      EXPECT_GT(i, program) << "NVRAM directory write of " << rig.ops()[i].bytes
                            << " bytes before the segment's flash copy is programmed";
      EXPECT_EQ(rig.ops()[i].after, kAfterAll) << i;
    }
  }
}

TEST(MapSyncNone, AFlushWritesNoMapAndTheFiguresSayTheTableIsVolatile) {
  Rig rig(map_sync_platform("none"));
  EXPECT_EQ(rig.scheme().map_sync(), nullptr);
  dirty_four_segments(rig);
  rig.flush();
  bool data_programmed = false;
  for (const FlashOp& op : rig.ops()) {
    EXPECT_NE(op.op_class, OpClass::kMapping) << int(op.kind);
    EXPECT_NE(op.kind, OpKind::kNvramWrite);
    data_programmed |= op.kind == OpKind::kProgram;
  }
  EXPECT_TRUE(data_programmed);  // the flush still programs the open data page
  EXPECT_EQ(rig.map_units_on_flash(), 0u);
  const std::vector<MappingFigure> figures = rig.scheme().mapping_figures();
  ASSERT_FALSE(figures.empty());
  EXPECT_EQ(figures[0].name, "map_sync");
  EXPECT_EQ(figures[0].text, "none (the table is volatile)");
  const std::vector<FigureDoc> docs = map_sync_figure_docs();
  ASSERT_EQ(figures.size(), docs.size() + 1);
  for (size_t i = 0; i < docs.size(); ++i) {
    EXPECT_EQ(figures[i + 1].name, docs[i].name);
    EXPECT_EQ(figures[i + 1].value, 0.0) << docs[i].name;
  }
}

TEST(MapSyncFigures, EveryPolicyReportsTheSameFigureNamesInTheDocumentedOrder) {
  const std::vector<FigureDoc> docs = map_sync_figure_docs();
  for (const char* policy : {"none", "conventional", "nvram"}) {
    Rig rig(map_sync_platform(policy));
    const std::vector<MappingFigure> figures = rig.scheme().mapping_figures();
    ASSERT_EQ(figures.size(), docs.size() + 1) << policy;
    for (size_t i = 0; i < docs.size(); ++i) EXPECT_EQ(figures[i + 1].name, docs[i].name);
  }
}

}  // namespace
}  // namespace ssd::ftl
