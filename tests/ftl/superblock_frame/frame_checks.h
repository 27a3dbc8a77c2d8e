// Checks of the superblock frame (ftl/superblock_frame/) shared by the Superblock and LSB FTLs'
// tests: the page sums it keeps, and the tables recovery rebuilds from the spare areas.
#pragma once

#include <gtest/gtest.h>

#include <set>
#include <vector>

#include "ftl/core/ftl_device.h"
#include "ftl/superblock_frame/superblock_frame.h"

namespace ssd::testing {

// The frame keeps each superblock's programmed and live pages as pages change
// (SuperblockFrame::written_pages, live_pages); here they are summed afresh over its blocks.
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

// What recovery must rebuild: every valid unit's page, every logical block's PGD entry, every
// superblock's written blocks. A superblock may hold a block it has not written yet (a write's
// room is found before its pages are); no spare area names it, so recovery gives it back to the
// free pool.
struct FrameTables {
  std::vector<ftl::PageId> pages;  // per unit: its page, kNone when not valid
  std::vector<ftl::PageId> pgds;
  std::vector<std::set<ftl::BlockId>> blocks;
  std::vector<ftl::BlockId> unwritten;
  uint32_t held = 0;  // blocks held, the unwritten ones left out
};

inline FrameTables frame_tables(const ftl::SuperblockFrame& frame, ftl::FtlDevice& device,
                                uint32_t superblocks) {
  FrameTables t;
  const uint64_t units = device.geometry().logical_units;
  t.pages.assign(units, ftl::kNone);
  for (ftl::Lun lun = 0; lun < units; ++lun) {
    if (frame.unit_valid(lun)) t.pages[lun] = frame.peek(lun);
  }
  for (uint32_t lbn = 0; lbn < frame.logical_blocks(); ++lbn) t.pgds.push_back(frame.pgd(lbn));
  t.blocks.resize(superblocks);
  for (uint32_t sb = 0; sb < superblocks; ++sb) {
    for (ftl::BlockId b : frame.blocks_of(sb)) {
      if (device.flash().write_pointer(b) > 0) {
        t.blocks[sb].insert(b);
      } else {
        t.unwritten.push_back(b);
      }
    }
  }
  t.held = frame.blocks_held() - static_cast<uint32_t>(t.unwritten.size());
  return t;
}

// After rebuild_from_spare_areas(): the same tables as `before`, the unwritten blocks free.
inline void expect_rebuilt(const FrameTables& before, const ftl::SuperblockFrame& frame,
                           ftl::FtlDevice& device) {
  const FrameTables after = frame_tables(frame, device, uint32_t(before.blocks.size()));
  for (uint32_t lbn = 0; lbn < before.pgds.size(); ++lbn) {
    ASSERT_EQ(after.pgds[lbn], before.pgds[lbn]) << "logical block " << lbn;
  }
  for (ftl::Lun lun = 0; lun < before.pages.size(); ++lun) {
    ASSERT_EQ(after.pages[lun], before.pages[lun]) << "unit " << lun;
  }
  for (uint32_t sb = 0; sb < before.blocks.size(); ++sb) {
    ASSERT_EQ(after.blocks[sb], before.blocks[sb]) << "superblock " << sb;
  }
  EXPECT_TRUE(after.unwritten.empty()) << "recovery holds no unwritten block";
  EXPECT_EQ(frame.blocks_held(), before.held);
  for (ftl::BlockId b : before.unwritten) {
    EXPECT_EQ(int(frame.flash().blocks().state(b)), int(ftl::BlockState::kFree))
        << "unwritten block " << b;
  }
}

}  // namespace ssd::testing
