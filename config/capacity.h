// Capacities derived from a platform: physical bytes, the mapping unit, the logical (host-visible)
// bytes, and the per-plane block budgets that over-provisioning and the GC threshold imply.
// Validation and the FTL both call these, so they can never disagree about the device size.
#pragma once

#include <cstdint>

#include "config/platform_config.h"

namespace ssd::config {

// Every page of every block of every plane, main area only (spare bytes excluded).
uint64_t physical_capacity_bytes(const PlatformConfig& platform);

// The FTL's mapping granularity: ftl.mapping_unit_bytes, with 0 resolved to nand.page_bytes.
uint32_t mapping_unit_bytes(const PlatformConfig& platform);

// What the host may address: physical bytes * (1 - over_provisioning), rounded down to a whole
// mapping unit.
uint64_t logical_capacity_bytes(const PlatformConfig& platform);

// Blocks per plane that over-provisioning hides: floor(over_provisioning * blocks_per_plane).
uint32_t over_provisioned_blocks_per_plane(const PlatformConfig& platform);

// Free blocks per plane below which GC runs: ceil(gc_threshold * blocks_per_plane).
uint32_t gc_reserve_blocks_per_plane(const PlatformConfig& platform);

}  // namespace ssd::config
