// Checks of the superblock frame (ftl/superblock_frame/) shared by the Superblock and LSB FTLs'
// tests: the page sums it keeps, and the tables recovery rebuilds from the spare areas after a cut
// with nothing in flight.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <vector>

#include "ftl/core/ftl_device.h"
#include "ftl/core/random.h"
#include "ftl/superblock_frame/superblock_frame.h"
#include "tests/ftl/scheme_workloads.h"

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

// Each block's live-page count is the number of `kept` pages in it (a page may be listed more than
// once): what the frame's GC relies on to pick victims and to tell a dead block.
inline void expect_live_pages_are(const ftl::SuperblockFrame& frame, ftl::FtlDevice& device,
                                  std::vector<ftl::PageId> kept) {
  const ftl::Geometry& g = device.geometry();
  std::sort(kept.begin(), kept.end());
  kept.erase(std::unique(kept.begin(), kept.end()), kept.end());
  std::vector<uint32_t> live(g.blocks(), 0);
  for (ftl::PageId page : kept) {
    ASSERT_TRUE(device.flash().is_programmed(page)) << "kept page " << page;
    ASSERT_TRUE(device.flash().readable(page)) << "kept page " << page;
    ++live[g.block_of_page(page)];
  }
  for (ftl::BlockId b = 0; b < g.blocks(); ++b) {
    ASSERT_EQ(frame.flash().blocks().valid_units(b), live[b]) << "live pages of block " << b;
  }
}

// What recovery must rebuild: every valid unit's page, every logical block's PGD entry, every
// superblock's written blocks. A superblock may hold a block it has not written yet (a write's
// room is found before its pages are); no spare area names it, so recovery gives it back to the
// free pool. A written block with no live page left, which GC would erase when it came to it,
// recovery erases.
struct FrameTables {
  std::vector<ftl::PageId> pages;  // per unit: its page, kNone when not valid
  std::vector<ftl::PageId> pgds;
  std::vector<std::set<ftl::BlockId>> blocks;  // written blocks with live pages
  std::vector<ftl::BlockId> unwritten;
  std::vector<ftl::BlockId> dead;  // written, no live page
  uint32_t held = 0;               // blocks held, the unwritten and dead ones left out
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
      if (device.flash().write_pointer(b) == 0) {
        t.unwritten.push_back(b);
      } else if (frame.flash().blocks().valid_units(b) == 0) {
        t.dead.push_back(b);
      } else {
        t.blocks[sb].insert(b);
      }
    }
  }
  t.held = frame.blocks_held() - static_cast<uint32_t>(t.unwritten.size() + t.dead.size());
  return t;
}

// After a recovery from a cut with nothing in flight: the same tables as `before`, the unwritten
// and dead blocks free.
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
  EXPECT_TRUE(after.dead.empty()) << "recovery holds no dead block";
  EXPECT_EQ(frame.blocks_held(), before.held);
  for (const std::vector<ftl::BlockId>* free : {&before.unwritten, &before.dead}) {
    for (ftl::BlockId b : *free) {
      EXPECT_EQ(int(frame.flash().blocks().state(b)), int(ftl::BlockState::kFree)) << "block " << b;
      EXPECT_EQ(device.flash().write_pointer(b), 0u) << "block " << b;
    }
  }
}

// A power cut with nothing in flight on a device that keeps no journal (nothing is undone), and
// the scheme's recovery from the flash.
inline ftl::FtlDevice::RecoveryCounts recover_quietly(ftl::FtlDevice& device) {
  device.power_cut(0);
  return device.recover();
}

// Random writes (60 %) and reads of 1 to 4 units' worth of sectors anywhere, no trims: a
// recovery finds every unit where the scheme kept it (a trimmed unit's older copy may come back).
inline uint64_t run_writes_and_reads(ftl::FtlDevice& device, uint64_t commands, uint64_t seed) {
  const ftl::Geometry& g = device.geometry();
  ftl::Random random(seed);
  uint64_t mismatches = 0;
  for (uint64_t i = 0; i < commands; ++i) {
    const auto count = static_cast<uint32_t>(1 + random.below(g.sectors_per_unit * 4));
    const uint64_t start = random.below(g.logical_sectors() - count + 1);
    const bool write = random.below(100) < 60;
    mismatches +=
        run_one(device, write ? ftl::CommandKind::kWrite : ftl::CommandKind::kRead, start, count);
  }
  return mismatches;
}

}  // namespace ssd::testing
