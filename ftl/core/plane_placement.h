// Which plane a write stream's next page (or an extent scheme's next chunk) goes to: the
// ftl.placement policy, shared by the page store's host stream and the extent FTL.
//
// - round_robin: the planes in stripe order (geometry.h: die-major over the channels, then the
//   planes of each die), whatever their free space. With several planes per die every plane
//   reaches its GC reserve in the same window and GC bunches on the die (a write waits for all
//   its planes' victims).
// - most_free_plane (default): the stripe still picks the die, so consecutive pages spread over
//   dies and channels; on that die the plane with the most free blocks takes the page. A plane
//   that has just run GC gets the next pages and the others wait, so planes reach their reserve
//   at different times (MQSim's and SimpleSSD's dynamic plane allocation choose by free pages in
//   the same way).
// - least_busy_die: the die whose queued flash work (host and GC, as the controller's per-die
//   queues hold it: DieLoad) ends first takes the page, the stripe order breaking ties, and on
//   it the plane with the most free blocks. Within one command the dies it has programmed fewer
//   pages on come first (the timing learns of a command's pages only after it), so a large
//   write still spreads over the dies, least busy first. A die busy with GC then gets no new host
//   pages until the others have as much queued, so commands are not parked behind one die's victims
//   while other dies idle (controllers that allocate pages dynamically per idle die do this;
//   MQSim's allocation is static, DiskSim's striped). Without a timing model every die is idle and
//   it stripes like most_free_plane.
// - static: logical unit n to plane n mod planes in stripe order, as MQSim's static CWDP
//   allocation does: placement does not depend on the device's state (the extent FTL keys a
//   chunk by its number instead, so a sequential write's chunks spread like pages). Nothing
//   balances the planes then: a skewed workload can fill one plane while others have room.
//
// Both dynamic policies skip planes whose live units would pass the plane live limit
// (plane_balance.h).
#pragma once

#include <cstdint>
#include <string>

#include "ftl/core/block_manager.h"
#include "ftl/core/flash_backend.h"
#include "ftl/core/types.h"

namespace ssd::ftl {

enum class PlacementPolicy : uint8_t { kRoundRobin, kMostFreePlane, kLeastBusyDie, kStatic };

// ftl.placement's value ("round_robin", "most_free_plane", "least_busy_die", "static"); config
// validation has refused anything else.
PlacementPolicy placement_policy(const std::string& name);

struct PlaneChoice {
  uint32_t plane;
  uint32_t stripe_position;  // the k of the stripe order the choice stands for
};

// The plane for the next page (or chunk) of `units` units whose first logical unit is `lun`,
// with the stripe cursor at `k`. `live_limit` 0: no limit. `backend`: the dies' queued work
// (FlashBackend::die_load()) and the current command's programs per die, for least_busy_die
// (nullptr: every die idle).
PlaneChoice choose_plane(const BlockManager& blocks, PlacementPolicy policy, uint64_t live_limit,
                         uint32_t k, Lun lun, uint32_t units,
                         const FlashBackend* backend = nullptr);

}  // namespace ssd::ftl
