// What the LSB FTL's tests share (tests/ftl/lsb/): the test platform and shapes, and the
// scheme's invariants, checked after every command batch and after every recovery from a cut.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <ostream>
#include <string>
#include <vector>

#include "config/platform_config.h"
#include "ftl/core/ftl_device.h"
#include "ftl/lsb/lsb_ftl.h"
#include "ftl/lsb/lsb_settings.h"
#include "ftl/lsb/lsb_spare.h"
#include "tests/ftl/hybrid/block_scheme_fixture.h"
#include "tests/ftl/superblock_frame/frame_checks.h"
#include "tests/ftl/tiny_platform.h"

namespace ssd::testing {

using ftl::BlockId;
using ftl::FtlDevice;
using ftl::Geometry;
using ftl::kNone;
using ftl::LsbFtl;
using ftl::LsbSpare;
using ftl::Lun;
using ftl::PageId;

struct LsbShape {
  const char* name;
  uint32_t superblock_blocks, groups_per_block, spare_bytes;
  double over_provisioning;
  uint32_t cache_entries = 16;
};

// The tiny device with the paper's blocks: 8 planes of 64 blocks of 64 pages, 64-byte spare
// areas, a quarter over-provisioned (384 logical blocks).
inline config::PlatformConfig lsb_platform(const LsbShape& shape = {"paper", 32, 8, 64, 0.25}) {
  config::PlatformConfig p = tiny_platform();
  p.nand.pages_per_block = 64;
  p.nand.spare_bytes = shape.spare_bytes;
  p.ftl.scheme = "lsb";
  p.ftl.over_provisioning = shape.over_provisioning;
  ftl::LsbSettings& s = p.ftl.settings.edit<ftl::LsbSettings>();
  s.superblock_blocks = shape.superblock_blocks;
  s.groups_per_block = shape.groups_per_block;
  s.cache_entries = shape.cache_entries;
  return p;
}

inline void PrintTo(const LsbShape& shape, std::ostream* os) { *os << shape.name; }

inline const LsbFtl& lsb(const FtlDevice& device) {
  return dynamic_cast<const LsbFtl&>(device.scheme());
}

inline uint32_t lsb_superblocks_of(const FtlDevice& device) {
  const LsbFtl& s = lsb(device);
  return s.superblock_of(s.logical_blocks() - 1) + 1;
}

// The page two or more of a PMD page's PTEs name: its group's PT page (lsb_ftl.h), else kNone.
inline PageId pt_page_named_by(const LsbSpare& spare) {
  for (size_t k = 0; k < spare.pte.size(); ++k) {
    if (spare.pte[k] != kNone &&
        std::count(spare.pte.begin(), spare.pte.end(), spare.pte[k]) >= 2) {
      return spare.pte[k];
    }
  }
  return kNone;
}

// The mapping pages the translation follows from the PGD (section III.B): each PDE names a
// programmed page of its own group of the same logical block, in a block of the logical block's
// superblock, and so does each PT page a PMD page goes through; the PT page has the PT format.
// Returns what is wrong ("" when nothing).
inline std::string map_problem(FtlDevice& device) {
  const LsbFtl& s = lsb(device);
  const Geometry& g = device.geometry();
  const uint32_t group_pages = s.layout().group_pages;
  std::vector<uint32_t> owner(g.blocks(), kNone);
  for (uint32_t sb = 0; sb <= s.superblock_of(s.logical_blocks() - 1); ++sb) {
    for (BlockId b : s.blocks_of(sb)) owner[b] = sb;
  }
  for (uint32_t lbn = 0; lbn < s.logical_blocks(); ++lbn) {
    const PageId pmd = s.pgd(lbn);
    if (pmd == kNone) continue;
    const std::string where = "logical block " + std::to_string(lbn) + ": ";
    // `page` should be a programmed page of `group` of this logical block; decoded into `out`.
    const auto mapping_page = [&](PageId page, uint32_t group, const char* role,
                                  LsbSpare& out) -> std::string {
      const std::string what =
          where + role + " " + std::to_string(page) + " of group " + std::to_string(group);
      if (!device.flash().is_programmed(page)) return what + " is not programmed";
      if (owner[g.block_of_page(page)] != s.superblock_of(lbn)) {
        return what + " is in a block its superblock does not hold";
      }
      const Lun lpn = device.flash().spare(page)[0];
      if (lpn / g.pages_per_block != lbn || (lpn % g.pages_per_block) / group_pages != group) {
        return what + " holds logical page " + std::to_string(lpn);
      }
      try {
        out = decode_lsb_spare(s.layout(), g, page, device.flash().spare(page));
      } catch (const std::exception& e) {
        return what + " does not decode: " + e.what();
      }
      return "";
    };
    const auto through_pt = [&](const LsbSpare& mapper, uint32_t group) -> std::string {
      const PageId pt = pt_page_named_by(mapper);
      if (pt == kNone) return "";
      LsbSpare table;
      std::string problem = mapping_page(pt, group, "PT page", table);
      if (problem.empty() && table.pmd) problem = where + "the PT page has the PMD format";
      return problem;
    };
    LsbSpare head;
    std::string problem = mapping_page(
        pmd, (device.flash().spare(pmd)[0] % g.pages_per_block) / group_pages, "PGD's page", head);
    if (!problem.empty()) return problem;
    if (!head.pmd) return where + "the PGD names a PT page";
    const uint32_t own = (head.lpn % g.pages_per_block) / group_pages;
    if (!(problem = through_pt(head, own)).empty()) return problem;
    for (uint32_t group = 0; group < s.layout().groups; ++group) {
      if (group == own || head.pde[group] == kNone) continue;
      LsbSpare mapper;
      if (!(problem = mapping_page(head.pde[group], group, "PDE", mapper)).empty()) return problem;
      if (mapper.pmd && !(problem = through_pt(mapper, group)).empty()) return problem;
    }
  }
  return "";
}

// Each block's live pages are the pages the maps keep: every valid unit's page and, per group, its
// mapping page (the PMD page itself, or what its PDE names) and the PT page that one goes through.
// Exact after a recovery, which counts them afresh; while the FTL runs, a page a trim or a merge
// left behind may still count (the frame counts conservatively: GC then finds it dead).
inline void expect_lsb_live_pages(FtlDevice& device) {
  const LsbFtl& s = lsb(device);
  const Geometry& g = device.geometry();
  const auto spare_of = [&](PageId page) {
    return decode_lsb_spare(s.layout(), g, page, device.flash().spare(page));
  };
  std::vector<PageId> kept;
  for (uint32_t lbn = 0; lbn < s.logical_blocks(); ++lbn) {
    const PageId pmd = s.pgd(lbn);
    if (pmd == kNone) continue;
    const LsbSpare head = spare_of(pmd);
    const uint32_t own = (head.lpn % g.pages_per_block) / s.layout().group_pages;
    for (uint32_t group = 0; group < s.layout().groups; ++group) {
      const PageId mapper = group == own ? pmd : head.pde[group];
      if (mapper == kNone) continue;
      kept.push_back(mapper);
      const LsbSpare map = group == own ? head : spare_of(mapper);
      const PageId pt = map.pmd ? pt_page_named_by(map) : mapper;
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

// The LSB invariants on top of the block-scheme ones: no block in two superblocks, every readable
// page of a superblock's blocks holding one of its logical pages (a cut's torn page holds
// garbage), each PGD entry a PMD page of its logical block, every mapping page the translation
// follows one of its own group (map_problem), every valid unit translated with at most three
// spare-area reads.
inline void check_lsb(FtlDevice& device) {
  check_block_scheme(device);
  const LsbFtl& s = lsb(device);
  const Geometry& g = device.geometry();
  const uint32_t superblocks = s.superblock_of(s.logical_blocks() - 1) + 1;
  std::vector<uint32_t> owner(g.blocks(), kNone);
  for (uint32_t sb = 0; sb < superblocks; ++sb) {
    for (BlockId b : s.blocks_of(sb)) {
      ASSERT_EQ(owner[b], kNone) << "block " << b << " in two superblocks";
      owner[b] = sb;
      for (uint32_t p = 0; p < device.flash().write_pointer(b); ++p) {
        if (!device.flash().readable(g.first_page(b) + p)) continue;
        const Lun lpn = device.flash().spare(g.first_page(b) + p)[0];
        ASSERT_EQ(s.superblock_of(lpn / g.pages_per_block), sb) << "block " << b << " page " << p;
      }
    }
  }
  expect_page_sums_kept(s, device, superblocks);
  for (uint32_t lbn = 0; lbn < s.logical_blocks(); ++lbn) {
    const PageId pmd = s.pgd(lbn);
    if (pmd == kNone) continue;
    ASSERT_EQ(owner[g.block_of_page(pmd)], s.superblock_of(lbn)) << "PGD of " << lbn;
    const LsbSpare spare = decode_lsb_spare(s.layout(), g, pmd, device.flash().spare(pmd));
    ASSERT_TRUE(spare.pmd) << "the PGD of " << lbn << " names a PT page";
    ASSERT_EQ(spare.lpn / g.pages_per_block, lbn);
  }
  ASSERT_EQ(map_problem(device), "");
  for (Lun lun = 0; lun < g.logical_units; ++lun) {
    if (!s.unit_valid(lun)) continue;
    const uint32_t reads = s.translation_reads(lun);
    ASSERT_GE(reads, 1u) << "unit " << lun;
    ASSERT_LE(reads, 3u) << "unit " << lun;
  }
}

}  // namespace ssd::testing
