// The small platforms the mapping-table durability tests run page mapping on (ftl.page.map_sync):
// the tiny test device with a small STT-MRAM, mapping units, entries and segments chosen so that a
// segment is one mapping unit of a few dozen entries, and a figure lookup by name.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "config/platform_config.h"
#include "ftl/core/mapping_scheme.h"
#include "ftl/page/page_settings.h"
#include "tests/ftl/tiny_platform.h"

namespace ssd::testing {

// The tiny device (8 planes of 64 blocks of 16 4-KiB pages) with `unit_bytes` mapping units,
// `entry_bytes`-byte table entries and one mapping unit per segment, so a segment holds
// unit_bytes / entry_bytes entries; 64 KiB of STT-MRAM of which the map gets `nvram_segments`
// segments (policy nvram).
inline config::PlatformConfig map_sync_platform(const std::string& policy,
                                                uint32_t unit_bytes = 512, uint32_t entry_bytes = 8,
                                                uint32_t nvram_segments = 2) {
  config::PlatformConfig p = tiny_platform(unit_bytes);
  p.nvram = config::MemoryConfig{64 * 1024, 10.0, 10.0, 400.0, "stt-mram"};
  ftl::PageSettings& s = p.ftl.settings.edit<ftl::PageSettings>();
  s.map_sync = policy;
  s.entry_bytes = entry_bytes;
  s.segment_bytes = unit_bytes;
  s.dense_threshold = 0.25;
  s.nvram_bytes = uint64_t(nvram_segments) * unit_bytes;
  return p;
}

// The scheme's figure `name` (a test failure, and an empty figure, if there is none).
inline ftl::MappingFigure figure_of(const ftl::MappingScheme& scheme, const std::string& name) {
  for (const ftl::MappingFigure& f : scheme.mapping_figures()) {
    if (f.name == name) return f;
  }
  ADD_FAILURE() << "no mapping figure " << name;
  return {};
}

}  // namespace ssd::testing
