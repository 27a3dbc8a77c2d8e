// The toy scheme's settings, `ftl.toy.*`: a settings group declared in the scheme's own folder,
// as every scheme's is (docs/architecture.md, "Adding a mapping scheme").
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "config/scheme_settings.h"

namespace ssd::testing {

struct ToySettings : config::SettingsGroupOf<ToySettings> {
  static constexpr std::string_view kGroup = "toy";

  uint32_t probes_per_lookup = 1;  // hash probes charged per unit looked up

  std::vector<config::KeyDef> keys() override {
    return {{"ftl.toy.probes_per_lookup", &probes_per_lookup,
             "Toy scheme: hash probes the CPU is charged per unit looked up",
             config::closed(1, 16)}};
  }
  std::vector<config::RenamedKey> renamed() const override {
    return {{"ftl.toy_probes", "ftl.toy.probes_per_lookup"}};
  }
};

}  // namespace ssd::testing
