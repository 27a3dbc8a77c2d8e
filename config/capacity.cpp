#include "config/capacity.h"

#include <algorithm>
#include <cmath>

namespace ssd::config {

namespace {

// Ratios such as 0.07 are not exact in binary: 1000 * (1 - 0.07) evaluates to 929.999...
// The slack absorbs that error (products here stay below 2^32, so the error is < 1e-6) without
// ever crossing a real integer boundary.
constexpr double kRoundingSlack = 1e-6;

uint64_t floor_ratio(uint64_t count, double ratio) {
  return static_cast<uint64_t>(std::floor(static_cast<double>(count) * ratio + kRoundingSlack));
}

uint64_t ceil_ratio(uint64_t count, double ratio) {
  return static_cast<uint64_t>(std::ceil(static_cast<double>(count) * ratio - kRoundingSlack));
}

}  // namespace

uint64_t physical_capacity_bytes(const PlatformConfig& platform) {
  const NandConfig& n = platform.nand;
  return uint64_t{n.channels} * n.chips_per_channel * n.dies_per_chip * n.planes_per_die *
         n.blocks_per_plane * n.pages_per_block * n.page_bytes;
}

uint32_t mapping_unit_bytes(const PlatformConfig& platform) {
  return platform.ftl.mapping_unit_bytes == 0 ? platform.nand.page_bytes
                                              : platform.ftl.mapping_unit_bytes;
}

uint64_t logical_capacity_bytes(const PlatformConfig& platform) {
  const uint64_t unit = mapping_unit_bytes(platform);
  if (unit == 0) return 0;
  // Work in whole units so the result is a multiple of the unit by construction.
  const uint64_t physical_units = physical_capacity_bytes(platform) / unit;
  return floor_ratio(physical_units, 1.0 - platform.ftl.over_provisioning) * unit;
}

uint32_t over_provisioned_blocks_per_plane(const PlatformConfig& platform) {
  return static_cast<uint32_t>(
      floor_ratio(platform.nand.blocks_per_plane, platform.ftl.over_provisioning));
}

uint32_t gc_reserve_blocks_per_plane(const PlatformConfig& platform) {
  return static_cast<uint32_t>(
      ceil_ratio(platform.nand.blocks_per_plane, platform.ftl.gc_threshold));
}

}  // namespace ssd::config
