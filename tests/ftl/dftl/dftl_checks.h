// What DFTL's tests share (dftl_test.cpp, dftl_power_cut_test.cpp): a DFTL platform on the tiny
// device, and the invariants the scheme keeps after every command.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "config/platform_config.h"
#include "ftl/core/ftl_device.h"
#include "ftl/dftl/dftl.h"
#include "ftl/dftl/dftl_settings.h"
#include "tests/ftl/tiny_platform.h"

namespace ssd::testing {

inline config::PlatformConfig dftl_platform(uint32_t unit_bytes, uint32_t cache_entries) {
  config::PlatformConfig p = tiny_platform(unit_bytes);
  p.ftl.scheme = "dftl";
  p.ftl.settings.edit<ftl::DftlSettings>().cache_entries = cache_entries;
  return p;
}

inline const ftl::Dftl& dftl(const ftl::FtlDevice& device) {
  return dynamic_cast<const ftl::Dftl&>(device.scheme());
}

// Every data unit is where the map says with the oracle's token and its number in the spare
// area; every translation page is where the GTD says; per-block valid counts match exactly; no
// translation page is left stale after a command. Call with ASSERT_NO_FATAL_FAILURE.
inline void expect_dftl_invariants(ftl::FtlDevice& device) {
  const ftl::Dftl& scheme = dftl(device);
  const ftl::Geometry& g = device.geometry();
  const ftl::BlockManager& blocks = scheme.store().blocks();
  std::vector<uint32_t> valid(g.blocks(), 0);
  const auto check_slot = [&](ftl::SlotId slot, ftl::Lun lun) {
    ++valid[blocks.block_of_slot(slot)];
    if (!scheme.store().buffered(slot)) {
      ASSERT_EQ(device.flash().spare(g.page_of_slot(slot))[g.unit_in_page(slot)], lun) << lun;
    }
  };
  for (ftl::Lun lun = 0; lun < g.logical_units; ++lun) {
    const ftl::SlotId slot = scheme.slot_of(lun);
    if (slot == ftl::kNone) {
      ASSERT_EQ(device.oracle()->expected(lun), 0u) << "unit " << lun << " lost";
      continue;
    }
    ASSERT_EQ(scheme.store().token(slot), device.oracle()->expected(lun)) << "unit " << lun;
    check_slot(slot, lun);
  }
  for (uint32_t t = 0; t < scheme.translation_pages(); ++t) {
    if (scheme.translation_slot(t) != ftl::kNone) {
      check_slot(scheme.translation_slot(t), ftl::Lun(g.logical_units + t));
    }
  }
  for (ftl::BlockId b = 0; b < g.blocks(); ++b) {
    ASSERT_EQ(blocks.valid_units(b), valid[b]) << b;
  }
  ASSERT_LE(scheme.cache().size(), scheme.cache().capacity());
}

}  // namespace ssd::testing
