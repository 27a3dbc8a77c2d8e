// Shared pieces of the unit tests of ftl/core's flash management (block manager, victim policy,
// unit writer, garbage collector, backend counters): the tiny platform's geometry with a chosen
// mapping unit, its functional flash, backend and block manager, and a mapping owner kept in a
// std::map that records what GC asks of it.
//
// The tiny platform: 2 channels x 2 dies x 2 planes = 4 dies, 8 flat planes (plane p is on die
// p / 2), 64 blocks per plane, 16 pages of 4 KiB per block. With 1 KiB mapping units a page holds
// 4 units and a block 64.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "ftl/core/block_manager.h"
#include "ftl/core/flash_array.h"
#include "ftl/core/flash_backend.h"
#include "ftl/core/garbage_collector.h"
#include "ftl/core/geometry.h"
#include "tests/ftl/tiny_platform.h"

namespace ssd::ftl::core_test {

inline Geometry tiny_geometry(uint32_t unit_bytes) {
  return Geometry::from_platform(testing::tiny_platform(unit_bytes));
}

// Flash, backend and block pools of the tiny platform; one spare word per unit (the LUNs the
// unit writer stores), tokens stored.
struct TinyFlash {
  explicit TinyFlash(uint32_t unit_bytes, uint32_t gc_reserve_blocks = 4)
      : geometry(tiny_geometry(unit_bytes)),
        flash(geometry, geometry.units_per_page, true),
        backend(flash),
        blocks(geometry, gc_reserve_blocks) {}

  Geometry geometry;
  FlashArray flash;
  FlashBackend backend;
  BlockManager blocks;
};

inline uint32_t count_ops(const FlashBackend& backend, OpKind kind) {
  uint32_t n = 0;
  for (const FlashOp& op : backend.ops().ops()) n += op.kind == kind ? 1 : 0;
  return n;
}

// A scheme's map as GC sees it: lun -> slot. Records every call GC makes, in order, as one letter
// each in `calls` (p = prefetch, m = maps, r = relocate, d = relocations_done).
class MapOwner final : public MappingOwner {
 public:
  struct Relocation {
    Lun lun;
    SlotId from;
    SlotId to;
  };

  bool maps(Lun lun, SlotId slot) const override {
    calls += 'm';
    const auto it = slot_of.find(lun);
    return it != slot_of.end() && it->second == slot;
  }
  void relocate(Lun lun, SlotId from, SlotId to) override {
    calls += 'r';
    relocations.push_back({lun, from, to});
    slot_of[lun] = to;
  }
  void prefetch(Lun lun) const override {
    calls += 'p';
    prefetched.push_back(lun);
  }
  void relocations_done() override {
    calls += 'd';
    ++done;
  }

  std::map<Lun, SlotId> slot_of;
  std::vector<Relocation> relocations;
  mutable std::vector<Lun> prefetched;
  mutable std::string calls;
  uint32_t done = 0;
};

}  // namespace ssd::ftl::core_test
