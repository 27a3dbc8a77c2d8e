// UnitWriter on the tiny platform (4 KiB pages; 1 KiB units, 4 per page, unless said otherwise):
// die-striped plane order, a page programmed when its last slot fills, append_on_plane keeping
// consecutive slots, close_page/close_pages padding and programming, holds/buffered_token, the
// `after` dependency carried to the program, the listener's before_new_page calls, block
// open/close through the block manager, valid counts, each unit's LUN in the spare area, and the
// per-unit class accounting (mapping units counted as such; a page of only mapping units is a
// mapping program, a mixed page keeps the stream's class), and the live limit that makes the
// stream skip a plane holding too much live data.
#include "ftl/core/unit_writer.h"

#include <gtest/gtest.h>

#include <utility>
#include <vector>

#include "tests/ftl/core/core_test_support.h"

namespace ssd::ftl {
namespace {

struct NewPage {
  uint32_t plane;
  bool needs_block;
  uint32_t free_blocks;  // in that plane's pool when the listener was called
  bool operator==(const NewPage& o) const {
    return plane == o.plane && needs_block == o.needs_block && free_blocks == o.free_blocks;
  }
};

class RecordingListener final : public UnitWriter::SpaceListener {
 public:
  explicit RecordingListener(const BlockManager& blocks) : m_blocks(blocks) {}
  void before_new_page(uint32_t plane, bool needs_block) override {
    calls.push_back({plane, needs_block, m_blocks.free_blocks(plane)});
  }
  std::vector<NewPage> calls;

 private:
  const BlockManager& m_blocks;
};

class UnitWriterTest : public ::testing::Test {
 protected:
  core_test::TinyFlash t{1024};
  const Geometry& g = t.geometry;
  FlashBackend& backend = t.backend;
  UnitWriter host{t.backend, t.blocks, OpClass::kHostWrite};

