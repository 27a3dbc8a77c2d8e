// What FAST requires of a platform: room for its log blocks (docs/schemes.md,
// docs/configuration.md).
#pragma once

#include <cstdint>
#include <optional>

#include "config/key_def.h"
#include "config/platform_config.h"

namespace ssd::ftl {

// FAST's log blocks: round(ftl.fast.log_blocks_ratio x all blocks), at least 2 (one sequential,
// one random-write log block).
uint32_t fast_log_blocks(const config::PlatformConfig& platform);

// FAST keeps every data block on its logical block's home plane and takes log blocks where there
// is room, and a merge needs one free block on the plane it writes to. Rule: the blocks not
// needed for data hold the log blocks plus two per plane, and every plane has three blocks beyond
// the data blocks homed on it. Also the block-granular rule (whole pages).
std::optional<config::KeyProblem> check_fast(const config::PlatformConfig& platform);

}  // namespace ssd::ftl
