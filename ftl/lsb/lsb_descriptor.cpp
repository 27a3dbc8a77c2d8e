#include "ftl/lsb/lsb_descriptor.h"

#include <algorithm>
#include <string>

#include "ftl/hybrid/block_rules.h"
#include "ftl/lsb/lsb_ftl.h"
#include "ftl/lsb/lsb_settings.h"
#include "ftl/lsb/lsb_spare.h"
#include "ftl/superblock_frame/frame_rules.h"

namespace ssd::ftl {

namespace {

std::string text(uint64_t value) { return std::to_string(value); }

std::optional<config::KeyProblem> check_lsb(const config::PlatformConfig& p) {
  if (auto problem = check_block_granular(p, "lsb")) return problem;
  const LsbSettings& s = p.ftl.settings.get<LsbSettings>();
  const Geometry g = Geometry::from_platform(p);
  uint32_t group_pages = 0;
  if (auto problem =
          check_frame_groups(p, "lsb", s.groups_per_block, s.pages_per_group, group_pages)) {
    return problem;
  }
  if (auto problem = check_frame_fields(p, {"lsb", s.di_bytes, s.pbn_bytes, s.cache_entries})) {
    return problem;
  }
  const LsbSpareLayout l = LsbSpareLayout::of(s.groups_per_block, group_pages, g.pages_per_block,
                                              p.nand.spare_bytes, s.di_bytes, s.pbn_bytes);
  if (!l.fits()) {
    return config::KeyProblem{
        "ftl.lsb.groups_per_block",
        "and ftl.lsb.pages_per_group (N = " + text(l.groups) + ", G = " + text(l.group_pages) +
            ") do not fit the spare area: a PT page needs " + text(l.pt_page_bits()) +
            " bits (equation (1)) and a PMD page " + text(l.pmd_page_bits()) +
            " (equation (2)), but " + text(p.nand.spare_bytes) + " spare bytes less " +
            text(s.di_bytes) + " of DI leave " + text(l.available_bits())};
  }
  // Each superblock keeps a partly written block of its own, which GC (full blocks only) leaves
  // alone: the over-provisioned blocks must hold one per superblock and one per plane for GC.
  const uint64_t logical = logical_blocks(p);
  const uint64_t superblocks = (logical + s.superblock_blocks - 1) / s.superblock_blocks;
  const uint64_t spare_blocks = g.blocks() > logical ? g.blocks() - logical : 0;
  if (superblocks + g.planes() > spare_blocks) {
    return config::KeyProblem{"ftl.lsb.superblock_blocks",
                              "makes " + text(superblocks) +
                                  " superblocks, each with a partly written block of its "
                                  "own, but the device's " +
                                  text(g.blocks()) + " blocks less " + text(logical) +
                                  " logical blocks leave " + text(spare_blocks) +
                                  " (one more per plane is GC's, " + text(g.planes()) +
                                  "): use larger superblocks or more ftl.over_provisioning, got " +
                                  text(s.superblock_blocks)};
  }
  return std::nullopt;
}

std::optional<config::KeyProblem> recovery_problem(const config::PlatformConfig& p) {
  return check_frame_recovery("lsb", p.ftl.settings.get<LsbSettings>().di_bytes);
}

}  // namespace

SchemeDescriptor lsb_descriptor() {
  SchemeDescriptor d;
  d.name = "lsb";
  d.summary =
      "Large SuperBlock FTL: superblocks of any size, page map in PT and PMD spare areas, PGD in "
      "RAM (docs/schemes.md)";
  d.settings = settings_of<LsbSettings>;
  d.check = check_lsb;
  d.spare_words = [](const config::PlatformConfig& p, const Geometry& g) {
    // The formats' words; never more than the spare area's, so that formats that do not fit are
    // refused by check_lsb, which says which fields to shrink.
    const LsbSettings& s = p.ftl.settings.get<LsbSettings>();
    const uint32_t group_pages =
        s.pages_per_group != 0 ? s.pages_per_group : g.pages_per_block / s.groups_per_block;
    const LsbSpareLayout l = LsbSpareLayout::of(s.groups_per_block, group_pages, g.pages_per_block,
                                                p.nand.spare_bytes, s.di_bytes, s.pbn_bytes);
    return std::min(l.spare_words(), (g.spare_bytes + 3) / 4);
  };
  d.figures =
      frame_figure_docs("merges a superblock ran because its PBMT was full (never, in LSB)");
  d.figures.push_back(
      {"miw_writes", "mapping-induced writes: PT pages copied so a PMD page's PBMT fits"});
  d.figures.push_back({"pmd_pages", "pages written with the PMD format (flag 1)"});
  d.figures.push_back({"pt_pages", "pages written with the PT format (flag 0)"});
  d.simulator_bytes = [](const config::PlatformConfig& p, const Geometry& g) {
    // PGD and the cache's index per logical block, owner per block, valid bits, the cache and
    // its PT views.
    const LsbSettings& s = p.ftl.settings.get<LsbSettings>();
    const uint64_t entries = std::min<uint64_t>(s.cache_entries, logical_blocks(p));
    return logical_blocks(p) * 2 * sizeof(PageId) + uint64_t(g.blocks()) * sizeof(uint32_t) +
           g.logical_units / 8 + entries * (2 * g.pages_per_block + 64) * sizeof(PageId);
  };
  d.create = [](const SchemeContext& c) { return std::make_unique<LsbFtl>(c); };
  // Power cuts (frame_recovery.h): the DI's sequence number is in the spare words the scheme
  // keeps anyway, so it needs none beyond them; it must be 64 bits wide (data_information.h).
  d.recover = [](const SchemeContext& c) { return LsbFtl::recovered(c); };
  d.recovery_problem = recovery_problem;
  // Sampled aging lays the miniature's superblocks out (superblock_frame/frame_aged.cpp).
  d.ages_by_sampling = true;
  d.recovery_spare_words = [](const Geometry&) { return 0u; };
  return d;
}

}  // namespace ssd::ftl
