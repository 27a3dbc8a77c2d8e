// Invariants every block-granular scheme (block, NFTL, FAST) must keep, checked against the
// oracle: each unit with data sits where the scheme says, in a programmed page whose spare area
// names it, holding the token the oracle expects; a unit without data is expected to read as
// zeroes; and the blocks the scheme does not hold are free and erased (no block leaks).
#pragma once

#include <gtest/gtest.h>

#include "ftl/core/ftl_device.h"
#include "ftl/hybrid/block_scheme.h"

namespace ssd::testing {

inline void check_block_scheme(ftl::FtlDevice& device) {
  const auto& scheme = dynamic_cast<const ftl::BlockScheme&>(device.scheme());
  const ftl::Geometry& g = device.geometry();
  for (ftl::Lun lun = 0; lun < g.logical_units; ++lun) {
    if (!scheme.unit_valid(lun)) {
      ASSERT_EQ(device.oracle()->expected(lun), 0u) << "unit " << lun << " lost";
      continue;
    }
    const ftl::PageId page = scheme.peek(lun);
    ASSERT_NE(page, ftl::kNone) << "unit " << lun;
    ASSERT_TRUE(device.flash().is_programmed(page)) << "unit " << lun;
    ASSERT_EQ(device.flash().spare(page)[0], lun) << "unit " << lun;
    ASSERT_EQ(device.flash().token(page), device.oracle()->expected(lun)) << "unit " << lun;
  }
  const ftl::BlockManager& blocks = scheme.flash().blocks();
  uint32_t in_use = 0;
  for (ftl::BlockId b = 0; b < g.blocks(); ++b) {
    if (blocks.state(b) == ftl::BlockState::kFree) {
      ASSERT_EQ(device.flash().write_pointer(b), 0u) << "free block " << b << " not erased";
    } else {
      ++in_use;
    }
  }
  ASSERT_EQ(in_use, scheme.blocks_held()) << "blocks leaked or double-used";
}

}  // namespace ssd::testing
