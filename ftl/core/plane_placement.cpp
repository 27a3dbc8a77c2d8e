#include "ftl/core/plane_placement.h"

#include <utility>

namespace ssd::ftl {

PlacementPolicy placement_policy(const std::string& name) {
  if (name == "round_robin") return PlacementPolicy::kRoundRobin;
  if (name == "static") return PlacementPolicy::kStatic;
  if (name == "least_busy_die") return PlacementPolicy::kLeastBusyDie;
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
                         uint32_t k, Lun lun, uint32_t units, const FlashBackend* backend) {
  const Geometry& g = blocks.geometry();
  const uint32_t planes = g.planes();
  if (policy == PlacementPolicy::kStatic) {
    const uint32_t position = lun % planes;
    return {g.plane_in_stripe_order(position), position};
  }
  if (policy == PlacementPolicy::kLeastBusyDie && backend != nullptr) {
    // The die with the fewest of this command's programs and then the earliest end of its queued
    // work, ties to the one met first in stripe order from k. Positions k .. k + dies - 1 hold
    // every die once (the stripe is die-major); a die whose plane there is past the live limit
    // is met at its next position (+ dies) instead, as a walk over every position would.
    const DieLoad* load = backend->die_load();
    const uint32_t dies = g.dies();
    bool found = false;
    PlaneChoice best{0, 0};
    uint32_t best_offset = 0;
    std::pair<uint32_t, Picoseconds> best_key;
    for (uint32_t j = 0; j < dies; ++j) {
      uint32_t offset = j;
      while (offset < planes &&
             !within_limit(blocks, live_limit, g.plane_in_stripe_order((k + offset) % planes),
                           units)) {
        offset += dies;
      }
      if (offset >= planes) continue;  // every plane of this die is at its limit
      const uint32_t position = (k + offset) % planes;
      const uint32_t plane = g.plane_in_stripe_order(position);
      const uint32_t die = g.die_of_plane(plane);
      const std::pair<uint32_t, Picoseconds> key{backend->programs_in_command(die),
                                                 load ? load->work_ends(die) : 0};
      if (found && (key > best_key || (key == best_key && offset > best_offset))) continue;
      found = true;
      best = {plane, position};
      best_key = key;
      best_offset = offset;
    }
    if (found)
      return {most_free_on_die(blocks, live_limit, best.plane, units), best.stripe_position};
  }
  for (uint32_t skipped = 0; skipped < planes; ++skipped) {
    const uint32_t position = (k + skipped) % planes;
    const uint32_t plane = g.plane_in_stripe_order(position);
    if (!within_limit(blocks, live_limit, plane, units)) continue;
    if (policy == PlacementPolicy::kMostFreePlane || policy == PlacementPolicy::kLeastBusyDie) {
      return {most_free_on_die(blocks, live_limit, plane, units), position};
    }
    return {plane, position};
  }
  // Every plane is at its limit (a nearly full device): keep striping.
  return {g.plane_in_stripe_order(k % planes), k % planes};
}

}  // namespace ssd::ftl
