#include "ftl/core/page_store_rules.h"

#include <string>

#include "config/capacity.h"

namespace ssd::ftl {

std::optional<config::KeyProblem> check_page_granular(const config::PlatformConfig& p) {
  if (p.nand.pages_per_block >= 2) return std::nullopt;
  return config::KeyProblem{"nand.pages_per_block",
                            "must be >= 2 for the " + p.ftl.scheme +
                                " scheme: its garbage collection frees a block by moving valid "
                                "pages out, which a one-page block never allows (got " +
                                std::to_string(p.nand.pages_per_block) + ")"};
}

std::optional<config::KeyProblem> check_page_streams(const config::PlatformConfig& p,
                                                     uint32_t host_streams, uint32_t gc_streams,
                                                     const std::string& streams_key) {
  const uint32_t reserve = config::gc_reserve_blocks_per_plane(p);
  const uint32_t hidden = config::over_provisioned_blocks_per_plane(p);
  const std::string streams = std::to_string(host_streams) + " host and " +
                              std::to_string(gc_streams) + " GC write streams, each with an " +
                              "open block per plane";
  if (reserve < gc_streams + 1) {
    return config::KeyProblem{
        streams_key, "asks for " + streams + ", and GC keeps one free block per GC stream: the " +
                         "GC reserve (ftl.gc_threshold x nand.blocks_per_plane, " +
                         std::to_string(reserve) + " blocks) must be at least " +
                         std::to_string(gc_streams + 1) +
                         "; lower this setting or raise ftl.gc_threshold"};
  }
  const uint32_t needed = host_streams + 2 * gc_streams;
  if (hidden <= needed) {
    return config::KeyProblem{
        streams_key, "asks for " + streams + ", which with the " + std::to_string(gc_streams) +
                         " free blocks kept for GC need more than " + std::to_string(needed) +
                         " over-provisioned blocks per plane; ftl.over_provisioning hides " +
                         std::to_string(hidden) +
                         " (floor(over_provisioning x blocks_per_plane)): lower this setting or "
                         "raise ftl.over_provisioning"};
  }
  return std::nullopt;
}

}  // namespace ssd::ftl
