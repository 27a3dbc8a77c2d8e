#include "ftl/superblock_frame/frame_rules.h"

#include <string>

#include "ftl/core/geometry.h"
#include "ftl/superblock_frame/data_information.h"

namespace ssd::ftl {

std::optional<config::KeyProblem> check_frame_groups(const config::PlatformConfig& p,
                                                     const std::string& group,
                                                     uint32_t groups_per_block,
                                                     uint32_t pages_per_group,
                                                     uint32_t& group_pages) {
  const auto text = [](uint64_t value) { return std::to_string(value); };
  const uint32_t pages_per_block = p.nand.pages_per_block;
  group_pages = pages_per_group != 0 ? pages_per_group : pages_per_block / groups_per_block;
  if (uint64_t(groups_per_block) * group_pages != pages_per_block) {
    return config::KeyProblem{"ftl." + group + ".groups_per_block",
                              "x ftl." + group + ".pages_per_group must be the pages of a block (" +
                                  text(pages_per_block) + "), got " + text(groups_per_block) +
                                  " x " + text(group_pages)};
  }
  return std::nullopt;
}

std::optional<config::KeyProblem> check_frame_fields(const config::PlatformConfig& p,
                                                     const FrameFieldSettings& s) {
  const auto text = [](uint64_t value) { return std::to_string(value); };
  const std::string prefix = "ftl." + s.group + ".";
  const Geometry g = Geometry::from_platform(p);
  if (s.di_bytes >= p.nand.spare_bytes) {
    return config::KeyProblem{prefix + "di_bytes",
                              "leaves no room in the " + text(p.nand.spare_bytes) +
                                  "-byte spare area (nand.spare_bytes), got " + text(s.di_bytes)};
  }
  if (s.pbn_bytes < 4 && (uint64_t(g.blocks()) + 1) > (uint64_t{1} << (8 * s.pbn_bytes))) {
    return config::KeyProblem{prefix + "pbn_bytes", "cannot name the device's " + text(g.blocks()) +
                                                        " blocks and an unused entry, got " +
                                                        text(s.pbn_bytes)};
  }
  if (s.cache_entries < 2) {
    return config::KeyProblem{
        prefix + "cache_entries",
        "must be at least 2: a write and a merge each hold one, got " + text(s.cache_entries)};
  }
  return std::nullopt;
}

std::optional<config::KeyProblem> check_frame_recovery(const std::string& group,
                                                       uint32_t di_bytes) {
  if (di_bytes >= kWideSequenceDiBytes) return std::nullopt;
  return config::KeyProblem{"ftl." + group + ".di_bytes",
                            "must be at least " + std::to_string(kWideSequenceDiBytes) +
                                " when power may be cut: the DI holds the page's logical number "
                                "and a 64-bit write sequence number, which recovery tells the "
                                "newest copy by (a 32-bit one wraps), got " +
                                std::to_string(di_bytes)};
}

std::vector<FigureDoc> frame_figure_docs(const std::string& forced_gcs) {
  return {
      {"cache_lookups", "logical-block map lookups (reads, writes, merges)"},
      {"cache_hits", "lookups the RAM cache answered"},
      {"map_spare_reads", "spare areas read to load maps into the cache"},
      {"gc_spare_reads", "spare areas GC read to learn its victims' pages"},
      {"forced_gcs", forced_gcs},
      {"partial_merges", "victims whose live pages moved within their superblock"},
      {"full_merges", "two blocks of a superblock merged into a fresh one"},
      {"dead_erases", "victims with no live page, erased at once"},
      {"victim_free_pages_mean", "never-programmed pages of a victim when it was erased"},
      {"victim_free_pages",
       "victims erased with 0, 1, 2... never-programmed pages (the distribution behind the mean)"},
  };
}

}  // namespace ssd::ftl
