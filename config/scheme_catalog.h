// What configuration needs to know of the mapping schemes, which live above it (ftl/ depends on
// config/, not the other way): the names `ftl.scheme` may take, the settings groups whose keys a
// platform may set, and each scheme's rules against a platform. The FTL's registry implements it
// (ftl/scheme_registry.h: ftl::scheme_catalog()); load_config and validate_platform take it.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "config/key_registry.h"
#include "config/platform_config.h"
#include "config/scheme_settings.h"

namespace ssd::config {

class SchemeCatalog {
 public:
  virtual ~SchemeCatalog() = default;
  virtual std::vector<std::string> scheme_names() const = 0;
  // A fresh group of default settings for every group any scheme declares.
  virtual std::vector<std::unique_ptr<SettingsGroup>> settings_groups() const = 0;
  // The rules of the scheme `platform.ftl.scheme` names (which is known), against the platform;
  // the first problem, naming the key to change.
  virtual std::optional<KeyProblem> check(const PlatformConfig& platform) const = 0;
  // Why the platform's scheme cannot recover from a power cut (what a scenario with power.* set
  // needs), naming the key to change; none: it can.
  virtual std::optional<KeyProblem> recovery_problem(const PlatformConfig& /*platform*/) const {
    return std::nullopt;
  }
  // Why the platform's device cannot be aged by sampling (precondition.aging = sampled) on a
  // miniature of `sample_dies` dies, naming the key to change; none: it can.
  virtual std::optional<KeyProblem> sampled_aging_problem(const PlatformConfig& /*platform*/,
                                                          uint32_t /*sample_dies*/) const {
    return std::nullopt;
  }
};

}  // namespace ssd::config
