// NandTiming without SystemC: every expected time is written out from the parameters below.
#include "models/nand/nand_timing.h"

#include <gtest/gtest.h>

#include "tests/models/nand_test_timings.h"

namespace ssd::models {
namespace {

using ftl::FlashOp;
using ftl::OpClass;
using ftl::OpKind;

using namespace test;  // the round timings

// 2 channels, 4 dies (dies 0 and 2 on channel 0, dies 1 and 3 on channel 1).
NandTimingParams test_params() { return round_timings(2, 4); }

FlashOp op(OpKind kind, OpClass op_class, uint32_t die, uint32_t bytes) {
  return FlashOp{kind, op_class, die, bytes, ftl::kNone, 0};
}
FlashOp host_read(uint32_t die) { return op(OpKind::kRead, OpClass::kHostRead, die, kPage); }
FlashOp host_program(uint32_t die) { return op(OpKind::kProgram, OpClass::kHostWrite, die, kPage); }
FlashOp gc_program(uint32_t die) { return op(OpKind::kProgram, OpClass::kGc, die, kPage); }
FlashOp gc_erase(uint32_t die) { return op(OpKind::kErase, OpClass::kGc, die, 0); }

TEST(NandTiming, ReadOnIdleDieTakesCommandArrayTimeAndTransfer) {
  NandTiming nand(test_params());
  EXPECT_EQ(nand.schedule(host_read(0), 1'000), 1'000 + kCmd + kRead + kXfer);
}

TEST(NandTiming, ParamsFromConfigUseTheChannelRate) {
  config::PlatformConfig cfg;  // 333 MT/s, 1 byte wide, 7 command/address cycles, tR 50 us
  const NandTimingParams p = NandTimingParams::from_config(cfg);
  EXPECT_EQ(p.channels, 2u);
  EXPECT_EQ(p.dies, 4u);
  EXPECT_EQ(p.t_command, 21'021u);  // 7 * 1e6 / 333 = 21021.02 ps
  EXPECT_DOUBLE_EQ(p.ps_per_byte, 1e6 / 333.0);
  EXPECT_EQ(p.t_read, 50'000'000u);
  EXPECT_EQ(p.t_spare_read, 20'000'000u);
  EXPECT_EQ(p.t_program, 500'000'000u);
  EXPECT_EQ(p.t_erase, 3'000'000'000u);

  NandTiming nand(p);
  // 4096 B * 3003.003 ps/B = 12'300'300.3 ps, rounded once per transfer.
  EXPECT_EQ(nand.schedule(host_read(0), 0), 21'021u + 50'000'000u + 12'300'300u);
}

TEST(NandTiming, TwoReadsOnOneChannelContendOnlyForTheBus) {
  NandTiming nand(test_params());
  const Picoseconds first = nand.schedule(host_read(0), 0);
  // Die 2 shares channel 0: its command goes while die 0 reads its array, its tR overlaps die
  // 0's, and only its data-out waits for die 0's data-out.
  const Picoseconds second = nand.schedule(host_read(2), 0);
  EXPECT_EQ(first, kCmd + kRead + kXfer);
  EXPECT_EQ(second, first + kXfer);
}

TEST(NandTiming, TwoReadsOnOneDieRunOneAfterTheOther) {
  NandTiming nand(test_params());
  const Picoseconds first = nand.schedule(host_read(0), 0);
  // The die holds the first page in its register until the data-out ends.
  EXPECT_EQ(nand.schedule(host_read(0), 0), first + kCmd + kRead + kXfer);
}

TEST(NandTiming, ProgramDelaysReadOnAnotherDieOnlyByItsTransfer) {
  NandTiming nand(test_params());
  const Picoseconds program = nand.schedule(host_program(0), 0);
  const Picoseconds read = nand.schedule(host_read(2), 0);
  EXPECT_EQ(program, kCmd + kXfer + kProg);
  // The read's command waits for the program's command and data-in, not for tPROG.
  EXPECT_EQ(read, (kCmd + kXfer) + kCmd + kRead + kXfer);
  EXPECT_LT(read, program);
}

TEST(NandTiming, ReadsOnDifferentChannelsDoNotInteract) {
  NandTiming nand(test_params());
  EXPECT_EQ(nand.schedule(host_read(0), 0), kCmd + kRead + kXfer);
  EXPECT_EQ(nand.schedule(host_read(1), 0), kCmd + kRead + kXfer);
  // Nor does a program on channel 0 delay a read on channel 1.
  NandTiming other(test_params());
  EXPECT_EQ(other.schedule(host_program(0), 0), kCmd + kXfer + kProg);
  EXPECT_EQ(other.schedule(host_read(3), 0), kCmd + kRead + kXfer);
}

TEST(NandTiming, EraseHoldsTheDieForCommandAndBlockErase) {
  NandTiming nand(test_params());
  const Picoseconds erase = nand.schedule(gc_erase(0), 0);
  EXPECT_EQ(erase, kCmd + kErase);
  // A read on the same die arriving after the erase started waits for it.
  EXPECT_EQ(nand.schedule(host_read(0), 1'000), erase + kCmd + kRead + kXfer);
  // Only the command used the channel: a read on the other die of the channel, once that command
  // is over, is not delayed.
  EXPECT_EQ(nand.schedule(host_read(2), kCmd), kCmd + kCmd + kRead + kXfer);
}

TEST(NandTiming, SpareReadUsesItsOwnArrayTime) {
  NandTiming nand(test_params());
  EXPECT_EQ(nand.schedule(op(OpKind::kSpareRead, OpClass::kHostRead, 0, kSpare), 0),
            kCmd + kSpareRead + kSpare * 1000);
}

TEST(NandTiming, HostReadGoesAheadOfQueuedWritesAndGcAfterHostWrites) {
  NandTiming nand(test_params());
  // In progress on die 0 from time 0: a GC erase. Then, while it runs, a host write and a GC
  // program queue behind it, in that order.
  const Picoseconds erase_end = nand.schedule(gc_erase(0), 0);
  ASSERT_EQ(erase_end, kCmd + kErase);
  constexpr Picoseconds kProgram = kCmd + kXfer + kProg;  // die time of one program
  EXPECT_EQ(nand.schedule(host_program(0), 1'000), erase_end + kProgram);
  EXPECT_EQ(nand.schedule(gc_program(0), 2'000), erase_end + 2 * kProgram);

  // A host read arriving later cannot interrupt the erase but goes ahead of both.
  const Picoseconds read_end = nand.schedule(host_read(0), 3'000);
  EXPECT_EQ(read_end, erase_end + kCmd + kRead + kXfer);

  // The queue is now: erase, read, host program, GC program. Another GC op goes to the back.
  EXPECT_EQ(nand.schedule(gc_erase(0), 4'000), read_end + 2 * kProgram + kCmd + kErase);
  // A second host write goes after the first (FIFO within a class) but ahead of both GC ops.
  EXPECT_EQ(nand.schedule(host_program(0), 5'000), read_end + 2 * kProgram);
  // Which pushed the GC program and GC erase back by one program: a last GC op shows it.
  EXPECT_EQ(nand.schedule(gc_erase(0), 6'000), read_end + 3 * kProgram + 2 * (kCmd + kErase));
}

TEST(NandTiming, MovedReservationsFreeTheChannelForTheOvertakingRead) {
  NandTiming nand(test_params());
  const Picoseconds erase_end = nand.schedule(gc_erase(0), 0);
  // A GC program queued behind the erase has its command and data-in reserved on the channel
  // right after the erase; a host read that overtakes it gets that channel time.
  nand.schedule(gc_program(0), 1'000);
  const Picoseconds read_end = nand.schedule(host_read(0), 2'000);
  EXPECT_EQ(read_end, erase_end + kCmd + kRead + kXfer);
  // The GC program's channel slot moved with it: an erase on die 2 (same channel) issued just
  // after the read's command gets the bus at once, where the old slot would have held it for a
  // whole data-in.
  const Picoseconds after_read_command = erase_end + kCmd;
  EXPECT_EQ(nand.schedule(gc_erase(2), after_read_command), after_read_command + kCmd + kErase);
}

TEST(NandTiming, OvertakenWorkOutOfReachStaysWhereItWas) {
  NandTiming nand(test_params());
  const Picoseconds erase_end = nand.schedule(gc_erase(0), 0);
  // A GC program reserved after the erase, with the die idle for a while in between.
  constexpr Picoseconds kLater = 4'000'000'000;  // 4 ms
  constexpr Picoseconds kProgram = kCmd + kXfer + kProg;
  EXPECT_EQ(nand.schedule(gc_program(0), kLater), kLater + kProgram);
  // A host read fits in the idle time after the erase and leaves the GC program in place...
  EXPECT_EQ(nand.schedule(host_read(0), 1'000), erase_end + kCmd + kRead + kXfer);
  // ...as a GC erase queued behind it shows (it is too long for the idle time before it).
  EXPECT_EQ(nand.schedule(gc_erase(0), 2'000), kLater + kProgram + kCmd + kErase);
}

TEST(NandTiming, CountsOperationsAndBusyTime) {
  NandTiming nand(test_params());
  nand.schedule(host_read(0), 0);
  nand.schedule(host_read(2), 0);
  nand.schedule(host_program(1), 0);
  nand.schedule(gc_erase(3), 0);
  const NandCounters& c = nand.counters();
  EXPECT_EQ(c.count(OpKind::kRead), 2u);
  EXPECT_EQ(c.count(OpKind::kProgram), 1u);
  EXPECT_EQ(c.count(OpKind::kErase), 1u);
  EXPECT_EQ(c.count(OpKind::kSpareRead), 0u);
  EXPECT_EQ(c.bytes[static_cast<size_t>(OpKind::kRead)], 2u * kPage);
  EXPECT_EQ(c.die_busy_ps[0], kCmd + kRead + kXfer);
  // Die 2 waited one transfer for the bus with the page in its register.
  EXPECT_EQ(c.die_busy_ps[2], kCmd + kRead + 2 * kXfer - kCmd);
  EXPECT_EQ(c.die_busy_ps[1], kCmd + kXfer + kProg);
  EXPECT_EQ(c.channel_busy_ps[0], 2 * (kCmd + kXfer));
  // Channel 1: the program's command and data-in, then the erase's command.
  EXPECT_EQ(c.channel_busy_ps[1], (kCmd + kXfer) + kCmd);
}

}  // namespace
}  // namespace ssd::models

namespace ssd::models {
namespace {

// A GC batch reserved far ahead (each operation ready when the previous ends) must not block a
// host read that arrives while the batch runs: the read waits only for the operation in progress.
TEST(NandTimingPriority, HostReadOvertakesALongChainedGcBatch) {
  config::PlatformConfig platform;
  platform.nand.channels = 2;
  platform.nand.chips_per_channel = 2;
  NandTiming timing(NandTimingParams::from_config(platform));
  const auto& p = timing.params();
  // GC reads a victim (block 1) into another block (2); the host reads block 3.
  const ftl::PageId victim = p.pages_per_block;
  const ftl::PageId gc_block = 2 * p.pages_per_block;
  const ftl::PageId host_block = 3 * p.pages_per_block;
  Picoseconds done = 0;
  for (uint32_t i = 0; i < 50; ++i) {
    done = timing.schedule(
        ftl::FlashOp{ftl::OpKind::kRead, ftl::OpClass::kGc, 0, 4096, ftl::kNone, victim + i}, done);
    done = timing.schedule(
        ftl::FlashOp{ftl::OpKind::kProgram, ftl::OpClass::kGc, 0, 4096, ftl::kNone, gc_block + i},
        done);
  }
  const Picoseconds arrival = 1'000'000'000;  // 1 ms into a batch that lasts about 28 ms
  ASSERT_GT(done, 20 * arrival);
  timing.advance(arrival);
  const Picoseconds read_done = timing.schedule(
      ftl::FlashOp{ftl::OpKind::kRead, ftl::OpClass::kHostRead, 0, 4096, ftl::kNone, host_block},
      arrival);
  const Picoseconds read_alone = p.t_command + p.t_read + timing.transfer_ps(4096);
  const Picoseconds longest_gc_op = p.t_command + timing.transfer_ps(4096) + p.t_program;
  EXPECT_LE(read_done, arrival + longest_gc_op + read_alone);
  EXPECT_GE(read_done, arrival + read_alone);
}

}  // namespace
}  // namespace ssd::models

namespace ssd::models {
namespace {

// What ftl.placement=least_busy_die compares: when the work reserved on a die, or queued GC
// behind it, ends.
TEST(NandTimingLoad, WorkEndsAfterReservationsAndQueuedGc) {
  NandTiming nand(test::round_timings(2, 4));
  EXPECT_EQ(nand.work_ends(0), 0u);
  const Picoseconds program_end = nand.schedule(
      FlashOp{OpKind::kProgram, OpClass::kHostWrite, 0, test::kPage, ftl::kNone, 0}, 0);
  EXPECT_EQ(nand.work_ends(0), program_end);
  EXPECT_EQ(nand.work_ends(1), 0u);  // other dies stay idle
  // GC queued on die 1 (not placed yet) counts where it is planned to end.
  const Picoseconds erase_end =
      nand.schedule(FlashOp{OpKind::kErase, OpClass::kGc, 1, 0, ftl::kNone, 0}, 0);
  EXPECT_EQ(nand.queued_gc_ops(), 1u);
  EXPECT_EQ(nand.work_ends(1), erase_end);
}

}  // namespace
}  // namespace ssd::models
