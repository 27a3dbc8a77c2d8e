// DAC's settings, `ftl.dac.*`: how many hotness regions, when a rewrite counts as young (and so
// climbs a region), and where data written for the first time goes (docs/schemes.md, "DAC").
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "config/scheme_settings.h"

namespace ssd::ftl {

struct DacSettings : config::SettingsGroupOf<DacSettings> {
  static constexpr std::string_view kGroup = "dac";

  // Regions of different hotness, region 0 the coldest (the paper's bottom region), regions - 1
  // the hottest (its top region). Each has its own write point (a host and a GC write stream).
  uint32_t regions = 4;
  // A rewrite is young, and its unit moves one region hotter, when at most this many host unit
  // writes (the rewrite included) happened since the unit's last host write. The paper measures
  // age in seconds with a workload-dependent threshold; an FTL here never sees time, so age is
  // counted in host unit writes. 0 = a quarter of the device's logical units (see
  // DacFtl::young_threshold).
  uint64_t young_writes = 0;
  // The region a unit goes to when written for the first time (or first after a trim).
  uint32_t first_region = 0;

  std::vector<config::KeyDef> keys() override {
    return {{"ftl.dac.regions", &regions,
             "DAC hotness regions, each with its own write point (1 = plain page mapping)",
             config::closed(1, 8)},
            {"ftl.dac.young_writes", &young_writes,
             "A rewrite within this many host unit writes of the unit's last write is young and "
             "promotes the unit one region hotter (0 = a quarter of the logical units)"},
            {"ftl.dac.first_region", &first_region,
             "Region (0 = coldest) a unit written for the first time, or first after a trim, "
             "goes to; below ftl.dac.regions",
             config::closed(0, 7)}};
  }
};

}  // namespace ssd::ftl
