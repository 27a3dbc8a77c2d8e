#include "ftl/core/geometry.h"

#include "config/capacity.h"

namespace ssd::ftl {

Geometry Geometry::from_platform(const config::PlatformConfig& platform) {
  const auto& nand = platform.nand;
  Geometry g;
  g.channels = nand.channels;
  g.dies_per_channel = nand.chips_per_channel * nand.dies_per_chip;
  g.planes_per_die = nand.planes_per_die;
  g.blocks_per_plane = nand.blocks_per_plane;
  g.pages_per_block = nand.pages_per_block;
  g.page_bytes = nand.page_bytes;
  g.spare_bytes = nand.spare_bytes;
  g.sector_bytes = nand.sector_bytes;
  g.unit_bytes = config::mapping_unit_bytes(platform);
  g.units_per_page = g.page_bytes / g.unit_bytes;
  g.sectors_per_unit = g.unit_bytes / g.sector_bytes;
  g.logical_units = config::logical_capacity_bytes(platform) / g.unit_bytes;
  return g;
}

}  // namespace ssd::ftl
