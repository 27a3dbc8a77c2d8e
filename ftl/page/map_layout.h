// How a page-mapped FTL's table divides into mapping segments, where they go on flash and how many
// fit in NVRAM, from the platform and `ftl.page.*` (page_settings.h): computed once, by the
// descriptor's check (which refuses what cannot work, naming the key) and by MapSync alike.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "config/key_def.h"
#include "config/platform_config.h"
#include "ftl/core/geometry.h"

namespace ssd::ftl {

enum class MapSyncPolicy : uint8_t { kNone, kConventional, kWhole, kNvram };

const char* to_string(MapSyncPolicy policy);  // the ftl.page.map_sync word

struct MapLayout {
  MapSyncPolicy policy = MapSyncPolicy::kNone;
  uint64_t logical_units = 0;
  uint32_t entry_bytes = 0;          // one table entry
  uint64_t table_bytes = 0;          // logical units x entry bytes
  uint32_t segment_bytes = 0;        // one segment's bytes
  uint32_t entries_per_segment = 0;  // segment bytes / entry bytes
  uint32_t segments = 0;             // ceil(logical units / entries per segment)
  uint32_t units_per_segment = 0;    // flash mapping units one segment is written as
  uint64_t nvram_bytes = 0;          // NVRAM given to map segments (policy nvram)
  uint32_t nvram_segments = 0;       // whole segments that fit in it
  double dense_threshold = 0.25;

  // Flash mapping units the whole map occupies once every segment is written.
  uint64_t map_units() const { return uint64_t(segments) * units_per_segment; }
  // The table in whole segments (the last one may be short of entries), what NVRAM sizes count.
  uint64_t segmented_table_bytes() const { return uint64_t(segments) * segment_bytes; }
};

MapLayout map_layout(const config::PlatformConfig& platform, const Geometry& geometry);

// The layout's problems on this platform (first one, naming the key to change), if any.
std::optional<config::KeyProblem> check_map_layout(const config::PlatformConfig& platform);

// Bytes of NVRAM a sync's checkpoint takes when the device may lose power (map_sync.h): the
// program sequence the sync began at, and where each map unit is.
uint64_t checkpoint_bytes(const MapLayout& layout);
// Why a device with this layout cannot recover from a power cut (the key to change), if it can't:
// the checkpoint needs NVRAM beside what the map's segment copies take.
std::optional<config::KeyProblem> check_map_recovery(const config::PlatformConfig& platform);

}  // namespace ssd::ftl
