#include "ftl/page/map_layout.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "config/capacity.h"
#include "ftl/core/memory_sizes.h"
#include "ftl/page/page_settings.h"

namespace ssd::ftl {

namespace {

MapSyncPolicy policy_named(const std::string& name) {
  if (name == "conventional") return MapSyncPolicy::kConventional;
  if (name == "whole") return MapSyncPolicy::kWhole;
  if (name == "nvram") return MapSyncPolicy::kNvram;
  return MapSyncPolicy::kNone;
}

}  // namespace

const char* to_string(MapSyncPolicy policy) {
  switch (policy) {
    case MapSyncPolicy::kNone:
      return "none";
    case MapSyncPolicy::kConventional:
      return "conventional";
    case MapSyncPolicy::kWhole:
      return "whole";
    case MapSyncPolicy::kNvram:
      return "nvram";
  }
  return "?";
}

namespace {

std::string text(uint64_t value) { return std::to_string(value); }

}  // namespace

MapLayout map_layout(const config::PlatformConfig& platform, const Geometry& geometry) {
  const PageSettings& s = platform.ftl.settings.get<PageSettings>();
  MapLayout m;
  m.policy = policy_named(s.map_sync);
  m.logical_units = geometry.logical_units;
  m.entry_bytes = s.entry_bytes != 0 ? s.entry_bytes : bytes_to_name(geometry.slots());
  m.table_bytes = geometry.logical_units * m.entry_bytes;
  m.segment_bytes = static_cast<uint32_t>(std::min<uint64_t>(s.segment_bytes, UINT32_MAX));
  m.entries_per_segment = m.segment_bytes / m.entry_bytes;
  if (m.entries_per_segment != 0) {
    m.segments = static_cast<uint32_t>((geometry.logical_units + m.entries_per_segment - 1) /
                                       m.entries_per_segment);
  }
  m.units_per_segment = geometry.unit_bytes != 0 ? m.segment_bytes / geometry.unit_bytes : 0;
  if (m.policy == MapSyncPolicy::kNvram) {
    // A fraction counts the table in whole segments, so 1.0 holds every segment; the platform's
    // whole NVRAM (neither key set) is used up to the table's size.
    const uint64_t table = m.segmented_table_bytes();
    m.nvram_bytes = s.nvram_fraction > 0.0
                        ? static_cast<uint64_t>(std::floor(s.nvram_fraction * double(table)))
                    : s.nvram_bytes != 0 ? s.nvram_bytes
                                         : std::min(platform.nvram.capacity_bytes, table);
    m.nvram_segments =
        m.segment_bytes != 0
            ? static_cast<uint32_t>(std::min<uint64_t>(m.nvram_bytes / m.segment_bytes, m.segments))
            : 0;
  }
  m.dense_threshold = s.dense_threshold;
  return m;
}

std::optional<config::KeyProblem> check_map_layout(const config::PlatformConfig& p) {
  const PageSettings& s = p.ftl.settings.get<PageSettings>();
  const Geometry g = Geometry::from_platform(p);
  const MapLayout m = map_layout(p, g);
  if (m.entry_bytes < bytes_to_name(g.slots())) {
    return config::KeyProblem{"ftl.page.entry_bytes",
                              "is too small to name the device's " + text(g.slots()) +
                                  " slots: they need " + text(bytes_to_name(g.slots())) +
                                  " bytes (got " + text(s.entry_bytes) + ")"};
  }
  if (s.map_sync == "none") return std::nullopt;
  if (m.entries_per_segment == 0) {
    return config::KeyProblem{"ftl.page.segment_bytes",
                              "must hold at least one " + text(m.entry_bytes) +
                                  "-byte table entry (got " + text(s.segment_bytes) + ")"};
  }
  if (s.segment_bytes % g.unit_bytes != 0 || m.units_per_segment == 0) {
    return config::KeyProblem{
        "ftl.page.segment_bytes",
        "must be a whole number of mapping units (" + text(g.unit_bytes) +
            " bytes, ftl.mapping_unit_bytes): a segment is written to flash as map units (got " +
            text(s.segment_bytes) + ")"};
  }
  // The map lives in the over-provisioned space: it must leave GC its reserve and a block.
  const uint64_t hidden_units = g.slots() - g.logical_units;
  const uint64_t reserve_units = uint64_t(config::gc_reserve_blocks_per_plane(p) + 1) * g.planes() *
                                 g.pages_per_block * g.units_per_page;
  if (m.map_units() + reserve_units >= hidden_units) {
    return config::KeyProblem{
        "ftl.over_provisioning",
        "leaves no room for the mapping table on flash (ftl.page.map_sync = " + s.map_sync +
            "): the map takes " + text(m.map_units()) + " mapping units and GC's reserve " +
            text(reserve_units) + ", but only " + text(hidden_units) + " are hidden"};
  }
  if (m.policy != MapSyncPolicy::kNvram) return std::nullopt;
  if (p.nvram.kind == "none") {
    return config::KeyProblem{"ftl.page.map_sync",
                              "is \"nvram\" but the platform has no NVRAM (nvram.kind = \"none\")"};
  }
  const std::string size_key = s.nvram_fraction > 0.0 ? "ftl.page.nvram_fraction"
                               : s.nvram_bytes != 0   ? "ftl.page.nvram_bytes"
                                                      : "nvram.capacity_bytes";
  if (m.nvram_bytes > m.segmented_table_bytes()) {
    return config::KeyProblem{size_key, "gives the map " + text(m.nvram_bytes) +
                                            " bytes of NVRAM, more than the whole mapping table (" +
                                            text(m.segments) + " segments of " +
                                            text(m.segment_bytes) + " bytes)"};
  }
  if (m.nvram_bytes > p.nvram.capacity_bytes) {
    return config::KeyProblem{size_key, "gives the map " + text(m.nvram_bytes) +
                                            " bytes of NVRAM, more than the platform has "
                                            "(nvram.capacity_bytes = " +
                                            text(p.nvram.capacity_bytes) + ")"};
  }
  if (m.nvram_segments == 0) {
    return config::KeyProblem{size_key, "gives the map " + text(m.nvram_bytes) +
                                            " bytes of NVRAM, less than one " +
                                            text(m.segment_bytes) + "-byte segment"};
  }
  return std::nullopt;
}

uint64_t checkpoint_bytes(const MapLayout& layout) { return 8 + 4 * layout.map_units(); }

std::optional<config::KeyProblem> check_map_recovery(const config::PlatformConfig& p) {
  const MapLayout m = map_layout(p, Geometry::from_platform(p));
  if (m.policy == MapSyncPolicy::kNone) return std::nullopt;
  const uint64_t segments = m.policy == MapSyncPolicy::kNvram ? m.nvram_bytes : 0;
  const uint64_t needed = segments + checkpoint_bytes(m);
  if (needed <= p.nvram.capacity_bytes && p.nvram.kind != "none") return std::nullopt;
  const PageSettings& s = p.ftl.settings.get<PageSettings>();
  const std::string key = m.policy != MapSyncPolicy::kNvram ? "nvram.capacity_bytes"
                          : s.nvram_fraction > 0.0          ? "ftl.page.nvram_fraction"
                          : s.nvram_bytes != 0              ? "ftl.page.nvram_bytes"
                                                            : "nvram.capacity_bytes";
  return config::KeyProblem{
      key,
      "leaves no NVRAM for the map's checkpoint: recovery from a power cut with "
      "ftl.page.map_sync = " +
          std::string(to_string(m.policy)) + " keeps " + text(checkpoint_bytes(m)) +
          " bytes there (where each map unit is, and the "
          "sequence the last sync began at)" +
          (segments ? " beside the " + text(segments) + " bytes of segment copies" : "") +
          ", and the platform's NVRAM has " + text(p.nvram.capacity_bytes) + " (nvram.kind = \"" +
          p.nvram.kind + "\"); give it more, or use map_sync none"};
}

}  // namespace ssd::ftl
