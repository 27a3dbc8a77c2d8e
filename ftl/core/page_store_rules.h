// What the page-granular schemes (those built on PageStore: page mapping, DFTL, VET, EMT) require
// of a platform beyond the core rules. Their descriptors' checks call check_page_granular().
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "config/key_def.h"
#include "config/platform_config.h"

namespace ssd::ftl {

// GC frees a block by moving its valid units into another block's free pages: a victim is worth
// taking only if it frees at least one page net, so with one page per block only blocks that
// hold nothing valid could ever be reclaimed and the device fills up. Two pages per block at
// least.
std::optional<config::KeyProblem> check_page_granular(const config::PlatformConfig& platform);

// A PageStore with several write streams (page_store.h): `host_streams` host writers and
// `gc_streams` GC streams a scheme relocates into, each keeping an open block per plane, and the
// host leaving one free block per GC stream to GC. Per plane, with the GC reserve
// R = ceil(gc_threshold x blocks) and the hidden blocks H = floor(over_provisioning x blocks):
//   R >= gc_streams + 1: GC starts before the host stream reaches the blocks kept for GC;
//   H > gc_streams + host_streams + gc_streams: when a plane is down to GC's blocks and every
//     stream holds an open block, the full blocks still hold a block's worth of garbage for GC
//     to reclaim.
// With one stream of each these are the core rules' R >= 2 and H > 3 (the core rule
// H > R + 1, config/platform_validation.cpp, implies it). A problem names `streams_key`, the
// setting that asks for the streams, and says what else would make room.
std::optional<config::KeyProblem> check_page_streams(const config::PlatformConfig& platform,
                                                     uint32_t host_streams, uint32_t gc_streams,
                                                     const std::string& streams_key);

}  // namespace ssd::ftl
