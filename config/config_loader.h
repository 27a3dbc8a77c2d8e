// Reads platform and scenario TOML files, applies `--set key=value` overrides and checks the
// result. Every key is known by name and type: an unknown key, a wrong type, a value out of range
// or an impossible geometry throws ConfigError naming the file (or "--set") and the key.
// The mapping schemes' own keys and rules come from the scheme catalog (scheme_catalog.h), which
// the FTL provides: ftl::scheme_catalog().
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "config/platform_config.h"
#include "config/scenario_config.h"
#include "config/scheme_catalog.h"

namespace ssd::config {

class ConfigError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct LoadedConfig {
  PlatformConfig platform;
  ScenarioConfig scenario;
  std::string platform_path;  // as given ("" = built-in defaults)
  std::string scenario_path;
};

// Loads both files (an empty path keeps the built-in defaults of the structs), then applies each
// override "section.key=value", in order, to whichever of the two owns the section, then
// validates both. `sources[i]` names the command-line option override i came from in messages
// ("--fit"; "--set" when absent). The platform carries the default settings of every group in
// `schemes`, so their keys can be set. Throws ConfigError on the first problem; nothing is
// returned half-filled.
LoadedConfig load_config(const std::string& platform_path, const std::string& scenario_path,
                         const std::vector<std::string>& overrides, const SchemeCatalog& schemes,
                         const std::vector<std::string>& sources = {});

// Checks a platform on its own (geometry possible, timings positive, ratios in range, a known
// scheme whose rules it meets). `source` names where the values came from, for the message.
void validate_platform(const PlatformConfig& platform, const std::string& source,
                       const SchemeCatalog& schemes);

// Checks a scenario against the platform it will run on (address range inside the device...).
void validate_scenario(const ScenarioConfig& scenario, const PlatformConfig& platform,
                       const std::string& source);

}  // namespace ssd::config
