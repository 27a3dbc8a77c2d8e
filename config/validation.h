// The checks behind validate_platform and validate_scenario, returning the first problem as
// {key, reason} instead of throwing, so load_config can name the file or --set that set the key.
#pragma once

#include <optional>

#include "config/key_registry.h"
#include "config/scheme_catalog.h"

namespace ssd::config {

std::optional<KeyProblem> find_platform_problem(const PlatformConfig& platform,
                                                const SchemeCatalog& schemes);
std::optional<KeyProblem> find_scenario_problem(const ScenarioConfig& scenario,
                                                const PlatformConfig& platform);

}  // namespace ssd::config
