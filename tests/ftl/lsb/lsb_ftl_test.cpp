// The LSB FTL (ftl/lsb/lsb_ftl.h) end to end on the tiny device with the paper's 64-page blocks
// and 64-byte spare areas: a request writes each group's last page as its PT page and its own
// last page as the PMD page the PGD names; every unit is found by the paper's translation (PGD,
// PMD page, PT or older PMD page: one to three spare-area reads) where the oracle expects it; a
// cache miss reads the PMD page and each group's mapping page, a hit nothing, and LRU evicts; a
// PMD page whose PBMT cannot name its blocks copies the PT page first (an MIW, a mapping write);
// trimmed pages are dead to GC but those carrying a group's map, which stays followable;
// superblocks keep to their own blocks; a million random and a million sequential commands on a
// full device pass the oracle with GC running, in several shapes; the PGD and block lists rebuilt
// from the spare areas are the ones kept.
#include "ftl/lsb/lsb_ftl.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <ostream>
#include <set>
#include <string>
#include <vector>

#include "config/config_loader.h"
#include "ftl/core/random.h"
#include "ftl/lsb/lsb_settings.h"
#include "ftl/scheme_registry.h"
#include "tests/ftl/hybrid/block_scheme_fixture.h"
#include "tests/ftl/lsb/lsb_checks.h"
#include "tests/ftl/superblock_frame/frame_checks.h"

