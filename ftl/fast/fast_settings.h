// FAST's settings, `ftl.fast.*` (docs/schemes.md).
#pragma once

#include <string_view>
#include <vector>

#include "config/scheme_settings.h"

namespace ssd::ftl {

struct FastSettings : config::SettingsGroupOf<FastSettings> {
  static constexpr std::string_view kGroup = "fast";

  double log_blocks_ratio = 0.03;  // log blocks / all blocks (at least 2 log blocks)

  std::vector<config::KeyDef> keys() override {
    return {{"ftl.fast.log_blocks_ratio", &log_blocks_ratio,
             "FAST log blocks as a share of all blocks (at least 2 log blocks)",
             config::open(0.0, 0.5)}};
  }
  std::vector<config::RenamedKey> renamed() const override {
    return {{"ftl.fast_log_blocks_ratio", "ftl.fast.log_blocks_ratio"}};
  }
};

}  // namespace ssd::ftl