  const std::vector<FlashOp>& ops() const { return backend.ops().ops(); }
  SlotId first_slot_of_block(BlockId b) const { return g.first_slot(g.first_page(b)); }
};

TEST_F(UnitWriterTest, PagesGoToPlanesInDieStripedOrder) {
  ASSERT_EQ(g.units_per_page, 4u);
  for (Lun lun = 0; lun < 32; ++lun) host.append(lun, 100 + lun);
  // Die 0, 1, 2, 3 (channels 0, 1, 0, 1), then the second plane of each die.
  const uint32_t planes[8] = {0, 2, 4, 6, 1, 3, 5, 7};
  const uint32_t dies[8] = {0, 1, 2, 3, 0, 1, 2, 3};
  ASSERT_EQ(ops().size(), 8u);
  for (uint32_t k = 0; k < 8; ++k) {
    const FlashOp& op = ops()[k];
    EXPECT_EQ(g.plane_in_stripe_order(k), planes[k]);
    EXPECT_EQ(op.kind, OpKind::kProgram) << k;
    EXPECT_EQ(op.op_class, OpClass::kHostWrite) << k;
    EXPECT_EQ(op.page, g.first_page(planes[k] * 64)) << k;  // first block of the plane
    EXPECT_EQ(op.die, dies[k]) << k;
    EXPECT_EQ(op.bytes, 4096u) << k;
    EXPECT_EQ(op.after, kNone) << k;
  }
  // The stripe wraps: the ninth page is the second page of plane 0's block.
  EXPECT_EQ(host.append(32, 132), g.first_slot(g.first_page(0) + 1));
}

TEST_F(UnitWriterTest, APageIsProgrammedWhenItsLastSlotFills) {
  const SlotId base = first_slot_of_block(0);
  for (uint32_t u = 0; u < 3; ++u) EXPECT_EQ(host.append(10 + u, 50 + u), base + u);
  EXPECT_EQ(ops().size(), 0u);
  EXPECT_EQ(t.flash.write_pointer(0), 0u);
  EXPECT_EQ(host.append(13, 53), base + 3);
  ASSERT_EQ(ops().size(), 1u);
  EXPECT_EQ(ops()[0].page, g.first_page(0));
  EXPECT_EQ(t.flash.write_pointer(0), 1u);
  for (uint32_t u = 0; u < 4; ++u) EXPECT_EQ(t.flash.token(base + u), 50 + u);
}

TEST_F(UnitWriterTest, EachUnitsLunGoesIntoItsPagesSpareArea) {
  host.append(7, 1);
  host.append(3, 2);
  host.append(900, 3);
  host.append(3, 4);  // the same LUN twice in a page is the scheme's business
  const uint32_t* spare = t.flash.spare(g.first_page(0));
  EXPECT_EQ(spare[0], 7u);
  EXPECT_EQ(spare[1], 3u);
  EXPECT_EQ(spare[2], 900u);
  EXPECT_EQ(spare[3], 3u);
}

TEST_F(UnitWriterTest, AppendOnPlaneKeepsConsecutiveSlotsAndLeavesTheStripeAlone) {
  const SlotId base = first_slot_of_block(5 * 64);  // plane 5 (die 2)
  for (uint32_t u = 0; u < 6; ++u) EXPECT_EQ(host.append_on_plane(5, u, 1 + u), base + u);
  ASSERT_EQ(ops().size(), 1u);
  EXPECT_EQ(ops()[0].page, g.first_page(5 * 64));
  EXPECT_EQ(ops()[0].die, 2u);
  EXPECT_TRUE(host.holds(base + 5));
  // The striped stream still starts at plane 0.
  EXPECT_EQ(host.append(100, 9), first_slot_of_block(0));
}

TEST_F(UnitWriterTest, WithOneUnitPerPageEveryAppendIsAProgram) {
  core_test::TinyFlash whole(0);  // unit = page
  ASSERT_EQ(whole.geometry.units_per_page, 1u);
  UnitWriter writer(whole.backend, whole.blocks, OpClass::kHostWrite);
  const uint32_t planes[3] = {0, 2, 4};
  for (uint32_t k = 0; k < 3; ++k) {
    const SlotId slot = writer.append(k, 7 + k);
    EXPECT_EQ(slot, whole.geometry.first_slot(whole.geometry.first_page(planes[k] * 64)));
    EXPECT_FALSE(writer.holds(slot));
    EXPECT_EQ(whole.flash.spare(whole.geometry.page_of_slot(slot))[0], k);
  }
  EXPECT_EQ(whole.backend.ops().size(), 3u);
  EXPECT_EQ(whole.backend.written().of(OpClass::kHostWrite), 3u);
  EXPECT_EQ(whole.backend.written().padded, 0u);
}

TEST_F(UnitWriterTest, ClosePagePadsAndProgramsThePartPage) {
  const SlotId slot = host.append_on_plane(2, 42, 4242);
  EXPECT_EQ(host.close_page(2), 0u);
  ASSERT_EQ(ops().size(), 1u);
  EXPECT_EQ(ops()[0].kind, OpKind::kProgram);
  EXPECT_EQ(ops()[0].page, g.first_page(128));
  EXPECT_EQ(backend.written().of(OpClass::kHostWrite), 1u);
  EXPECT_EQ(backend.written().padded, 3u);
  EXPECT_EQ(t.flash.token(slot), 4242u);
  EXPECT_EQ(t.flash.token(slot + 1), 0u);
  const uint32_t* spare = t.flash.spare(g.first_page(128));
  EXPECT_EQ(spare[0], 42u);
  EXPECT_EQ(spare[1], kNone);
  EXPECT_EQ(spare[3], kNone);
  // The next unit on that plane goes to the next page of the same block.
  EXPECT_EQ(host.append_on_plane(2, 43, 1), g.first_slot(g.first_page(128) + 1));
}

TEST_F(UnitWriterTest, PaddingCarriesNothingOverFromThePreviousPage) {
  for (Lun lun = 0; lun < 4; ++lun) host.append_on_plane(2, 20 + lun, 70 + lun);
  const SlotId slot = host.append_on_plane(2, 30, 80);
  host.close_page(2);
  const PageId page = g.first_page(128) + 1;
  ASSERT_EQ(g.page_of_slot(slot), page);
  const uint32_t* spare = t.flash.spare(page);
  EXPECT_EQ(spare[0], 30u);
  for (uint32_t u = 1; u < 4; ++u) {
    EXPECT_EQ(spare[u], kNone) << u;
    EXPECT_EQ(t.flash.token(slot + u), 0u) << u;
  }
}

TEST_F(UnitWriterTest, ClosePageWithNothingAssembledDoesNothing) {
  EXPECT_EQ(host.close_page(0), kNone);  // never written
  for (Lun lun = 0; lun < 4; ++lun) host.append_on_plane(0, lun, 1);
  EXPECT_EQ(host.close_page(0), kNone);  // the page was programmed when full
  host.append_on_plane(0, 9, 1);
  EXPECT_EQ(host.close_page(0), 1u);
  EXPECT_EQ(host.close_page(0), kNone);  // already closed
  EXPECT_EQ(ops().size(), 2u);
  EXPECT_EQ(backend.written().padded, 3u);
}

TEST_F(UnitWriterTest, ClosePagesProgramsEveryPartPageAndReturnsTheLast) {
  EXPECT_EQ(host.close_pages(), kNone);
  host.append_on_plane(6, 1, 1);
  host.append_on_plane(1, 2, 2);
  host.append_on_plane(1, 3, 3);
  host.append_on_plane(3, 4, 4);
  EXPECT_EQ(host.close_pages(), 2u);
  ASSERT_EQ(ops().size(), 3u);
  // In flat plane order.
  EXPECT_EQ(ops()[0].page, g.first_page(1 * 64));
  EXPECT_EQ(ops()[1].page, g.first_page(3 * 64));
  EXPECT_EQ(ops()[2].page, g.first_page(6 * 64));
  EXPECT_EQ(ops()[2].die, 3u);
  EXPECT_EQ(backend.written().of(OpClass::kHostWrite), 4u);
  EXPECT_EQ(backend.written().padded, 2u + 3u + 3u);
  EXPECT_EQ(host.close_pages(), kNone);
}

TEST_F(UnitWriterTest, HoldsAndBufferedTokenCoverOnlyUnitsBeingAssembled) {
  const SlotId a = host.append(1, 111);
  const SlotId b = host.append(2, 222);
  EXPECT_TRUE(host.holds(a));
  EXPECT_TRUE(host.holds(b));
  EXPECT_FALSE(host.holds(b + 1));                              // not filled yet
  EXPECT_FALSE(host.holds(first_slot_of_block(64)));            // another plane
  EXPECT_FALSE(host.holds(g.first_slot(g.first_page(0) + 1)));  // another page of the block
  EXPECT_EQ(host.buffered_token(a), 111u);
  EXPECT_EQ(host.buffered_token(b), 222u);
  EXPECT_EQ(t.flash.token(a), 0u);  // only in DRAM
  host.close_pages();
  EXPECT_FALSE(host.holds(a));
  EXPECT_FALSE(host.holds(b));
  EXPECT_EQ(t.flash.token(b), 222u);
}

TEST_F(UnitWriterTest, TheProgramWaitsForTheLatestAfterOfItsUnits) {
  for (int i = 0; i < 3; ++i) backend.read(g.first_page(300), 1, OpClass::kHostRead);  // ops 0..2
  host.append_on_plane(0, 1, 1, 2);
  host.append_on_plane(0, 2, 2);
  host.append_on_plane(0, 3, 3, 1);
  host.append_on_plane(0, 4, 4);
  ASSERT_EQ(ops().size(), 4u);
  EXPECT_EQ(ops()[3].kind, OpKind::kProgram);
  EXPECT_EQ(ops()[3].after, 2u);
  // A new page starts without a dependency.
  host.append_on_plane(0, 5, 5);
  host.close_page(0);
  EXPECT_EQ(ops()[4].after, kNone);
  // ... and a closed part page keeps the one it had.
  host.append_on_plane(0, 6, 6, 3);
  host.close_page(0);
  EXPECT_EQ(ops()[5].after, 3u);
}

TEST_F(UnitWriterTest, TheListenerHearsOfEveryNewPageBeforeTheBlockIsTaken) {
  RecordingListener listener(t.blocks);
  host.set_listener(&listener);
  for (Lun lun = 0; lun < 64; ++lun) host.append_on_plane(0, lun, 1);  // block 0, 16 pages
  ASSERT_EQ(listener.calls.size(), 16u);
  EXPECT_EQ(listener.calls[0], (NewPage{0, true, 64}));
  for (uint32_t p = 1; p < 16; ++p) EXPECT_EQ(listener.calls[p], (NewPage{0, false, 63})) << p;
  host.append_on_plane(0, 64, 1);  // the block is full: the next page needs a new one
  ASSERT_EQ(listener.calls.size(), 17u);
  EXPECT_EQ(listener.calls[16], (NewPage{0, true, 63}));
  host.append(65, 1);  // plane 0 again (no page completed through append yet)
  EXPECT_EQ(listener.calls.size(), 17u);
  host.append_on_plane(4, 66, 1);
  ASSERT_EQ(listener.calls.size(), 18u);
  EXPECT_EQ(listener.calls[17], (NewPage{4, true, 64}));
}

TEST_F(UnitWriterTest, AFullBlockIsClosedAndTheNextFreeBlockOpened) {
  for (Lun lun = 0; lun < 63; ++lun) host.append_on_plane(0, lun, 1);
  EXPECT_EQ(t.blocks.state(0), BlockState::kOpen);
  host.append_on_plane(0, 63, 1);
  EXPECT_EQ(t.blocks.state(0), BlockState::kFull);
  EXPECT_EQ(t.blocks.state(1), BlockState::kFree);
  EXPECT_EQ(host.append_on_plane(0, 64, 1), first_slot_of_block(1));
  EXPECT_EQ(t.blocks.state(1), BlockState::kOpen);
  EXPECT_EQ(t.blocks.free_blocks(0), 62u);
}

TEST_F(UnitWriterTest, EveryAppendedUnitCountsAsValid) {
  for (Lun lun = 0; lun < 6; ++lun) host.append_on_plane(0, lun, 1);
  host.append_on_plane(1, 6, 1);
  EXPECT_EQ(t.blocks.valid_units(0), 6u);  // buffered units count too
  EXPECT_EQ(t.blocks.valid_units(64), 1u);
  EXPECT_EQ(t.blocks.plane_valid_units(0), 6u);
  EXPECT_EQ(t.blocks.plane_valid_units(1), 1u);
}

TEST_F(UnitWriterTest, AStreamsProgramsHaveItsClass) {
  UnitWriter gc(t.backend, t.blocks, OpClass::kGc);
  for (Lun lun = 0; lun < 4; ++lun) gc.append_on_plane(3, lun, 1);
  ASSERT_EQ(ops().size(), 1u);
  EXPECT_EQ(ops()[0].op_class, OpClass::kGc);
  EXPECT_EQ(backend.written().of(OpClass::kGc), 4u);
  EXPECT_EQ(backend.written().of(OpClass::kHostWrite), 0u);
}

TEST_F(UnitWriterTest, APageOfMappingUnitsIsAMappingProgram) {
  for (Lun lun = 0; lun < 4; ++lun) host.append(lun, 1, kNone, OpClass::kMapping);
  ASSERT_EQ(ops().size(), 1u);
  EXPECT_EQ(ops()[0].op_class, OpClass::kMapping);
  EXPECT_EQ(backend.written().of(OpClass::kMapping), 4u);
  EXPECT_EQ(backend.written().of(OpClass::kHostWrite), 0u);
  EXPECT_EQ(backend.written().padded, 0u);
}

TEST_F(UnitWriterTest, AMixedPageKeepsTheStreamsClassAndCountsEachUnitByItsOwn) {
  host.append_on_plane(0, 1, 1, kNone, OpClass::kMapping);
  host.append_on_plane(0, 2, 1);
  host.append_on_plane(0, 3, 1, kNone, OpClass::kMapping);
  host.append_on_plane(0, 4, 1);
  ASSERT_EQ(ops().size(), 1u);
  EXPECT_EQ(ops()[0].op_class, OpClass::kHostWrite);
  EXPECT_EQ(backend.written().of(OpClass::kMapping), 2u);
  EXPECT_EQ(backend.written().of(OpClass::kHostWrite), 2u);
}

TEST_F(UnitWriterTest, APaddedPageOfMappingUnitsIsStillAMappingProgram) {
  host.append_on_plane(0, 1, 1, kNone, OpClass::kMapping);
  host.close_page(0);
  ASSERT_EQ(ops().size(), 1u);
  EXPECT_EQ(ops()[0].op_class, OpClass::kMapping);
  EXPECT_EQ(backend.written().of(OpClass::kMapping), 1u);
  EXPECT_EQ(backend.written().padded, 3u);
}

TEST_F(UnitWriterTest, ClassCountsStartOverWithEachPage) {
  host.append_on_plane(0, 1, 1);
  host.close_page(0);  // a host page
  for (Lun lun = 0; lun < 4; ++lun) host.append_on_plane(0, lun, 1, kNone, OpClass::kMapping);
  ASSERT_EQ(ops().size(), 2u);
  EXPECT_EQ(ops()[0].op_class, OpClass::kHostWrite);
  EXPECT_EQ(ops()[1].op_class, OpClass::kMapping);
  EXPECT_EQ(backend.written().of(OpClass::kHostWrite), 1u);
  EXPECT_EQ(backend.written().of(OpClass::kMapping), 4u);
}

// A plane whose live units would pass the limit with one more page is skipped: the stream starts
// its page on the next plane of the stripe; a page already open on it is still finished.
TEST_F(UnitWriterTest, APlaneAtItsLiveLimitIsSkippedForNewPages) {
  host.set_plane_live_limit(8);  // two pages' worth of units per plane
  for (Lun lun = 0; lun < 32; ++lun) host.append(lun, 100 + lun);  // one page on every plane
  for (uint32_t plane = 0; plane < 8; ++plane) ASSERT_EQ(t.blocks.plane_valid_units(plane), 4u);
  // Plane 0 (the stripe's first) gains 4 more units from elsewhere: it is at its limit now.
  UnitWriter other{t.backend, t.blocks, OpClass::kGc};
  for (Lun lun = 0; lun < 4; ++lun) other.append_on_plane(0, 1000 + lun, 1);
  ASSERT_EQ(t.blocks.plane_valid_units(0), 8u);
  backend.begin_command();
  for (Lun lun = 32; lun < 36; ++lun) host.append(lun, 100 + lun);
  ASSERT_EQ(ops().size(), 1u);
  EXPECT_EQ(g.plane_of_block(g.block_of_page(ops()[0].page)), 2u);  // the stripe's second plane
  // Without a limit the same state would take plane 0.
  UnitWriter unlimited{t.backend, t.blocks, OpClass::kHostWrite};
  backend.begin_command();
  for (Lun lun = 40; lun < 44; ++lun) unlimited.append(lun, 100 + lun);
  EXPECT_EQ(g.plane_of_block(g.block_of_page(ops()[0].page)), 0u);
}

// When every plane is at its limit (a nearly full device) the stream keeps striping.
TEST_F(UnitWriterTest, WithEveryPlaneAtItsLimitTheStripeGoesOn) {
  host.set_plane_live_limit(4);
  for (Lun lun = 0; lun < 32; ++lun) host.append(lun, 100 + lun);
  backend.begin_command();
  for (Lun lun = 32; lun < 36; ++lun) host.append(lun, 100 + lun);
  ASSERT_EQ(ops().size(), 1u);
  EXPECT_EQ(g.plane_of_block(g.block_of_page(ops()[0].page)), 0u);
}

}  // namespace
}  // namespace ssd::ftl
