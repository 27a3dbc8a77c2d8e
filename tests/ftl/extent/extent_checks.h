// Invariants of the extent FTL (ftl/extent/extent_ftl.h) on a device, shared by its workload
// and power-cut tests.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "ftl/core/ftl_device.h"
#include "ftl/extent/extent_ftl.h"

namespace ssd::ftl {

// Every mapped unit sits in a slot whose spare area names it and which holds what the oracle
// expects; unmapped units are expected to read as zeroes; per-block valid counts match the map
// exactly; free blocks are erased.
inline void check_extent_ftl(FtlDevice& device) {
  auto& scheme = dynamic_cast<ExtentFtl&>(device.scheme());
  const Geometry& g = device.geometry();
  const BlockManager& blocks = scheme.store().blocks();
  std::vector<Extent> found;
  scheme.map().lookup(0, static_cast<uint32_t>(g.logical_units), found);
  std::vector<uint32_t> valid(g.blocks(), 0);
  std::vector<bool> mapped(g.logical_units, false);
  Lun previous_end = 0;
  for (const Extent& e : found) {
    ASSERT_GE(e.lun, previous_end) << "lookup answers overlap or are out of order";
    previous_end = e.end();
    for (uint32_t k = 0; k < e.length; ++k) {
      const Lun lun = e.lun + k;
      const SlotId slot = e.slot + k;
      mapped[lun] = true;
      ++valid[blocks.block_of_slot(slot)];
      ASSERT_EQ(scheme.store().token(slot), device.oracle()->expected(lun)) << "unit " << lun;
      if (!scheme.store().buffered(slot)) {
        ASSERT_EQ(device.flash().spare(g.page_of_slot(slot))[g.unit_in_page(slot)], lun);
      }
    }
  }
  for (Lun lun = 0; lun < g.logical_units; ++lun) {
    if (!mapped[lun]) {
      ASSERT_EQ(device.oracle()->expected(lun), 0u) << "unit " << lun << " lost";
    }
  }
  for (BlockId b = 0; b < g.blocks(); ++b) {
    ASSERT_EQ(blocks.valid_units(b), valid[b]) << "block " << b;
    if (blocks.state(b) == BlockState::kFree) {
      ASSERT_EQ(device.flash().write_pointer(b), 0u) << "free block " << b << " not erased";
    }
  }
}

}  // namespace ssd::ftl
