// Copy-back (nand.copyback) in the NAND timing: one operation that reads a page into the die's
// page register and programs it into another page of the same plane, two commands on the
// channel and no data; per-page-type times; and its place in the per-block order, where it is a
// program of its destination block and a read of its source block.
#include <gtest/gtest.h>

#include "models/nand/nand_timing.h"
#include "tests/models/nand_test_timings.h"

namespace ssd::models {
namespace {

using namespace test;  // the round timings
using ftl::FlashOp;
using ftl::OpClass;
using ftl::OpKind;

constexpr uint32_t kPagesPerBlock = 4;

// Two channels, four dies (dies 0 and 2 share channel 0), blocks of four pages.
NandTimingParams params() {
  NandTimingParams p = round_timings(2, 4);
  p.pages_per_block = kPagesPerBlock;
  p.blocks = 64;
  return p;
}

ftl::PageId page_of(ftl::BlockId block, uint32_t offset) { return block * kPagesPerBlock + offset; }

FlashOp copy_back(uint32_t die, ftl::PageId from, ftl::PageId to, OpClass op_class = OpClass::kGc) {
  return FlashOp{OpKind::kCopyback, op_class, die, 0, ftl::kNone, to, from};
}

TEST(NandCopyback, TakesTwoCommandsAReadAndAProgramAndNoTransfer) {
  NandTiming nand(params());
  EXPECT_EQ(nand.schedule(copy_back(0, page_of(1, 0), page_of(2, 0)), 0), 2 * kCmd + kRead + kProg);
  EXPECT_EQ(nand.counters().count(OpKind::kCopyback), 1u);
  EXPECT_EQ(nand.counters().bytes[static_cast<size_t>(OpKind::kCopyback)], 0u);
  EXPECT_EQ(nand.counters().channel_busy_ps[0], 2 * kCmd);
}

TEST(NandCopyback, LeavesTheChannelToTheOtherDie) {
  // Die 2 shares die 0's channel: its read's data-out goes while die 0 copies, where a read and
  // program through the controller would have put a page out and a page in on that channel.
  NandTiming nand(params());
  nand.schedule(copy_back(0, page_of(1, 0), page_of(2, 0), OpClass::kHostWrite), 0);
  EXPECT_EQ(nand.schedule(on_page(OpKind::kRead, OpClass::kHostRead, 2, page_of(33, 0)), 0),
            2 * kCmd + kCmd + kRead + kXfer);  // its command waited for die 0's two only
}

TEST(NandCopyback, ReadsWithTheSourcesPageTypeAndProgramsWithTheDestinations) {
  NandTimingParams p = params();
  p.t_read_by_type = {kRead, 2 * kRead};
  p.t_program_by_type = {kProg, 3 * kProg};
  NandTiming nand(p);
  // Source offset 1 (MSB), destination offset 0 (LSB).
  EXPECT_EQ(nand.schedule(copy_back(0, page_of(1, 1), page_of(2, 0)), 0),
            2 * kCmd + 2 * kRead + kProg);
}

TEST(NandCopyback, WaitsForTheEraseOfItsDestinationAndTheProgramOfItsSource) {
  NandTiming nand(params());
  const Picoseconds erase_end =
      nand.schedule(on_page(OpKind::kErase, OpClass::kHostWrite, 0, page_of(2, 0)), 0);
  EXPECT_EQ(nand.schedule(copy_back(0, page_of(1, 0), page_of(2, 0), OpClass::kHostWrite), 0),
            erase_end + 2 * kCmd + kRead + kProg);

  NandTiming other(params());
  const Picoseconds program_end =
      other.schedule(on_page(OpKind::kProgram, OpClass::kHostWrite, 0, page_of(1, 0)), 0);
  EXPECT_EQ(other.schedule(copy_back(0, page_of(1, 0), page_of(2, 0), OpClass::kHostWrite), 0),
            program_end + 2 * kCmd + kRead + kProg);
}

TEST(NandCopyback, TheSourceBlocksEraseWaitsForIt) {
  // The copy-back is ready only at 1 ms (it waits on something else); an erase of its source
  // block, ready at once, still goes after it.
  NandTiming nand(params());
  const Picoseconds late = 1'000'000'000;
  const Picoseconds copied =
      nand.schedule(copy_back(0, page_of(1, 0), page_of(2, 0), OpClass::kHostWrite), late);
  EXPECT_EQ(nand.schedule(on_page(OpKind::kErase, OpClass::kHostWrite, 0, page_of(1, 0)), 0),
            copied + kCmd + kErase);
}

TEST(NandCopyback, AReadOfTheCopyNeverWaitsForIt) {
  // Placed but not done (ready only at 1 ms): a read of the destination page goes first and
  // reads the source page, which stays valid until its block's erase, after the copy.
  NandTiming placed(params());
  const Picoseconds late = 1'000'000'000;
  placed.schedule(copy_back(0, page_of(1, 0), page_of(2, 0), OpClass::kHostWrite), late);
  EXPECT_EQ(placed.schedule(on_page(OpKind::kRead, OpClass::kHostRead, 0, page_of(2, 0)), 0),
            kCmd + kRead + kXfer);
  // A program of the page in its place (no copy-back) is waited for.
  NandTiming programmed(params());
  const Picoseconds program_end =
      programmed.schedule(on_page(OpKind::kProgram, OpClass::kHostWrite, 0, page_of(2, 0)), late);
  EXPECT_EQ(programmed.schedule(on_page(OpKind::kRead, OpClass::kHostRead, 0, page_of(2, 0)), 0),
            program_end + kCmd + kRead + kXfer);
  // Queued as GC: the read is served from the source page at once, as for any queued GC copy.
  NandTiming queued(params());
  queued.schedule(copy_back(0, page_of(1, 0), page_of(2, 0)), 0);
  EXPECT_EQ(queued.schedule(on_page(OpKind::kRead, OpClass::kHostRead, 0, page_of(2, 0)), 0),
            kCmd + kRead + kXfer);
}

TEST(NandCopyback, ParamsFromConfig) {
  config::PlatformConfig cfg;
  cfg.nand.copyback = true;  // an FTL choice: the NAND timing is the same either way
  const NandTimingParams p = NandTimingParams::from_config(cfg);
  NandTiming nand(p);
  EXPECT_EQ(nand.schedule(copy_back(0, 0, p.pages_per_block), 0),
            2 * p.t_command + p.t_read + p.t_program);
}

}  // namespace
}  // namespace ssd::models
