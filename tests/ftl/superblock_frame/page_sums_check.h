// The superblock frame keeps each superblock's programmed and live pages as pages change
// (SuperblockFrame::written_pages, live_pages); here they are summed afresh over its blocks.
#pragma once

#include <gtest/gtest.h>

#include "ftl/core/ftl_device.h"
#include "ftl/superblock_frame/superblock_frame.h"

namespace ssd::testing {

inline void expect_page_sums_kept(const ftl::SuperblockFrame& frame, ftl::FtlDevice& device,
                                  uint32_t superblocks) {
  for (uint32_t sb = 0; sb < superblocks; ++sb) {
    uint64_t written = 0, live = 0;
    for (ftl::BlockId b : frame.blocks_of(sb)) {
      written += device.flash().write_pointer(b);
      live += frame.flash().blocks().valid_units(b);
    }
    ASSERT_EQ(frame.written_pages(sb), written) << "superblock " << sb;
    ASSERT_EQ(frame.live_pages(sb), live) << "superblock " << sb;
  }
}

}  // namespace ssd::testing
