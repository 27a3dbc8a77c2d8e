// GarbageCollector on the tiny platform (1 KiB units: 4 per page, 64 per block, 64 blocks per
// plane) with a mapping owner kept in a std::map: a victim's valid units (those the owner still
// maps) are read once per page, rewritten on the same plane through the GC stream, relocated one by
// one, relocations_done() called once, the GC page closed and the victim erased after it; the
// FtlStats counters; a victim that would not free a page is not taken; before_new_page reclaims
// one victim per new page while the plane is below its reserve, and refills an empty pool before
// a block is opened (retrying when a first attempt finds nothing); the error naming the plane when
// nothing can be reclaimed.
#include "ftl/core/garbage_collector.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>
#include <string>

#include "tests/ftl/core/core_test_support.h"

namespace ssd::ftl {
namespace {

// Greedy, but answers kNone to the first `declines` questions (to reach the emergency retry).
class DecliningPolicy final : public VictimPolicy {
 public:
  BlockId select(const BlockManager& blocks, uint32_t plane) const override {
    ++calls;
    if (calls <= declines) return kNone;
    return m_greedy.select(blocks, plane);
  }
  uint32_t declines = 0;
  mutable uint32_t calls = 0;

 private:
  GreedyVictimPolicy m_greedy;
};

// A host stream, a GC stream and the collector over one tiny flash, as PageStore wires them,
// except that the host stream's listener is attached only when a test says so (setting up a
// state then runs no GC).
struct GcRig {
  explicit GcRig(uint32_t gc_reserve_blocks, GcMode mode = GcMode::kIncremental,
                 bool copyback = false)
      : t(1024, gc_reserve_blocks),
        g(t.geometry),
        host(t.backend, t.blocks, OpClass::kHostWrite),
        gc_writer(t.backend, t.blocks, OpClass::kGc),
        gc(t.backend, t.blocks, gc_writer, owner, policy, stats, mode, copyback) {}

  // Writes `lun` on `plane` as a page-mapping scheme does: append, then invalidate the old copy
  // (looked up after the append, which may have run GC) and map the new one.
  SlotId write(uint32_t plane, Lun lun) {
    const SlotId slot = host.append_on_plane(plane, lun, next_token++);
    const auto old = owner.slot_of.find(lun);
    if (old != owner.slot_of.end()) t.blocks.remove_valid(old->second);
    owner.slot_of[lun] = slot;
    return slot;
  }
  void attach_gc() { host.set_listener(&gc); }
  const std::vector<FlashOp>& ops() const { return t.backend.ops().ops(); }
  SlotId first_slot_of_block(BlockId b) const { return g.first_slot(g.first_page(b)); }

  core_test::TinyFlash t;
  const Geometry& g;
  core_test::MapOwner owner;
  DecliningPolicy policy;
  FtlStats stats;
  UnitWriter host;
  UnitWriter gc_writer;
  GarbageCollector gc;
  Token next_token = 1;
};

// Plane 3 (die 1, blocks 192..255): block 192 holds LUNs 0..63 (LUN i in slot i of the block),
// all overwritten except 5 and 6 (page 1, units 1 and 2) and 40 (page 10, unit 0). The
// overwrites fill 15 pages of block 193 and one unit of its 16th; the GC stream will open 194.
class GarbageCollectorVictimTest : public ::testing::Test {
 protected:
  static constexpr uint32_t kPlane = 3;
  static constexpr BlockId kVictim = 192;
  static constexpr BlockId kGcBlock = 194;

