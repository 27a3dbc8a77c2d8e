// The host-side data cache (ftl/cache/data_cache.h) over real schemes, without timing: every
// scheme keeps the oracle clean behind it in each mode; read hits touch no flash; a write-back
// cache holds writes until eviction, the watermark, a flush or a FUA write; a partial write of a
// unit it does not hold reads the unit first; trims forget; and a power cut after a flush loses
// nothing acknowledged, while one without it may roll unflushed writes back (DRAM is gone).
#include "ftl/cache/data_cache.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "config/validation.h"
#include "ftl/core/ftl_device.h"
#include "ftl/scheme_registry.h"
#include "tests/ftl/power/power_cut_rig.h"
#include "tests/ftl/scheme_workloads.h"
#include "tests/ftl/tiny_platform.h"

namespace ssd::ftl {
namespace {

using testing::run_one;

// The tiny platform (4 KiB pages, 4 KiB units unless `unit_bytes`) with a cache of `lines` lines
// of `units_per_line` units.
config::PlatformConfig cached(const std::string& mode, uint64_t lines, uint32_t units_per_line = 1,
                              uint32_t unit_bytes = 0) {
  config::PlatformConfig p = testing::tiny_platform(unit_bytes);
  const uint32_t unit = unit_bytes != 0 ? unit_bytes : p.nand.page_bytes;
  p.cache.mode = mode;
  p.cache.line_bytes = units_per_line * unit;
  p.cache.capacity_bytes = lines * units_per_line * unit;
  return p;
}

FtlDeviceOptions with_oracle() {
  FtlDeviceOptions options;
  options.oracle = true;
  return options;
}

uint32_t flash_ops(const FlashBackend& backend) {
  uint32_t n = 0;
  for (const FlashOp& op : backend.ops().ops()) n += is_flash_op(op.kind) ? 1 : 0;
  return n;
}

uint32_t spu(const FtlDevice& device) { return device.geometry().sectors_per_unit; }

// Every scheme that runs on the tiny platform, in every mode and with lines of one and of four
// units (and without read caching): a random mix of sector-granular writes,
// reads, trims and flushes keeps the oracle clean.
TEST(DataCache, EverySchemeKeepsTheOracleCleanInEveryMode) {
  std::vector<std::string> ran;
  for (const std::string& scheme : scheme_names()) {
    bool runs = false;
    struct Case {
      const char* mode;
      uint64_t lines;
      uint32_t units_per_line;
      bool read_caching;
    };
    for (const Case c : {Case{"write_back", 16, 1, true}, Case{"write_back", 8, 4, true},
                         Case{"write_through", 16, 1, true}, Case{"write_back", 64, 2, false}}) {
      config::PlatformConfig p = cached(c.mode, c.lines, c.units_per_line);
      p.ftl.scheme = scheme;
      p.cache.read_caching = c.read_caching;
      p.cache.dirty_high_watermark = 0.5;
      p.cache.dirty_low_watermark = 0.25;
      if (config::find_platform_problem(p, scheme_catalog()) || needs_hash_engine(p)) continue;
      runs = true;
      SCOPED_TRACE(scheme + " " + c.mode + " lines of " + std::to_string(c.units_per_line));
      FtlDevice device(p, with_oracle());
      ASSERT_NE(device.data_cache(), nullptr);
      EXPECT_EQ(testing::run_random(device, 50'000, 11, [] {}), 0u)
          << device.oracle()->first_mismatch();
      const CacheCounts& counts = device.data_cache()->counts();
      EXPECT_GT(counts.read_hit_units, 0u);
      EXPECT_GT(counts.evicted_lines, 0u);
      if (std::string(c.mode) == "write_back") {
        EXPECT_GT(counts.write_back_units, 0u);
        EXPECT_GT(counts.background_write_back_units, 0u);
        EXPECT_GT(counts.flush_write_back_units, 0u);
        EXPECT_GT(counts.fill_units, 0u);
      } else {
        EXPECT_EQ(counts.write_back_units, 0u);
        EXPECT_EQ(device.data_cache()->dirty_lines(), 0u);
      }
    }
    if (runs) ran.push_back(scheme);
  }
  std::string names;
  for (const std::string& scheme : ran) names += scheme + " ";
  RecordProperty("schemes", names);
  // The schemes the tiny platform cannot hold are skipped above; these must not be.
  for (const char* must : {"page", "dftl", "block", "nftl", "fast"}) {
    EXPECT_NE(std::find(ran.begin(), ran.end(), must), ran.end()) << must;
  }
}

TEST(DataCache, AReadHitTouchesNoFlash) {
  FtlDevice device(cached("write_back", 16), with_oracle());
  ASSERT_EQ(run_one(device, CommandKind::kWrite, 0, 2 * spu(device)), 0u);
  EXPECT_EQ(flash_ops(device.backend()), 0u);  // acknowledged in DRAM
  ASSERT_EQ(run_one(device, CommandKind::kFlush, 0, 0), 0u);
  EXPECT_GT(flash_ops(device.backend()), 0u);  // written back, then programmed
  ASSERT_EQ(run_one(device, CommandKind::kRead, 1, spu(device)), 0u);  // inside both units
  EXPECT_EQ(flash_ops(device.backend()), 0u);
  EXPECT_EQ(device.data_cache()->counts().read_hit_units, 2u);
  // A unit never written is a miss (read below), then a hit.
  ASSERT_EQ(run_one(device, CommandKind::kRead, 10 * spu(device), spu(device)), 0u);
  ASSERT_EQ(run_one(device, CommandKind::kRead, 10 * spu(device), spu(device)), 0u);
  EXPECT_EQ(device.data_cache()->counts().read_miss_units, 1u);
  EXPECT_EQ(device.data_cache()->counts().read_hit_units, 3u);
}

TEST(DataCache, WithoutReadCachingAReadMissIsNotKept) {
  config::PlatformConfig p = cached("write_back", 16);
  p.cache.read_caching = false;
  FtlDevice device(p, with_oracle());
  ASSERT_EQ(run_one(device, CommandKind::kRead, 0, spu(device)), 0u);
  EXPECT_FALSE(device.data_cache()->holds(0));
  EXPECT_EQ(device.data_cache()->lines(), 0u);
}

// The cache holds a written unit, dirty, until a flush writes it back; a write-through cache
// sends it down at once and keeps a clean copy.
TEST(DataCache, WriteBackHoldsWritesUntilAFlushAndWriteThroughSendsThemDown) {
  FtlDevice back(cached("write_back", 16), with_oracle());
  run_one(back, CommandKind::kWrite, 0, spu(back));
  EXPECT_TRUE(back.data_cache()->holds_dirty(0));
  EXPECT_EQ(back.backend().written().of(OpClass::kHostWrite), 0u);
  run_one(back, CommandKind::kFlush, 0, 0);
  EXPECT_FALSE(back.data_cache()->holds_dirty(0));
  EXPECT_TRUE(back.data_cache()->holds(0));
  EXPECT_EQ(back.backend().written().of(OpClass::kHostWrite), 1u);
  EXPECT_EQ(back.data_cache()->counts().flush_write_back_units, 1u);

  FtlDevice through(cached("write_through", 16), with_oracle());
  run_one(through, CommandKind::kWrite, 0, spu(through));
  EXPECT_TRUE(through.data_cache()->holds(0));
  EXPECT_FALSE(through.data_cache()->holds_dirty(0));
  EXPECT_EQ(through.data_cache()->counts().write_back_units, 0u);
}

// Full of dirty lines, the cache writes back the least recently used to take a new one, in the
// write's own command.
TEST(DataCache, AFullCacheWritesBackTheOldestLineInTheWritesCommand) {
  config::PlatformConfig p = cached("write_back", 2);
  p.cache.dirty_high_watermark = 1.0;  // no write-back behind the host
  FtlDevice device(p, with_oracle());
  run_one(device, CommandKind::kWrite, 0 * spu(device), spu(device));
  run_one(device, CommandKind::kWrite, 1 * spu(device), spu(device));
  EXPECT_EQ(device.data_cache()->counts().dirty_evictions, 0u);
  run_one(device, CommandKind::kWrite, 2 * spu(device), spu(device));
  EXPECT_EQ(device.data_cache()->counts().dirty_evictions, 1u);
  EXPECT_FALSE(device.data_cache()->holds(0));
  EXPECT_EQ(device.backend().written().of(OpClass::kHostWrite), 1u);  // one unit per page
  ASSERT_EQ(device.backend().frame_releases().size(), 1u);
  ASSERT_EQ(device.backend().frame_fills().size(), 1u);
  EXPECT_EQ(device.backend().frame_releases()[0].frame, device.backend().frame_fills()[0].frame);
  EXPECT_GE(device.backend().frame_fills()[0].op, device.backend().frame_releases()[0].end);
  ASSERT_EQ(run_one(device, CommandKind::kRead, 0, spu(device)), 0u);  // unit 0 from below
}

// Above the high watermark, write-back runs behind the host (background operations) down to the
// low one.
TEST(DataCache, AboveTheHighWatermarkWriteBackRunsBehindDownToTheLowOne) {
  config::PlatformConfig p = cached("write_back", 10);
  p.cache.dirty_high_watermark = 0.5;  // more than 5 dirty lines
  p.cache.dirty_low_watermark = 0.2;   // down to 2
  FtlDevice device(p, with_oracle());
  for (Lun lun = 0; lun < 5; ++lun)
    run_one(device, CommandKind::kWrite, lun * spu(device), spu(device));
  EXPECT_EQ(device.data_cache()->dirty_lines(), 5u);
  EXPECT_EQ(device.data_cache()->counts().write_back_units, 0u);
  run_one(device, CommandKind::kWrite, 5 * spu(device), spu(device));
  EXPECT_EQ(device.data_cache()->dirty_lines(), 2u);
  EXPECT_EQ(device.data_cache()->counts().background_write_back_units, 4u);
  EXPECT_EQ(device.data_cache()->lines(), 6u);  // written back, still cached (clean)
  // The oldest four went: units 0-3.
  for (Lun lun = 0; lun < 4; ++lun) EXPECT_FALSE(device.data_cache()->holds_dirty(lun)) << lun;
  bool background = false, foreground_dram = false;
  for (const FlashOp& op : device.backend().ops().ops()) {
    if (op.background) background = true;
    if (!op.background && op.kind == OpKind::kDramWrite) foreground_dram = true;
  }
  EXPECT_TRUE(background);
  EXPECT_TRUE(foreground_dram);  // the host's data into the cache
}

// A write covering part of a unit the cache does not hold reads the unit from the scheme first;
// one covering part of a unit it holds merges in DRAM.
TEST(DataCache, APartialWriteOfAUnitNotHeldReadsItFirst) {
  FtlDevice device(cached("write_back", 16), with_oracle());
  run_one(device, CommandKind::kWrite, 0, spu(device));
  run_one(device, CommandKind::kFlush, 0, 0);
  run_one(device, CommandKind::kWrite, 1, 2);  // held: merged
  EXPECT_EQ(device.data_cache()->counts().fill_units, 0u);
  run_one(device, CommandKind::kWrite, spu(device) + 1, 2);  // not held: filled
  EXPECT_EQ(device.data_cache()->counts().fill_units, 1u);
  EXPECT_EQ(run_one(device, CommandKind::kRead, 0, 2 * spu(device)), 0u);
  run_one(device, CommandKind::kFlush, 0, 0);
  EXPECT_EQ(run_one(device, CommandKind::kRead, 0, 2 * spu(device)), 0u);
}

TEST(DataCache, ATrimForgetsTheUnitsItCoversWhole) {
  FtlDevice device(cached("write_back", 16), with_oracle());
  run_one(device, CommandKind::kWrite, 0, 3 * spu(device));
  run_one(device, CommandKind::kTrim, 1, 2 * spu(device));  // unit 1 whole, 0 and 2 in part
  EXPECT_TRUE(device.data_cache()->holds(0));
  EXPECT_FALSE(device.data_cache()->holds(1));
  EXPECT_TRUE(device.data_cache()->holds(2));
  EXPECT_EQ(run_one(device, CommandKind::kRead, 0, 3 * spu(device)), 0u);
}

// Power: every write acknowledged before a completed flush survives a cut; writes after it that
// only the cache held may roll back (DRAM is gone), never to anything but an acknowledged value.
TEST(DataCache, ACutAfterAFlushLosesNothingAndUnflushedWritesMayRollBack) {
  for (const char* mode : {"write_back", "write_through"}) {
    SCOPED_TRACE(mode);
    FtlDevice device(cached(mode, 32, 2), testing::power_options());
    testing::PowerCutRig rig(device, 5);
    EXPECT_EQ(rig.run_random(3000), 0u);
    rig.run(CommandKind::kFlush, 0, 0);
    for (Lun lun = 0; lun < 8; ++lun) rig.run(CommandKind::kWrite, lun * spu(device), spu(device));
    const DurabilityCheck::Verdict verdict = rig.cut_at(rig.all_done());
    EXPECT_EQ(verdict.lost_durable, 0u) << verdict.first_loss;
    if (std::string(mode) == "write_back") {
      EXPECT_GT(verdict.rolled_back, 0u);
    }
    EXPECT_EQ(device.data_cache()->lines(), 0u);
    // The device goes on after recovery, cache and all.
    EXPECT_EQ(rig.run_random(2000), 0u);
  }
}

// Cuts anywhere in a random run with a write-back cache: nothing durable is lost.
TEST(DataCache, RandomCutsLoseNothingDurable) {
  FtlDevice device(cached("write_back", 24, 2), testing::power_options());
  testing::PowerCutRig rig(device, 9);
  for (int cut = 0; cut < 20; ++cut) {
    EXPECT_EQ(rig.run_random(1500), 0u);
    const DurabilityCheck::Verdict verdict = rig.cut();
    ASSERT_EQ(verdict.lost_durable, 0u) << verdict.first_loss;
  }
}

// The memory estimate made before a run (ftl::simulator_bytes) counts a full cache's lines: each
// line's record and tokens, in proportion to the capacity; nothing with the cache off.
TEST(DataCache, TheMemoryEstimateCountsAFullCachesLines) {
  const auto extra = [](const config::PlatformConfig& p) {
    config::PlatformConfig off = p;
    off.cache.mode = "off";
    return simulator_bytes(p, true) - simulator_bytes(off, true);
  };
  const config::PlatformConfig small = cached("write_back", 64);
  const config::PlatformConfig large = cached("write_back", 256);
  const config::PlatformConfig wide = cached("write_through", 64, 4);
  EXPECT_EQ(extra(cached("off", 64)), 0u);
  EXPECT_GE(extra(small), 64 * (CacheLines::bytes_per_line(1) + sizeof(uint64_t)));
  EXPECT_EQ(extra(large), 4 * extra(small));
  // A line of four units keeps four tokens: more per line, as many lines.
  EXPECT_GT(extra(wide), extra(small));
  EXPECT_EQ(extra(wide) - extra(small), 64 * 3 * sizeof(Token));
}

}  // namespace
}  // namespace ssd::ftl
