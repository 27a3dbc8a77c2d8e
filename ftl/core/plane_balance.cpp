#include "ftl/core/plane_balance.h"

#include "config/capacity.h"

namespace ssd::ftl {

uint64_t plane_live_limit(const config::PlatformConfig& platform, const Geometry& g,
                          uint32_t held_blocks) {
  return plane_live_limit(config::gc_reserve_blocks_per_plane(platform), g, held_blocks);
}

uint64_t plane_live_limit(uint32_t gc_reserve_blocks, const Geometry& g, uint32_t held_blocks) {
  const uint64_t slots_per_block = uint64_t(g.pages_per_block) * g.units_per_page;
  const uint64_t blocks = g.blocks_per_plane > held_blocks ? g.blocks_per_plane - held_blocks : 0;
  const uint64_t plane_slots = blocks * slots_per_block;
  const uint64_t reserve = (uint64_t{gc_reserve_blocks} + 1) * slots_per_block;
  const uint64_t fair_share = (g.logical_units + g.planes() - 1) / g.planes();
  const uint64_t used = reserve + fair_share;
  const uint64_t headroom = plane_slots > used ? plane_slots - used : 0;
  return fair_share + headroom / 2;
}

}  // namespace ssd::ftl
