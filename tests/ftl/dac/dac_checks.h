// What DAC's tests share: a DAC platform on the tiny device, the scheme behind a device, and the
// invariants DAC keeps beside page mapping's (dac_ftl_test.cpp, dac_power_cut_test.cpp).
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <numeric>

#include "config/platform_config.h"
#include "ftl/core/ftl_device.h"
#include "ftl/dac/dac_ftl.h"
#include "ftl/dac/dac_settings.h"
#include "tests/ftl/page_table_checks.h"
#include "tests/ftl/tiny_platform.h"

namespace ssd::testing {

inline config::PlatformConfig dac_platform(uint32_t regions, uint64_t young_writes = 0,
                                           uint32_t unit_bytes = 0) {
  config::PlatformConfig p = tiny_platform(unit_bytes);
  p.ftl.scheme = "dac";
  ftl::DacSettings& s = p.ftl.settings.edit<ftl::DacSettings>();
  s.regions = regions;
  s.young_writes = young_writes;
  return p;
}

inline const ftl::DacFtl& dac(const ftl::FtlDevice& device) {
  return dynamic_cast<const ftl::DacFtl&>(device.scheme());
}

// Every mapped unit is where its page's spare area says and holds what the oracle expects; the
// per-block valid counts match the map; free blocks are erased; every unit's region exists; every
// GC copy is counted in one region, never the hottest (GC copies only fall). Call with
// ASSERT_NO_FATAL_FAILURE.
inline void expect_dac_invariants(ftl::FtlDevice& device) {
  const ftl::DacFtl& scheme = dac(device);
  ASSERT_NO_FATAL_FAILURE(expect_page_table_invariants(device, scheme));
  for (ftl::Lun lun = 0; lun < device.geometry().logical_units; ++lun) {
    ASSERT_LT(scheme.region_of(lun), scheme.regions()) << "unit " << lun;
  }
  const auto& gc_units = scheme.gc_units_by_region();
  ASSERT_EQ(std::accumulate(gc_units.begin(), gc_units.end(), uint64_t{0}),
            scheme.stats().gc_units_copied);
  if (scheme.regions() > 1) {
    ASSERT_EQ(gc_units.back(), 0u);
  }
}

}  // namespace ssd::testing
