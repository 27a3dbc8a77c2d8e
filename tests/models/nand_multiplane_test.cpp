// Multi-plane operations (nand.multiplane) in the NAND timing: an operation joins one of its
// die's that has not started when it is ready, of the same kind and priority, at the same page
// offset in another plane; the joined operation moves each page's command and data over the
// channel in turn and takes the array once. Expected times are written out from the round
// timings; the per-block order with joins is checked by nand_block_order_test.cpp's property.
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
constexpr uint32_t kBlocksPerPlane = 4;  // blocks 0-3 in plane 0, 4-7 in plane 1 (one die)

NandTimingParams two_planes(bool multiplane) {
  NandTimingParams p = round_timings(1, 1);
  p.pages_per_block = kPagesPerBlock;
  p.planes_per_die = 2;
  p.blocks_per_plane = kBlocksPerPlane;
  p.blocks = 2 * kBlocksPerPlane;
  p.multiplane = multiplane;
  return p;
}

// An operation on page `offset` of `block`, on the one die.
FlashOp at(OpKind kind, OpClass op_class, ftl::BlockId block, uint32_t offset) {
  return on_page(kind, op_class, 0, block * kPagesPerBlock + offset);
}
FlashOp host_program(ftl::BlockId block, uint32_t offset) {
  return at(OpKind::kProgram, OpClass::kHostWrite, block, offset);
}

TEST(NandMultiplane, TwoProgramsAtOneOffsetInTwoPlanesShareTheArrayTime) {
  NandTiming nand(two_planes(true));
  EXPECT_EQ(nand.schedule(host_program(1, 0), 0), kCmd + kXfer + kProg);
  // Ready before the first has started: both pages' commands and data, then one tPROG.
  EXPECT_EQ(nand.schedule(host_program(5, 0), 0), 2 * (kCmd + kXfer) + kProg);
  EXPECT_EQ(nand.counters().joined(OpKind::kProgram), 1u);
  EXPECT_EQ(nand.counters().joined(), 1u);
  EXPECT_EQ(nand.counters().count(OpKind::kProgram), 2u);
  EXPECT_EQ(nand.counters().die_busy_ps[0], 2 * (kCmd + kXfer) + kProg);
  EXPECT_EQ(nand.counters().channel_busy_ps[0], 2 * (kCmd + kXfer));
  const auto slots = nand.reservations(0);
  ASSERT_EQ(slots.size(), 1u);
  EXPECT_EQ(slots[0].block, 1u);
  EXPECT_EQ(slots[0].joined_blocks, std::vector<ftl::BlockId>{5});

  // Off: one program after the other.
  NandTiming single(two_planes(false));
  single.schedule(host_program(1, 0), 0);
  EXPECT_EQ(single.schedule(host_program(5, 0), 0), 2 * (kCmd + kXfer + kProg));
  EXPECT_EQ(single.counters().joined(), 0u);
}

TEST(NandMultiplane, ReadsShareTRAndPutEachPageOut) {
  NandTiming nand(two_planes(true));
  nand.schedule(at(OpKind::kRead, OpClass::kHostRead, 2, 3), 0);
  EXPECT_EQ(nand.schedule(at(OpKind::kRead, OpClass::kHostRead, 6, 3), 0),
            2 * kCmd + kRead + 2 * kXfer);
}

TEST(NandMultiplane, ErasesOfAnyTwoBlocksInTwoPlanesShareTBERS) {
  NandTiming nand(two_planes(true));
  nand.schedule(at(OpKind::kErase, OpClass::kHostWrite, 0, 0), 0);
  EXPECT_EQ(nand.schedule(at(OpKind::kErase, OpClass::kHostWrite, 7, 0), 0), 2 * kCmd + kErase);
}

TEST(NandMultiplane, OnlyTheSameOffsetAnotherPlaneTheSameKindAndPriority) {
  const auto second_ends = [](const FlashOp& second) {
    NandTiming nand(two_planes(true));
    nand.schedule(host_program(1, 0), 0);
    const Picoseconds end = nand.schedule(second, 0);
    EXPECT_EQ(nand.counters().joined(), 0u);
    return end;
  };
  const Picoseconds after_the_first = kCmd + kXfer + kProg;
  EXPECT_EQ(second_ends(host_program(5, 1)), after_the_first + kCmd + kXfer + kProg);  // offset
  EXPECT_EQ(second_ends(host_program(2, 0)), after_the_first + kCmd + kXfer + kProg);  // plane
  // A read goes ahead of the program instead (it has not started), whatever its offset.
  EXPECT_EQ(second_ends(at(OpKind::kRead, OpClass::kHostRead, 5, 0)), kCmd + kRead + kXfer);
  // GC's program is queued behind the host's, not joined to it.
  NandTiming nand(two_planes(true));
  nand.schedule(host_program(1, 0), 0);
  nand.schedule(at(OpKind::kProgram, OpClass::kGc, 5, 0), 0);
  nand.place_queued_gc();
  EXPECT_EQ(nand.reservations(0).size(), 2u);
  EXPECT_EQ(nand.counters().joined(), 0u);
}