namespace ssd::ftl {
namespace {

using testing::check_lsb;
using testing::expect_reads_where_peek_says;
using testing::lsb;
using testing::lsb_platform;
using testing::LsbShape;
using testing::map_problem;
using testing::ops_of;
using testing::pt_page_named_by;
using testing::run_one;

uint32_t superblocks_of(const FtlDevice& device) { return testing::lsb_superblocks_of(device); }

double figure(const FtlDevice& device, const std::string& name) {
  for (const MappingFigure& f : lsb(device).mapping_figures()) {
    if (f.name == name) return f.value;
  }
  ADD_FAILURE() << "no figure " << name;
  return -1;
}

void run_full_device(const LsbShape& shape, uint64_t commands, uint64_t seed) {
  const config::PlatformConfig p = lsb_platform(shape);
  ASSERT_NO_THROW(config::validate_platform(p, "test", scheme_catalog()));
  FtlDevice device(p, FtlDeviceOptions{});
  config::PreconditionConfig fill;
  fill.fill_ratio = 1.0;
  fill.overwrite_ratio = 0.2;
  precondition(device, fill);
  const auto check = [&device] { check_lsb(device); };
  check();
  EXPECT_EQ(testing::run_random(device, commands, seed, check, commands / 4), 0u)
      << device.oracle()->first_mismatch();
  EXPECT_GT(device.scheme().stats().gc_invocations, 0u);
  EXPECT_EQ(testing::run_sequential(device, commands / 2, seed + 1, check, commands / 4), 0u)
      << device.oracle()->first_mismatch();
}

TEST(LsbFtl, RandomAndSequentialCommandsOnAFullDevicePassTheOracle) {
  run_full_device({"paper", 32, 8, 64, 0.25}, 200'000, 5);
}

// The pages whose spare areas the last command read, in order.
std::vector<PageId> spare_read_pages(FtlDevice& device) {
  std::vector<PageId> pages;
  for (const FlashOp& op : ops_of(device, OpKind::kSpareRead)) pages.push_back(op.page);
  return pages;
}

LsbSpare decoded(FtlDevice& device, PageId page) {
  return decode_lsb_spare(lsb(device).layout(), device.geometry(), page,
                          device.flash().spare(page));
}

// Units programmed, of every class, as the backend counts them for write amplification.
uint64_t written_total(FtlDevice& device) {
  const WriteCounters& w = device.backend().written();
  return w.of(OpClass::kHostWrite) + w.of(OpClass::kGc) + w.of(OpClass::kMapping);
}

class LsbTest : public ::testing::Test {
 protected:
  explicit LsbTest(const config::PlatformConfig& p = lsb_platform()) : platform(p) {}

  config::PlatformConfig platform;
  FtlDevice device{platform, FtlDeviceOptions{}};
  const Geometry& g = device.geometry();
  uint32_t spu = g.sectors_per_unit;
  uint32_t ppb = g.pages_per_block;

  const LsbFtl& scheme() const { return lsb(device); }
  uint64_t write_units(Lun first, uint32_t count) {
    return run_one(device, CommandKind::kWrite, uint64_t(first) * spu, count * spu);
  }
  uint64_t read_units(Lun first, uint32_t count) {
    return run_one(device, CommandKind::kRead, uint64_t(first) * spu, count * spu);
  }
  uint64_t trim_units(Lun first, uint32_t count) {
    return run_one(device, CommandKind::kTrim, uint64_t(first) * spu, count * spu);
  }
  size_t spare_reads() { return ops_of(device, OpKind::kSpareRead).size(); }
  LsbSpare spare_of(PageId page) { return decoded(device, page); }
  uint64_t written(OpClass op_class) { return device.backend().written().of(op_class); }
  // The block superblock `sb` writes its next page into.
  BlockId open_block(uint32_t sb) {
    for (BlockId b : scheme().blocks_of(sb)) {
      if (device.flash().write_pointer(b) < ppb) return b;
    }
    return kNone;
  }
  // Writes `lbn` (of superblock 0) so that superblock 0's open block is full: the next write
  // starts a fresh block.
  void fill_open_block(uint32_t lbn) {
    const BlockId open = open_block(0);
    if (open == kNone) return;
    const uint32_t free = ppb - device.flash().write_pointer(open);
    ASSERT_EQ(write_units(lbn * ppb, free), 0u);
    ASSERT_EQ(device.flash().write_pointer(open), ppb) << "the filler did not fill block " << open;
  }
};

TEST_F(LsbTest, TheTestPlatformIsThePapersLayout) {
  ASSERT_EQ(ppb, 64u);
  EXPECT_EQ(scheme().layout().groups, 8u);
  EXPECT_EQ(scheme().layout().group_pages, 8u);
  EXPECT_EQ(scheme().layout().pt_page_bits(), 241u);
  EXPECT_EQ(scheme().layout().pmd_page_bits(), 345u);
  EXPECT_EQ(scheme().layout().available_bits(), 352u);
  EXPECT_EQ(scheme().logical_blocks(), 384u);
  EXPECT_EQ(superblocks_of(device), 12u);
  EXPECT_EQ(device.flash().spare_words_per_page(), 16u);
  EXPECT_FALSE(device.scheme().cache_hit_ratio().has_value()) << "no lookup yet";
}

// --- the write rules and translation -------------------------------------------------------------

// One request over every group: each group's last page is its PT page (flag 0), the request's
// last page the PMD page (flag 1) the PGD names, its next-to-last the last group's PT page; the
// PMD page names each other group by a PDE to its PT page and its own group's pages through the
// PT page.
TEST_F(LsbTest, ARequestOverEveryGroupWritesPtPagesAndOnePmdPage) {
  ASSERT_EQ(write_units(0, ppb), 0u);
  const std::vector<FlashOp> programs = ops_of(device, OpKind::kProgram);
  ASSERT_EQ(programs.size(), ppb);
  for (uint32_t k = 0; k < ppb; ++k) {
    const LsbSpare spare = spare_of(programs[k].page);
    EXPECT_EQ(spare.lpn, k);
    EXPECT_EQ(spare.pmd, k == ppb - 1) << "unit " << k;
    EXPECT_EQ(scheme().peek(k), programs[k].page) << "unit " << k;
  }
  const PageId pmd = scheme().pgd(0);
  EXPECT_EQ(pmd, programs[ppb - 1].page);
  const LsbSpare head = spare_of(pmd);
  for (uint32_t group = 0; group < 7; ++group) {
    EXPECT_EQ(head.pde[group], scheme().peek(group * 8 + 7)) << "group " << group;
    // A group's PT page records every page of its group.
    const LsbSpare pt = spare_of(head.pde[group]);
    EXPECT_FALSE(pt.pmd);
    for (uint32_t k = 0; k < 8; ++k) EXPECT_EQ(pt.pte[k], scheme().peek(group * 8 + k));
  }
  for (uint32_t k = 0; k < 7; ++k) EXPECT_EQ(head.pte[k], scheme().peek(62)) << "indirect " << k;
  EXPECT_EQ(head.pte[7], pmd);
  for (uint32_t k = 0; k < ppb; ++k) {
    EXPECT_EQ(scheme().translation_reads(k), k == ppb - 1 ? 1u : 2u) << "unit " << k;
  }
  EXPECT_EQ(figure(device, "pmd_pages"), 1.0);
  EXPECT_EQ(figure(device, "pt_pages"), double(ppb - 1));
  check_lsb(device);
  expect_reads_where_peek_says(device);
}

// Section III.B's two, three and four levels. Three pages of group 0 in one request: unit 1 is
// the group's PT page, unit 2 the PMD page, naming units 0 and 1 through the PT page (three
// levels, two spare reads). A single page of group 0 then is a PMD page naming units 0 and 1
// through the PT page still, unit 2 directly. A write in group 1 names group 0 by a PDE to that
// older PMD page: PGD -> new PMD page -> old PMD page -> PT page -> data (four levels, three spare
// reads).
TEST_F(LsbTest, TranslationTakesOneTwoOrThreeSpareReads) {
  EXPECT_EQ(scheme().translation_reads(0), 0u) << "never written";
  ASSERT_EQ(write_units(0, 3), 0u);
  const PageId pt = scheme().peek(1);
  EXPECT_FALSE(spare_of(pt).pmd);
  EXPECT_FALSE(spare_of(scheme().peek(0)).pmd);
  EXPECT_EQ(scheme().pgd(0), scheme().peek(2));
  EXPECT_EQ(scheme().translation_reads(0), 2u);
  EXPECT_EQ(scheme().translation_reads(1), 2u);
  EXPECT_EQ(scheme().translation_reads(2), 1u);
  ASSERT_EQ(write_units(3, 1), 0u);
  const PageId old_pmd = scheme().peek(3);
  const LsbSpare middle = spare_of(old_pmd);
  ASSERT_TRUE(middle.pmd);
  EXPECT_EQ(middle.pte[0], pt);
  EXPECT_EQ(middle.pte[1], pt);
  EXPECT_EQ(middle.pte[2], scheme().peek(2)) << "written after the PT page: direct";
  EXPECT_EQ(middle.pte[3], old_pmd);
  EXPECT_EQ(scheme().translation_reads(0), 2u);
  EXPECT_EQ(scheme().translation_reads(1), 2u);
  EXPECT_EQ(scheme().translation_reads(2), 1u);
  EXPECT_EQ(scheme().translation_reads(3), 1u);
  ASSERT_EQ(write_units(8, 1), 0u);  // group 1
  const LsbSpare head = spare_of(scheme().pgd(0));
  ASSERT_TRUE(head.pmd);
  EXPECT_EQ(head.lpn, 8u);
  EXPECT_EQ(head.pde[0], old_pmd);
  for (uint32_t group = 2; group < 8; ++group) EXPECT_EQ(head.pde[group], kNone) << group;
  EXPECT_EQ(scheme().translation_reads(0), 3u);
  EXPECT_EQ(scheme().translation_reads(1), 3u);
  EXPECT_EQ(scheme().translation_reads(2), 2u);
  EXPECT_EQ(scheme().translation_reads(3), 2u);
  EXPECT_EQ(scheme().translation_reads(8), 1u);
  EXPECT_EQ(scheme().translation_reads(ppb), 0u) << "logical block 1: never written";
  for (Lun lun : {0u, 1u, 2u, 3u, 8u}) {
    ASSERT_EQ(read_units(lun, 1), 0u) << device.oracle()->first_mismatch();
    EXPECT_EQ(ops_of(device, OpKind::kRead).at(0).page, scheme().peek(lun));
  }
  check_lsb(device);
}

// A PTE naming the group's PT page is read through it only when two or more PTEs name that page
// (lsb_ftl.h): two pages of a group give a PT page holding unit 0 itself, which the PMD page names
// directly; a lone unit left behind the PT page is named directly too.
TEST_F(LsbTest, ALonePteThroughThePtPageIsWrittenDirect) {
  ASSERT_EQ(write_units(0, 2), 0u);  // unit 0 the PT page, unit 1 the PMD page
  EXPECT_FALSE(spare_of(scheme().peek(0)).pmd);
  EXPECT_EQ(spare_of(scheme().pgd(0)).pte[0], scheme().peek(0));
  EXPECT_EQ(scheme().translation_reads(0), 1u);
  EXPECT_EQ(scheme().translation_reads(1), 1u);
  ASSERT_EQ(write_units(8, 3), 0u);  // group 1: unit 9 its PT page
  ASSERT_EQ(write_units(8, 1), 0u);  // unit 9 behind the PT page (which holds it), 10 direct
  EXPECT_EQ(scheme().translation_reads(9), 1u);
  EXPECT_EQ(scheme().translation_reads(10), 1u);
  ASSERT_EQ(write_units(16, 3), 0u);  // group 2: unit 17 its PT page
  ASSERT_EQ(write_units(17, 1), 0u);  // unit 16 alone behind the PT page: direct
  EXPECT_EQ(spare_of(scheme().pgd(0)).pte[0], scheme().peek(16));
  EXPECT_EQ(scheme().translation_reads(16), 1u);
  EXPECT_EQ(scheme().translation_reads(18), 1u);
  // Unit 17's old page is no PT page any more (nothing goes through it): dead, as unit 8's old
  // page is; units 0, 1, 9, 10, 16, 18 and the two newest PMD pages live, of 10 written.
  const BlockId block = g.block_of_page(scheme().peek(0));
  ASSERT_EQ(device.flash().write_pointer(block), 10u);
  EXPECT_EQ(scheme().flash().blocks().valid_units(block), 8u);
  for (Lun lun : {0u, 1u, 8u, 9u, 10u, 16u, 17u, 18u}) {
    ASSERT_EQ(read_units(lun, 1), 0u) << device.oracle()->first_mismatch();
  }
  check_lsb(device);
  expect_reads_where_peek_says(device);
}

TEST_F(LsbTest, UnwrittenPagesAndGroupsReadAsNeverWritten) {
  ASSERT_EQ(write_units(20, 1), 0u);  // group 2 of logical block 0 only
  const LsbSpare spare = spare_of(scheme().pgd(0));
  EXPECT_EQ(spare.lpn, 20u);
  for (uint32_t group = 0; group < 8; ++group) {
    if (group != 2) {
      EXPECT_EQ(spare.pde[group], kNone) << group;
    }
  }
  for (uint32_t k = 0; k < 8; ++k) {
    EXPECT_EQ(spare.pte[k], k == 4 ? scheme().pgd(0) : kNone) << k;
  }
  EXPECT_EQ(scheme().peek(21), kNone);
  EXPECT_EQ(scheme().peek(0), kNone);
  EXPECT_EQ(scheme().pgd(1), kNone);
  EXPECT_EQ(read_units(0, 2 * ppb), 0u) << device.oracle()->first_mismatch();
  EXPECT_EQ(spare_reads(), 0u) << "the cache holds logical block 0 since its write";
}

// --- the cache ----------------------------------------------------------------------------------

class LsbCacheTest : public LsbTest {
 protected:
  LsbCacheTest() : LsbTest(lsb_platform({"two_entries", 32, 8, 64, 0.25, 2})) {}

  // The spare areas a miss read, in order, and for each the one (by its place in that order)
  // it waited for (-1: none): a mapping page waits for the page that named it.
  struct Miss {
    std::vector<PageId> pages;
    std::vector<int> waits;
  };
  // Evicts everything from the two-entry cache (writes to logical blocks 100 and 101), then
  // reads unit `lun`: a miss. The figures count one lookup, no hit, and the spare reads.
  Miss miss(Lun lun) {
    EXPECT_EQ(write_units(100 * ppb, 1), 0u);
    EXPECT_EQ(write_units(101 * ppb, 1), 0u);
    const double lookups = figure(device, "cache_lookups");
    const double hits = figure(device, "cache_hits");
    const double reads = figure(device, "map_spare_reads");
    EXPECT_EQ(read_units(lun, 1), 0u) << device.oracle()->first_mismatch();
    Miss m;
    const std::vector<FlashOp>& ops = device.backend().ops().ops();
    std::vector<uint32_t> index;  // op index of each spare read
    uint32_t data_read = kNone;
    for (uint32_t i = 0; i < ops.size(); ++i) {
      if (ops[i].kind == OpKind::kRead) {
        EXPECT_EQ(data_read, kNone) << "one page read";
        data_read = i;
      }
      if (ops[i].kind != OpKind::kSpareRead) continue;
      EXPECT_EQ(ops[i].op_class, OpClass::kHostRead);
      m.pages.push_back(ops[i].page);
      const auto waited = std::find(index.begin(), index.end(), ops[i].after);
      m.waits.push_back(waited == index.end() ? -1 : int(waited - index.begin()));
      if (waited == index.end()) {
        EXPECT_EQ(ops[i].after, kNone) << "spare read " << i;
      }
      index.push_back(i);
    }
    EXPECT_EQ(figure(device, "cache_lookups") - lookups, 1.0);
    EXPECT_EQ(figure(device, "cache_hits") - hits, 0.0);
    EXPECT_EQ(figure(device, "map_spare_reads") - reads, double(m.pages.size()));
    // The data read waits for the map.
    EXPECT_NE(data_read, kNone);
    if (data_read != kNone && !index.empty()) {
      EXPECT_EQ(ops[data_read].after, index.back());
    }
    return m;
  }
  // Reads unit `lun` again: a hit, no spare read.
  void expect_hit(Lun lun) {
    const double lookups = figure(device, "cache_lookups");
    const double hits = figure(device, "cache_hits");
    ASSERT_EQ(read_units(lun, 1), 0u) << device.oracle()->first_mismatch();
    EXPECT_EQ(spare_reads(), 0u) << "unit " << lun;
    EXPECT_EQ(figure(device, "cache_lookups") - lookups, 1.0);
    EXPECT_EQ(figure(device, "cache_hits") - hits, 1.0);
  }
};

TEST_F(LsbCacheTest, AMissOnABlockWrittenInOneGroupReadsItsPmdPageAndItsPtPage) {
  // A single page: the PMD page alone maps the logical block.
  ASSERT_EQ(write_units(5, 1), 0u);
  Miss m = miss(5);
  EXPECT_EQ(m.pages, std::vector<PageId>({scheme().pgd(0)}));
  EXPECT_EQ(m.waits, std::vector<int>({-1}));
  expect_hit(5);
  // Three pages of group 0 in one request: unit 65 is the group's PT page, through which the
  // PMD page (unit 66) names units 64 and 65.
  ASSERT_EQ(write_units(ppb, 3), 0u);
  m = miss(ppb);
  EXPECT_EQ(m.pages, std::vector<PageId>({scheme().pgd(1), scheme().peek(ppb + 1)}));
  EXPECT_EQ(m.waits, std::vector<int>({-1, 0}));
  expect_hit(ppb + 2);
  // Two pages of group 1: the first is the PT page, but it holds the one unit it would map,
  // which the PMD page names directly: one read.
  ASSERT_EQ(write_units(2 * ppb + 8, 2), 0u);
  m = miss(2 * ppb + 9);
  EXPECT_EQ(m.pages, std::vector<PageId>({scheme().pgd(2)}));
  expect_hit(2 * ppb + 8);
}

TEST_F(LsbCacheTest, AMissOnABlockWrittenInSeveralGroupsReadsEachGroupsMappingPage) {
  // One request over every group: the PMD page, then each other group's PT page by its PDE, and
  // its own group's PT page, all named by the PMD page.
  const uint32_t lbn = 3;
  ASSERT_EQ(write_units(lbn * ppb, ppb), 0u);
  std::vector<PageId> expected = {scheme().pgd(lbn)};
  for (uint32_t group = 0; group < 7; ++group) {
    expected.push_back(scheme().peek(lbn * ppb + group * 8 + 7));
  }
  expected.push_back(scheme().peek(lbn * ppb + 62));
  Miss m = miss(lbn * ppb + 20);
  EXPECT_EQ(m.pages, expected);
  EXPECT_EQ(m.waits, std::vector<int>({-1, 0, 0, 0, 0, 0, 0, 0, 0}));
  expect_hit(lbn * ppb + 63);
  // Three requests: units 0-2 (unit 1 the PT page), unit 3 (a PMD page naming units 0 and 1
  // through the PT page), unit 8 (a PMD page naming group 0 by the older PMD page): the newest
  // PMD page, the older one, its PT page.
  const Lun first = 4 * ppb;
  ASSERT_EQ(write_units(first, 3), 0u);
  ASSERT_EQ(write_units(first + 3, 1), 0u);
  ASSERT_EQ(write_units(first + 8, 1), 0u);
  m = miss(first + 2);
  EXPECT_EQ(m.pages, std::vector<PageId>({scheme().peek(first + 8), scheme().peek(first + 3),
                                          scheme().peek(first + 1)}));
  EXPECT_EQ(m.waits, std::vector<int>({-1, 0, 1}));
  expect_hit(first);
  // Groups 2 and 5 too, by single pages: one more read each (their PMD pages).
  ASSERT_EQ(write_units(first + 16, 1), 0u);
  ASSERT_EQ(write_units(first + 40, 1), 0u);
  m = miss(first + 8);
  EXPECT_EQ(m.pages, std::vector<PageId>({scheme().peek(first + 40), scheme().peek(first + 3),
                                          scheme().peek(first + 1), scheme().peek(first + 8),
                                          scheme().peek(first + 16)}));
  EXPECT_EQ(m.waits, std::vector<int>({-1, 0, 1, 0, 0}));
  // A write that misses loads the map the same way, for the host write.
  ASSERT_EQ(write_units(100 * ppb, 1), 0u);
  ASSERT_EQ(write_units(101 * ppb, 1), 0u);
  ASSERT_EQ(write_units(first + 9, 1), 0u);
  const std::vector<FlashOp> reads = ops_of(device, OpKind::kSpareRead);
  ASSERT_EQ(reads.size(), 5u);
  for (const FlashOp& op : reads) EXPECT_EQ(op.op_class, OpClass::kHostWrite);
  check_lsb(device);
}

TEST_F(LsbCacheTest, TwoEntriesEvictTheLeastRecentlyUsed) {
  // Logical blocks 0, 1, 2 of one page each: a miss costs one spare read.
  for (uint32_t lbn = 0; lbn < 3; ++lbn) ASSERT_EQ(write_units(lbn * ppb, 1), 0u);
  // The cache holds 1 and 2 (2 the newer).
  const struct {
    uint32_t lbn;
    bool hit;
  } steps[] = {{0, false}, {2, true}, {1, false}, {2, true}, {0, false},
               {1, false}, {0, true}, {1, true},  {2, false}};
  const double lookups = figure(device, "cache_lookups");
  const double hits = figure(device, "cache_hits");
  const double reads = figure(device, "map_spare_reads");
  uint32_t expected_hits = 0;
  for (const auto& step : steps) {
    ASSERT_EQ(read_units(step.lbn * ppb, 1), 0u) << device.oracle()->first_mismatch();
    EXPECT_EQ(spare_reads(), step.hit ? 0u : 1u) << "logical block " << step.lbn;
    if (!step.hit) {
      EXPECT_EQ(spare_read_pages(device), std::vector<PageId>({scheme().pgd(step.lbn)}));
    }
    expected_hits += step.hit;
  }
  EXPECT_EQ(figure(device, "cache_lookups") - lookups, 9.0);
  EXPECT_EQ(figure(device, "cache_hits") - hits, double(expected_hits));
  EXPECT_EQ(figure(device, "map_spare_reads") - reads, double(9 - expected_hits));
  // The ratio is the figures' (writes' lookups included).
  ASSERT_TRUE(device.scheme().cache_hit_ratio().has_value());
  EXPECT_DOUBLE_EQ(*device.scheme().cache_hit_ratio(),
                   figure(device, "cache_hits") / figure(device, "cache_lookups"));
  EXPECT_EQ(figure(device, "cache_lookups"), 3.0 + 9.0);
  EXPECT_EQ(figure(device, "cache_hits"), 4.0);
}

TEST_F(LsbTest, SixteenEntriesAnswerEveryRepeatedRead) {
  for (uint32_t lbn = 0; lbn < 16; ++lbn) ASSERT_EQ(write_units(lbn * ppb + lbn % ppb, 3), 0u);
  for (int round = 0; round < 2; ++round) {
    for (uint32_t lbn = 0; lbn < 16; ++lbn) {
      ASSERT_EQ(read_units(lbn * ppb + lbn % ppb, 3), 0u);
      EXPECT_EQ(spare_reads(), 0u) << lbn;
    }
  }
  // A seventeenth evicts logical block 0, the least recently used.
  ASSERT_EQ(write_units(16 * ppb, 1), 0u);
  ASSERT_EQ(read_units(1 * ppb + 1, 1), 0u);
  EXPECT_EQ(spare_reads(), 0u);
  ASSERT_EQ(read_units(0, 1), 0u);
  EXPECT_EQ(spare_reads(), 2u) << "logical block 0's PMD page and its group's PT page";
  // Each unit of a read command is one lookup: 3 x 32 + 2.
  EXPECT_EQ(figure(device, "cache_lookups"), 16.0 + 3 * 32 + 1 + 2);
  EXPECT_EQ(figure(device, "cache_hits"), 3.0 * 32 + 1);
  EXPECT_DOUBLE_EQ(*device.scheme().cache_hit_ratio(), 97.0 / 115.0);
}

// --- mapping-induced writes and the figures ---------------------------------------------------

// Figure 7: a PMD page whose PBMT cannot name every block its PDEs and PTEs need copies its
// group's PT page first. Logical block 0 is written whole (block A), then one page of each of
// groups 1-7, each in a fresh block: their newest pages take seven PBMT entries as PDEs. A write
// of unit 0 (fresh block B) takes the eighth for group 0's PT page in A, which still names units
// 1-7. A write of unit 1 (fresh block C) then needs A for units 2-7 and B for unit 0: the PT page
// is copied next to the new PMD page, which names every other page of group 0 through the copy.
TEST_F(LsbTest, APbmtThatCannotNameItsBlocksCopiesThePtPage) {
  ASSERT_EQ(write_units(0, ppb), 0u);
  const PageId old_pt = scheme().peek(7);  // group 0's PT page
  ASSERT_FALSE(spare_of(old_pt).pmd);
  std::set<BlockId> blocks = {g.block_of_page(old_pt)};
  for (uint32_t group = 1; group < 8; ++group) {
    fill_open_block(1);
    ASSERT_EQ(write_units(group * 8 + 3, 1), 0u);
    blocks.insert(g.block_of_page(scheme().peek(group * 8 + 3)));
  }
  fill_open_block(1);
  ASSERT_EQ(write_units(0, 1), 0u);
  ASSERT_EQ(ops_of(device, OpKind::kProgram).size(), 1u);
  blocks.insert(g.block_of_page(scheme().peek(0)));
  ASSERT_EQ(blocks.size(), 9u) << "groups 1-7's newest pages, the PT page and unit 0 in 9 blocks";
  EXPECT_EQ(spare_of(scheme().pgd(0)).pte[1], old_pt);
  EXPECT_EQ(figure(device, "miw_writes"), 0.0);
  fill_open_block(1);
  const uint64_t mapping = written(OpClass::kMapping);
  const uint64_t host = written(OpClass::kHostWrite);
  const double pt_pages = figure(device, "pt_pages");
  const double pmd_pages = figure(device, "pmd_pages");
  const PageId unit0 = scheme().peek(0);
  ASSERT_EQ(write_units(1, 1), 0u);
  EXPECT_EQ(figure(device, "miw_writes"), 1.0);
  EXPECT_EQ(written(OpClass::kMapping) - mapping, 1u) << "an MIW is a mapping write";
  EXPECT_EQ(written(OpClass::kHostWrite) - host, 1u);
  EXPECT_EQ(figure(device, "pt_pages") - pt_pages, 1.0) << "the copy is a PT page";
  EXPECT_EQ(figure(device, "pmd_pages") - pmd_pages, 1.0);
  const std::vector<FlashOp> programs = ops_of(device, OpKind::kProgram);
  ASSERT_EQ(programs.size(), 2u);
  EXPECT_EQ(programs[0].op_class, OpClass::kHostWrite);
  // The copy reads the old PT page first.
  const std::vector<FlashOp> reads = ops_of(device, OpKind::kRead);
  ASSERT_EQ(reads.size(), 1u);
  EXPECT_EQ(reads[0].page, old_pt);
  const PageId copy = programs[0].page;
  const PageId pmd = programs[1].page;
  EXPECT_EQ(scheme().pgd(0), pmd);
  EXPECT_EQ(scheme().peek(1), pmd);
  EXPECT_EQ(g.block_of_page(copy), g.block_of_page(pmd));
  const LsbSpare copied = spare_of(copy);
  EXPECT_FALSE(copied.pmd);
  EXPECT_EQ(copied.lpn, 7u);
  EXPECT_EQ(copied.pte[0], unit0) << "the copy's PT is the group's, up to date";
  EXPECT_EQ(scheme().peek(7), copy) << "the copy holds unit 7's newest data";
  EXPECT_EQ(device.flash().token(copy), device.flash().token(old_pt));
  const LsbSpare head = spare_of(pmd);
  for (uint32_t k = 0; k < 8; ++k) {
    if (k != 1) {
      EXPECT_EQ(head.pte[k], copy) << "every PTE goes through the copy: " << k;
    }
  }
  for (uint32_t group = 1; group < 8; ++group) {
    EXPECT_EQ(head.pde[group], scheme().peek(group * 8 + 3)) << "group " << group;
  }
  for (uint32_t k = 0; k < 8; ++k) {
    EXPECT_EQ(scheme().translation_reads(k), k == 1 ? 1u : 2u) << "unit " << k;
  }
  // The old PT page is dead: unit 7's data is the copy's.
  EXPECT_EQ(read_units(0, ppb), 0u) << device.oracle()->first_mismatch();
  check_lsb(device);
  expect_reads_where_peek_says(device);
}

TEST_F(LsbTest, TheFiguresCountPmdAndPtPagesAndMiws) {
  std::set<std::string> names;
  for (const MappingFigure& f : scheme().mapping_figures()) names.insert(f.name);
  for (const char* name :
       {"miw_writes", "pmd_pages", "pt_pages", "cache_lookups", "cache_hits", "map_spare_reads",
        "gc_spare_reads", "partial_merges", "full_merges", "dead_erases", "forced_gcs",
        "victim_free_pages_mean", "victim_free_pages"}) {
    EXPECT_EQ(names.count(name), 1u) << name;
  }
  EXPECT_EQ(figure(device, "pmd_pages"), 0.0);
  ASSERT_EQ(write_units(0, 3), 0u);                   // 2 PT pages, a PMD page
  ASSERT_EQ(write_units(ppb - 2, 4), 0u);             // 2 logical blocks: 2 PMD, 2 PT
  ASSERT_EQ(write_units(5 * ppb, 2 * ppb + 10), 0u);  // 3 logical blocks: 3 PMD pages
  EXPECT_EQ(figure(device, "pmd_pages"), 1.0 + 2 + 3);
  EXPECT_EQ(figure(device, "pt_pages"), 2.0 + 2 + (2 * ppb + 10 - 3));
  EXPECT_EQ(figure(device, "miw_writes"), 0.0);
  EXPECT_EQ(written(OpClass::kMapping), 0u);
  EXPECT_EQ(written(OpClass::kHostWrite), 3u + 4 + 2 * ppb + 10);
  // The PGD takes bytes_to_name(pages) per logical block.
  EXPECT_GT(scheme().mapping_memory_bytes(), 0u);
}

// --- trims --------------------------------------------------------------------------------------

// A trimmed unit reads as zeroes and its page is dead to GC, except a page that carries a
// group's map (its PT page, or the page a newer PMD page would name for it): it stays live until
// a write in the group takes the map over.
TEST_F(LsbTest, TrimmedPagesAreDeadButThoseCarryingAGroupsMap) {
  ASSERT_EQ(write_units(0, ppb), 0u);  // one block: units 0-63
  const BlockId block = g.block_of_page(scheme().peek(0));
  ASSERT_EQ(g.block_of_page(scheme().peek(ppb - 1)), block);
  ASSERT_EQ(scheme().flash().blocks().valid_units(block), ppb);
  ASSERT_EQ(trim_units(0, ppb), 0u);
  for (Lun lun = 0; lun < ppb; ++lun) EXPECT_FALSE(scheme().unit_valid(lun));
  // Groups 0-6: their PT pages (units 7, 15, ..., 55); group 7: its PT page (62) and the PMD
  // page (63).
  EXPECT_EQ(scheme().flash().blocks().valid_units(block), 9u);
  EXPECT_EQ(read_units(0, ppb), 0u) << device.oracle()->first_mismatch();
  EXPECT_EQ(ops_of(device, OpKind::kRead).size(), 0u) << "trimmed units read as zeroes";
  // One write in each group takes the group's map over.
  for (uint32_t group = 0; group < 8; ++group) {
    ASSERT_EQ(write_units(group * 8, 1), 0u);
    EXPECT_EQ(scheme().flash().blocks().valid_units(block), group < 7 ? 8u - group : 0u)
        << "after group " << group;
  }
  EXPECT_EQ(read_units(0, ppb), 0u) << device.oracle()->first_mismatch();
  check_lsb(device);
  expect_reads_where_peek_says(device);
}

TEST_F(LsbTest, TrimmingPartOfAGroupKeepsItsPtPageForTheRest) {
  ASSERT_EQ(write_units(0, 16), 0u);  // group 0: PT page unit 7; group 1: PT 14, PMD 15
  const BlockId block = g.block_of_page(scheme().peek(0));
  ASSERT_EQ(trim_units(0, 4), 0u);
  EXPECT_EQ(scheme().flash().blocks().valid_units(block), 12u);
  ASSERT_EQ(trim_units(4, 4), 0u);  // the rest of group 0, its PT page included
  EXPECT_EQ(scheme().flash().blocks().valid_units(block), 9u) << "unit 7's page maps group 0";
  ASSERT_EQ(trim_units(8, 6), 0u);  // group 1 but its PT page and the PMD page
  EXPECT_EQ(scheme().flash().blocks().valid_units(block), 3u);
  EXPECT_EQ(read_units(0, 16), 0u) << device.oracle()->first_mismatch();
  check_lsb(device);
}

// A full device (so GC runs), for the tests that need GC at a given point.
class LsbFullDeviceTest : public LsbTest {
 protected:
  void SetUp() override {
    config::PreconditionConfig fill;
    fill.fill_ratio = 1.0;
    precondition(device, fill);
  }
  // Random writes of 1 to 4 units to logical blocks `first_lbn` on (no trims), until `done`
  // (checked every 500 writes) or `limit` writes; returns whether `done`.
  bool churn(uint32_t first_lbn, uint64_t seed, const std::function<bool()>& done,
             uint64_t limit = 400'000) {
    Random random(seed);
    const Lun first = first_lbn * ppb;
    for (uint64_t i = 1; i <= limit; ++i) {
      const auto count = static_cast<uint32_t>(1 + random.below(4));
      const Lun lun = first + static_cast<Lun>(random.below(g.logical_units - first - count + 1));
      EXPECT_EQ(write_units(lun, count), 0u);
      if (i % 500 == 0 && done()) return true;
    }
    return done();
  }
  uint32_t max_sequence() {
    uint32_t newest = 0;
    for (BlockId b = 0; b < g.blocks(); ++b) {
      for (uint32_t p = 0; p < device.flash().write_pointer(b); ++p) {
        newest = std::max(newest, device.flash().spare(g.first_page(b) + p)[1]);
      }
    }
    return newest;
  }
};

// Logical blocks 0 and 1 written, then 0 trimmed whole and 1 all but unit 13 (group 1) and units
// 40-47 (group 5); the rest of the device is rewritten until GC has taken every block that held
// a trimmed page. GC copies no page of logical block 0 (no group of it has a unit left) and, of
// logical block 1, only its units left or a PT page carrying a group's map.
TEST_F(LsbFullDeviceTest, GcCopiesATrimmedPageOnlyForItsGroupsMap) {
  const LsbFtl& s = scheme();
  ASSERT_EQ(write_units(0, ppb), 0u);
  ASSERT_EQ(write_units(ppb, ppb), 0u);
  ASSERT_EQ(trim_units(0, ppb + 13), 0u);
  ASSERT_EQ(trim_units(ppb + 14, 26), 0u);
  ASSERT_EQ(trim_units(ppb + 48, 16), 0u);
  const auto left = [&](Lun lun) { return lun == ppb + 13 || (lun >= ppb + 40 && lun < ppb + 48); };
  for (Lun lun = 0; lun < 2 * ppb; ++lun) ASSERT_EQ(s.unit_valid(lun), left(lun)) << lun;
  const uint32_t trimmed_at = max_sequence();
  // Pages of trimmed units written before the trims: there until GC erases their blocks.
  const auto old_trimmed_pages = [&] {
    uint64_t pages = 0;
    for (BlockId b = 0; b < g.blocks(); ++b) {
      for (uint32_t p = 0; p < device.flash().write_pointer(b); ++p) {
        const uint32_t* spare = device.flash().spare(g.first_page(b) + p);
        if (spare[0] < 2 * ppb && !left(spare[0]) && spare[1] <= trimmed_at) ++pages;
      }
    }
    return pages;
  };
  ASSERT_GT(old_trimmed_pages(), 0u);
  const uint64_t invocations = device.scheme().stats().gc_invocations;
  EXPECT_TRUE(churn(2, 7, [&] { return old_trimmed_pages() == 0; }))
      << old_trimmed_pages() << " pages of trimmed units are still there";
  EXPECT_GT(device.scheme().stats().gc_invocations, invocations);
  // What GC wrote of logical blocks 0 and 1 since the trims.
  uint64_t copies = 0;
  for (BlockId b = 0; b < g.blocks(); ++b) {
    for (uint32_t p = 0; p < device.flash().write_pointer(b); ++p) {
      const PageId page = g.first_page(b) + p;
      const uint32_t* spare = device.flash().spare(page);
      if (spare[0] >= 2 * ppb || spare[1] <= trimmed_at) continue;
      ++copies;
      EXPECT_GE(spare[0], ppb) << "GC copied page " << page << " of logical block 0";
      if (!left(spare[0])) {
        EXPECT_FALSE(decoded(device, page).pmd)
            << "page " << page << " holds trimmed unit " << spare[0] << " but is no PT page";
      }
    }
  }
  EXPECT_GT(copies, 0u) << "logical block 1's units left were never moved";
  EXPECT_EQ(read_units(0, 2 * ppb), 0u) << device.oracle()->first_mismatch();
  for (Lun lun = 0; lun < 2 * ppb; ++lun) EXPECT_EQ(s.unit_valid(lun), left(lun)) << lun;
  check_lsb(device);
}

// A group whose units are all trimmed keeps its map pages (its PT page, the PMD page naming
// through it) while a newer PMD page, the PGD's, still names the group by a PDE. Group 0 of
// logical block 0: units 0-2 (unit 1 its PT page), unit 3 (a PMD page through the PT page), all
// trimmed; then unit 8 (group 1) in a fresh block: its PMD page names group 0 by a PDE to unit 3's
// PMD page. When GC takes the PT page's block, the PGD's map must stay followable (section III.B):
// a cache miss on logical block 0 reads every mapping page the PDEs name.
TEST_F(LsbFullDeviceTest, AWhollyTrimmedGroupsMapStaysFollowableThroughGc) {
  const LsbFtl& s = scheme();
  ASSERT_EQ(write_units(0, 3), 0u);
  ASSERT_EQ(write_units(3, 1), 0u);
  const PageId pt = scheme().peek(1);
  const PageId older_pmd = scheme().peek(3);
  ASSERT_EQ(pt_page_named_by(decoded(device, older_pmd)), pt);
  ASSERT_EQ(trim_units(0, 8), 0u);
  fill_open_block(1);
  ASSERT_EQ(write_units(8, 1), 0u);
  ASSERT_NE(g.block_of_page(s.pgd(0)), g.block_of_page(pt));
  ASSERT_EQ(decoded(device, s.pgd(0)).pde[0], older_pmd);
  ASSERT_EQ(map_problem(device), "");
  // Other logical blocks rewritten until the PT page's block is erased (or taken again).
  const auto pt_gone = [&] {
    return !device.flash().is_programmed(pt) || device.flash().spare(pt)[0] != 1u;
  };
  ASSERT_TRUE(churn(2, 11, pt_gone)) << "GC never took block " << g.block_of_page(pt);
  EXPECT_EQ(map_problem(device), "");
  // A miss on logical block 0 (the churn evicted it) loads its map; reads and writes go on.
  EXPECT_NO_THROW(EXPECT_EQ(read_units(0, ppb), 0u) << device.oracle()->first_mismatch());
  EXPECT_NO_THROW(EXPECT_EQ(write_units(2, 1), 0u));
  EXPECT_NO_THROW(EXPECT_EQ(read_units(0, ppb), 0u) << device.oracle()->first_mismatch());
  check_lsb(device);
}

// --- a full device -----------------------------------------------------------------------------

class LsbWorkloads : public LsbTest {
 protected:
  void SetUp() override {
    config::PreconditionConfig fill;
    fill.fill_ratio = 1.0;
    fill.overwrite_ratio = 0.2;
    precondition(device, fill);
    check_lsb(device);
    for (Lun lun = 0; lun < g.logical_units; ++lun) ASSERT_TRUE(scheme().unit_valid(lun));
    m_written = written_total(device);
    m_mapping = written(OpClass::kMapping);
    m_gc = written(OpClass::kGc);
    m_copied = device.scheme().stats().gc_units_copied;
  }
  std::function<void()> check = [this] { check_lsb(device); };

  void expect_gc_ran() {
    EXPECT_GT(device.scheme().stats().gc_invocations, 0u);
    EXPECT_GT(figure(device, "partial_merges") + figure(device, "full_merges") +
                  figure(device, "dead_erases"),
              0.0);
    EXPECT_GT(figure(device, "gc_spare_reads"), 0.0);
    EXPECT_EQ(figure(device, "forced_gcs"), 0.0) << "LSB has no cap on a superblock's blocks";
  }
  // Every program since the precondition is a PMD or a PT page; the MIWs are the mapping writes,
  // GC's copies the GC writes.
  void expect_writes_add_up() {
    EXPECT_EQ(figure(device, "pmd_pages") + figure(device, "pt_pages"),
              double(written_total(device) - m_written));
    EXPECT_EQ(figure(device, "miw_writes"), double(written(OpClass::kMapping) - m_mapping));
    EXPECT_EQ(written(OpClass::kGc) - m_gc, device.scheme().stats().gc_units_copied - m_copied);
    EXPECT_GT(figure(device, "pmd_pages"), 0.0);
  }
  // Units of each translation depth (index: spare reads), every valid unit 1 to 3.
  std::vector<uint64_t> depths() const {
    std::vector<uint64_t> count(4, 0);
    for (Lun lun = 0; lun < g.logical_units; ++lun) {
      if (scheme().unit_valid(lun)) ++count.at(scheme().translation_reads(lun));
    }
    return count;
  }

  uint64_t m_written = 0, m_mapping = 0, m_gc = 0, m_copied = 0;
};

TEST_F(LsbWorkloads, MillionRandomCommandsOnAFullDevice) {
  EXPECT_EQ(testing::run_random(device, 1'000'000, 42, check, 250'000), 0u)
      << device.oracle()->first_mismatch();
  EXPECT_GT(device.oracle()->checked_reads(), 300'000u);
  expect_gc_ran();
  expect_writes_add_up();
  const std::vector<uint64_t> depth = depths();
  EXPECT_EQ(depth[0], 0u);
  EXPECT_GT(depth[1], 0u);
  EXPECT_GT(depth[2], 0u);
  EXPECT_GT(depth[3], 0u) << "no unit four levels deep";
  expect_reads_where_peek_says(device);
}

TEST_F(LsbWorkloads, MillionSequentialCommandsOnAFullDevice) {
  EXPECT_EQ(testing::run_sequential(device, 1'000'000, 43, check, 250'000), 0u)
      << device.oracle()->first_mismatch();
  EXPECT_GT(device.oracle()->checked_reads(), 300'000u);
  expect_gc_ran();
  expect_writes_add_up();
  expect_reads_where_peek_says(device);
}

// Whole logical blocks, as a sequential stream writes them, in random order: each write finds
// room for 66 pages (its 64 and two MIW copies) in its superblock, GC reclaiming the blocks the
// rewritten logical blocks leave dead.
TEST_F(LsbWorkloads, WholeLogicalBlocksInRandomOrderOnAFullDevice) {
  Random random(22);
  for (int i = 0; i < 3000; ++i) {
    const uint32_t lbn = static_cast<uint32_t>(random.below(scheme().logical_blocks()));
    try {
      ASSERT_EQ(write_units(lbn * ppb, ppb), 0u)
          << "write " << i << " (logical block " << lbn << ")";
    } catch (const std::exception& e) {
      FAIL() << "write " << i << " (logical block " << lbn << ") threw " << e.what();
    }
    if (i % 1000 == 999) check();
  }
  check();
  expect_gc_ran();
  expect_writes_add_up();
  expect_reads_where_peek_says(device);
}

// --- recovery ----------------------------------------------------------------------------------

// Without trims, which a recovery cannot know of (a trimmed unit's older copy may come back).
TEST_F(LsbWorkloads, TheTablesRebuiltFromTheSpareAreasAreTheOnesKept) {
  ASSERT_EQ(testing::run_writes_and_reads(device, 200'000, 77), 0u)
      << device.oracle()->first_mismatch();
  check();
  expect_gc_ran();
  expect_writes_add_up();
  const std::vector<uint64_t> depth = depths();
  EXPECT_EQ(depth[0], 0u);
  EXPECT_GT(depth[1], 0u);
  EXPECT_GT(depth[2], 0u);
  EXPECT_GT(depth[3], 0u) << "no unit four levels deep";
  const testing::FrameTables before =
      testing::frame_tables(scheme(), device, superblocks_of(device));

  const FtlDevice::RecoveryCounts recovery = testing::recover_quietly(device);

  testing::expect_rebuilt(before, scheme(), device);
  EXPECT_EQ(recovery.programs, 0u);  // every map held: nothing copied
  EXPECT_EQ(recovery.erases, before.dead.size());
  check_lsb(device);
  // The cache was dropped: reads load the maps from the spare areas again, and pass.
  EXPECT_EQ(read_units(0, 4), 0u);
  EXPECT_GT(spare_reads(), 0u);
  expect_reads_where_peek_says(device);
  // And the FTL goes on from the rebuilt tables.
  EXPECT_EQ(testing::run_random(device, 100'000, 78, check, 50'000), 0u)
      << device.oracle()->first_mismatch();
  expect_reads_where_peek_says(device);
}

TEST_F(LsbTest, RebuildingAFreshlyWrittenDeviceGivesTheSameTables) {
  ASSERT_EQ(write_units(0, 100), 0u);
  ASSERT_EQ(write_units(10, 1), 0u);
  ASSERT_EQ(write_units(7 * ppb + 3, 20), 0u);
  ASSERT_EQ(write_units(40 * ppb + 60, 8), 0u);  // superblock 1: logical blocks 40 and 41
  const PageId pgd0 = scheme().pgd(0), pgd1 = scheme().pgd(1), pgd7 = scheme().pgd(7);
  const PageId pgd40 = scheme().pgd(40), pgd41 = scheme().pgd(41);
  const std::vector<BlockId> sb0 = scheme().blocks_of(0), sb1 = scheme().blocks_of(1);
  testing::recover_quietly(device);
  EXPECT_EQ(scheme().pgd(0), pgd0);
  EXPECT_EQ(scheme().pgd(1), pgd1);
  EXPECT_EQ(scheme().pgd(7), pgd7);
  EXPECT_EQ(scheme().pgd(40), pgd40);
  EXPECT_EQ(scheme().pgd(41), pgd41);
  EXPECT_EQ(scheme().pgd(2), kNone);
  EXPECT_EQ(std::set<BlockId>(scheme().blocks_of(0).begin(), scheme().blocks_of(0).end()),
            std::set<BlockId>(sb0.begin(), sb0.end()));
  EXPECT_EQ(std::set<BlockId>(scheme().blocks_of(1).begin(), scheme().blocks_of(1).end()),
            std::set<BlockId>(sb1.begin(), sb1.end()));
  // Sequence numbers go on from the newest one read: a later write is the newest again.
  ASSERT_EQ(write_units(10, 1), 0u);
  const PageId newest = scheme().peek(10);
  testing::recover_quietly(device);
  EXPECT_EQ(scheme().peek(10), newest);
  EXPECT_EQ(scheme().pgd(0), newest);
  check_lsb(device);
  expect_reads_where_peek_says(device);
}

// A run takes only the blocks its pages need (an MIW borrows a block only when it finds no free
// page): a whole logical block's write on a fresh device fills exactly one block, and a rebuild
// gives back the same single block.
TEST_F(LsbTest, AWholeBlockWriteTakesOneBlock) {
  ASSERT_EQ(write_units(0, ppb), 0u);
  ASSERT_EQ(scheme().blocks_of(0).size(), 1u);
  const BlockId written = scheme().blocks_of(0)[0];
  ASSERT_EQ(device.flash().write_pointer(written), ppb);
  testing::recover_quietly(device);
  EXPECT_EQ(scheme().blocks_of(0), std::vector<BlockId>({written}));
  EXPECT_EQ(scheme().pgd(0), scheme().peek(ppb - 1));
  check_lsb(device);
  ASSERT_EQ(write_units(0, ppb), 0u);
  EXPECT_EQ(read_units(0, ppb), 0u) << device.oracle()->first_mismatch();
  check_lsb(device);
}

// --- other shapes ------------------------------------------------------------------------------

class LsbShapes : public ::testing::TestWithParam<LsbShape> {};

// Random commands, then whole logical blocks (as a sequential stream writes them) in random
// order, on a full device of each shape: the oracle passes and the invariants hold.
TEST_P(LsbShapes, RandomCommandsAndWholeBlocksOnAFullDevicePassTheOracle) {
  const LsbShape& shape = GetParam();
  const config::PlatformConfig p = lsb_platform(shape);
  ASSERT_NO_THROW(config::validate_platform(p, "test", scheme_catalog()));
  FtlDevice device(p, FtlDeviceOptions{});
  const Geometry& g = device.geometry();
  const LsbFtl& s = lsb(device);
  ASSERT_TRUE(s.layout().fits());
  EXPECT_EQ(s.layout().groups * s.layout().group_pages, g.pages_per_block);
  EXPECT_EQ(s.layout().groups, shape.groups_per_block);
  config::PreconditionConfig fill;
  fill.fill_ratio = 1.0;
  fill.overwrite_ratio = 0.2;
  precondition(device, fill);
  const auto check = [&device] { check_lsb(device); };
  check();
  EXPECT_EQ(testing::run_random(device, 150'000, 21, check, 50'000), 0u)
      << device.oracle()->first_mismatch();
  Random random(22);
  for (int i = 0; i < 3000; ++i) {
    const uint32_t lbn = static_cast<uint32_t>(random.below(s.logical_blocks()));
    const uint64_t first = uint64_t(lbn) * g.pages_per_block;
    const uint64_t units = std::min<uint64_t>(g.pages_per_block, g.logical_units - first);
    try {
      ASSERT_EQ(run_one(device, CommandKind::kWrite, first * g.sectors_per_unit,
                        static_cast<uint32_t>(units * g.sectors_per_unit)),
                0u);
    } catch (const std::exception& e) {
      FAIL() << "whole-block write " << i << " (logical block " << lbn << ") threw " << e.what();
    }
  }
  check();
  EXPECT_GT(device.scheme().stats().gc_invocations, 0u);
  EXPECT_GT(figure(device, "partial_merges") + figure(device, "full_merges") +
                figure(device, "dead_erases"),
            0.0);
  expect_reads_where_peek_says(device);
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, LsbShapes,
    ::testing::Values(LsbShape{"four_block_superblocks", 4, 8, 64, 0.25},
                      LsbShape{"thirty_two_block_superblocks", 32, 8, 64, 0.25},
                      LsbShape{"whole_device_superblock", 100000, 8, 64, 0.25},
                      LsbShape{"four_groups_of_sixteen", 32, 4, 128, 0.25},
                      LsbShape{"sixteen_groups_of_four", 32, 16, 128, 0.25},
                      LsbShape{"papers_groups_and_superblocks", 512, 8, 64, 0.25},
                      LsbShape{"two_cache_entries", 32, 8, 64, 0.25, 2},
                      LsbShape{"short_last_logical_block", 32, 8, 64, 0.26},
                      LsbShape{"short_last_superblock", 50, 8, 64, 0.25},
                      LsbShape{"five_block_superblocks", 5, 8, 64, 0.25}),
    [](const auto& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace ssd::ftl
