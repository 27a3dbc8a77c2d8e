// What the Superblock FTL's tests share (tests/ftl/superblock/): the test platform and the
// scheme's invariants, checked after every command batch and after every recovery from a cut.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "config/platform_config.h"
#include "ftl/core/ftl_device.h"
#include "ftl/superblock/superblock_ftl.h"
#include "ftl/superblock/superblock_settings.h"
#include "ftl/superblock/superblock_spare.h"
#include "tests/ftl/hybrid/block_scheme_fixture.h"
#include "tests/ftl/superblock_frame/frame_checks.h"
#include "tests/ftl/tiny_platform.h"

namespace ssd::testing {

using ftl::BlockId;
using ftl::FtlDevice;
using ftl::Geometry;
using ftl::kNone;
using ftl::Lun;
using ftl::PageId;
using ftl::SuperblockFtl;

// The tiny device with the paper's blocks: 8 planes of 64 blocks of 64 pages of 4 KiB, a 64-byte
// spare; a quarter over-provisioned (48 data blocks a plane), so 384 logical blocks in 96
// superblocks of 4, 12 a plane. Superblock settings: the defaults (the paper's).
inline config::PlatformConfig superblock_platform(uint32_t cache_entries = 48) {
  config::PlatformConfig p = tiny_platform();
  p.nand.pages_per_block = 64;
  p.nand.spare_bytes = 64;
  p.ftl.scheme = "superblock";
  p.ftl.settings.edit<ftl::SuperblockSettings>().cache_entries = cache_entries;
  return p;
}

inline const SuperblockFtl& superblock(const FtlDevice& device) {
  return dynamic_cast<const SuperblockFtl&>(device.scheme());
}

inline uint32_t superblocks_of(const FtlDevice& device) {
  const SuperblockFtl& s = superblock(device);
  return s.superblock_of(s.logical_blocks() - 1) + 1;
}

// Each block's live pages are the pages the maps keep: every valid unit's page and each group's
// PT page (what the PGD's page names), nothing else. Exact after a recovery, which counts them
// afresh; while the FTL runs, a page a trim or a merge left behind may still count (the frame
// counts conservatively: GC then finds it dead).
inline void expect_superblock_live_pages(FtlDevice& device) {
  const SuperblockFtl& s = superblock(device);
  const Geometry& g = device.geometry();
  std::vector<PageId> kept;
  for (uint32_t lbn = 0; lbn < s.logical_blocks(); ++lbn) {
    const PageId pmd = s.pgd(lbn);
    if (pmd == kNone) continue;
    const ftl::SuperblockSpare head =
        ftl::decode_superblock_spare(s.layout(), g, pmd, device.flash().spare(pmd));
    for (PageId pt : head.pt_page) {
      if (pt != kNone) kept.push_back(pt);
    }
    for (Lun lun = lbn * g.pages_per_block;
         lun < std::min<uint64_t>(g.logical_units, (lbn + 1) * uint64_t(g.pages_per_block));
         ++lun) {
      if (s.unit_valid(lun)) kept.push_back(s.peek(lun));
    }
  }
  expect_live_pages_are(s, device, kept);
}

// The superblock invariants: at most max_physical_blocks blocks each, on the superblock's plane,
// no block in two superblocks, every readable page of a superblock's blocks holding one of its
// logical pages (a cut's torn page holds garbage), the PGD and every valid unit's page inside its
// own superblock's blocks; plus the block-scheme invariants (each valid unit where peek() says,
// with the oracle's data; no block leaked).
inline void check_superblocks(FtlDevice& device) {
  check_block_scheme(device);
  const SuperblockFtl& s = superblock(device);
  const Geometry& g = device.geometry();
  const uint32_t max_blocks = s.layout().self_index + 1;
  std::vector<uint32_t> owner(g.blocks(), kNone);
  for (uint32_t sb = 0; sb < superblocks_of(device); ++sb) {
    const std::vector<BlockId>& blocks = s.blocks_of(sb);
    ASSERT_LE(blocks.size(), max_blocks) << "superblock " << sb;
    for (BlockId b : blocks) {
      ASSERT_EQ(owner[b], kNone) << "block " << b << " in superblocks " << owner[b] << " and "
                                 << sb;
      owner[b] = sb;
      ASSERT_EQ(g.plane_of_block(b), g.plane_in_stripe_order(sb % g.planes()))
          << "block " << b << " of superblock " << sb;
      ASSERT_GT(device.flash().write_pointer(b), 0u) << "empty block " << b << " held by " << sb;
      for (uint32_t p = 0; p < device.flash().write_pointer(b); ++p) {
        if (!device.flash().readable(g.first_page(b) + p)) continue;
        const Lun lpn = device.flash().spare(g.first_page(b) + p)[0];
        ASSERT_EQ(s.superblock_of(lpn / g.pages_per_block), sb)
            << "page " << p << " of block " << b << " holds logical page " << lpn;
      }
    }
  }
  expect_page_sums_kept(s, device, superblocks_of(device));
  for (uint32_t lbn = 0; lbn < s.logical_blocks(); ++lbn) {
    const PageId pmd = s.pgd(lbn);
    if (pmd == kNone) continue;
    ASSERT_EQ(owner[g.block_of_page(pmd)], s.superblock_of(lbn)) << "PGD of " << lbn;
    ASSERT_EQ(device.flash().spare(pmd)[0] / g.pages_per_block, lbn) << "PGD of " << lbn;
  }
  for (Lun lun = 0; lun < g.logical_units; ++lun) {
    if (!s.unit_valid(lun)) continue;
    ASSERT_EQ(owner[g.block_of_page(s.peek(lun))], s.superblock_of(lun / g.pages_per_block))
        << "unit " << lun;
  }
}

}  // namespace ssd::testing
