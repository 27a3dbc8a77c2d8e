// The sector layer's settings (shared/papers/sector-log.md; docs/schemes.md, "Sector log"):
// `ftl.sector_log.*`, the flash region kept at sector granularity, and `ftl.write_buffer.*`, the
// controller DRAM the write buffer and the sector map share. Either one on puts the layer above
// a page-granular scheme that supports it (page, dac).
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "config/scheme_settings.h"

namespace ssd::ftl {

struct SectorLogSettings : config::SettingsGroupOf<SectorLogSettings> {
  static constexpr std::string_view kGroup = "sector_log";

  // Flash for the sector-data region (0 = no sector log). The paper sweeps 128 MB to 1 GB.
  uint64_t size_bytes = 0;
  // Sector-map hash buckets (0 = one per page of the sector-data region). The paper does not
  // give its table size; one bucket per log page keeps chains short when each log page holds
  // sectors of a few logical pages.
  uint64_t hash_buckets = 0;

  std::vector<config::KeyDef> keys() override {
    return {{"ftl.sector_log.size_bytes", &size_bytes,
             "Flash kept at 512-byte sector granularity for sub-page writes (the sector log's data "
             "region, lent by the FTL below; 0 = off)"},
            {"ftl.sector_log.hash_buckets", &hash_buckets,
             "Buckets of the sector map's hash table (0 = one per page of the sector-data "
             "region)"}};
  }
};

struct WriteBufferSettings : config::SettingsGroupOf<WriteBufferSettings> {
  static constexpr std::string_view kGroup = "write_buffer";

  // Controller DRAM for the write buffer (LRU over pages), shared with the sector map and the
  // sector log's page buffer when the log is on: the buffer holds as many pages as the rest
  // leaves (the paper's 64 MB). 0 = no write buffer; the sector map then has no DRAM limit
  // other than the log's size.
  uint64_t bytes = 0;

  std::vector<config::KeyDef> keys() override {
    return {{"ftl.write_buffer.bytes", &bytes,
             "Controller DRAM for the write buffer in front of the FTL, shared with the sector "
             "log's map and page buffer (0 = no write buffer)"}};
  }
};

}  // namespace ssd::ftl
