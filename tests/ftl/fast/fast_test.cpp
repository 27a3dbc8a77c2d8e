// FAST against the integrity oracle: the sequential log block's switch and partial merges, random
// updates in the fully-associative log, full merges that keep every valid page, the log-block
// budget from the platform, then a million random and a million sequential commands on a full
// device with the block invariants checked as they go.
#include "ftl/fast/fast_ftl.h"

#include <gtest/gtest.h>

#include "ftl/core/ftl_device.h"
#include "ftl/fast/fast_settings.h"
#include "tests/ftl/hybrid/block_scheme_fixture.h"

namespace ssd::ftl {
namespace {

using testing::run_one;

class FastTest : public testing::BlockSchemeTest<FastFtl> {
 protected:
  FastTest() : BlockSchemeTest("fast") {}
};

TEST_F(FastTest, LogBlockBudgetComesFromThePlatform) {
  EXPECT_EQ(scheme().log_blocks(), 15u);  // round(0.03 x 512)
  config::PlatformConfig more = platform;
  more.ftl.settings.edit<FastSettings>().log_blocks_ratio = 0.1;
  FtlDevice other(more, FtlDeviceOptions{});
  EXPECT_EQ(dynamic_cast<const FastFtl&>(other.scheme()).log_blocks(), 51u);
}

TEST_F(FastTest, FreshPagesAreWrittenInTheDataBlock) {
  write_units(0, ppb);
  EXPECT_EQ(scheme().sequential_log(), kNone);
  EXPECT_EQ(scheme().random_logs(), 0u);
  for (Lun lun = 0; lun < ppb; ++lun) {
    EXPECT_EQ(scheme().peek(lun), g.first_page(scheme().data_block(0)) + lun);
  }
}

TEST_F(FastTest, ACompleteSequentialRewriteIsASwitchMerge) {
  write_units(0, ppb);
  const BlockId old = scheme().data_block(0);
  write_units(0, ppb);  // offset 0 starts the SW log block, the rest follows in order
  const BlockId sw = scheme().sequential_log();
  ASSERT_NE(sw, kNone);
  write_units(ppb, 1);  // fresh: in place, no merge
  write_units(0, 1);    // offset 0 again: the SW log block is merged first
  EXPECT_EQ(scheme().merges().switches, 1u);
  EXPECT_EQ(stats().gc_units_copied, 0u);
  EXPECT_EQ(scheme().data_block(0), sw);
  EXPECT_EQ(device.flash().write_pointer(old), 0u);
  EXPECT_EQ(read_units(0, ppb), 0u);
  testing::check_block_scheme(device);
}

TEST_F(FastTest, AShortSequentialRunIsCompletedByAPartialMerge) {
  write_units(0, ppb);
  write_units(0, 6);      // SW log block holds pages 0-5
  write_units(ppb, ppb);  // logical block 1, in place
  write_units(ppb, 1);    // its offset 0: the SW log block of block 0 is merged
  EXPECT_EQ(scheme().merges().partials, 1u);
  EXPECT_EQ(stats().gc_units_copied, ppb - 6);  // pages 6-15 from the old data block
  EXPECT_EQ(read_units(0, 2 * ppb), 0u);
  testing::check_block_scheme(device);
}

TEST_F(FastTest, RandomUpdatesGoToTheRandomLog) {
  write_units(0, ppb);
  write_units(3, 1);
  write_units(7, 2);
  EXPECT_EQ(scheme().random_logs(), 1u);
  const PageId log_page = scheme().peek(3);
  EXPECT_NE(g.block_of_page(log_page), scheme().data_block(0));
  EXPECT_EQ(read_units(0, ppb), 0u);
}

TEST_F(FastTest, FullMergeKeepsEveryValidPage) {
  // Sixteen logical blocks written whole, two units trimmed, then updates of distinct units
  // (none superseded) until every RW log block is full and the oldest must be merged.
  constexpr uint32_t kBlocks = 16;
  write_units(0, kBlocks * ppb);
  run_one(device, CommandKind::kTrim, (ppb - 1) * spu, 2 * spu);  // last of block 0, first of 1
  const uint32_t rw_pages = (scheme().log_blocks() - 1) * ppb;
  ASSERT_LE(rw_pages, kBlocks * (ppb - 1));
  for (uint32_t i = 0; i < rw_pages; ++i) write_units((i % kBlocks) * ppb + 1 + i / kBlocks, 1);
  EXPECT_EQ(scheme().merges().fulls, 0u);
  write_units(2 * ppb + 3, 1);                  // no RW log block left: the oldest is merged
  EXPECT_EQ(scheme().merges().fulls, kBlocks);  // its 16 pages belong to 16 logical blocks
  EXPECT_EQ(scheme().random_logs(), scheme().log_blocks() - 1);
  for (uint32_t lbn = 0; lbn < kBlocks; ++lbn) {  // merged: every valid unit at its offset
    for (uint32_t o = 0; o < ppb; ++o) {
      const Lun lun = lbn * ppb + o;
      if (scheme().unit_valid(lun) && !(lbn == 2 && o == 3)) {
        EXPECT_EQ(scheme().peek(lun), g.first_page(scheme().data_block(lbn)) + o) << lun;
      }
    }
  }
  EXPECT_EQ(stats().gc_units_copied, kBlocks * ppb - 2);  // all but the two trimmed units
  EXPECT_EQ(read_units(0, kBlocks * ppb), 0u) << device.oracle()->first_mismatch();
  testing::check_block_scheme(device);
}

TEST_F(FastTest, MappingMemoryCountsDataMapLogMapAndBitmap) {
  // 384 x (2 + 1) + 15 log blocks x (2 + 16 pages x 2 bytes) + 6144 / 8.
  EXPECT_EQ(device.scheme().mapping_memory_bytes(), 384u * 3 + 15u * (2 + 16 * 2) + 768);
}

class FastWorkloads : public FastTest {
 protected:
  void SetUp() override {
    check = [this] {
      testing::check_block_scheme(device);
      ASSERT_LE(scheme().random_logs() + 1, scheme().log_blocks());
    };
    fill_device();
  }
};

TEST_F(FastWorkloads, MillionRandomCommandsOnAFullDevice) {
  expect_million_commands_pass(testing::run_random, 42);
  EXPECT_GT(scheme().merges().fulls, 10'000u);
}

TEST_F(FastWorkloads, MillionSequentialCommandsOnAFullDevice) {
  expect_million_commands_pass(testing::run_sequential, 43);
  EXPECT_GT(scheme().merges().switches + scheme().merges().partials, 10'000u);
}

}  // namespace
}  // namespace ssd::ftl
