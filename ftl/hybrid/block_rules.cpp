#include "ftl/hybrid/block_rules.h"

#include "config/capacity.h"

namespace ssd::ftl {

uint64_t logical_blocks(const config::PlatformConfig& platform) {
  const uint64_t units = config::logical_capacity_bytes(platform) / platform.nand.page_bytes;
  return (units + platform.nand.pages_per_block - 1) / platform.nand.pages_per_block;
}

std::optional<config::KeyProblem> check_block_granular(const config::PlatformConfig& p,
                                                       const std::string& scheme) {
  // Blocks are placed by logical block number (each scheme's own rule), so a plane-placement
  // policy would be ignored: refused rather than silently dropped.
  if (p.ftl.placement != config::FtlConfig{}.placement) {
    return config::KeyProblem{"ftl.placement", "does not apply to the " + scheme +
                                                   " scheme, which places data by logical block "
                                                   "(leave it at \"" +
                                                   config::FtlConfig{}.placement + "\")"};
  }
  if (config::mapping_unit_bytes(p) == p.nand.page_bytes) return std::nullopt;
  return config::KeyProblem{"ftl.mapping_unit_bytes",
                            "must be 0 or nand.page_bytes (" + std::to_string(p.nand.page_bytes) +
                                ") for the " + scheme + " scheme, which maps whole pages (got " +
                                std::to_string(p.ftl.mapping_unit_bytes) + ")"};
}

}  // namespace ssd::ftl
