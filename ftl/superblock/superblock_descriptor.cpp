#include "ftl/superblock/superblock_descriptor.h"

#include <algorithm>
#include <string>

#include "ftl/hybrid/block_rules.h"
#include "ftl/superblock/superblock_ftl.h"
#include "ftl/superblock/superblock_settings.h"
#include "ftl/superblock/superblock_spare.h"

namespace ssd::ftl {

namespace {

std::string text(uint64_t value) { return std::to_string(value); }

std::optional<config::KeyProblem> check_superblock(const config::PlatformConfig& p) {
  if (auto problem = check_block_granular(p, "superblock")) return problem;
  const SuperblockSettings& s = p.ftl.settings.get<SuperblockSettings>();
  const Geometry g = Geometry::from_platform(p);
  const uint32_t group_pages =
      s.pages_per_group != 0 ? s.pages_per_group : g.pages_per_block / s.groups_per_block;
  if (uint64_t(s.groups_per_block) * group_pages != g.pages_per_block) {
    return config::KeyProblem{"ftl.superblock.groups_per_block",
                              "x ftl.superblock.pages_per_group must be the pages of a block (" +
                                  text(g.pages_per_block) + "), got " + text(s.groups_per_block) +
                                  " x " + text(group_pages)};
  }
  if (s.max_physical_blocks < s.superblock_blocks + 1) {
    return config::KeyProblem{"ftl.superblock.max_physical_blocks",
                              "must leave a superblock at least one update block beyond its " +
                                  text(s.superblock_blocks) +
                                  " data blocks (ftl.superblock.superblock_blocks), got " +
                                  text(s.max_physical_blocks)};
  }
  if (s.max_physical_blocks > g.blocks_per_plane) {
    return config::KeyProblem{"ftl.superblock.max_physical_blocks",
                              "is more than a plane's " + text(g.blocks_per_plane) +
                                  " blocks (nand.blocks_per_plane): a superblock's blocks are all "
                                  "on its home plane, got " +
                                  text(s.max_physical_blocks)};
  }
  if (s.di_bytes >= p.nand.spare_bytes) {
    return config::KeyProblem{"ftl.superblock.di_bytes",
                              "leaves no room in the " + text(p.nand.spare_bytes) +
                                  "-byte spare area (nand.spare_bytes), got " + text(s.di_bytes)};
  }
  if (s.pbn_bytes < 4 && (uint64_t(g.blocks()) + 1) > (uint64_t{1} << (8 * s.pbn_bytes))) {
    return config::KeyProblem{"ftl.superblock.pbn_bytes",
                              "cannot name the device's " + text(g.blocks()) +
                                  " blocks and an unused entry, got " + text(s.pbn_bytes)};
  }
  const SuperblockSpareLayout l = SuperblockSpareLayout::of(s, g, p.nand.spare_bytes);
  if (l.mapping_bits() > l.available_bits()) {
    return config::KeyProblem{
        "ftl.superblock.pages_per_group",
        "and ftl.superblock.groups_per_block (with ftl.superblock.max_physical_blocks) do not fit "
        "the spare area: PBMT " +
            text(l.pbmt_entries) + " x " + text(l.pbn_bits) + " + PMD " + text(l.groups) + " x " +
            text(l.entry_bits()) + " + PT " + text(l.group_pages) + " x " + text(l.entry_bits()) +
            " = " + text(l.mapping_bits()) + " bits, but " + text(p.nand.spare_bytes) +
            " spare bytes less " + text(s.di_bytes) + " of DI leave " + text(l.available_bits())};
  }
  if (s.cache_entries < 2) {
    return config::KeyProblem{
        "ftl.superblock.cache_entries",
        "must be at least 2: a write and a merge each hold one, got " + text(s.cache_entries)};
  }
  return std::nullopt;
}

}  // namespace

SchemeDescriptor superblock_descriptor() {
  SchemeDescriptor d;
  d.name = "superblock";
  d.summary =
      "Superblock FTL: page placement within superblocks of logical blocks, page map in the "
      "spare areas, PGD in RAM (docs/schemes.md)";
  d.settings = settings_of<SuperblockSettings>;
  d.check = check_superblock;
  d.spare_words = [](const Geometry& g) { return (g.spare_bytes + 3) / 4; };
  d.figures = {
      {"cache_lookups", "logical-block map lookups (reads, writes, merges)"},
      {"cache_hits", "lookups the RAM cache answered"},
      {"map_spare_reads", "spare areas read to load maps into the cache"},
      {"gc_spare_reads", "spare areas GC read to learn its victims' pages"},
      {"forced_gcs", "merges a superblock ran because its PBMT was full"},
      {"partial_merges", "victims whose live pages moved within their superblock"},
      {"full_merges", "two blocks of a superblock merged into a fresh one"},
      {"dead_erases", "victims with no live page, erased at once"},
      {"victim_free_pages_mean", "never-programmed pages of a victim when it was erased"},
  };
  d.simulator_bytes = [](const config::PlatformConfig& p, const Geometry& g) {
    // PGD and the cache's index per logical block, owner per block, valid bits, the cache.
    const SuperblockSettings& s = p.ftl.settings.get<SuperblockSettings>();
    const uint64_t entries = std::min<uint64_t>(s.cache_entries, logical_blocks(p));
    return logical_blocks(p) * 2 * sizeof(PageId) + uint64_t(g.blocks()) * sizeof(uint32_t) +
           g.logical_units / 8 + entries * (g.pages_per_block + 64) * sizeof(PageId);
  };
  d.create = [](const SchemeContext& c) { return std::make_unique<SuperblockFtl>(c); };
  return d;
}

}  // namespace ssd::ftl
