// How much live data one plane may collect. GC moves data only within a plane, so a plane whose
// live units approach its capacity less the GC reserve leaves GC nothing to reclaim there and the
// device stops, however much room the other planes have. Round-robin placement lets planes drift
// apart under random overwrites (a random walk, wide on small planes), so the write streams skip
// a plane whose live units would pass its fair share (logical units / planes) by more than half
// its headroom (its slots less the GC reserve, one block, and the fair share).
#pragma once

#include <cstdint>

#include "config/platform_config.h"
#include "ftl/core/geometry.h"

namespace ssd::ftl {

// `held_blocks`: blocks of the plane that can hold none of the scheme's live data beyond what one
// host and one GC stream keep open: lent to a layer above the scheme (BlockLender), or open for
// further write streams (DAC's regions). They come off the plane's slots.
uint64_t plane_live_limit(const config::PlatformConfig& platform, const Geometry& geometry,
                          uint32_t held_blocks = 0);
// The same with the GC reserve in blocks per plane (config::gc_reserve_blocks_per_plane).
uint64_t plane_live_limit(uint32_t gc_reserve_blocks, const Geometry& geometry,
                          uint32_t held_blocks);

}  // namespace ssd::ftl