  void SetUp() override {
    for (Lun lun = 0; lun < 64; ++lun) rig.write(kPlane, lun);
    for (Lun lun = 0; lun < 64; ++lun) {
      if (lun != 5 && lun != 6 && lun != 40) rig.write(kPlane, lun);
    }
    ASSERT_EQ(rig.t.blocks.state(kVictim), BlockState::kFull);
    ASSERT_EQ(rig.t.blocks.valid_units(kVictim), 3u);
    ASSERT_EQ(rig.t.blocks.state(kVictim + 1), BlockState::kOpen);
    for (int i = 0; i < 3; ++i) old_token[i] = rig.t.flash.token(old_slot(i));
    written_before = rig.t.backend.written();
    rig.t.backend.begin_command();
    rig.owner.calls.clear();
    rig.owner.prefetched.clear();
    ASSERT_TRUE(rig.gc.collect_one(kPlane));
  }
  SlotId old_slot(int i) const { return rig.first_slot_of_block(kVictim) + kKept[i]; }
  SlotId new_slot(int i) const { return rig.first_slot_of_block(kGcBlock) + i; }

  static constexpr Lun kKept[3] = {5, 6, 40};
  GcRig rig{4};
  Token old_token[3] = {};
  WriteCounters written_before;
};

TEST_F(GarbageCollectorVictimTest, ReadsEachPageHoldingValidUnitsOnceForThoseUnitsOnly) {
  ASSERT_EQ(rig.ops().size(), 4u);
  const FlashOp& first = rig.ops()[0];
  EXPECT_EQ(first.kind, OpKind::kRead);
  EXPECT_EQ(first.op_class, OpClass::kGc);
  EXPECT_EQ(first.page, rig.g.first_page(kVictim) + 1);
  EXPECT_EQ(first.bytes, 2u * 1024u);
  EXPECT_EQ(first.die, 1u);
  EXPECT_EQ(first.after, kNone);
  const FlashOp& second = rig.ops()[1];
  EXPECT_EQ(second.kind, OpKind::kRead);
  EXPECT_EQ(second.op_class, OpClass::kGc);
  EXPECT_EQ(second.page, rig.g.first_page(kVictim) + 10);
  EXPECT_EQ(second.bytes, 1024u);
  EXPECT_EQ(second.after, kNone);
}

TEST_F(GarbageCollectorVictimTest, RewritesTheValidUnitsOnTheSamePlaneThroughTheGcStream) {
  ASSERT_EQ(rig.ops().size(), 4u);
  const FlashOp& program = rig.ops()[2];
  EXPECT_EQ(program.kind, OpKind::kProgram);
  EXPECT_EQ(program.op_class, OpClass::kGc);
  EXPECT_EQ(program.page, rig.g.first_page(kGcBlock));
  EXPECT_EQ(program.die, 1u);
  EXPECT_EQ(program.after, 1u);  // the last read
  const uint32_t* spare = rig.t.flash.spare(rig.g.first_page(kGcBlock));
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(spare[i], kKept[i]);
    EXPECT_EQ(rig.t.flash.token(new_slot(i)), old_token[i]) << "LUN " << kKept[i];
  }
  EXPECT_EQ(spare[3], kNone);  // the GC page was padded, not left in DRAM
  EXPECT_FALSE(rig.gc_writer.holds(new_slot(0)));
  const WriteCounters& written = rig.t.backend.written();
  EXPECT_EQ(written.of(OpClass::kGc) - written_before.of(OpClass::kGc), 3u);
  EXPECT_EQ(written.padded - written_before.padded, 1u);
  EXPECT_EQ(written.of(OpClass::kHostWrite), written_before.of(OpClass::kHostWrite));
}

TEST_F(GarbageCollectorVictimTest, TellsTheOwnerOfEveryMoveThenThatTheVictimIsDone) {
  ASSERT_EQ(rig.owner.relocations.size(), 3u);
  for (int i = 0; i < 3; ++i) {
    const auto& r = rig.owner.relocations[i];
    EXPECT_EQ(r.lun, kKept[i]);
    EXPECT_EQ(r.from, old_slot(i));
    EXPECT_EQ(r.to, new_slot(i));
    EXPECT_EQ(rig.owner.slot_of.at(kKept[i]), new_slot(i));
  }
  EXPECT_EQ(rig.owner.done, 1u);
  // Every LUN of the victim's spare area prefetched first, relocations_done() last.
  ASSERT_EQ(rig.owner.prefetched.size(), 64u);
  EXPECT_EQ(rig.owner.prefetched.front(), 0u);
  EXPECT_EQ(rig.owner.prefetched.back(), 63u);
  const std::string& calls = rig.owner.calls;
  EXPECT_EQ(calls.find_first_not_of('p'), 64u);
  EXPECT_EQ(calls.find('p', 64), std::string::npos);
  EXPECT_EQ(calls.back(), 'd');
  EXPECT_EQ(std::count(calls.begin(), calls.end(), 'r'), 3);
}

TEST_F(GarbageCollectorVictimTest, ErasesTheVictimAfterTheGcProgramAndFreesIt) {
  ASSERT_EQ(rig.ops().size(), 4u);
  const FlashOp& erase = rig.ops()[3];
  EXPECT_EQ(erase.kind, OpKind::kErase);
  EXPECT_EQ(erase.op_class, OpClass::kGc);
  EXPECT_EQ(erase.page, rig.g.first_page(kVictim));
  EXPECT_EQ(erase.die, 1u);
  EXPECT_EQ(erase.after, 2u);  // the GC page's program
  EXPECT_EQ(rig.t.flash.erase_count(kVictim), 1u);
  EXPECT_EQ(rig.t.flash.write_pointer(kVictim), 0u);
  EXPECT_EQ(rig.t.blocks.state(kVictim), BlockState::kFree);
  EXPECT_EQ(rig.t.blocks.free_blocks(kPlane), 62u);  // 193 and 194 open
  EXPECT_EQ(rig.t.blocks.state(kGcBlock), BlockState::kOpen);
}

TEST_F(GarbageCollectorVictimTest, MovesTheValidCountsToTheGcBlock) {
  EXPECT_EQ(rig.t.blocks.valid_units(kVictim), 0u);
  EXPECT_EQ(rig.t.blocks.valid_units(kGcBlock), 3u);
  EXPECT_EQ(rig.t.blocks.valid_units(kVictim + 1), 61u);
  EXPECT_EQ(rig.t.blocks.plane_valid_units(kPlane), 64u);
}

TEST_F(GarbageCollectorVictimTest, CountsOneInvocationItsCopiesAndOneErase) {
  EXPECT_EQ(rig.stats.gc_invocations, 1u);
  EXPECT_EQ(rig.stats.gc_units_copied, 3u);
  EXPECT_EQ(rig.stats.gc_erases, 1u);
}

// With copy-back: block 192 of plane 3 keeps page 1 wholly valid (LUNs 4..7) and one unit of
// page 10 (LUN 40). Page 1 moves by one copy-back into the GC block's first page; the lone unit
// is read and packed through the controller into the next GC page, as without copy-back.
TEST(GarbageCollector, CopyBackMovesWhollyValidPagesInsideTheDie) {
  constexpr uint32_t kPlane = 3;
  constexpr BlockId kVictim = 192;
  constexpr BlockId kGcBlock = 194;
  GcRig rig(4, GcMode::kIncremental, true);
  for (Lun lun = 0; lun < 64; ++lun) rig.write(kPlane, lun);
  for (Lun lun = 0; lun < 64; ++lun) {
    if ((lun < 4 || lun > 7) && lun != 40) rig.write(kPlane, lun);
  }
  ASSERT_EQ(rig.t.blocks.valid_units(kVictim), 5u);
  Token old_tokens[4];
  for (uint32_t u = 0; u < 4; ++u) old_tokens[u] = rig.t.flash.token(rig.owner.slot_of.at(4 + u));
  const WriteCounters before = rig.t.backend.written();
  rig.t.backend.begin_command();
  ASSERT_TRUE(rig.gc.collect_one(kPlane));

  ASSERT_EQ(rig.ops().size(), 4u);
  const FlashOp& copy = rig.ops()[0];
  EXPECT_EQ(copy.kind, OpKind::kCopyback);
  EXPECT_EQ(copy.op_class, OpClass::kGc);
  EXPECT_EQ(copy.source, rig.g.first_page(kVictim) + 1);
  EXPECT_EQ(copy.page, rig.g.first_page(kGcBlock));
  EXPECT_EQ(copy.bytes, 0u);  // nothing over the channel
  EXPECT_EQ(copy.die, 1u);
  EXPECT_EQ(rig.ops()[1].kind, OpKind::kRead);
  EXPECT_EQ(rig.ops()[1].page, rig.g.first_page(kVictim) + 10);
  EXPECT_EQ(rig.ops()[2].kind, OpKind::kProgram);
  EXPECT_EQ(rig.ops()[2].page, rig.g.first_page(kGcBlock) + 1);
  EXPECT_EQ(rig.ops()[3].kind, OpKind::kErase);
  EXPECT_EQ(rig.ops()[3].after, 2u);

  // The copy holds the same units, mapped there now, with their spare words.
  const SlotId copied = rig.first_slot_of_block(kGcBlock);
  for (uint32_t u = 0; u < 4; ++u) {
    EXPECT_EQ(rig.owner.slot_of.at(4 + u), copied + u);
    EXPECT_EQ(rig.t.flash.token(copied + u), old_tokens[u]);
    EXPECT_EQ(rig.t.flash.spare(rig.g.first_page(kGcBlock))[u], 4 + u);
  }
  EXPECT_EQ(rig.owner.slot_of.at(40), copied + 4);
  EXPECT_EQ(rig.t.blocks.valid_units(kGcBlock), 5u);
  EXPECT_EQ(rig.stats.gc_units_copied, 5u);
  // Written as GC: 4 units copied back, 1 packed with 3 slots of padding.
  EXPECT_EQ(rig.t.backend.written().of(OpClass::kGc) - before.of(OpClass::kGc), 5u);
  EXPECT_EQ(rig.t.backend.written().padded - before.padded, 3u);
}

TEST(GarbageCollector, AVictimWithNothingValidIsErasedWithoutCopies) {
  GcRig rig(4);
  for (int round = 0; round < 2; ++round) {
    for (Lun lun = 0; lun < 64; ++lun) rig.write(0, lun);
  }
  ASSERT_EQ(rig.t.blocks.valid_units(0), 0u);
  rig.t.backend.begin_command();
  EXPECT_TRUE(rig.gc.collect_one(0));
  ASSERT_EQ(rig.ops().size(), 1u);
  EXPECT_EQ(rig.ops()[0].kind, OpKind::kErase);
  EXPECT_EQ(rig.ops()[0].page, rig.g.first_page(0));
  EXPECT_EQ(rig.ops()[0].after, kNone);
  EXPECT_EQ(rig.owner.relocations.size(), 0u);
  EXPECT_EQ(rig.owner.done, 1u);
  EXPECT_EQ(rig.stats.gc_invocations, 1u);
  EXPECT_EQ(rig.stats.gc_units_copied, 0u);
  EXPECT_EQ(rig.stats.gc_erases, 1u);
  EXPECT_EQ(rig.t.blocks.state(2), BlockState::kFree);  // no GC block was opened
}

TEST(GarbageCollector, AVictimThatWouldNotFreeAPageIsNotTaken) {
  GcRig rig(4);
  for (Lun lun = 0; lun < 64; ++lun) rig.write(0, lun);
  for (Lun lun = 0; lun < 3; ++lun) rig.write(0, lun);
  ASSERT_EQ(rig.t.blocks.valid_units(0), 61u);  // 61 + a page of 4 > 64 slots
  rig.t.backend.begin_command();
  EXPECT_FALSE(rig.gc.collect_one(0));
  EXPECT_EQ(rig.ops().size(), 0u);
  EXPECT_EQ(rig.stats.gc_invocations, 0u);
  EXPECT_EQ(rig.t.flash.erase_count(0), 0u);
  EXPECT_EQ(rig.owner.done, 0u);

  rig.write(0, 3);  // 60 valid: frees exactly one page
  rig.t.backend.begin_command();
  EXPECT_TRUE(rig.gc.collect_one(0));
  EXPECT_EQ(rig.stats.gc_units_copied, 60u);
  EXPECT_EQ(rig.t.flash.erase_count(0), 1u);
}

TEST(GarbageCollector, APlaneWithoutFullBlocksHasNoVictim) {
  GcRig rig(4);
  for (Lun lun = 0; lun < 10; ++lun) rig.write(0, lun);  // block 0 open
  rig.t.backend.begin_command();
  EXPECT_FALSE(rig.gc.collect_one(0));
  EXPECT_FALSE(rig.gc.collect_one(1));
  EXPECT_EQ(rig.ops().size(), 0u);
  EXPECT_EQ(rig.stats.gc_invocations, 0u);
}

TEST(GarbageCollector, ReadsThatFillAGcPageCarryTheirOwnDependency) {
  GcRig rig(4);
  for (Lun lun = 0; lun < 64; ++lun) rig.write(0, lun);
  // Keep LUN 2 (page 0) and LUNs 20..23 (page 5): the GC page fills with 2, 20, 21, 22.
  for (Lun lun = 0; lun < 64; ++lun) {
    if (lun != 2 && (lun < 20 || lun > 23)) rig.write(0, lun);
  }
  rig.t.backend.begin_command();
  ASSERT_TRUE(rig.gc.collect_one(0));
  // read page 0, read page 5, program (full), program (closed: 23 and padding), erase
  ASSERT_EQ(rig.ops().size(), 5u);
  EXPECT_EQ(rig.ops()[0].kind, OpKind::kRead);
  EXPECT_EQ(rig.ops()[1].kind, OpKind::kRead);
  EXPECT_EQ(rig.ops()[1].bytes, 4u * 1024u);
  EXPECT_EQ(rig.ops()[2].kind, OpKind::kProgram);
  EXPECT_EQ(rig.ops()[2].after, 1u);
  EXPECT_EQ(rig.ops()[3].kind, OpKind::kProgram);
  EXPECT_EQ(rig.ops()[3].after, 1u);
  EXPECT_EQ(rig.ops()[3].page, rig.ops()[2].page + 1);
  EXPECT_EQ(rig.ops()[4].kind, OpKind::kErase);
  EXPECT_EQ(rig.ops()[4].after, 3u);
  EXPECT_EQ(rig.t.flash.spare(rig.ops()[3].page)[0], 23u);
}

// The erase waits for the program that holds the victim's last valid units even when those units
// fill the GC page exactly, so that the page is programmed inside append_on_plane rather than
// by the closing close_page() (found by this test; with one unit per page, every victim).
TEST(GarbageCollector, TheEraseWaitsForAGcPageFilledWhileCopying) {
  GcRig rig(4);
  for (Lun lun = 0; lun < 64; ++lun) rig.write(0, lun);
  for (Lun lun = 0; lun < 60; ++lun) rig.write(0, lun);  // LUNs 60..63 (page 15) stay valid
  rig.t.backend.begin_command();
  ASSERT_TRUE(rig.gc.collect_one(0));
  ASSERT_EQ(rig.ops().size(), 3u);  // read, program (the page filled), erase
  EXPECT_EQ(rig.ops()[1].kind, OpKind::kProgram);
  EXPECT_EQ(rig.ops()[2].kind, OpKind::kErase);
  EXPECT_EQ(rig.ops()[2].after, 1u);  // the program, not the read before it
}

// Blocks 0, 1, 2 of plane 0 written whole three times with LUNs 0..63: 0 and 1 hold nothing
// valid, 2 holds everything; 61 blocks free, the host stream has no open block.
void three_full_blocks(GcRig& rig) {
  for (int round = 0; round < 3; ++round) {
    for (Lun lun = 0; lun < 64; ++lun) rig.write(0, lun);
  }
  ASSERT_EQ(rig.t.blocks.free_blocks(0), 61u);
  ASSERT_EQ(rig.t.blocks.valid_units(2), 64u);
}

TEST(GarbageCollector, BelowTheReserveEachNewHostPageIsPrecededByOneVictim) {
  GcRig rig(63);
  ASSERT_NO_FATAL_FAILURE(three_full_blocks(rig));
  rig.attach_gc();
  rig.t.backend.begin_command();
  rig.write(0, 0);  // new page in a new block: one victim, though the plane stays below
  ASSERT_EQ(rig.ops().size(), 1u);
  EXPECT_EQ(rig.ops()[0].kind, OpKind::kErase);
  EXPECT_EQ(rig.ops()[0].page, rig.g.first_page(0));
  EXPECT_EQ(rig.t.blocks.state(1), BlockState::kFull);  // not yet
  EXPECT_EQ(rig.t.blocks.free_blocks(0), 61u);          // 0 came back, 3 was opened
  EXPECT_EQ(rig.owner.slot_of.at(0), rig.first_slot_of_block(3));

  for (Lun lun = 1; lun < 4; ++lun) rig.write(0, lun);  // fills the page: no GC
  ASSERT_EQ(rig.ops().size(), 2u);
  EXPECT_EQ(rig.ops()[1].kind, OpKind::kProgram);
  rig.write(0, 4);  // a new page in the same block: the next victim
  ASSERT_EQ(rig.ops().size(), 3u);
  EXPECT_EQ(rig.ops()[2].kind, OpKind::kErase);
  EXPECT_EQ(rig.ops()[2].page, rig.g.first_page(1));
  EXPECT_EQ(rig.stats.gc_invocations, 2u);
  EXPECT_EQ(rig.stats.gc_erases, 2u);
}

// ftl.gc_mode=blocking: the first page below the reserve takes victims until the pool is back at
// the reserve (here blocks 0 and 1: 61 + 2 = 63 free), and the pages after it take none.
TEST(GarbageCollector, BlockingModeRefillsThePoolToTheReserveAtOnce) {
  GcRig rig(63, GcMode::kBlocking);
  ASSERT_NO_FATAL_FAILURE(three_full_blocks(rig));
  rig.attach_gc();
  rig.t.backend.begin_command();
  rig.write(0, 0);
  ASSERT_EQ(rig.ops().size(), 2u);
  EXPECT_EQ(rig.ops()[0].kind, OpKind::kErase);
  EXPECT_EQ(rig.ops()[0].page, rig.g.first_page(0));
  EXPECT_EQ(rig.ops()[1].kind, OpKind::kErase);
  EXPECT_EQ(rig.ops()[1].page, rig.g.first_page(1));
  EXPECT_EQ(rig.t.blocks.free_blocks(0), 62u);  // 63, less the block just opened
  for (Lun lun = 1; lun < 4; ++lun) rig.write(0, lun);
  // A new page, the pool one below the reserve again: victim 2 (60 valid units) is moved into a
  // block the GC stream opens, so the pool stays one short, and no other full block is left.
  rig.write(0, 4);
  EXPECT_EQ(rig.stats.gc_invocations, 3u);
  EXPECT_EQ(rig.stats.gc_units_copied, 60u);
  EXPECT_EQ(rig.t.blocks.free_blocks(0), 62u);
}

TEST(GarbageCollector, AtOrAboveTheReserveNoVictimIsTaken) {
  GcRig rig(61);
  ASSERT_NO_FATAL_FAILURE(three_full_blocks(rig));
  rig.attach_gc();
  rig.t.backend.begin_command();
  rig.write(0, 0);  // 61 free: not below
  EXPECT_EQ(rig.ops().size(), 0u);
  EXPECT_EQ(rig.stats.gc_invocations, 0u);
  EXPECT_EQ(rig.t.blocks.state(0), BlockState::kFull);
  EXPECT_EQ(rig.t.blocks.free_blocks(0), 60u);
}

TEST(GarbageCollector, OnlyThePlaneStartingAPageIsCollected) {
  GcRig rig(63);
  ASSERT_NO_FATAL_FAILURE(three_full_blocks(rig));
  rig.attach_gc();
  rig.t.backend.begin_command();
  rig.write(1, 100);  // plane 1 has all its blocks free
  EXPECT_EQ(rig.ops().size(), 0u);
  rig.gc.before_new_page(0, false);
  ASSERT_EQ(rig.ops().size(), 1u);
  EXPECT_EQ(rig.ops()[0].kind, OpKind::kErase);
  EXPECT_EQ(rig.ops()[0].die, 0u);
  EXPECT_EQ(rig.ops()[0].page, rig.g.first_page(0));
}

// Plane 0 written whole 64 times with LUNs 0..63: every block full, 0..62 without valid data, 63
// with all of it; the pool is empty.
void full_plane_of_garbage(GcRig& rig) {
  for (int round = 0; round < 64; ++round) {
    for (Lun lun = 0; lun < 64; ++lun) rig.write(0, lun);
  }
  ASSERT_EQ(rig.t.blocks.free_blocks(0), 0u);
  ASSERT_EQ(rig.t.blocks.valid_units(63), 64u);
}

// The host stream never takes a plane's last free block (GC's, so it can always move data out):
// with an empty pool, GC frees two blocks before the host opens one.
TEST(GarbageCollector, AnEmptyPoolIsRefilledBeforeTheNextBlockIsOpened) {
  GcRig rig(1);
  ASSERT_NO_FATAL_FAILURE(full_plane_of_garbage(rig));
  rig.attach_gc();
  rig.t.backend.begin_command();
  EXPECT_EQ(rig.write(0, 7), rig.first_slot_of_block(0));  // the block erased first
  ASSERT_EQ(rig.ops().size(), 2u);
  EXPECT_EQ(rig.ops()[0].kind, OpKind::kErase);
  EXPECT_EQ(rig.ops()[0].page, rig.g.first_page(0));
  EXPECT_EQ(rig.ops()[1].kind, OpKind::kErase);
  EXPECT_EQ(rig.ops()[1].page, rig.g.first_page(1));
  EXPECT_EQ(rig.stats.gc_invocations, 2u);
  EXPECT_EQ(rig.t.blocks.free_blocks(0), 1u);  // GC's last block stays free
  EXPECT_EQ(rig.t.blocks.state(2), BlockState::kFull);
}

TEST(GarbageCollector, InAnEmergencyItKeepsAskingForVictims) {
  GcRig rig(1);
  ASSERT_NO_FATAL_FAILURE(full_plane_of_garbage(rig));
  rig.policy.declines = 1;  // the reserve's one attempt finds nothing
  rig.policy.calls = 0;
  rig.attach_gc();
  rig.t.backend.begin_command();
  EXPECT_EQ(rig.write(0, 7), rig.first_slot_of_block(0));
  EXPECT_EQ(rig.policy.calls, 3u);  // declined, then two victims until two blocks are free
  ASSERT_EQ(rig.ops().size(), 2u);
  EXPECT_EQ(rig.ops()[0].kind, OpKind::kErase);
  EXPECT_EQ(rig.stats.gc_invocations, 2u);
}

TEST(GarbageCollector, WithNothingToReclaimOpeningABlockFailsNamingThePlane) {
  GcRig rig(1);
  for (Lun lun = 0; lun < 64u * 64u; ++lun) rig.write(2, lun);  // plane 2 full of valid data
  ASSERT_EQ(rig.t.blocks.free_blocks(2), 0u);
  rig.attach_gc();
  rig.t.backend.begin_command();
  try {
    rig.write(2, 5000);
    FAIL() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("plane 2 "), std::string::npos) << e.what();
  }
  EXPECT_EQ(rig.ops().size(), 0u);
  EXPECT_EQ(rig.stats.gc_invocations, 0u);
}

}  // namespace
}  // namespace ssd::ftl
