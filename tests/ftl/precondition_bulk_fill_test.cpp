// Preconditioning's sequential fill in bulk (MappingScheme::fill_sequential, FtlDevice::
// fill_sequential) leaves exactly the state serving the fill command by command leaves: for every
// scheme, two devices preconditioned both ways have the same flash (write pointers, erase counts,
// spare words, tokens), write counts, GC counts, mapping figures and command count, and then
// serve the same random workload identically (every recorded operation, every unit read, the
// oracle clean). A scheme without a bulk path takes the command-by-command path both times.
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "ftl/core/ftl_device.h"
#include "ftl/core/preconditioner.h"
#include "ftl/core/random.h"
#include "ftl/dac/dac_settings.h"
#include "ftl/dftl/dftl.h"
#include "ftl/dftl/dftl_settings.h"
#include "ftl/extent/extent_settings.h"
#include "ftl/lsb/lsb_settings.h"
#include "ftl/nftl/nftl_settings.h"
#include "ftl/page/page_settings.h"
#include "ftl/scheme_registry.h"
#include "ftl/superblock/superblock_settings.h"
#include "rtl/model/vet_hash_model.h"
#include "tests/ftl/served_alike.h"
#include "tests/ftl/tiny_platform.h"

namespace ssd::ftl {
namespace {

struct Devices {
  explicit Devices(const config::PlatformConfig& platform, bool power_loss = false)
      : engine({platform.accelerator.bucket_bits, platform.accelerator.ways}) {
    FtlDeviceOptions options;
    options.hash_engine = &engine;
    options.power_loss = power_loss;
    bulk.emplace(platform, options);
    one_by_one.emplace(platform, options);
  }
  rtl::HashEngineModel engine;
  std::optional<FtlDevice> bulk;
  std::optional<FtlDevice> one_by_one;
};

void expect_same_flash(FtlDevice& a, FtlDevice& b, const std::string& what) {
  const Geometry& g = a.geometry();
  const FlashArray& fa = a.flash();
  const FlashArray& fb = b.flash();
  ASSERT_EQ(fa.spare_words_per_page(), fb.spare_words_per_page());
  uint64_t differing = 0;
  for (BlockId block = 0; block < g.blocks(); ++block) {
    if (fa.write_pointer(block) != fb.write_pointer(block) ||
        fa.erase_count(block) != fb.erase_count(block)) {
      ++differing;
    }
  }
  for (PageId page = 0; page < g.pages(); ++page) {
    for (uint32_t w = 0; w < fa.spare_words_per_page(); ++w) {
      if (fa.spare(page)[w] != fb.spare(page)[w]) ++differing;
    }
  }
  for (SlotId slot = 0; slot < g.slots(); ++slot) {
    if (fa.token(slot) != fb.token(slot)) ++differing;
  }
  EXPECT_EQ(differing, 0u) << what;
  const WriteCounters& wa = a.backend().written();
  const WriteCounters& wb = b.backend().written();
  for (int c = 0; c < kOpClasses; ++c)
    EXPECT_EQ(wa.units[c], wb.units[c]) << what << " class " << c;
  EXPECT_EQ(wa.padded, wb.padded) << what;
  EXPECT_EQ(a.stats().gc_invocations, b.stats().gc_invocations) << what;
  EXPECT_EQ(a.stats().gc_units_copied, b.stats().gc_units_copied) << what;
  EXPECT_EQ(a.stats().gc_erases, b.stats().gc_erases) << what;
  EXPECT_EQ(a.commands_run(), b.commands_run()) << what;
  EXPECT_EQ(a.scheme().mapping_memory_bytes(), b.scheme().mapping_memory_bytes()) << what;
  const auto figures_a = a.scheme().mapping_figures();
  const auto figures_b = b.scheme().mapping_figures();
  ASSERT_EQ(figures_a.size(), figures_b.size()) << what;
  for (size_t i = 0; i < figures_a.size(); ++i) {
    EXPECT_EQ(figures_a[i].value, figures_b[i].value) << what << " " << figures_a[i].name;
    EXPECT_EQ(figures_a[i].text, figures_b[i].text) << what << " " << figures_a[i].name;
    EXPECT_EQ(figures_a[i].counts, figures_b[i].counts) << what << " " << figures_a[i].name;
  }
}

// DFTL's translation pages: where each is and what it says (its digest; the workload below
// reads the entries, but only a power-loss recovery reads the digests).
void expect_same_dftl_tables(const MappingScheme& a, const MappingScheme& b,
                             const std::string& what) {
  const auto* da = dynamic_cast<const Dftl*>(&a);
  const auto* db = dynamic_cast<const Dftl*>(&b);
  if (da == nullptr || db == nullptr) return;
  uint64_t differing = 0;
  for (uint32_t t = 0; t < da->translation_pages(); ++t) {
    differing += da->translation_slot(t) != db->translation_slot(t) ||
                 da->translation_digest(t) != db->translation_digest(t);
  }
  EXPECT_EQ(differing, 0u) << what << ": translation pages";
  EXPECT_EQ(da->translation_writes(), db->translation_writes()) << what;
}

// The same random commands on both, recorded: every operation, every unit read and the CPU work
// of every command the same.
void expect_same_outcome(FtlDevice& a, FtlDevice& b, const std::string& what) {
  const Geometry& g = a.geometry();
  Random random(7);
  uint64_t differing = 0;
  uint64_t mismatches = 0;
  for (int i = 0; i < 6000; ++i) {
    HostCommand ca;
    const uint64_t draw = random.below(100);
    ca.kind = draw < 60   ? CommandKind::kWrite
              : draw < 90 ? CommandKind::kRead
              : draw < 97 ? CommandKind::kTrim
                          : CommandKind::kFlush;
    if (ca.kind != CommandKind::kFlush) {
      ca.sector_count = static_cast<uint32_t>(1 + random.below(g.sectors_per_unit * 4));
      ca.start_sector = random.below(g.logical_sectors() - ca.sector_count + 1);
    }
    HostCommand cb = ca;
    mismatches += a.run(ca) + b.run(cb);
    const bool same = testing::served_alike(a, b) &&
                      testing::same_cpu_work(a.backend().cpu_work(), b.backend().cpu_work());
    if (!same) ++differing;
  }
  EXPECT_EQ(differing, 0u) << what << ": commands served differently";
  EXPECT_EQ(mismatches, 0u) << what;
  expect_same_flash(a, b, what + ", after the workload");
}

// Preconditions one device in bulk and the other command by command, compares, runs the
// workload on both. Returns whether the bulk path was taken.
bool compare(const config::PlatformConfig& platform, double fill_ratio, double overwrite_ratio,
             const std::string& what, bool power_loss = false) {
  Devices devices(platform, power_loss);
  config::PreconditionConfig config;
  config.fill_ratio = fill_ratio;
  config.overwrite_ratio = overwrite_ratio;
  config.seed = 11;
  const PreconditionResult bulk = precondition(*devices.bulk, config, {}, true);
  const PreconditionResult one = precondition(*devices.one_by_one, config, {}, false);
  EXPECT_FALSE(one.filled_in_bulk);
  EXPECT_EQ(bulk.units_written, one.units_written) << what;
  EXPECT_EQ(bulk.commands, one.commands) << what;
  expect_same_flash(*devices.bulk, *devices.one_by_one, what);
  expect_same_dftl_tables(devices.bulk->scheme(), devices.one_by_one->scheme(), what);
  expect_same_outcome(*devices.bulk, *devices.one_by_one, what);
  return bulk.filled_in_bulk;
}

config::PlatformConfig platform_of(const std::string& scheme, uint32_t unit_bytes = 0) {
  config::PlatformConfig p = testing::tiny_platform(unit_bytes);
  p.ftl.scheme = scheme;
  return p;
}

TEST(PreconditionBulkFill, EverySchemeEndsAsCommandByCommand) {
  for (const std::string& scheme : scheme_names()) {
    const config::PlatformConfig p = platform_of(scheme);
    const std::string what = scheme;
    const bool bulk = compare(p, 1.0, 0.0, what + " full");
    compare(p, 0.7, 0.3, what + " 70 % aged");
    const bool has_bulk_path = scheme == "page" || scheme == "dac" || scheme == "block" ||
                               scheme == "nftl" || scheme == "fast" || scheme == "dftl" ||
                               scheme == "vet" || scheme == "emt" || scheme == "superblock" ||
                               scheme == "lsb";
    EXPECT_EQ(bulk, has_bulk_path) << scheme;
  }
}

TEST(PreconditionBulkFill, DacFillsItsFirstRegionInBulk) {
  for (const uint32_t first_region : {0u, 2u}) {
    config::PlatformConfig p = platform_of("dac");
    DacSettings& s = p.ftl.settings.edit<DacSettings>();
    s.regions = 3;
    s.first_region = first_region;
    const std::string what = "dac, first region " + std::to_string(first_region);
    EXPECT_TRUE(compare(p, 1.0, 0.3, what + " full")) << what;
    EXPECT_TRUE(compare(p, 0.613, 0.2, what + " 61.3 % aged")) << what;
  }
}

TEST(PreconditionBulkFill, BlockSchemesFillWholeLogicalBlocksInBulk) {
  for (const std::string scheme : {"block", "nftl", "fast"}) {
    // Not a whole number of logical blocks: the last one's units go through write_units().
    EXPECT_TRUE(compare(platform_of(scheme), 0.613, 0.2, scheme + " 61.3 % aged")) << scheme;
    // A device with no room beyond GC's reserve: command by command.
    config::PlatformConfig tight = platform_of(scheme);
    tight.ftl.over_provisioning = 0.07;
    tight.ftl.gc_threshold = 0.05;
    compare(tight, 1.0, 0.1, scheme + " 7 % over-provisioning");
  }
  // NFTL with a translation cache: the cache learns every write, so command by command.
  config::PlatformConfig lmt = platform_of("nftl");
  NftlSettings& s = lmt.ftl.settings.edit<NftlSettings>();
  s.cache = "lmt-scwr";
  s.cache_bytes = 16384;
  EXPECT_FALSE(compare(lmt, 1.0, 0.1, "nftl with LMT"));
}

// Where the superblock frame's fill goes command by command: a cache as large as the fill (every
// logical block through write_units()), power cuts (the flash journals every program), and a
// device with no room beyond GC's reserve (compared, whichever way it goes).
template <class Settings>
void expect_frame_falls_back(const std::string& scheme) {
  config::PlatformConfig cached = platform_of(scheme);
  cached.ftl.settings.edit<Settings>().cache_entries = 100000;
  EXPECT_FALSE(compare(cached, 0.5, 0.1, scheme + ", the whole fill cached"));
  EXPECT_FALSE(compare(platform_of(scheme), 1.0, 0.1, scheme + ", power loss", true));
  config::PlatformConfig tight = platform_of(scheme);
  tight.ftl.over_provisioning = 0.1;
  tight.ftl.gc_threshold = 0.05;
  compare(tight, 1.0, 0.1, scheme + ", 10 % over-provisioning");
}

// The Superblock FTL lays out every logical block the fill covers whole but the last
// cache_entries ones, which it writes as the commands do so that its cache ends alike; the spare
// words of the laid-out blocks (PBMT, PMD, PT and DI, bit for bit) are compared page by page.
TEST(PreconditionBulkFill, SuperblockLaysOutAllButItsCachedLogicalBlocks) {
  // Not a whole number of logical blocks: the last one's units go through write_units().
  EXPECT_TRUE(compare(platform_of("superblock"), 0.613, 0.2, "superblock 61.3 % aged"));
  // Other superblocks and groups: 2 logical blocks of 2 groups of 8 pages, at most 3 blocks.
  config::PlatformConfig other = platform_of("superblock");
  SuperblockSettings& s = other.ftl.settings.edit<SuperblockSettings>();
  s.superblock_blocks = 2;
  s.max_physical_blocks = 3;
  s.groups_per_block = 2;
  s.cache_entries = 5;
  EXPECT_TRUE(compare(other, 1.0, 0.3, "superblock, 2 blocks of 2 groups"));
  expect_frame_falls_back<SuperblockSettings>("superblock");
}

// The LSB FTL lays out its logical blocks as the Superblock FTL does, each block's words the first
// commands-written logical block's with the page's own DI (lsb_fill.cpp); its superblocks take
// their blocks from the plane with the most free blocks. Compared bit for bit, page by page.
TEST(PreconditionBulkFill, LsbLaysOutItsLogicalBlocksAsTheCommandsWriteThem) {
  // Not a whole number of logical blocks: the last one's units go through write_units().
  EXPECT_TRUE(compare(platform_of("lsb"), 0.613, 0.2, "lsb 61.3 % aged"));
  // Superblocks of 2 logical blocks, 2 groups, 5 cache entries (lightly aged: with 0.3 of the
  // capacity overwritten, simulated either way, GC runs out of room, docs/schemes.md).
  config::PlatformConfig other = platform_of("lsb");
  LsbSettings& s = other.ftl.settings.edit<LsbSettings>();
  s.superblock_blocks = 2;
  s.groups_per_block = 2;
  s.cache_entries = 5;
  EXPECT_TRUE(compare(other, 1.0, 0.05, "lsb, 2 blocks of 2 groups"));
  // LSB on blocks of `pages` pages (`blocks` a plane, spare areas of `spare_bytes`).
  const auto with_blocks = [](uint32_t pages, uint32_t blocks, uint32_t spare_bytes) {
    config::PlatformConfig p = platform_of("lsb");
    p.nand.pages_per_block = pages;
    p.nand.blocks_per_plane = blocks;
    p.nand.spare_bytes = spare_bytes;
    p.ftl.settings.edit<LsbSettings>().cache_entries = 3;
    return p;
  };
  // Blocks of 512 pages: two of the fill's 256-unit commands per logical block, so every block
  // holds two write runs (two PMD pages) and the sample has them at the same offsets.
  EXPECT_TRUE(compare(with_blocks(512, 8, 1024), 1.0, 0.1, "lsb, 512-page blocks"));
  // Blocks of 96 pages: the commands split logical blocks at different offsets, so no block's
  // words stand for another's: command by command.
  EXPECT_FALSE(compare(with_blocks(96, 16, 512), 1.0, 0.1, "lsb, 96-page blocks"));
  expect_frame_falls_back<LsbSettings>("lsb");
}

// The translation pages the CMT's evictions write fall among the data where the cache size puts
// them: a cache smaller than a translation page's entries (each page written several times, its
// older copies stale), larger (each once), larger than the fill (none), the smallest it takes.
TEST(PreconditionBulkFill, DftlPlacesItsTranslationWritesAmongTheData) {
  config::PlatformConfig p = platform_of("dftl", 1024);
  Devices probe(p);
  const auto& dftl = dynamic_cast<const Dftl&>(probe.bulk->scheme());
  const uint32_t per_page = dftl.entries_per_translation_page();
  const uint64_t units = probe.bulk->geometry().logical_units;
  ASSERT_GT(units, 4u * per_page) << "the tiny platform must span several translation pages";
  for (const uint64_t entries :
       {uint64_t{5}, uint64_t{per_page / 3}, uint64_t{per_page + 7}, units / 2, units}) {
    p.ftl.settings.edit<DftlSettings>().cache_entries = static_cast<uint32_t>(entries);
    const std::string what = "dftl, " + std::to_string(entries) + " cached entries";
    // Five entries write a translation page every five units: a full fill then needs more room
    // than the over-provisioning leaves above GC's reserve, and goes command by command.
    const bool room = compare(p, 1.0, 0.2, what + " full");
    EXPECT_EQ(room, entries > 5) << what;
    EXPECT_TRUE(compare(p, 0.613, 0.2, what + " 61.3 % aged")) << what;
  }
  // Fills that end at every place in a page of the stream: the bulk pages then end after a data
  // unit, or after the translation write whose eviction the next unit's write made.
  p.ftl.settings.edit<DftlSettings>().cache_entries = per_page / 3;
  for (int step = 0; step < 16; ++step) {
    const double ratio = 0.5 + 0.0013 * step;
    EXPECT_TRUE(compare(p, ratio, 0.05, "dftl, fill " + std::to_string(ratio)));
  }
  // Four entries: a translation write every four units or so, command by command.
  p.ftl.settings.edit<DftlSettings>().cache_entries = 4;
  EXPECT_FALSE(compare(p, 1.0, 0.1, "dftl, 4 cached entries"));
  // And where the page store declines: power loss, and a fill that reaches GC's reserve.
  p.ftl.settings.edit<DftlSettings>().cache_entries = per_page / 3;
  EXPECT_FALSE(compare(p, 1.0, 0.1, "dftl, power loss", true));
  p.ftl.over_provisioning = 0.07;
  p.ftl.gc_threshold = 0.05;
  compare(p, 1.0, 0.1, "dftl, 7 % over-provisioning");
}

TEST(PreconditionBulkFill, PageMappingInBulkForEveryStripingPlacement) {
  for (const std::string placement : {"round_robin", "most_free_plane", "least_busy_die"}) {
    for (const uint32_t unit_bytes : {1024u, 4096u}) {
      config::PlatformConfig p = platform_of("page", unit_bytes);
      p.ftl.placement = placement;
      const std::string what = placement + " unit " + std::to_string(unit_bytes);
      EXPECT_TRUE(compare(p, 1.0, 0.0, what + " full")) << what;
      // Not a whole number of pages nor of stripe rounds: the rest goes command by command.
      EXPECT_TRUE(compare(p, 0.613, 0.2, what + " 61.3 % aged")) << what;
    }
  }
}

// VET and EMT: each plane takes a chunk's pages at each visit of the stripe, and a command's
// chunks that continue each other's slots are one extent; chunks of one page, of four, and of
// the whole write (a fill command), on every striping placement, with a last partial command.
TEST(PreconditionBulkFill, ExtentSchemesFillTheirChunksInBulk) {
  for (const std::string scheme : {"vet", "emt"}) {
    for (const std::string placement : {"round_robin", "most_free_plane", "least_busy_die"}) {
      for (const uint32_t chunk_pages : {1u, 4u, 0u}) {
        for (const uint32_t unit_bytes : {1024u, 4096u}) {
          config::PlatformConfig p = platform_of(scheme, unit_bytes);
          p.ftl.placement = placement;
          p.ftl.settings.edit<ExtentSettings>().chunk_pages = chunk_pages;
          const std::string what = scheme + " " + placement + " chunk " +
                                   std::to_string(chunk_pages) + " unit " +
                                   std::to_string(unit_bytes);
          EXPECT_TRUE(compare(p, 1.0, 0.0, what + " full")) << what;
          EXPECT_TRUE(compare(p, 0.613, 0.2, what + " 61.3 % aged")) << what;
        }
      }
    }
    // One plane: a command's chunks continue each other's slots, one extent per command.
    for (const uint32_t chunk_pages : {1u, 4u}) {
      config::PlatformConfig one_plane = platform_of(scheme, 1024);
      one_plane.nand.channels = 1;
      one_plane.nand.chips_per_channel = 1;
      one_plane.nand.planes_per_die = 1;
      one_plane.nand.blocks_per_plane = 256;
      one_plane.ftl.settings.edit<ExtentSettings>().chunk_pages = chunk_pages;
      const std::string what = scheme + " one plane, chunk " + std::to_string(chunk_pages);
      EXPECT_TRUE(compare(one_plane, 1.0, 0.0, what + " full")) << what;
      EXPECT_TRUE(compare(one_plane, 0.613, 0.2, what + " 61.3 % aged")) << what;
    }
    // Where the layout does not hold: static placement, and chunks that do not divide the fill's
    // commands (place() would cut each command's last chunk short).
    config::PlatformConfig p = platform_of(scheme, 1024);
    p.ftl.placement = "static";
    EXPECT_FALSE(compare(p, 1.0, 0.1, scheme + " static placement"));
    p = platform_of(scheme, 1024);
    p.ftl.settings.edit<ExtentSettings>().chunk_pages = 3;
    EXPECT_FALSE(compare(p, 1.0, 0.1, scheme + " chunks of 3 pages"));
  }
}

TEST(PreconditionBulkFill, PageMappingFallsBackWhereTheLayoutIsNotGuaranteed) {
  config::PlatformConfig p = platform_of("page", 1024);
  p.ftl.placement = "static";  // units spread over planes by number, not by page
  EXPECT_FALSE(compare(p, 1.0, 0.1, "static placement"));
  // Power loss: sequence numbers and the journal.
  EXPECT_FALSE(compare(platform_of("page", 1024), 1.0, 0.1, "power loss", true));
  // Little over-provisioning: a full fill reaches GC's reserve on some plane.
  config::PlatformConfig tight = platform_of("page", 1024);
  tight.ftl.over_provisioning = 0.07;
  tight.ftl.gc_threshold = 0.05;
  compare(tight, 1.0, 0.1, "7 % over-provisioning");
}

TEST(PreconditionBulkFill, PageMappingWithAMapSyncMarksTheWholeTableDirty) {
  config::PlatformConfig p = platform_of("page", 1024);
  p.nvram = config::MemoryConfig{64 * 1024, 10.0, 10.0, 400.0, "stt-mram"};
  PageSettings& s = p.ftl.settings.edit<PageSettings>();
  s.map_sync = "flash";
  EXPECT_TRUE(compare(p, 1.0, 0.2, "map_sync flash"));
}

}  // namespace
}  // namespace ssd::ftl
