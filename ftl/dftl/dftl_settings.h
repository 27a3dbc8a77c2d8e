// DFTL's settings, `ftl.dftl.*`: the size of its cached mapping table (docs/schemes.md).
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "config/scheme_settings.h"

namespace ssd::ftl {

struct DftlSettings : config::SettingsGroupOf<DftlSettings> {
  static constexpr std::string_view kGroup = "dftl";

  // A number of entries, or (when 0) as many as fit in cache_bytes.
  uint32_t cache_entries = 0;
  uint64_t cache_bytes = 32768;

  std::vector<config::KeyDef> keys() override {
    return {{"ftl.dftl.cache_entries", &cache_entries,
             "DFTL mapping-cache entries (0 = as many as ftl.dftl.cache_bytes holds)"},
            {"ftl.dftl.cache_bytes", &cache_bytes,
             "DFTL mapping-cache size when ftl.dftl.cache_entries is 0", config::at_least(8)}};
  }
  std::vector<config::RenamedKey> renamed() const override {
    return {{"ftl.dftl_cache_entries", "ftl.dftl.cache_entries"},
            {"ftl.dftl_cache_bytes", "ftl.dftl.cache_bytes"}};
  }
};

}  // namespace ssd::ftl
