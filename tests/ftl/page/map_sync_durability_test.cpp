// The durable map over a million commands on a full device (ftl.page.map_sync conventional and
// nvram): after EVERY flush, what recovery would read (map pages on flash, NVRAM copies) names
// each unit's current slot (MapSync::first_undurable), while GC runs all the time, including GC
// run by the map's own writes inside a sync (which dirties segments again: sync_passes > syncs).
// The oracle checks every read, and every so often the blocks' valid counts are recounted from
// the spare areas, map units included.
//
// The device: the tiny test device with 1 KiB mapping units (two sectors, four per page:
// partial-unit writes are read-modify-writes), 8-byte entries and one unit per segment (128
// entries, 192 segments); with nvram the map gets a sixth of the table, so evictions are frequent.
// Variants: blocking GC with copy-back, 2 KiB units (256-entry segments), and small blocks (two
// 8 KiB pages: GC often packs several victims) with a short last segment.
#include <gtest/gtest.h>

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "config/config_loader.h"
#include "config/scenario_config.h"
#include "ftl/core/ftl_device.h"
#include "ftl/core/preconditioner.h"
#include "ftl/core/random.h"
#include "ftl/page/map_sync.h"
#include "ftl/page/page_mapping.h"
#include "ftl/scheme_registry.h"
#include "tests/ftl/page/map_sync_platform.h"
#include "tests/ftl/scheme_workloads.h"

