// The block schemes' merge primitive (BlockFlash::fill) with nand.copyback: a copy whose new
// block is on the old page's plane is one copy-back (no read, nothing over the channel); one
// going to another plane is read and programmed through the controller, as without copy-back.
#include "ftl/hybrid/block_flash.h"

#include <gtest/gtest.h>

#include "ftl/core/flash_array.h"
#include "ftl/core/geometry.h"
#include "tests/ftl/tiny_platform.h"

namespace ssd::ftl {
namespace {

struct MergeRig {
  explicit MergeRig(bool copyback)
      : platform(with_copyback(copyback)),
        geometry(Geometry::from_platform(platform)),
        flash(geometry, BlockFlash::kSpareWords, true),
        backend(flash),
        blocks(platform, backend, stats) {}

  static config::PlatformConfig with_copyback(bool copyback) {
    config::PlatformConfig p = testing::tiny_platform();
    p.nand.copyback = copyback;
    return p;
  }

  // Writes LUN 7 at offset 0 of a block of `plane`, then merges it into a fresh block of
  // `to_plane`: the operations the merge recorded.
  std::vector<FlashOp> merge(uint32_t plane, uint32_t to_plane) {
    const BlockId old_block = blocks.allocate(plane);
    blocks.program(old_block, 0, 7, 1234, OpClass::kHostWrite, kNone);
    const BlockId to = blocks.allocate(to_plane);
    backend.begin_command();
    blocks.fill(to, 0, 7, [&](uint32_t offset) {
      return offset == 0 ? MergeSource::copy(blocks.page(old_block, 0)) : MergeSource::empty();
    });
    new_page = blocks.page(to, 0);
    return backend.ops().ops();
  }

  config::PlatformConfig platform;
  Geometry geometry;
  FlashArray flash;
  FlashBackend backend;
  FtlStats stats;
  BlockFlash blocks;
  PageId new_page = kNone;
};

TEST(BlockFlashCopyback, ASamePlaneCopyIsOneCopyBack) {
  MergeRig rig(true);
  const std::vector<FlashOp> ops = rig.merge(0, 0);
  ASSERT_EQ(ops.size(), 1u);
  EXPECT_EQ(ops[0].kind, OpKind::kCopyback);
  EXPECT_EQ(ops[0].op_class, OpClass::kGc);
  EXPECT_EQ(ops[0].bytes, 0u);
  EXPECT_EQ(ops[0].page, rig.new_page);
  // The copy holds the data and names its unit, and it is counted as a GC write.
  EXPECT_EQ(rig.flash.token(rig.new_page), 1234u);
  EXPECT_EQ(rig.blocks.lun_in(rig.new_page), 7u);
  EXPECT_EQ(rig.backend.written().of(OpClass::kGc), 1u);
  EXPECT_EQ(rig.stats.gc_units_copied, 1u);
}

TEST(BlockFlashCopyback, ACopyToAnotherPlaneGoesThroughTheController) {
  MergeRig rig(true);
  const std::vector<FlashOp> ops = rig.merge(0, 1);
  ASSERT_EQ(ops.size(), 2u);
  EXPECT_EQ(ops[0].kind, OpKind::kRead);
  EXPECT_EQ(ops[1].kind, OpKind::kProgram);
  EXPECT_EQ(ops[1].after, 0u);
  EXPECT_EQ(rig.flash.token(rig.new_page), 1234u);
}

TEST(BlockFlashCopyback, OffItIsAlwaysAReadAndAProgram) {
  MergeRig rig(false);
  const std::vector<FlashOp> ops = rig.merge(0, 0);
  ASSERT_EQ(ops.size(), 2u);
  EXPECT_EQ(ops[0].kind, OpKind::kRead);
  EXPECT_EQ(ops[1].kind, OpKind::kProgram);
}

}  // namespace
}  // namespace ssd::ftl
