// The registry of configuration keys: every TOML key and --set target of the platform and the
// scenario, bound to the struct fields they fill (key_def.h says what a key is). Checks that
// relate keys live in the validators; the FTL's settings groups add their keys through the
// platform's `ftl.settings` (scheme_settings.h).
// A key list is built bound to one config instance, so reading and writing go through it.
#pragma once

#include <string_view>
#include <vector>

#include "config/key_def.h"
#include "config/platform_config.h"
#include "config/scenario_config.h"

namespace ssd::config {

// All keys of one kind, bound to the fields of `config`.
std::vector<KeyDef> platform_keys(PlatformConfig& config);
std::vector<KeyDef> scenario_keys(ScenarioConfig& config);

// Top-level tables each kind of file may contain.
const std::vector<std::string_view>& platform_sections();
const std::vector<std::string_view>& scenario_sections();
}  // namespace ssd::config
