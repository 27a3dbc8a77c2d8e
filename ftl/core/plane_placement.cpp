#include "ftl/core/plane_placement.h"

namespace ssd::ftl {

PlacementPolicy placement_policy(const std::string& name) {
  if (name == "round_robin") return PlacementPolicy::kRoundRobin;
  if (name == "static") return PlacementPolicy::kStatic;
  return PlacementPolicy::kMostFreePlane;
}

namespace {

bool within_limit(const BlockManager& blocks, uint64_t live_limit, uint32_t plane, uint32_t units) {
  return live_limit == 0 || blocks.plane_valid_units(plane) + units <= live_limit;
}

// The plane of `die` within the limit with the most free blocks; `preferred` on a tie, else
// the lowest-numbered.
uint32_t most_free_on_die(const BlockManager& blocks, uint64_t live_limit, uint32_t preferred,
                          uint32_t units) {
  const Geometry& g = blocks.geometry();
  const uint32_t first = preferred - preferred % g.planes_per_die;
  uint32_t best = preferred;
  for (uint32_t plane = first; plane < first + g.planes_per_die; ++plane) {
    if (!within_limit(blocks, live_limit, plane, units)) continue;
    if (blocks.free_blocks(plane) > blocks.free_blocks(best)) best = plane;
  }
  return best;
}

}  // namespace

PlaneChoice choose_plane(const BlockManager& blocks, PlacementPolicy policy, uint64_t live_limit,
                         uint32_t k, Lun lun, uint32_t units) {
  const Geometry& g = blocks.geometry();
  const uint32_t planes = g.planes();
  if (policy == PlacementPolicy::kStatic) {
    const uint32_t position = lun % planes;
    return {g.plane_in_stripe_order(position), position};
  }
  for (uint32_t skipped = 0; skipped < planes; ++skipped) {
    const uint32_t position = (k + skipped) % planes;
    const uint32_t plane = g.plane_in_stripe_order(position);
    if (!within_limit(blocks, live_limit, plane, units)) continue;
    if (policy == PlacementPolicy::kMostFreePlane) {
      return {most_free_on_die(blocks, live_limit, plane, units), position};
    }
    return {plane, position};
  }
  // Every plane is at its limit (a nearly full device): keep striping.
  return {g.plane_in_stripe_order(k % planes), k % planes};
}

}  // namespace ssd::ftl
