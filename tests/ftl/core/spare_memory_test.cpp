// The spare words an aged device keeps in memory (ftl/core/spare_area.h): those of the blocks
// holding data at once, not of every block the device has ever programmed. An erased block's
// memory goes to the next block programmed, so the free blocks GC keeps per plane cost none.
#include <gtest/gtest.h>

#include <cstdint>

#include "ftl/core/ftl_device.h"
#include "ftl/core/preconditioner.h"
#include "tests/ftl/tiny_platform.h"

namespace ssd::ftl {
namespace {

TEST(SpareMemory, AnAgedDeviceKeepsNoWordsForItsFreeBlocks) {
  for (const char* scheme : {"page", "dac", "dftl", "emt"}) {
    SCOPED_TRACE(scheme);
    config::PlatformConfig platform = testing::tiny_platform();
    platform.ftl.scheme = scheme;
    FtlDevice device(platform, FtlDeviceOptions{});
    config::PreconditionConfig config;
    config.fill_ratio = 1.0;
    config.overwrite_ratio = 3.0;
    config.seed = 5;
    precondition(device, config);
    const Geometry& g = device.geometry();
    // Every block has held data and been erased: a table kept per block would hold them all.
    for (BlockId block = 0; block < g.blocks(); ++block) {
      ASSERT_GT(device.flash().erase_count(block), 0u) << block;
    }
    // GC keeps free blocks on every plane (a few here, 5 % of each plane by default), and at no
    // time did their words take memory.
    EXPECT_LE(device.flash().spare_peak_blocks_in_memory() + g.planes(), g.blocks());
  }
}

}  // namespace
}  // namespace ssd::ftl
