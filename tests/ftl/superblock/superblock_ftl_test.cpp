// The Superblock FTL (ftl/superblock/superblock_ftl.h) end to end on a small device of 64-page
// blocks with the paper's spare format: every page written carries its LPN, its logical block's
// PMD and its group's PT, the PGD names the newest page; superblocks keep to their blocks and to
// max_physical_blocks of them; a cache miss costs one spare-area read per map page, LRU evicts;
// a superblock whose PBMT is full runs forced GC; trimmed pages are dead to GC; a million random
// and a million sequential commands on a full device pass the oracle; the tables rebuilt from the
// spare areas are the ones the FTL kept; other superblock shapes pass the oracle too.
#include "ftl/superblock/superblock_ftl.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "config/config_loader.h"
#include "ftl/core/random.h"
#include "ftl/scheme_registry.h"
#include "ftl/superblock/superblock_settings.h"
#include "ftl/superblock/superblock_spare.h"
#include "tests/ftl/hybrid/block_scheme_fixture.h"
#include "tests/ftl/superblock/superblock_checks.h"
#include "tests/ftl/superblock_frame/frame_checks.h"

namespace ssd::ftl {
namespace {

using testing::check_superblocks;
using testing::expect_reads_where_peek_says;
using testing::ops_of;
using testing::run_one;
using testing::superblock;
using testing::superblock_platform;
using testing::superblocks_of;

double figure(const FtlDevice& device, const std::string& name) {
  for (const MappingFigure& f : superblock(device).mapping_figures()) {
    if (f.name == name) return f.value;
  }
  ADD_FAILURE() << "no figure " << name;
  return -1;
}

// The report's victim_free_pages: victims erased with 0, 1, 2... never-programmed pages.
std::vector<uint64_t> victim_free_pages(const FtlDevice& device) {
  for (const MappingFigure& f : superblock(device).mapping_figures()) {
    if (f.name == "victim_free_pages") return f.counts;
  }
  ADD_FAILURE() << "no figure victim_free_pages";
  return {};
}

// The distribution behind victim_free_pages_mean: one victim per GC erase, with that mean.
std::vector<uint64_t> expect_victims_add_up(const FtlDevice& device) {
  const std::vector<uint64_t> victims = victim_free_pages(device);
  EXPECT_FALSE(victims.empty());
  EXPECT_LE(victims.size(), device.geometry().pages_per_block + 1);
  EXPECT_TRUE(victims.size() == 1 || victims.back() != 0) << "trailing zeros dropped";
  uint64_t erased = 0, free_pages = 0;
  for (size_t k = 0; k < victims.size(); ++k) {
    erased += victims[k];
    free_pages += k * victims[k];
  }
  EXPECT_EQ(erased, device.scheme().stats().gc_erases);
  EXPECT_EQ(double(erased), figure(device, "victim_free_pages"));
  EXPECT_DOUBLE_EQ(figure(device, "victim_free_pages_mean"),
                   erased ? double(free_pages) / double(erased) : 0.0);
  return victims;
}

SuperblockSpare decoded(FtlDevice& device, PageId page) {
  const SuperblockFtl& s = superblock(device);
  return decode_superblock_spare(s.layout(), device.geometry(), page, device.flash().spare(page));
}

class SuperblockTest : public ::testing::Test {
 protected:
  explicit SuperblockTest(const config::PlatformConfig& p = superblock_platform()) : platform(p) {}

  config::PlatformConfig platform;
  FtlDevice device{platform, FtlDeviceOptions{}};
  const Geometry& g = device.geometry();
  uint32_t spu = g.sectors_per_unit;
  uint32_t ppb = g.pages_per_block;

