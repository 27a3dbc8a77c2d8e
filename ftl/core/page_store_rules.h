// What the page-granular schemes (those built on PageStore: page mapping, DFTL, VET, EMT) require
// of a platform beyond the core rules. Their descriptors' checks call check_page_granular().
#pragma once

#include <optional>

#include "config/key_def.h"
#include "config/platform_config.h"

namespace ssd::ftl {

// GC frees a block by moving its valid units into another block's free pages: a victim is worth
// taking only if it frees at least one page net, so with one page per block only blocks that
// hold nothing valid could ever be reclaimed and the device fills up. Two pages per block at
// least.
std::optional<config::KeyProblem> check_page_granular(const config::PlatformConfig& platform);

}  // namespace ssd::ftl
