// What the block-granular schemes (block mapping, NFTL, FAST) require of a platform, and the
// logical-block count they share. Their descriptors' checks call check_block_granular().
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "config/key_def.h"
#include "config/platform_config.h"

namespace ssd::ftl {

// Logical blocks: logical units grouped pages_per_block at a time (rounded up), for a mapping
// unit of one page.
uint64_t logical_blocks(const config::PlatformConfig& platform);

// Each unit sits at a fixed page offset, so the mapping unit is a whole page; data is placed by
// logical block, so ftl.placement stays at its default.
std::optional<config::KeyProblem> check_block_granular(const config::PlatformConfig& platform,
                                                       const std::string& scheme);

}  // namespace ssd::ftl
