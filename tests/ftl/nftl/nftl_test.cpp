// NFTL against the integrity oracle: the backward spare-area search finds the newest copy and is
// timed one spare read at a time, a full replacement block folds, then a million random and a
// million sequential commands on a full device with the block invariants checked as they go.
#include "ftl/nftl/nftl.h"

#include <gtest/gtest.h>

#include <vector>

#include "tests/ftl/hybrid/block_scheme_fixture.h"

namespace ssd::ftl {
namespace {

using testing::run_one;

class NftlTest : public testing::BlockSchemeTest<Nftl> {
 protected:
  NftlTest() : BlockSchemeTest("nftl") {}
  std::vector<FlashOp> ops_of(OpKind kind) {
    std::vector<FlashOp> found;
    for (const auto& op : device.backend().ops().ops()) {
      if (op.kind == kind) found.push_back(op);
    }
    return found;
  }
  PageId replacement_page(uint32_t p) const { return g.first_page(scheme().replacement(0)) + p; }
};

TEST_F(NftlTest, FirstWritesGoToTheirOffsetInThePrimaryBlock) {
  write_units(0, 8);
  EXPECT_EQ(scheme().replacement(0), kNone);
  for (Lun lun = 0; lun < 8; ++lun)
    EXPECT_EQ(scheme().peek(lun), g.first_page(scheme().primary(0)) + lun);
}

TEST_F(NftlTest, BackwardSearchFindsTheNewestCopy) {
  write_units(0, 8);  // primary pages 0-7
  write_units(3, 1);  // replacement page 0
  write_units(5, 1);  // replacement page 1
  write_units(3, 1);  // replacement page 2: the newest copy of unit 3
  write_units(6, 1);  // replacement page 3
  ASSERT_NE(scheme().replacement(0), kNone);

  EXPECT_EQ(read_units(3, 1), 0u);  // oracle: the newest data
  auto spare = ops_of(OpKind::kSpareRead);
  ASSERT_EQ(spare.size(), 2u);  // pages 3 and 2, newest first
  EXPECT_EQ(spare[0].page, replacement_page(3));
  EXPECT_EQ(spare[1].page, replacement_page(2));
  EXPECT_EQ(spare[0].op_class, OpClass::kHostRead);
  auto reads = ops_of(OpKind::kRead);
  ASSERT_EQ(reads.size(), 1u);
  EXPECT_EQ(reads[0].page, replacement_page(2));

  EXPECT_EQ(read_units(5, 1), 0u);
  EXPECT_EQ(ops_of(OpKind::kSpareRead).size(), 3u);  // pages 3, 2, 1
  EXPECT_EQ(ops_of(OpKind::kRead)[0].page, replacement_page(1));

  EXPECT_EQ(read_units(1, 1), 0u);  // not in the replacement block: all four, then the primary
  EXPECT_EQ(ops_of(OpKind::kSpareRead).size(), 4u);
  EXPECT_EQ(ops_of(OpKind::kRead)[0].page, g.first_page(scheme().primary(0)) + 1);
}

TEST_F(NftlTest, SpareReadsAreChainedAndTheDataReadWaitsForThem) {
  write_units(0, 4);
  for (int i = 0; i < 3; ++i) write_units(2, 1);
  read_units(0, 1);
  const auto& ops = device.backend().ops().ops();
  ASSERT_EQ(ops.back().kind, OpKind::kRead);
  uint32_t expected_after = kNone;
  for (uint32_t i = 0; i < ops.size(); ++i) {
    if (ops[i].kind != OpKind::kSpareRead && ops[i].kind != OpKind::kRead) continue;
    EXPECT_EQ(ops[i].after, expected_after) << "op " << i;
    expected_after = i;
  }
}

TEST_F(NftlTest, UnwrittenAndTrimmedUnitsNeedNoSearch) {
  write_units(0, 4);
  write_units(2, 1);
  run_one(device, CommandKind::kTrim, 2 * spu, spu);
  EXPECT_EQ(read_units(2, 3), 0u);  // unit 2 trimmed, 3 in the primary, 4 never written
  EXPECT_EQ(device.backend().delivered()[0].token, 0u);
  EXPECT_EQ(ops_of(OpKind::kRead).size(), 1u);
}

TEST_F(NftlTest, AFullReplacementBlockFoldsWithTheNewestOfEveryPage) {
  write_units(0, ppb);
  for (uint32_t i = 0; i < ppb; ++i) write_units(i % 5, 1);  // fills the replacement block
  EXPECT_TRUE(device.flash().write_pointer(scheme().replacement(0)) == ppb);
  const BlockId old_primary = scheme().primary(0);
  const BlockId old_replacement = scheme().replacement(0);
  write_units(7, 1);  // no room left: fold, with the new unit 7 in it
  const FtlStats& s = stats();
  EXPECT_EQ(s.gc_invocations, 1u);
  EXPECT_EQ(s.gc_erases, 2u);
  EXPECT_EQ(s.gc_units_copied, ppb - 1);
  EXPECT_EQ(scheme().replacement(0), kNone);
  EXPECT_NE(scheme().primary(0), old_primary);
  EXPECT_EQ(device.flash().write_pointer(old_primary), 0u);
  EXPECT_EQ(device.flash().write_pointer(old_replacement), 0u);
  EXPECT_EQ(ops_of(OpKind::kSpareRead).size(), ppb);  // the fold reads every spare area
  EXPECT_EQ(read_units(0, ppb), 0u);
  testing::check_block_scheme(device);
}

TEST_F(NftlTest, AFoldInTheMiddleOfAWriteKeepsTheUnitsItAlreadyWrote) {
  write_units(0, ppb);
  run_one(device, CommandKind::kTrim, 3 * spu, 2 * spu);     // units 3 and 4 hold no data
  for (uint32_t i = 0; i + 1 < ppb; ++i) write_units(0, 1);  // one replacement page left
  write_units(3, 2);  // unit 3 takes the last page, unit 4 folds: unit 3 must move along
  EXPECT_EQ(stats().gc_invocations, 1u);
  EXPECT_EQ(read_units(0, ppb), 0u) << device.oracle()->first_mismatch();
  testing::check_block_scheme(device);
}

TEST_F(NftlTest, MappingMemoryIsTwoBlocksPerVirtualBlockPlusTheValidBitmap) {
  // 384 virtual blocks x 2 x (2 bytes of block number + 1 byte of next free page) + 6144 bits.
  EXPECT_EQ(device.scheme().mapping_memory_bytes(), 384u * 6 + 6144 / 8);
}

class NftlWorkloads : public NftlTest {
 protected:
  void SetUp() override { fill_device(); }
};

TEST_F(NftlWorkloads, MillionRandomCommandsOnAFullDevice) {
  expect_million_commands_pass(testing::run_random, 42);
  EXPECT_GT(stats().gc_invocations, 10'000u);
}

TEST_F(NftlWorkloads, MillionSequentialCommandsOnAFullDevice) {
  expect_million_commands_pass(testing::run_sequential, 43);
  EXPECT_GT(stats().gc_invocations, 1000u);
}

}  // namespace
}  // namespace ssd::ftl
