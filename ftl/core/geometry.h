// Flash geometry and the flat numbering of dies, blocks, pages and mapping-unit slots.
// Blocks are numbered die-major (all blocks of plane 0 of die 0, then plane 1, ...), and dies are
// numbered channel-first (die d sits on channel d % channels), so consecutive die numbers stripe
// over the channels, as MQSim's CWDP allocation does.
#pragma once

#include <cstdint>

#include "config/platform_config.h"
#include "ftl/core/types.h"

namespace ssd::ftl {

struct Geometry {
  uint32_t channels = 0;
  uint32_t dies_per_channel = 0;  // chips_per_channel * dies_per_chip
  uint32_t planes_per_die = 0;
  uint32_t blocks_per_plane = 0;
  uint32_t pages_per_block = 0;
  uint32_t page_bytes = 0;
  uint32_t spare_bytes = 0;
  uint32_t sector_bytes = 0;
  uint32_t unit_bytes = 0;  // mapping unit
  uint32_t units_per_page = 0;
  uint32_t sectors_per_unit = 0;
  uint64_t logical_units = 0;  // what the host can address, in mapping units

  static Geometry from_platform(const config::PlatformConfig& platform);

  uint32_t dies() const { return channels * dies_per_channel; }
  uint32_t planes() const { return dies() * planes_per_die; }
  uint32_t blocks_per_die() const { return planes_per_die * blocks_per_plane; }
  uint32_t blocks() const { return dies() * blocks_per_die(); }
  uint64_t pages() const { return uint64_t(blocks()) * pages_per_block; }
  uint64_t slots() const { return pages() * units_per_page; }
  uint64_t logical_sectors() const { return logical_units * sectors_per_unit; }

  uint32_t die_of_block(BlockId b) const { return b / blocks_per_die(); }
  uint32_t plane_of_block(BlockId b) const { return b / blocks_per_plane; }  // flat plane number
  uint32_t die_of_plane(uint32_t plane) const { return plane / planes_per_die; }
  uint32_t channel_of_die(uint32_t die) const { return die % channels; }
  BlockId block_of_page(PageId p) const { return p / pages_per_block; }
  uint32_t page_in_block(PageId p) const { return p % pages_per_block; }
  PageId first_page(BlockId b) const { return b * pages_per_block; }
  PageId page_of_slot(SlotId s) const { return s / units_per_page; }
  uint32_t unit_in_page(SlotId s) const { return s % units_per_page; }
  SlotId first_slot(PageId p) const { return p * units_per_page; }
  // The k-th plane (k < planes()) of the write stripe: die-major over the channels first, then
  // the planes of each die, so consecutive k land on different channels and dies.
  uint32_t plane_in_stripe_order(uint32_t k) const {
    return (k % dies()) * planes_per_die + k / dies();
  }
};

}  // namespace ssd::ftl