  const SuperblockFtl& scheme() const { return superblock(device); }
  uint64_t write_units(Lun first, uint32_t count) {
    return run_one(device, CommandKind::kWrite, uint64_t(first) * spu, count * spu);
  }
  uint64_t read_units(Lun first, uint32_t count) {
    return run_one(device, CommandKind::kRead, uint64_t(first) * spu, count * spu);
  }
  size_t spare_reads() { return ops_of(device, OpKind::kSpareRead).size(); }
};

TEST_F(SuperblockTest, TheTestPlatformIsThePapersLayout) {
  ASSERT_EQ(ppb, 64u);
  EXPECT_EQ(scheme().layout().mapping_bits(), 348u);
  EXPECT_EQ(scheme().layout().available_bits(), 352u);
  EXPECT_EQ(scheme().logical_blocks(), 384u);
  EXPECT_EQ(superblocks_of(device), 96u);
  EXPECT_EQ(device.flash().spare_words_per_page(), 16u);
}

// Each program of a write: its spare names its LPN, the page is its own group's PT page and its
// own PT entry; the PGD names the command's last page of each logical block.
void expect_written_pages_carry_their_map(FtlDevice& device, Lun first, uint32_t count) {
  const SuperblockFtl& s = superblock(device);
  const Geometry& g = device.geometry();
  const uint32_t group_pages = s.layout().group_pages;
  const std::vector<FlashOp> programs = ops_of(device, OpKind::kProgram);
  ASSERT_EQ(programs.size(), count);
  for (uint32_t i = 0; i < count; ++i) {
    const Lun lun = first + i;
    const PageId page = programs[i].page;
    const SuperblockSpare spare = decoded(device, page);
    const uint32_t offset = lun % g.pages_per_block;
    EXPECT_EQ(spare.lpn, lun);
    EXPECT_EQ(spare.pt_page[offset / group_pages], page) << "unit " << lun;
    EXPECT_EQ(spare.page_of[offset % group_pages], page) << "unit " << lun;
    EXPECT_EQ(s.peek(lun), page) << "unit " << lun;
    const bool last_of_block = i + 1 == count || (lun + 1) % g.pages_per_block == 0;
    if (last_of_block) {
      EXPECT_EQ(s.pgd(lun / g.pages_per_block), page) << "unit " << lun;
    }
  }
}

TEST_F(SuperblockTest, AWrittenPageCarriesItsLpnAndIsNamedByThePgdAndItsPmd) {
  const struct {
    Lun first;
    uint32_t count;
  } writes[] = {{0, 1},  {5, 3},   {17, 40}, {60, 10}, {3, 1},    {200, 64},
                {2, 62}, {130, 1}, {16, 1},  {31, 2},  {1000, 5}, {63, 1}};
  for (const auto& w : writes) {
    ASSERT_EQ(write_units(w.first, w.count), 0u);
    expect_written_pages_carry_their_map(device, w.first, w.count);
  }
  // The PMD of logical block 0's newest page names each written group's PT page: the newest
  // page of that group.
  const SuperblockSpare head = decoded(device, scheme().pgd(0));
  EXPECT_EQ(head.lpn, 63u);
  EXPECT_EQ(head.pt_page[0], scheme().peek(15));  // {2, 62} wrote units 2-63 in order
  EXPECT_EQ(head.pt_page[1], scheme().peek(31));  // {16, 1}, then {31, 2}
  EXPECT_EQ(head.pt_page[2], scheme().peek(32));  // {31, 2}
  EXPECT_EQ(head.pt_page[3], scheme().peek(63));  // {63, 1}
  check_superblocks(device);
  expect_reads_where_peek_says(device);
}

TEST_F(SuperblockTest, UnwrittenPagesAndGroupsReadAsNeverWritten) {
  write_units(20, 1);  // group 1 of logical block 0 only
  const SuperblockSpare spare = decoded(device, scheme().pgd(0));
  EXPECT_EQ(spare.pt_page[0], kNone);
  EXPECT_EQ(spare.pt_page[2], kNone);
  EXPECT_EQ(spare.pt_page[3], kNone);
  for (uint32_t k = 0; k < 16; ++k) {
    if (k != 4) {
      EXPECT_EQ(spare.page_of[k], kNone) << k;
    }
  }
  EXPECT_EQ(spare.pbmt, std::vector<BlockId>(7, kNone));  // the superblock holds one block
  EXPECT_EQ(scheme().peek(21), kNone);
  EXPECT_EQ(scheme().peek(0), kNone);
  EXPECT_EQ(scheme().pgd(1), kNone);
  EXPECT_EQ(read_units(0, 64), 0u);
}

TEST_F(SuperblockTest, WritesOfAnotherSuperblockNeverLandInThisOnesBlocks) {
  // Superblocks 0 and 8 share plane 0 (8 planes): their writes still go to different blocks,
  // though superblock 0's block has 63 free pages.
  ASSERT_EQ(g.planes(), 8u);
  write_units(0, 1);
  ASSERT_EQ(scheme().blocks_of(0).size(), 1u);
  const BlockId first = scheme().blocks_of(0)[0];
  write_units(8 * 4 * ppb, 1);  // logical block 32: superblock 8
  ASSERT_EQ(scheme().blocks_of(8).size(), 1u);
  EXPECT_NE(scheme().blocks_of(8)[0], first);
  EXPECT_EQ(g.plane_of_block(scheme().blocks_of(8)[0]), g.plane_of_block(first));
  EXPECT_EQ(g.block_of_page(scheme().peek(8 * 4 * ppb)), scheme().blocks_of(8)[0]);
  // Logical blocks 1-3 share superblock 0's block.
  write_units(ppb, 1);
  write_units(3 * ppb + 7, 2);
  EXPECT_EQ(scheme().blocks_of(0), std::vector<BlockId>{first});
  EXPECT_EQ(g.block_of_page(scheme().peek(3 * ppb + 8)), first);
  check_superblocks(device);
}

TEST_F(SuperblockTest, RandomWritesKeepEverySuperblockInItsBlocksAndItsBound) {
  // Hot superblocks: random writes over 16 superblocks (two a plane), so each outgrows its
  // blocks and meets its PBMT's bound many times over.
  Random random(5);
  const uint32_t units = 16 * 4 * ppb;
  for (int i = 0; i < 60'000; ++i) {
    const uint32_t count = 1 + static_cast<uint32_t>(random.below(8));
    const Lun first = static_cast<Lun>(random.below(units - count + 1));
    ASSERT_EQ(write_units(first, count), 0u);
    if (random.below(4) == 0) {
      ASSERT_EQ(read_units(static_cast<Lun>(random.below(units - 8)), 8), 0u)
          << device.oracle()->first_mismatch();
    }
    if (i % 10'000 == 0) check_superblocks(device);
  }
  check_superblocks(device);
  for (uint32_t sb = 16; sb < superblocks_of(device); ++sb) {
    EXPECT_TRUE(scheme().blocks_of(sb).empty()) << sb;  // never written
  }
  EXPECT_GT(figure(device, "forced_gcs"), 0.0);
  expect_victims_add_up(device);
  expect_reads_where_peek_says(device);
}

// A request can force GC while the newest block still has free pages, too few for it; when that
// block has the fewest live pages it is the victim, and its unwritten pages are lost to the erase
// (the paper's figure 11: the Superblock FTL's victims that still had free pages).
TEST_F(SuperblockTest, AForcedGcCanEraseAPartlyWrittenBlock) {
  ASSERT_EQ(write_units(0, 4 * ppb), 0u);  // superblock 0's four blocks, all live
  // A 48-page rewrite in each logical block: three more blocks, all live, and 16 live pages
  // left in each of the first four.
  for (uint32_t lbn = 0; lbn < 4; ++lbn) ASSERT_EQ(write_units(lbn * ppb, 48), 0u);
  ASSERT_EQ(scheme().blocks_of(0).size(), 7u);
  ASSERT_EQ(write_units(0, 10), 0u);  // the eighth block: 10 pages written, all live
  ASSERT_EQ(scheme().blocks_of(0).size(), 8u);
  const BlockId newest = scheme().blocks_of(0).back();
  ASSERT_EQ(scheme().flash().blocks().valid_units(newest), 10u);
  ASSERT_EQ(figure(device, "forced_gcs"), 0.0);
  // 60 pages do not fit in its 54 free pages and the PBMT is full.
  ASSERT_EQ(write_units(ppb, 60), 0u);
  EXPECT_GT(figure(device, "forced_gcs"), 0.0);
  const std::vector<uint64_t> victims = expect_victims_add_up(device);
  ASSERT_EQ(victims.size(), ppb - 10 + 1) << "the newest block, erased with 54 free pages";
  EXPECT_EQ(victims.back(), 1u);
  EXPECT_EQ(read_units(0, 4 * ppb), 0u) << device.oracle()->first_mismatch();
  check_superblocks(device);
  expect_reads_where_peek_says(device);
}

// --- the cache ---------------------------------------------------------------------------------

class SuperblockCacheTest : public SuperblockTest {
 protected:
  SuperblockCacheTest() : SuperblockTest(superblock_platform(2)) {}
};

TEST_F(SuperblockCacheTest, AMissReadsThePmdPageAndEachOtherGroupsPtPage) {
  write_units(0, ppb);           // logical block 0: PT pages at offsets 15, 31, 47; PMD at 63
  write_units(3 * ppb, 2);       // logical block 3: group 0 (PT: offset 1) ...
  write_units(3 * ppb + 40, 1);  // ... and group 2 (PMD: offset 40)
  write_units(5 * ppb + 17, 1);  // logical block 5: group 1 only
  EXPECT_EQ(figure(device, "map_spare_reads"), 0.0);  // first writes: nothing to load
  // The cache holds logical blocks 3 and 5.
  EXPECT_EQ(read_units(5, 1), 0u);
  std::vector<FlashOp> spare = ops_of(device, OpKind::kSpareRead);
  ASSERT_EQ(spare.size(), 4u);  // PMD, then groups 0, 1, 2's PT pages
  EXPECT_EQ(spare[0].page, scheme().pgd(0));
  EXPECT_EQ(spare[0].page, scheme().peek(63));
  EXPECT_EQ(spare[1].page, scheme().peek(15));
  EXPECT_EQ(spare[2].page, scheme().peek(31));
  EXPECT_EQ(spare[3].page, scheme().peek(47));
  for (const FlashOp& op : spare) {
    EXPECT_EQ(op.op_class, OpClass::kHostRead);
    EXPECT_EQ(op.bytes, 64u);  // the whole spare area
  }
  // The data read waits for the map.
  const std::vector<FlashOp>& ops = device.backend().ops().ops();
  ASSERT_EQ(ops.back().kind, OpKind::kRead);
  EXPECT_EQ(ops.back().page, scheme().peek(5));
  ASSERT_LT(ops.back().after, ops.size());
  EXPECT_EQ(ops[ops.back().after].kind, OpKind::kSpareRead);

  EXPECT_EQ(read_units(5, 1), 0u);  // cached now
  EXPECT_EQ(spare_reads(), 0u);
  EXPECT_EQ(read_units(0, ppb), 0u);
  EXPECT_EQ(spare_reads(), 0u);

  EXPECT_EQ(read_units(3 * ppb + 1, 1), 0u);  // evicts logical block 5 (0 was used since)
  spare = ops_of(device, OpKind::kSpareRead);
  ASSERT_EQ(spare.size(), 2u);  // two groups written: PMD (group 2) and group 0's PT page
  EXPECT_EQ(spare[0].page, scheme().peek(3 * ppb + 40));
  EXPECT_EQ(spare[1].page, scheme().peek(3 * ppb + 1));

  EXPECT_EQ(read_units(5 * ppb + 17, 1), 0u);  // one group written: its PMD page alone
  spare = ops_of(device, OpKind::kSpareRead);
  ASSERT_EQ(spare.size(), 1u);
  EXPECT_EQ(spare[0].page, scheme().pgd(5));

  EXPECT_EQ(read_units(5 * ppb + 18, 1), 0u);  // never written: no lookup, no read
  EXPECT_EQ(spare_reads(), 0u);
  EXPECT_EQ(ops_of(device, OpKind::kRead).size(), 0u);
  EXPECT_EQ(figure(device, "map_spare_reads"), 7.0);
}

TEST_F(SuperblockCacheTest, TouchingAThirdLogicalBlockEvictsTheLeastRecentlyUsed) {
  write_units(0, 1);
  write_units(ppb, 1);
  write_units(2 * ppb, 1);  // evicts logical block 0: the cache holds 1 and 2
  const double lookups = figure(device, "cache_lookups");
  const double hits = figure(device, "cache_hits");
  const struct {
    uint32_t lbn;
    size_t spare_reads;
  } steps[] = {
      {1, 0},  // hit; 2 is now the least recently used
      {0, 1},  // miss: evicts 2
      {1, 0},  // hit: evicts nothing
      {2, 1},  // miss: evicts 0
      {1, 0},  // hit
      {2, 0},  // hit
      {0, 1},  // miss: evicts 1
      {1, 1},  // miss: evicts 2
  };
  size_t misses = 0;
  for (const auto& step : steps) {
    EXPECT_EQ(read_units(step.lbn * ppb, 1), 0u);
    EXPECT_EQ(spare_reads(), step.spare_reads) << "logical block " << step.lbn;
    misses += step.spare_reads;
  }
  EXPECT_EQ(figure(device, "cache_lookups") - lookups, 8.0);
  EXPECT_EQ(figure(device, "cache_hits") - hits, double(8 - misses));
  ASSERT_TRUE(device.scheme().cache_hit_ratio().has_value());
}

// A cache of more entries than there are logical blocks holds one per logical block: it is
// neither allocated nor counted beyond that.
TEST(SuperblockCache, MoreEntriesThanLogicalBlocksAreNeitherHeldNorCounted) {
  config::PlatformConfig p = superblock_platform();
  p.ftl.settings.edit<SuperblockSettings>().cache_entries = 4000000000u;
  const FtlDevice device(p, FtlDeviceOptions{});
  config::PlatformConfig q = superblock_platform();
  q.ftl.settings.edit<SuperblockSettings>().cache_entries =
      static_cast<uint32_t>(superblock(device).logical_blocks());
  const FtlDevice exact(q, FtlDeviceOptions{});
  EXPECT_EQ(device.scheme().mapping_memory_bytes(), exact.scheme().mapping_memory_bytes());
}

TEST_F(SuperblockTest, ALargeCacheAnswersEveryRepeatedRead) {
  for (uint32_t lbn = 0; lbn < 40; ++lbn) write_units(lbn * ppb + lbn % ppb, 3);
  for (uint32_t lbn = 0; lbn < 40; ++lbn) {
    EXPECT_EQ(read_units(lbn * ppb + lbn % ppb, 3), 0u);
    EXPECT_EQ(spare_reads(), 0u) << lbn;  // 48 entries hold all 40
  }
}

// --- forced GC ---------------------------------------------------------------------------------

TEST_F(SuperblockTest, AFullPbmtForcesGcAndReadsStayRight) {
  write_units(ppb, ppb);  // logical block 1: cold, stays live
  const uint32_t plane = g.plane_of_block(scheme().blocks_of(0)[0]);
  size_t most = 0;
  for (int round = 0; round < 30; ++round) {  // logical block 0 over and over: 30 x 64 pages
    ASSERT_EQ(write_units(0, ppb), 0u);
    most = std::max(most, scheme().blocks_of(0).size());
    ASSERT_LE(scheme().blocks_of(0).size(), 8u) << "round " << round;
    ASSERT_EQ(read_units(0, 2 * ppb), 0u)
        << "round " << round << ": " << device.oracle()->first_mismatch();
  }
  EXPECT_EQ(most, 8u);
  EXPECT_GT(figure(device, "forced_gcs"), 0.0);
  // The PBMT's bound, not the free pool: the plane never came near its GC reserve.
  EXPECT_EQ(figure(device, "partial_merges"), 0.0);
  EXPECT_EQ(figure(device, "full_merges"), 0.0);
  EXPECT_GT(scheme().flash().free_blocks(plane), 40u);
  check_superblocks(device);
  expect_reads_where_peek_says(device);
}

TEST_F(SuperblockTest, ScatteredSingleWritesToAFullSuperblockForceGcAndReadsStayRight) {
  const uint32_t units = 4 * ppb;  // superblock 0: logical blocks 0-3
  write_units(0, units);
  Random random(9);
  for (int i = 0; i < 20'000; ++i) {
    ASSERT_EQ(write_units(static_cast<Lun>(random.below(units)), 1), 0u);
    ASSERT_LE(scheme().blocks_of(0).size(), 8u);
    if (i % 7 == 0) {
      ASSERT_EQ(read_units(static_cast<Lun>(random.below(units)), 1), 0u)
          << "write " << i << ": " << device.oracle()->first_mismatch();
    }
    if (i % 5000 == 0) check_superblocks(device);
  }
  EXPECT_GT(figure(device, "forced_gcs"), 100.0);
  // A single page fits unless all eight blocks are full, so every forced GC's victim was full.
  EXPECT_EQ(expect_victims_add_up(device).size(), 1u);
  EXPECT_EQ(read_units(0, units), 0u) << device.oracle()->first_mismatch();
  check_superblocks(device);
  expect_reads_where_peek_says(device);
}

// --- trims --------------------------------------------------------------------------------------

// A trimmed unit holds no data (block_scheme.h: "unwritten and trimmed units read as zeroes
// without flash access and merges drop them"): its page is dead to GC, so a block holding only
// trimmed pages is reclaimed like a dead one, and no trimmed page is ever copied.
// A trim makes the unit's page dead, except the page that is its group's PT page: its spare
// area carries the group's map, which the group's other units still need, so it stays live
// (and is copied by GC) until a later write in the group takes over (docs/schemes.md, "Trim").
TEST_F(SuperblockTest, TrimmedPagesAreDeadToGcButTheirGroupsPtPages) {
  write_units(0, 4 * ppb);  // superblock 0: logical blocks 0-3, one block each
  const BlockId trimmed = g.block_of_page(scheme().peek(0));
  ASSERT_EQ(g.block_of_page(scheme().peek(ppb - 1)), trimmed);
  run_one(device, CommandKind::kTrim, 0, ppb * spu);  // all of logical block 0
  const uint32_t groups = scheme().layout().groups;
  EXPECT_EQ(scheme().flash().blocks().valid_units(trimmed), groups)
      << "only each group's PT page (its last page) stays live";
  // One write in each group takes the map over: the old PT pages are dead too.
  const uint32_t group_pages = scheme().layout().group_pages;
  for (uint32_t group = 0; group < groups; ++group) {
    ASSERT_EQ(write_units(group * group_pages, 1), 0u);
  }
  EXPECT_EQ(scheme().flash().blocks().valid_units(trimmed), 0u);
  // Logical block 3 over and over: the PBMT fills, forced GC reclaims blocks with no live page
  // first (ties: the oldest), the trimmed block among them, copying nothing.
  for (int round = 0; round < 12; ++round) ASSERT_EQ(write_units(3 * ppb, ppb), 0u);
  EXPECT_GT(figure(device, "forced_gcs"), 0.0);
  const std::vector<BlockId>& blocks = scheme().blocks_of(0);
  EXPECT_EQ(std::count(blocks.begin(), blocks.end(), trimmed), 0)
      << "the block of trimmed pages is still held";
  EXPECT_EQ(device.scheme().stats().gc_units_copied, 0u);
  EXPECT_EQ(read_units(0, 4 * ppb), 0u) << device.oracle()->first_mismatch();
  check_superblocks(device);
}

TEST(SuperblockTrim, AMergeCopiesOnlyTheTrimmedGroupsPtPages) {
  // Superblocks at their tightest: 4 logical blocks in at most 5 physical blocks.
  config::PlatformConfig p = superblock_platform();
  p.ftl.settings.edit<SuperblockSettings>().max_physical_blocks = 5;
  FtlDevice device(p, FtlDeviceOptions{});
  const Geometry& g = device.geometry();
  const uint32_t ppb = g.pages_per_block, spu = g.sectors_per_unit;
  const auto write = [&](Lun lun) {
    ASSERT_EQ(run_one(device, CommandKind::kWrite, uint64_t(lun) * spu, spu), 0u);
  };
  // Logical blocks 0 and 1 interleaved page by page over two blocks (sequence numbers 1-128),
  // then logical block 0 trimmed, 2 and 3 written, and 1 rewritten: the first two blocks hold
  // nothing but trimmed pages (four of them PT pages, kept for the map) and dead ones.
  for (uint32_t k = 0; k < ppb; ++k) {
    write(k);
    write(ppb + k);
  }
  run_one(device, CommandKind::kTrim, 0, ppb * spu);
  for (Lun lun = 2 * ppb; lun < 4 * ppb; ++lun) write(lun);
  for (Lun lun = ppb; lun < 2 * ppb; ++lun) write(lun);
  ASSERT_EQ(superblock(device).blocks_of(0).size(), 5u);
  // Random single writes to logical blocks 1-3: forced GC, over and over.
  Random random(3);
  for (int i = 0; i < 3000; ++i) write(ppb + static_cast<Lun>(random.below(3 * ppb)));
  EXPECT_GT(figure(device, "forced_gcs"), 0.0);
  // Every page of logical block 0 programmed after the trim is a GC copy of a group's PT page:
  // the group's last page written (offset 15, 31, 47, 63).
  const uint32_t group_pages = superblock(device).layout().group_pages;
  uint64_t copies = 0;
  for (BlockId b : superblock(device).blocks_of(0)) {
    for (uint32_t page = 0; page < device.flash().write_pointer(b); ++page) {
      const SuperblockSpare spare = decoded(device, g.first_page(b) + page);
      if (spare.lpn >= ppb || spare.sequence <= 2 * ppb) continue;
      ++copies;
      EXPECT_EQ(spare.lpn % group_pages, group_pages - 1) << "GC copied a trimmed non-PT page";
    }
  }
  EXPECT_GT(copies, 0u);
  EXPECT_EQ(run_one(device, CommandKind::kRead, 0, 4 * ppb * spu), 0u)
      << device.oracle()->first_mismatch();
  check_superblocks(device);
}

// --- a full device -----------------------------------------------------------------------------

class SuperblockWorkloads : public SuperblockTest {
 protected:
  void SetUp() override {
    config::PreconditionConfig fill;
    fill.fill_ratio = 1.0;
    fill.overwrite_ratio = 0.2;
    precondition(device, fill);
    check_superblocks(device);
    for (Lun lun = 0; lun < g.logical_units; ++lun) ASSERT_TRUE(scheme().unit_valid(lun));
  }
  std::function<void()> check = [this] { check_superblocks(device); };

  void expect_gc_ran() {
    EXPECT_GT(figure(device, "partial_merges") + figure(device, "full_merges"), 0.0);
    EXPECT_GT(device.scheme().stats().gc_invocations, 0u);
  }
};

TEST_F(SuperblockWorkloads, MillionRandomCommandsOnAFullDevice) {
  EXPECT_EQ(testing::run_random(device, 1'000'000, 42, check, 250'000), 0u)
      << device.oracle()->first_mismatch();
  EXPECT_GT(device.oracle()->checked_reads(), 300'000u);
  expect_gc_ran();
  expect_reads_where_peek_says(device);
}

TEST_F(SuperblockWorkloads, MillionSequentialCommandsOnAFullDevice) {
  EXPECT_EQ(testing::run_sequential(device, 1'000'000, 43, check, 250'000), 0u)
      << device.oracle()->first_mismatch();
  EXPECT_GT(device.oracle()->checked_reads(), 300'000u);
  expect_gc_ran();
  expect_reads_where_peek_says(device);
}

// --- recovery ----------------------------------------------------------------------------------

// Without trims, which a recovery cannot know of (a trimmed unit's older copy may come back).
TEST_F(SuperblockWorkloads, TheTablesRebuiltFromTheSpareAreasAreTheOnesKept) {
  ASSERT_EQ(testing::run_writes_and_reads(device, 200'000, 77), 0u)
      << device.oracle()->first_mismatch();
  check();
  expect_gc_ran();
  const testing::FrameTables before =
      testing::frame_tables(scheme(), device, superblocks_of(device));

  const FtlDevice::RecoveryCounts recovery = testing::recover_quietly(device);

  testing::expect_rebuilt(before, scheme(), device);
  // Every map held: nothing copied; each programmed page's spare area read once, each logical
  // block's map pages once more.
  EXPECT_EQ(recovery.programs, 0u);
  EXPECT_EQ(recovery.erases, before.dead.size());
  uint64_t programmed = 0;
  for (BlockId b = 0; b < g.blocks(); ++b) programmed += device.flash().write_pointer(b);
  EXPECT_GE(recovery.spare_reads, programmed);
  EXPECT_LE(recovery.spare_reads, programmed + uint64_t(scheme().logical_blocks()) *
                                                   (1 + superblock(device).layout().groups));
  check_superblocks(device);
  // The cache was dropped: reads load the maps from the spare areas again, and pass.
  EXPECT_EQ(read_units(0, 4), 0u);
  EXPECT_GT(spare_reads(), 0u);
  expect_reads_where_peek_says(device);
  // And the FTL goes on from the rebuilt tables.
  EXPECT_EQ(testing::run_random(device, 100'000, 78, check, 50'000), 0u)
      << device.oracle()->first_mismatch();
  expect_reads_where_peek_says(device);
}

TEST_F(SuperblockTest, RebuildingAFreshlyWrittenDeviceGivesTheSameTables) {
  write_units(0, 100);
  write_units(10, 1);
  write_units(7 * ppb + 3, 20);
  const PageId pgd0 = scheme().pgd(0), pgd1 = scheme().pgd(1), pgd7 = scheme().pgd(7);
  testing::recover_quietly(device);
  EXPECT_EQ(scheme().pgd(0), pgd0);
  EXPECT_EQ(scheme().pgd(1), pgd1);
  EXPECT_EQ(scheme().pgd(7), pgd7);
  EXPECT_EQ(scheme().pgd(2), kNone);
  // Sequence numbers go on from the newest one read: a later write is the newest again.
  write_units(10, 1);
  const PageId newest = scheme().peek(10);
  testing::recover_quietly(device);
  EXPECT_EQ(scheme().peek(10), newest);
  EXPECT_EQ(scheme().pgd(0), newest);
  check_superblocks(device);
  expect_reads_where_peek_says(device);
}

// --- other shapes ------------------------------------------------------------------------------

struct Shape {
  const char* name;
  uint32_t superblock_blocks, max_physical_blocks, groups_per_block, spare_bytes;
  double over_provisioning;
  uint32_t cache_entries = 48;
};

config::PlatformConfig shaped(const Shape& shape) {
  config::PlatformConfig p = superblock_platform();
  SuperblockSettings& s = p.ftl.settings.edit<SuperblockSettings>();
  s.superblock_blocks = shape.superblock_blocks;
  s.max_physical_blocks = shape.max_physical_blocks;
  s.groups_per_block = shape.groups_per_block;
  p.nand.spare_bytes = shape.spare_bytes;
  p.ftl.over_provisioning = shape.over_provisioning;
  s.cache_entries = shape.cache_entries;
  return p;
}

class SuperblockShapes : public ::testing::TestWithParam<Shape> {};

// Random commands and whole-logical-block writes on a full device of each shape: the oracle
// passes and the invariants hold, with superblocks at their tightest (one update block), a short
// last superblock (384 logical blocks are not a multiple of 5), a short last logical block
// (over-provisioning 0.26: 24248 units), single-block superblocks, 8 groups of 8 pages, and
// 8-block superblocks in a 128-byte spare, and a two-entry cache (a write and a merge hold both).
TEST_P(SuperblockShapes, RandomCommandsOnAFullDevicePassTheOracle) {
  const config::PlatformConfig p = shaped(GetParam());
  ASSERT_NO_THROW(config::validate_platform(p, "test", scheme_catalog()));
  FtlDevice device(p, FtlDeviceOptions{});
  config::PreconditionConfig fill;
  fill.fill_ratio = 1.0;
  fill.overwrite_ratio = 0.2;
  precondition(device, fill);
  const auto check = [&device] { check_superblocks(device); };
  check();
  EXPECT_EQ(testing::run_random(device, 150'000, 21, check, 50'000), 0u)
      << device.oracle()->first_mismatch();
  // Whole logical blocks, as a sequential stream writes them, in random order.
  const Geometry& g = device.geometry();
  const SuperblockFtl& s = superblock(device);
  Random random(22);
  for (int i = 0; i < 3000; ++i) {
    const uint32_t lbn = static_cast<uint32_t>(random.below(s.logical_blocks()));
    const uint64_t first = uint64_t(lbn) * g.pages_per_block;
    const uint64_t units = std::min<uint64_t>(g.pages_per_block, g.logical_units - first);
    ASSERT_EQ(run_one(device, CommandKind::kWrite, first * g.sectors_per_unit,
                      static_cast<uint32_t>(units * g.sectors_per_unit)),
              0u);
  }
  check();
  EXPECT_GT(figure(device, "partial_merges") + figure(device, "full_merges") +
                figure(device, "forced_gcs"),
            0.0);
  expect_reads_where_peek_says(device);
}

INSTANTIATE_TEST_SUITE_P(Shapes, SuperblockShapes,
                         ::testing::Values(Shape{"one_update_block", 4, 5, 4, 64, 0.25},
                                           Shape{"short_last_superblock", 5, 8, 4, 64, 0.25},
                                           Shape{"short_last_logical_block", 4, 8, 4, 64, 0.26},
                                           Shape{"single_block_superblocks", 1, 2, 4, 64, 0.25},
                                           Shape{"eight_groups", 2, 6, 8, 64, 0.25},
                                           Shape{"eight_block_superblocks", 8, 9, 4, 128, 0.25},
                                           Shape{"two_cache_entries", 4, 8, 4, 64, 0.25, 2}),
                         [](const auto& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace ssd::ftl