namespace ssd::ftl {
namespace {

using testing::figure_of;
using testing::run_one;

const PageMapping& page_scheme(const FtlDevice& device) {
  return dynamic_cast<const PageMapping&>(device.scheme());
}

// Right after a flush (nothing is being assembled): every slot the spare areas name is valid
// exactly when the table (data) or the map directory (map units) points at it; each block's
// valid count is that; each map unit has one valid copy; each mapped unit holds what the oracle
// expects.
void check_after_flush(FtlDevice& device) {
  const PageMapping& scheme = page_scheme(device);
  const MapSync& sync = *scheme.map_sync();
  const Geometry& g = device.geometry();
  const BlockManager& blocks = scheme.store().blocks();
  const std::vector<SlotId>& table = scheme.table();
  std::vector<uint32_t> map_copies(sync.layout().map_units(), 0);
  std::vector<uint32_t> data_copies(g.logical_units, 0);
  for (BlockId b = 0; b < g.blocks(); ++b) {
    uint32_t valid = 0;
    const uint32_t programmed = device.flash().write_pointer(b);
    for (uint32_t p = 0; p < programmed; ++p) {
      const PageId page = g.first_page(b) + p;
      const uint32_t* spare = device.flash().spare(page);
      for (uint32_t u = 0; u < g.units_per_page; ++u) {
        const Lun key = spare[u];
        const SlotId slot = g.first_slot(page) + u;
        if (key == kNone) continue;
        if (key < g.logical_units) {
          if (table[key] == slot) {
            ++valid;
            ++data_copies[key];
          }
        } else {
          ASSERT_LT(key - g.logical_units, map_copies.size()) << "spare of page " << page;
          if (sync.maps(key, slot)) {
            ++valid;
            ++map_copies[key - g.logical_units];
          }
        }
      }
    }
    ASSERT_EQ(blocks.valid_units(b), valid) << "block " << b;
  }
  for (size_t k = 0; k < map_copies.size(); ++k) {
    ASSERT_EQ(map_copies[k], 1u) << "map unit " << k;
  }
  for (Lun lun = 0; lun < g.logical_units; ++lun) {
    if (table[lun] == kNone) {
      ASSERT_EQ(device.oracle()->expected(lun), 0u) << "unit " << lun;
      continue;
    }
    ASSERT_EQ(data_copies[lun], 1u) << "unit " << lun << " is not on flash after a flush";
    ASSERT_EQ(scheme.store().token(table[lun]), device.oracle()->expected(lun)) << "unit " << lun;
  }
}

struct RunTotals {
  uint64_t flushes = 0;
  uint64_t flushes_with_gc = 0;  // GC erased a block inside the flush: run by the map's writes
  uint64_t mismatches = 0;
};

// `commands` deterministic random commands: 43 % writes (one in twenty a long aligned run of 16 to
// 2 segments' worth of units that makes dense and full segments, the rest 1 to 4 units' worth of
// sectors anywhere), 40 % reads of the same shape, 15 % trims, 2 % flushes. After every flush the
// durable map must equal the table.
void run_and_check_every_flush(FtlDevice& device, uint64_t commands, uint64_t seed,
                               RunTotals& totals) {
  const Geometry& g = device.geometry();
  const uint32_t spu = g.sectors_per_unit;
  const uint64_t sectors = g.logical_sectors();
  const PageMapping& scheme = page_scheme(device);
  const MapSync& sync = *scheme.map_sync();
  const uint64_t long_units = 2 * uint64_t(sync.layout().entries_per_segment);
  Random random(seed);
  const auto short_span = [&](uint32_t max_units, uint64_t& start, uint32_t& count) {
    count = static_cast<uint32_t>(1 + random.below(uint64_t(spu) * max_units));
    start = random.below(sectors - count + 1);
  };
  for (uint64_t i = 1; i <= commands; ++i) {
    const uint64_t draw = random.below(100);
    uint64_t start = 0;
    uint32_t count = 0;
    if (draw < 2) {
      run_one(device, CommandKind::kFlush, 0, 0);
      ++totals.flushes;
      bool erased = false;
      for (const FlashOp& op : device.backend().ops().ops()) erased |= op.kind == OpKind::kErase;
      totals.flushes_with_gc += erased;
      const Lun lun = sync.first_undurable(scheme.table());
      ASSERT_EQ(lun, kNone) << "after flush " << totals.flushes << " (command " << i << "): unit "
                            << lun << " durable at " << sync.durable_slot(lun) << ", table says "
                            << scheme.table()[lun];
      if (totals.flushes % 5000 == 0) {
        check_after_flush(device);
        if (::testing::Test::HasFatalFailure()) return;
      }
      continue;
    }
    CommandKind kind = CommandKind::kRead;
    if (draw < 45) {
      kind = CommandKind::kWrite;
      if (random.below(20) == 0) {
        const uint64_t units = 16 + random.below(long_units - 15);
        start = random.below(g.logical_units - units + 1) * spu;
        count = static_cast<uint32_t>(units * spu);
      } else {
        short_span(4, start, count);
      }
    } else if (draw < 85) {
      short_span(4, start, count);
    } else {
      kind = CommandKind::kTrim;
      short_span(8, start, count);
    }
    totals.mismatches += run_one(device, kind, start, count);
  }
}

struct Variant {
  std::string name;
  std::string policy;
  uint32_t unit_bytes;      // 8-byte entries, one unit per segment
  uint32_t nvram_segments;  // policy nvram: a sixth of the table
  uint32_t segments;        // what the table divides into
  std::string gc_mode = "incremental";
  bool copyback = false;
  // Small blocks (two 8 KiB pages), so GC must often pack several victims (compaction).
  bool small_blocks = false;
};

void PrintTo(const Variant& v, std::ostream* os) { *os << v.name; }

class MapSyncDurability : public ::testing::TestWithParam<Variant> {};

TEST_P(MapSyncDurability, TheDurableMapEqualsTheTableAfterEveryFlushOfAMillionCommands) {
  const Variant& v = GetParam();
  config::PlatformConfig p =
      testing::map_sync_platform(v.policy, v.unit_bytes, /*entry_bytes=*/8, v.nvram_segments);
  p.ftl.gc_mode = v.gc_mode;
  p.nand.copyback = v.copyback;
  if (v.small_blocks) {
    p.nand.page_bytes = 8192;
    p.nand.pages_per_block = 2;
    p.nand.blocks_per_plane = 256;
    p.ftl.over_provisioning = 0.1;
  }
  config::validate_platform(p, "test", scheme_catalog());
  FtlDevice device(p, FtlDeviceOptions{});
  const PageMapping& scheme = page_scheme(device);
  ASSERT_NE(scheme.map_sync(), nullptr);
  const MapSync& sync = *scheme.map_sync();
  ASSERT_EQ(sync.layout().segments, v.segments);
  if (v.policy == "nvram") {
    ASSERT_EQ(sync.layout().nvram_segments, v.nvram_segments);
    ASSERT_LT(sync.layout().nvram_bytes, sync.layout().table_bytes);
  }

  config::PreconditionConfig fill;
  fill.fill_ratio = 1.0;
  fill.overwrite_ratio = 0.5;
  precondition(device, fill);  // ends with a flush, untimed: the whole map is written
  ASSERT_EQ(sync.first_undurable(scheme.table()), kNone);
  check_after_flush(device);
  if (HasFatalFailure()) return;

  RunTotals totals;
  run_and_check_every_flush(device, 1'000'000, 77, totals);
  if (HasFatalFailure()) return;
  run_one(device, CommandKind::kFlush, 0, 0);
  ++totals.flushes;
  EXPECT_EQ(sync.first_undurable(scheme.table()), kNone);
  check_after_flush(device);

  EXPECT_EQ(totals.mismatches, 0u) << device.oracle()->first_mismatch();
  EXPECT_GT(device.oracle()->checked_reads(), 300'000u);
  EXPECT_GT(device.scheme().stats().gc_invocations, 10'000u);
  EXPECT_GT(totals.flushes, 15'000u);
  const auto figure = [&scheme](const char* name) { return figure_of(scheme, name).value; };
  EXPECT_EQ(figure("syncs"), double(totals.flushes));  // preconditioning's flush is not counted
  // GC ran inside syncs, by the map's own writes, and dirtied segments again.
  EXPECT_GT(totals.flushes_with_gc, 0u);
  EXPECT_GT(figure("sync_passes"), figure("syncs"));
  EXPECT_GT(figure("sync_segments_sparse"), 0.0);
  EXPECT_GT(figure("sync_segments_dense"), 0.0);
  EXPECT_GT(figure("sync_segments_full"), 0.0);
  EXPECT_GT(figure("map_segments_to_flash"), 0.0);
  if (v.policy == "nvram") {
    EXPECT_GT(figure("nvram_copies"), 0.0);
    EXPECT_GT(figure("nvram_hits"), 0.0);
    EXPECT_GT(figure("nvram_evictions"), 0.0);
    EXPECT_GT(figure("nvram_dropped"), 0.0);
    EXPECT_EQ(sync.nvram().size(), v.nvram_segments);  // full after so many sparse segments
  } else {
    EXPECT_EQ(figure("nvram_copies"), 0.0);
    EXPECT_EQ(figure("map_segments_to_flash"), figure("sync_segments_sparse") +
                                                   figure("sync_segments_dense") +
                                                   figure("sync_segments_full"));
  }
}

// 1 KiB units (128-entry segments, 192 of them) under incremental GC, and under blocking GC with
// copy-back; 2 KiB units (256-entry segments, 48 of them); small blocks (29491 units: 231
// segments, the last one short).
INSTANTIATE_TEST_SUITE_P(Policies, MapSyncDurability,
                         ::testing::Values(Variant{"conventional", "conventional", 1024, 0, 192},
                                           Variant{"nvram", "nvram", 1024, 32, 192},
                                           Variant{"nvram_blocking_gc_copyback", "nvram", 1024, 32,
                                                   192, "blocking", true},
                                           Variant{"conventional_2k_units", "conventional", 2048, 0,
                                                   48},
                                           Variant{"nvram_2k_units", "nvram", 2048, 8, 48},
                                           Variant{"nvram_small_blocks", "nvram", 1024, 32, 231,
                                                   "incremental", false, true}),
                         [](const auto& info) { return info.param.name; });

}  // namespace
}  // namespace ssd::ftl
