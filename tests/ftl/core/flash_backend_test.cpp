// FlashBackend's write counters (WriteCounters) on the tiny platform with 4 units per page: a
// program without ProgramUnits counts the whole page as its class; with them, each class's units
// and the rest of the page as padding, whatever the program's own class; erases, reads and memory
// accesses count nothing; counting goes on with recording off and across commands.
#include "ftl/core/flash_backend.h"

#include <gtest/gtest.h>

#include "tests/ftl/core/core_test_support.h"

namespace ssd::ftl {
namespace {

class WriteCountersTest : public ::testing::Test {
 protected:
  core_test::TinyFlash t{1024};
  const Geometry& g = t.geometry;
  FlashBackend& backend = t.backend;
  Token tokens[4] = {1, 2, 3, 4};
  uint32_t spare[4] = {10, 11, 12, 13};

  // The next page of block `b`.
  PageId next_page(BlockId b) const { return g.first_page(b) + t.flash.write_pointer(b); }
  static ProgramUnits units(uint32_t host, uint32_t mapping, uint32_t gc) {
    ProgramUnits u;
    u.by_class[static_cast<int>(OpClass::kHostWrite)] = host;
    u.by_class[static_cast<int>(OpClass::kMapping)] = mapping;
    u.by_class[static_cast<int>(OpClass::kGc)] = gc;
    return u;
  }
};

TEST_F(WriteCountersTest, StartAtZero) {
  for (int c = 0; c < kOpClasses; ++c) EXPECT_EQ(backend.written().units[c], 0u);
  EXPECT_EQ(backend.written().padded, 0u);
}

TEST_F(WriteCountersTest, AProgramWithoutUnitsCountsTheWholePageAsItsClass) {
  backend.program(next_page(0), tokens, spare, OpClass::kHostWrite);
  EXPECT_EQ(backend.written().of(OpClass::kHostWrite), 4u);
  backend.program(next_page(0), tokens, spare, OpClass::kGc);
  backend.program(next_page(0), tokens, spare, OpClass::kMapping);
  EXPECT_EQ(backend.written().of(OpClass::kHostWrite), 4u);
  EXPECT_EQ(backend.written().of(OpClass::kGc), 4u);
  EXPECT_EQ(backend.written().of(OpClass::kMapping), 4u);
  EXPECT_EQ(backend.written().of(OpClass::kHostRead), 0u);
  EXPECT_EQ(backend.written().padded, 0u);
}

TEST_F(WriteCountersTest, AProgramWithUnitsCountsEachClassAndPadsTheRest) {
  const uint32_t op =
      backend.program(next_page(0), tokens, spare, OpClass::kGc, kNone, units(1, 2, 0));
  EXPECT_EQ(backend.written().of(OpClass::kHostWrite), 1u);
  EXPECT_EQ(backend.written().of(OpClass::kMapping), 2u);
  EXPECT_EQ(backend.written().of(OpClass::kGc), 0u);  // the program's class counts no unit
  EXPECT_EQ(backend.written().padded, 1u);
  EXPECT_EQ(backend.ops()[op].op_class, OpClass::kGc);
  EXPECT_EQ(backend.ops()[op].kind, OpKind::kProgram);
  EXPECT_EQ(backend.ops()[op].bytes, 4096u);  // the whole page crosses the channel
}

TEST_F(WriteCountersTest, AFullProgramUnitsHasNoPaddingAndAnEmptyOneIsAllPadding) {
  backend.program(next_page(0), tokens, spare, OpClass::kHostWrite, kNone, units(0, 0, 4));
  EXPECT_EQ(backend.written().of(OpClass::kGc), 4u);
  EXPECT_EQ(backend.written().padded, 0u);
  backend.program(next_page(0), tokens, spare, OpClass::kHostWrite, kNone, ProgramUnits{});
  EXPECT_EQ(backend.written().of(OpClass::kHostWrite), 0u);
  EXPECT_EQ(backend.written().padded, 4u);
}

TEST_F(WriteCountersTest, ErasesReadsAndMemoryAccessesCountNothing) {
  backend.program(next_page(5), tokens, spare, OpClass::kHostWrite);
  const WriteCounters before = backend.written();
  backend.read(g.first_page(5), 4, OpClass::kHostRead);
  backend.read(g.first_page(5), 2, OpClass::kGc);
  backend.read_spare(g.first_page(5), 16, OpClass::kMapping);
  backend.erase(5, OpClass::kGc);
  backend.dram(true, 4096, OpClass::kHostWrite);
  backend.nvram(true, 512, OpClass::kMapping);
  EXPECT_EQ(backend.ops().size(), 7u);
  for (int c = 0; c < kOpClasses; ++c) EXPECT_EQ(backend.written().units[c], before.units[c]);
  EXPECT_EQ(backend.written().padded, before.padded);
  EXPECT_EQ(before.of(OpClass::kHostWrite), 4u);
}

TEST_F(WriteCountersTest, ProgramsCountWithRecordingOff) {
  backend.set_recording(false);
  EXPECT_EQ(
      backend.program(next_page(0), tokens, spare, OpClass::kHostWrite, kNone, units(3, 0, 0)),
      kNone);
  EXPECT_EQ(backend.ops().size(), 0u);
  EXPECT_EQ(backend.written().of(OpClass::kHostWrite), 3u);
  EXPECT_EQ(backend.written().padded, 1u);
  EXPECT_EQ(t.flash.write_pointer(0), 1u);
}

TEST_F(WriteCountersTest, CountsSurviveTheNextCommand) {
  backend.program(next_page(0), tokens, spare, OpClass::kMapping);
  backend.begin_command();
  EXPECT_EQ(backend.ops().size(), 0u);
  backend.program(next_page(0), tokens, spare, OpClass::kMapping, kNone, units(0, 1, 0));
  EXPECT_EQ(backend.written().of(OpClass::kMapping), 5u);
  EXPECT_EQ(backend.written().padded, 3u);
}

}  // namespace
}  // namespace ssd::ftl
