// The data cache's read-ahead (cache.read_ahead_bytes, ftl/cache/data_cache.h), without timing:
// it starts only after cache.read_ahead_trigger sequential reads, keeps the set amount beyond the
// latest read of the run in the cache, reads each unit ahead once, stops at the device's end,
// marks its work as behind the host, and every scheme's oracle stays clean with it while writes
// and trims change what was read ahead.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "config/validation.h"
#include "ftl/cache/data_cache.h"
#include "ftl/core/ftl_device.h"
#include "ftl/core/random.h"
#include "ftl/scheme_registry.h"
#include "tests/ftl/scheme_workloads.h"
#include "tests/ftl/tiny_platform.h"

namespace ssd::ftl {
namespace {

using testing::run_one;

// The tiny platform (4 KiB pages and units) with a write-back cache of `lines` one-unit lines
// that reads `ahead` units ahead after `trigger` sequential reads.
config::PlatformConfig reading_ahead(uint64_t ahead, uint32_t trigger = 1, uint64_t lines = 64) {
  config::PlatformConfig p = testing::tiny_platform();
  p.cache.mode = "write_back";
  p.cache.capacity_bytes = lines * p.nand.page_bytes;
  p.cache.read_ahead_bytes = ahead * p.nand.page_bytes;
  p.cache.read_ahead_trigger = trigger;
  return p;
}

FtlDeviceOptions with_oracle() {
  FtlDeviceOptions options;
  options.oracle = true;
  return options;
}

// Flash reads the last command recorded, and how many of them run behind the host.
struct Reads {
  uint32_t all = 0;
  uint32_t behind = 0;
};
Reads flash_reads(const FlashBackend& backend) {
  Reads reads;
  for (const FlashOp& op : backend.ops().ops()) {
    if (!is_flash_read(op.kind)) continue;
    ++reads.all;
    if (op.background) ++reads.behind;
  }
  return reads;
}

// Writes and flushes units [0, units) so that reads of them touch flash.
void write_units(FtlDevice& device, uint32_t units) {
  const uint32_t spu = device.geometry().sectors_per_unit;
  ASSERT_EQ(run_one(device, CommandKind::kWrite, 0, units * spu), 0u);
  ASSERT_EQ(run_one(device, CommandKind::kFlush, 0, 0), 0u);
}

uint64_t read_unit(FtlDevice& device, Lun lun) {
  const uint32_t spu = device.geometry().sectors_per_unit;
  return run_one(device, CommandKind::kRead, uint64_t{lun} * spu, spu);
}

// Trigger 2: the first read starts a run, the second continues it (1 in a row), the third makes
// it 2 in a row and reads 4 units ahead of its end behind the host; then each read of the run
// reads one new unit ahead, and the units read ahead are hits that touch no flash.
TEST(ReadAhead, StartsAfterTheTriggerAndStaysTheSetAmountAhead) {
  FtlDevice device(reading_ahead(4, 2), with_oracle());
  write_units(device, 32);
  // Flushed lines stay cached: start from a cache that holds none of them.
  device.data_cache()->clear();
  const CacheCounts& counts = device.data_cache()->counts();

  ASSERT_EQ(read_unit(device, 10), 0u);
  ASSERT_EQ(read_unit(device, 11), 0u);
  EXPECT_EQ(counts.read_ahead_units, 0u);
  EXPECT_EQ(flash_reads(device.backend()).behind, 0u);

  ASSERT_EQ(read_unit(device, 12), 0u);  // 2 in a row: units 13-16 ahead
  EXPECT_EQ(counts.read_ahead_units, 4u);
  EXPECT_EQ(flash_reads(device.backend()).all, 5u);  // its own miss and the four ahead
  EXPECT_EQ(flash_reads(device.backend()).behind, 4u);
  for (Lun lun = 13; lun <= 16; ++lun) EXPECT_TRUE(device.data_cache()->holds(lun)) << lun;
  EXPECT_FALSE(device.data_cache()->holds(17));

  ASSERT_EQ(read_unit(device, 13), 0u);  // a hit; unit 17 ahead
  EXPECT_EQ(flash_reads(device.backend()).all, 1u);
  EXPECT_EQ(flash_reads(device.backend()).behind, 1u);
  EXPECT_TRUE(device.data_cache()->holds(17));
  EXPECT_EQ(counts.read_ahead_units, 5u);
  EXPECT_EQ(counts.read_ahead_hit_units, 1u);

  ASSERT_EQ(read_unit(device, 14), 0u);
  ASSERT_EQ(read_unit(device, 15), 0u);
  EXPECT_EQ(counts.read_ahead_units, 7u);
  EXPECT_EQ(counts.read_ahead_hit_units, 3u);
  EXPECT_EQ(counts.read_miss_units, 3u);  // units 10, 11, 12
}

// A read that does not begin where the previous one ended breaks the run: nothing is read ahead
// until the trigger is reached again.
TEST(ReadAhead, ARandomReadBreaksTheRun) {
  FtlDevice device(reading_ahead(4, 1), with_oracle());
  write_units(device, 64);
  device.data_cache()->clear();
  const CacheCounts& counts = device.data_cache()->counts();
  ASSERT_EQ(read_unit(device, 0), 0u);
  ASSERT_EQ(read_unit(device, 30), 0u);
  ASSERT_EQ(read_unit(device, 5), 0u);
  EXPECT_EQ(counts.read_ahead_units, 0u);
  ASSERT_EQ(read_unit(device, 6), 0u);  // 1 in a row
  EXPECT_EQ(counts.read_ahead_units, 4u);
  for (Lun lun = 7; lun <= 10; ++lun) EXPECT_TRUE(device.data_cache()->holds(lun)) << lun;
}

// A read that ends inside a unit: the run continues at its end sector, and read-ahead begins
// with the next whole unit.
TEST(ReadAhead, FollowsSectorsAndBeginsAfterThePartlyReadUnit) {
  FtlDevice device(reading_ahead(2, 1), with_oracle());
  write_units(device, 16);
  device.data_cache()->clear();
  const uint32_t spu = device.geometry().sectors_per_unit;
  ASSERT_GT(spu, 1u);
  ASSERT_EQ(run_one(device, CommandKind::kRead, 0, spu + 1), 0u);  // unit 0, part of unit 1
  ASSERT_EQ(run_one(device, CommandKind::kRead, spu + 1, 1), 0u);  // continues inside unit 1
  EXPECT_EQ(device.data_cache()->counts().read_ahead_units, 2u);   // units 2 and 3
  EXPECT_TRUE(device.data_cache()->holds(2));
  EXPECT_TRUE(device.data_cache()->holds(3));
  EXPECT_FALSE(device.data_cache()->holds(4));
}

// Read-ahead stops at the last logical unit.
TEST(ReadAhead, StopsAtTheEndOfTheDevice) {
  FtlDevice device(reading_ahead(8, 1), with_oracle());
  const Lun last = static_cast<Lun>(device.geometry().logical_units - 1);
  ASSERT_EQ(read_unit(device, last - 3), 0u);
  ASSERT_EQ(read_unit(device, last - 2), 0u);
  EXPECT_EQ(device.data_cache()->counts().read_ahead_units, 2u);  // last - 1 and last
  EXPECT_TRUE(device.data_cache()->holds(last));
  ASSERT_EQ(read_unit(device, last - 1), 0u);
  ASSERT_EQ(read_unit(device, last), 0u);
  EXPECT_EQ(device.data_cache()->counts().read_ahead_units, 2u);
}

// Data read ahead, then written, trimmed or rewritten below the cache's copy, reads back as the
// oracle expects on every scheme: runs of sequential reads (1 to 8 units each, runs of up to 40
// reads) among random writes (whole and partial units), trims and flushes, with a small cache so
// lines read ahead are evicted too; write-back and write-through, and lines of four units without
// read caching (read-ahead keeps what it reads either way).
TEST(ReadAhead, EverySchemeKeepsTheOracleCleanWithReadAhead) {
  std::vector<std::string> ran;
  for (const std::string& scheme : scheme_names()) {
    struct Case {
      const char* mode;
      uint32_t units_per_line;
      bool read_caching;
    };
    for (const Case c : {Case{"write_back", 1, true}, Case{"write_through", 1, true},
                         Case{"write_back", 4, false}}) {
      config::PlatformConfig p = reading_ahead(16, 2, 48);
      p.cache.mode = c.mode;
      p.cache.line_bytes = c.units_per_line * p.nand.page_bytes;
      p.cache.read_caching = c.read_caching;
      const std::string mode = c.mode;
      p.ftl.scheme = scheme;
      if (config::find_platform_problem(p, scheme_catalog()) || needs_hash_engine(p)) continue;
      SCOPED_TRACE(scheme + " " + mode + " lines of " + std::to_string(c.units_per_line));
      FtlDevice device(p, with_oracle());
      const Geometry& g = device.geometry();
      const uint64_t units = g.logical_units;
      Random random(7);
      uint64_t mismatches = 0;
      for (int run = 0; run < 400; ++run) {
        uint64_t cursor = random.below(units);
        const uint64_t reads = 1 + random.below(40);
        for (uint64_t r = 0; r < reads; ++r) {
          const uint64_t length = 1 + random.below(8);
          if (cursor + length > units) cursor = 0;
          mismatches += run_one(device, CommandKind::kRead, cursor * g.sectors_per_unit,
                                static_cast<uint32_t>(length * g.sectors_per_unit));
          cursor += length;
          // Now and then the data just ahead changes below the cache's copy or in it.
          const uint64_t change = random.below(10);
          const uint64_t at = std::min(cursor + random.below(16), units - 1);
          if (change == 0) {
            run_one(device, CommandKind::kWrite, at * g.sectors_per_unit, g.sectors_per_unit);
          } else if (change == 1) {
            run_one(device, CommandKind::kWrite, at * g.sectors_per_unit + 1, 1);
          } else if (change == 2) {
            run_one(device, CommandKind::kTrim, at * g.sectors_per_unit, g.sectors_per_unit);
          } else if (change == 3) {
            run_one(device, CommandKind::kFlush, 0, 0);
          }
        }
        // Random writes between runs, so that reads find written data.
        for (int w = 0; w < 20; ++w) {
          const uint64_t at = random.below(units - 4);
          run_one(device, CommandKind::kWrite, at * g.sectors_per_unit,
                  static_cast<uint32_t>((1 + random.below(4)) * g.sectors_per_unit));
        }
      }
      EXPECT_EQ(mismatches, 0u) << device.oracle()->first_mismatch();
      EXPECT_EQ(device.oracle()->mismatches(), 0u) << device.oracle()->first_mismatch();
      const CacheCounts& counts = device.data_cache()->counts();
      EXPECT_GT(counts.read_ahead_units, 0u);
      EXPECT_GT(counts.read_ahead_hit_units, 0u);
      EXPECT_GT(counts.evicted_lines, 0u);
      ran.push_back(scheme);
    }
  }
  for (const char* must : {"page", "dftl", "block", "nftl", "fast"}) {
    EXPECT_NE(std::find(ran.begin(), ran.end(), must), ran.end()) << must;
  }
}

}  // namespace
}  // namespace ssd::ftl
