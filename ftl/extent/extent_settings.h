// Settings of the extent-mapping frame VET and EMT share, `ftl.extent.*`
// (docs/extent-mapping.md).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "config/scheme_settings.h"

namespace ssd::ftl {

struct ExtentSettings : config::SettingsGroupOf<ExtentSettings> {
  static constexpr std::string_view kGroup = "extent";

  uint32_t chunk_pages = 4;            // pages of a write kept on one plane (0 = the whole write)
  std::string gc_relocation = "runs";  // runs | units

  std::vector<config::KeyDef> keys() override {
    return {{"ftl.extent.chunk_pages", &chunk_pages,
             "VET/EMT: pages of a write kept together on one plane (0 = the whole write)"},
            {"ftl.extent.gc_relocation",
             &gc_relocation,
             "VET/EMT: GC remaps moved units as contiguous runs, or one unit at a time (naive)",
             std::nullopt,
             {"runs", "units"}}};
  }
  std::vector<config::RenamedKey> renamed() const override {
    return {{"ftl.extent_chunk_pages", "ftl.extent.chunk_pages"},
            {"ftl.extent_gc_relocation", "ftl.extent.gc_relocation"}};
  }
};

}  // namespace ssd::ftl
