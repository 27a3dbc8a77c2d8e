// load_config: files first, then --set overrides in order, then validation. Validation problems
// are reported against the origin of the offending key (file and line, or --set) when known.
#include "config/config_loader.h"

#include <filesystem>

#include "config/config_messages.h"
#include "config/key_registry.h"
#include "config/overrides.h"
#include "config/toml_reader.h"
#include "config/validation.h"

namespace ssd::config {

namespace {

// Where the offending key's value came from; a key set nowhere has its built-in default, which
// no file is to blame for.
Origin origin_of(const OriginMap& origins, const std::string& key, const char* defaults_name) {
  auto it = origins.find(key);
  if (it != origins.end()) return it->second;
  return {defaults_name, 0};
}

// A trace named in a scenario file is relative to that file's folder, so a scenario and its trace
// move together; one given with --set is relative to the working directory, as shells expect.
void resolve_trace_path(ScenarioConfig& scenario, const OriginMap& origins,
                        const std::string& scenario_path) {
  std::string& file = scenario.workload.trace_file;
  const auto it = origins.find("workload.trace_file");
  if (file.empty() || it == origins.end() || it->second.source != scenario_path) return;
  const std::filesystem::path path(file);
  if (path.is_absolute()) return;
  file = (std::filesystem::path(scenario_path).parent_path() / path).lexically_normal().string();
}

}  // namespace

LoadedConfig load_config(const std::string& platform_path, const std::string& scenario_path,
                         const std::vector<std::string>& overrides, const SchemeCatalog& schemes,
                         const std::vector<std::string>& sources) {
  LoadedConfig loaded;
  loaded.platform_path = platform_path;
  loaded.scenario_path = scenario_path;
  for (auto& group : schemes.settings_groups()) loaded.platform.ftl.settings.add(std::move(group));
  const KeyList platform{platform_keys(loaded.platform), loaded.platform.ftl.settings.renamed()};
  const KeyList scenario{scenario_keys(loaded.scenario), {}};

  OriginMap origins;
  if (!platform_path.empty()) read_config_file(platform_path, platform_file(), platform, origins);
  if (!scenario_path.empty()) read_config_file(scenario_path, scenario_file(), scenario, origins);
  for (size_t i = 0; i < overrides.size(); ++i) {
    const std::string source = i < sources.size() ? sources[i] : "--set";
    apply_override(overrides[i], platform, scenario, origins, source);
  }

  resolve_trace_path(loaded.scenario, origins, scenario_path);

  if (auto problem = find_platform_problem(loaded.platform, schemes)) {
    throw_error(origin_of(origins, problem->key, "(built-in platform defaults)"), problem->key,
                problem->reason);
  }
  if (auto problem = find_scenario_problem(loaded.scenario, loaded.platform)) {
    throw_error(origin_of(origins, problem->key, "(built-in scenario defaults)"), problem->key,
                problem->reason);
  }
  if (loaded.scenario.power.on()) {
    if (auto problem = schemes.recovery_problem(loaded.platform)) {
      const char* power_key = loaded.scenario.power.cuts > 0 ? "power.cuts" : "power.cut_at_us";
      throw_error(origin_of(origins, problem->key, "(built-in platform defaults)"), problem->key,
                  problem->reason + " (the scenario cuts power: " + power_key + ")");
    }
  }
  const PreconditionConfig& pre = loaded.scenario.precondition;
  if (pre.aging == "sampled" && pre.fill_ratio > 0 && pre.overwrite_ratio > 0) {
    if (auto problem = schemes.sampled_aging_problem(loaded.platform, pre.sample_dies)) {
      throw_error(origin_of(origins, problem->key, "(built-in platform defaults)"), problem->key,
                  problem->reason +
                      " (the scenario ages the device by sampling: "
                      "precondition.aging)");
    }
  }
  return loaded;
}

}  // namespace ssd::config
