// Block mapping against the integrity oracle: directed cases for in-place writes, block copies on
// update, skipped pages and trims, then a million random and a million sequential commands on a
// full device with the block invariants checked as they go.
#include "ftl/block/block_mapping.h"

#include <gtest/gtest.h>

#include <stdexcept>

#include "tests/ftl/hybrid/block_scheme_fixture.h"

namespace ssd::ftl {
namespace {

using testing::run_one;

class BlockMappingTest : public testing::BlockSchemeTest<BlockMapping> {
 protected:
  BlockMappingTest() : BlockSchemeTest("block") {}
  uint32_t count_ops(OpKind kind, OpClass op_class) {
    uint32_t n = 0;
    for (const auto& op : device.backend().ops().ops())
      n += op.kind == kind && op.op_class == op_class;
    return n;
  }
};

TEST(BlockMappingConstruction, RefusesMappingUnitsSmallerThanAPage) {
  config::PlatformConfig p = testing::tiny_platform(2048);
  p.ftl.scheme = "block";
  try {
    FtlDevice device(p, FtlDeviceOptions{});
    FAIL() << "constructed with 2 KiB units";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("ftl.mapping_unit_bytes"), std::string::npos) << e.what();
  }
}

TEST_F(BlockMappingTest, SequentialWritesOfABlockAreProgrammedInPlace) {
  EXPECT_EQ(write_units(0, ppb), 0u);
  EXPECT_EQ(count_ops(OpKind::kProgram, OpClass::kHostWrite), ppb);
  EXPECT_EQ(stats().gc_invocations, 0u);
  const BlockId block = scheme().block_of(0);
  for (uint32_t o = 0; o < ppb; ++o) EXPECT_EQ(scheme().peek(o), g.first_page(block) + o);
  EXPECT_EQ(read_units(0, ppb), 0u);
}

TEST_F(BlockMappingTest, UpdateOfAWrittenPageCopiesTheBlock) {
  write_units(0, 4);
  const BlockId before = scheme().block_of(0);
  write_units(1, 1);
  const FtlStats& s = stats();
  EXPECT_EQ(s.gc_invocations, 1u);
  EXPECT_EQ(s.gc_units_copied, 3u);  // units 0, 2 and 3 move with the new unit 1
  EXPECT_EQ(s.gc_erases, 1u);
  EXPECT_EQ(written(OpClass::kHostWrite), 5u);  // the new unit 1 in the merge too
  EXPECT_EQ(written(OpClass::kGc), 3u);
  EXPECT_EQ(count_ops(OpKind::kRead, OpClass::kGc), 3u);
  EXPECT_EQ(count_ops(OpKind::kProgram, OpClass::kGc), 4u);
  EXPECT_EQ(count_ops(OpKind::kErase, OpClass::kGc), 1u);
  EXPECT_NE(scheme().block_of(0), before);
  EXPECT_EQ(device.flash().write_pointer(before), 0u);
  EXPECT_EQ(read_units(0, 4), 0u);
  testing::check_block_scheme(device);
}

TEST_F(BlockMappingTest, WriteBeyondTheNextFreePageSkipsPagesWithoutACopy) {
  write_units(5, 1);
  write_units(9, 2);
  EXPECT_EQ(stats().gc_invocations, 0u);
  EXPECT_EQ(device.flash().write_pointer(scheme().block_of(0)), 11u);
  // Page 2 was skipped: it can no longer be programmed, so writing it copies the block.
  write_units(2, 1);
  EXPECT_EQ(stats().gc_invocations, 1u);
  EXPECT_EQ(stats().gc_units_copied, 3u);
  EXPECT_EQ(read_units(0, ppb), 0u);
  testing::check_block_scheme(device);
}

TEST_F(BlockMappingTest, TrimmedUnitsReadAsZeroesAndAreNotCopied) {
  write_units(0, 4);
  run_one(device, CommandKind::kTrim, 2 * spu, spu);
  EXPECT_EQ(read_units(0, 4), 0u);
  EXPECT_EQ(device.backend().delivered()[2].token, 0u);
  write_units(0, 1);  // copy: units 1 and 3 only
  EXPECT_EQ(stats().gc_units_copied, 2u);
  EXPECT_EQ(read_units(0, 4), 0u);
}

TEST_F(BlockMappingTest, PartialWriteReadsTheOldPageFirst) {
  write_units(0, 1);
  run_one(device, CommandKind::kWrite, 1, 2);  // two sectors inside unit 0
  EXPECT_EQ(count_ops(OpKind::kRead, OpClass::kHostWrite), 1u);
  EXPECT_EQ(read_units(0, 1), 0u);
}

TEST_F(BlockMappingTest, ConsecutiveLogicalBlocksLiveOnDifferentDies) {
  write_units(0, ppb * g.dies());
  std::vector<bool> used(g.dies(), false);
  for (uint32_t lbn = 0; lbn < g.dies(); ++lbn) used[g.die_of_block(scheme().block_of(lbn))] = true;
  for (uint32_t d = 0; d < g.dies(); ++d) EXPECT_TRUE(used[d]) << "die " << d;
}

TEST_F(BlockMappingTest, MappingMemoryIsPerLogicalBlockPlusTheValidBitmap) {
  // 384 logical blocks x (2 bytes of block number + 1 byte of next free page) + 6144 bits.
  EXPECT_EQ(device.scheme().mapping_memory_bytes(), 384u * 3 + 6144 / 8);
}

class BlockMappingWorkloads : public BlockMappingTest {
 protected:
  void SetUp() override { fill_device(); }
};

TEST_F(BlockMappingWorkloads, MillionRandomCommandsOnAFullDevice) {
  expect_million_commands_pass(testing::run_random, 42);
  EXPECT_GT(stats().gc_invocations, 100'000u);  // nearly every update copies a block
  EXPECT_GT(stats().gc_units_copied, 0u);
}

TEST_F(BlockMappingWorkloads, MillionSequentialCommandsOnAFullDevice) {
  expect_million_commands_pass(testing::run_sequential, 43);
  EXPECT_GT(stats().gc_invocations, 1000u);
}

}  // namespace
}  // namespace ssd::ftl