TEST(NandMultiplane, NotToAnOperationAlreadyStarted) {
  NandTiming nand(two_planes(true));
  nand.schedule(host_program(1, 0), 0);
  const Picoseconds late = 1'000'000;  // 1 us: the first program's data is on the channel
  EXPECT_EQ(nand.schedule(host_program(5, 0), late), 2 * (kCmd + kXfer + kProg));
  EXPECT_EQ(nand.counters().joined(), 0u);
}

TEST(NandMultiplane, TheDiesLaterReservationsMoveByWhatTheJoinAdded) {
  NandTiming nand(two_planes(true));
  nand.schedule(host_program(1, 0), 0);
  nand.schedule(host_program(1, 1), 0);  // the next page of block 1, after the first
  nand.schedule(host_program(5, 0), 0);  // joins the first
  const auto slots = nand.reservations(0);
  ASSERT_EQ(slots.size(), 2u);
  EXPECT_EQ(slots[0].end, 2 * (kCmd + kXfer) + kProg);
  EXPECT_EQ(slots[1].start, slots[0].end);
  EXPECT_EQ(slots[1].end, slots[0].end + kCmd + kXfer + kProg);
}

TEST(NandMultiplane, AtMostOnePagePerPlane) {
  NandTimingParams p = two_planes(true);
  p.planes_per_die = 4;
  p.blocks = 4 * kBlocksPerPlane;
  NandTiming nand(p);
  for (const ftl::BlockId block : {0u, 4u, 8u, 12u}) nand.schedule(host_program(block, 2), 0);
  EXPECT_EQ(nand.counters().joined(), 3u);
  EXPECT_EQ(nand.reservations(0).size(), 1u);
  // A fifth page at that offset (plane 0 again) is the next operation.
  EXPECT_EQ(nand.schedule(host_program(1, 2), 0),
            4 * (kCmd + kXfer) + kProg + kCmd + kXfer + kProg);
}

TEST(NandMultiplane, QueuedGcJoinsQueuedGc) {
  NandTiming nand(two_planes(true));
  // Two victims' erases in two planes: one tBERS.
  nand.schedule(at(OpKind::kErase, OpClass::kGc, 2, 0), 0);
  EXPECT_EQ(nand.schedule(at(OpKind::kErase, OpClass::kGc, 6, 0), 0), 2 * kCmd + kErase);
  EXPECT_EQ(nand.queued_gc_ops(), 1u);
  nand.place_queued_gc();
  const auto slots = nand.reservations(0);
  ASSERT_EQ(slots.size(), 1u);
  EXPECT_EQ(slots[0].end, 2 * kCmd + kErase);
  EXPECT_EQ(slots[0].joined_blocks, std::vector<ftl::BlockId>{6});
  // A program into either erased block waits for the joined erase.
  EXPECT_EQ(nand.schedule(host_program(6, 0), 0), 2 * kCmd + kErase + kCmd + kXfer + kProg);
}

// A queued GC program whose data is ready only after another queued one's planned start (its
// GC read ends then) is not joined to it: that one starts without it. Ready before, it joins.
TEST(NandMultiplane, QueuedGcJoinsOnlyAnOperationNotStartedWhenItIsReady) {
  NandTiming late(two_planes(true));
  const Picoseconds first = late.schedule(at(OpKind::kProgram, OpClass::kGc, 1, 0), 0);
  late.schedule(at(OpKind::kProgram, OpClass::kGc, 5, 0), first);
  EXPECT_EQ(late.counters().joined(), 0u);
  EXPECT_EQ(late.queued_gc_ops(), 2u);

  NandTiming in_time(two_planes(true));
  in_time.schedule(at(OpKind::kProgram, OpClass::kGc, 1, 0), 0);
  EXPECT_EQ(in_time.schedule(at(OpKind::kProgram, OpClass::kGc, 5, 0), 0),
            2 * (kCmd + kXfer) + kProg);
  EXPECT_EQ(in_time.counters().joined(OpKind::kProgram), 1u);
  EXPECT_EQ(in_time.queued_gc_ops(), 1u);
}

}  // namespace
}  // namespace ssd::models
