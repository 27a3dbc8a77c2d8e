// The invariants every scheme with a unit -> slot table over the shared PageStore keeps (page
// mapping, DAC): every mapped unit is where its page's spare area says and holds what the oracle
// expects, an unmapped one was never written (or trimmed), the per-block valid counts match the
// table exactly, and free blocks are erased. Call with ASSERT_NO_FATAL_FAILURE.
#pragma once

#include <gtest/gtest.h>

#include <vector>

#include "ftl/core/ftl_device.h"

namespace ssd::testing {

// `Scheme` has slot_of(Lun) and store().
template <class Scheme>
void expect_page_table_invariants(ftl::FtlDevice& device, const Scheme& scheme) {
  const ftl::Geometry& g = device.geometry();
  const ftl::BlockManager& blocks = scheme.store().blocks();
  std::vector<uint32_t> valid(g.blocks(), 0);
  for (ftl::Lun lun = 0; lun < g.logical_units; ++lun) {
    const ftl::SlotId slot = scheme.slot_of(lun);
    if (slot == ftl::kNone) {
      ASSERT_EQ(device.oracle()->expected(lun), 0u) << "unit " << lun << " lost";
      continue;
    }
    ++valid[blocks.block_of_slot(slot)];
    ASSERT_EQ(scheme.store().token(slot), device.oracle()->expected(lun)) << "unit " << lun;
    if (!scheme.store().buffered(slot)) {
      ASSERT_EQ(device.flash().spare(g.page_of_slot(slot))[g.unit_in_page(slot)], lun);
    }
  }
  for (ftl::BlockId b = 0; b < g.blocks(); ++b) {
    ASSERT_EQ(blocks.valid_units(b), valid[b]) << "block " << b;
    if (blocks.state(b) == ftl::BlockState::kFree) {
      ASSERT_EQ(device.flash().write_pointer(b), 0u) << "free block " << b << " not erased";
    }
  }
}

}  // namespace ssd::testing
