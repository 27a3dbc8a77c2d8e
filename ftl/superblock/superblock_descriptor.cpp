#include "ftl/superblock/superblock_descriptor.h"

#include <algorithm>
#include <string>

#include "ftl/hybrid/block_rules.h"
#include "ftl/superblock/superblock_ftl.h"
#include "ftl/superblock/superblock_settings.h"
#include "ftl/superblock/superblock_spare.h"
#include "ftl/superblock_frame/frame_rules.h"

namespace ssd::ftl {

namespace {

std::string text(uint64_t value) { return std::to_string(value); }

std::optional<config::KeyProblem> check_superblock(const config::PlatformConfig& p) {
  if (auto problem = check_block_granular(p, "superblock")) return problem;
  const SuperblockSettings& s = p.ftl.settings.get<SuperblockSettings>();
  const Geometry g = Geometry::from_platform(p);
  uint32_t group_pages = 0;
  if (auto problem =
          check_frame_groups(p, "superblock", s.groups_per_block, s.pages_per_group, group_pages)) {
    return problem;
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
  if (auto problem =
          check_frame_fields(p, {"superblock", s.di_bytes, s.pbn_bytes, s.cache_entries})) {
    return problem;
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
  return std::nullopt;
}

std::optional<config::KeyProblem> recovery_problem(const config::PlatformConfig& p) {
  return check_frame_recovery("superblock", p.ftl.settings.get<SuperblockSettings>().di_bytes);
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
  d.spare_words = [](const config::PlatformConfig& p, const Geometry& g) {
    // The format's words; never more than the spare area's, so that a format that does not fit
    // is refused by check_superblock, which says which fields to shrink.
    const SuperblockSpareLayout l =
        SuperblockSpareLayout::of(p.ftl.settings.get<SuperblockSettings>(), g, p.nand.spare_bytes);
    return std::min(l.spare_words(), (g.spare_bytes + 3) / 4);
  };
  d.figures = frame_figure_docs("merges a superblock ran because its PBMT was full");
  d.simulator_bytes = [](const config::PlatformConfig& p, const Geometry& g) {
    // PGD and the cache's index per logical block, owner per block, valid bits, the cache.
    const SuperblockSettings& s = p.ftl.settings.get<SuperblockSettings>();
    const uint64_t entries = std::min<uint64_t>(s.cache_entries, logical_blocks(p));
    return logical_blocks(p) * 2 * sizeof(PageId) + uint64_t(g.blocks()) * sizeof(uint32_t) +
           g.logical_units / 8 + entries * (g.pages_per_block + 64) * sizeof(PageId);
  };
  d.create = [](const SchemeContext& c) { return std::make_unique<SuperblockFtl>(c); };
  // Power cuts (frame_recovery.h): the DI's sequence number is in the spare words the scheme
  // keeps anyway, so it needs none beyond them; it must be 64 bits wide (data_information.h).
  d.recover = [](const SchemeContext& c) { return SuperblockFtl::recovered(c); };
  d.recovery_problem = recovery_problem;
  // Sampled aging lays the miniature's superblocks out (superblock_frame/frame_aged.cpp).
  d.ages_by_sampling = true;
  d.recovery_spare_words = [](const Geometry&) { return 0u; };
  return d;
}

}  // namespace ssd::ftl
