// Everything the simulator knows of one mapping scheme, declared in the scheme's own folder
// (ftl/<scheme>/<scheme>_descriptor.cpp) and listed once in the registry (ftl/scheme_registry.cpp):
// its name, its settings groups (keys ftl.<group>.*), its rules against a platform, the spare
// words it keeps per page, whether it needs the platform's hash engine, the figures it reports,
// a rough size of the simulator's memory for its state, and how to build it. Nothing outside the
// scheme's folder and the registry names a scheme.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "config/key_def.h"
#include "config/platform_config.h"
#include "config/scheme_settings.h"
#include "ftl/core/geometry.h"
#include "ftl/core/mapping_scheme.h"

namespace ssd::ftl {

// A figure the scheme adds to the report as `mapping.<name>` (docs/report.md documents it).
struct FigureDoc {
  std::string name;
  std::string description;
};

struct SchemeDescriptor {
  std::string name;     // `--ftl NAME`
  std::string summary;  // one line, for listings and docs
  // Fresh default settings of every group the scheme reads (none: an empty list).
  std::function<std::vector<std::unique_ptr<config::SettingsGroup>>()> settings;
  // The scheme's rules against a platform whose own keys are valid: the first problem, naming
  // the key to change (none: every valid platform will do).
  std::function<std::optional<config::KeyProblem>(const config::PlatformConfig&)> check;
  // 32-bit spare words the scheme keeps per page with these settings (sizes the FlashArray): the
  // words its format writes, not the whole spare area, whose other bytes stay erased and so need
  // no memory in the simulator.
  std::function<uint32_t(const config::PlatformConfig&, const Geometry&)> spare_words;
  // Whether the scheme sends commands to the platform's hash engine (SchemeContext::hash_engine)
  // with these settings (none: never).
  std::function<bool(const config::PlatformConfig&)> needs_hash_engine;
  // Whether the scheme, with these settings, keeps data by sector: a layer above it
  // (ftl/sector_log/) assembles units from sectors, and the oracle must check sectors (none:
  // never).
  std::function<bool(const config::PlatformConfig&)> sector_granular;
  // The figures mapping_figures() returns, in its order.
  std::vector<FigureDoc> figures;
  // Bytes of host memory the simulator needs for the scheme's own state on this device (tables,
  // caches, per-unit arrays): an estimate made before anything is allocated, so that a device
  // too large for the machine is refused instead of dying in the allocator.
  std::function<uint64_t(const config::PlatformConfig&, const Geometry&)> simulator_bytes;
  std::function<std::unique_ptr<MappingScheme>(const SchemeContext&)> create;

  // Power loss (docs/power-loss.md). `recover` builds the scheme again from what the flash (and
  // NVRAM) hold after a cut, recording every read it needs on the context's backend (it calls
  // FlashBackend::end_batch between independent steps); none: the scheme cannot recover, and a
  // scenario that cuts power is refused. `recovery_problem`: why the scheme cannot recover with
  // these settings, naming the key to change (none: it can). `recovery_spare_words`: spare words
  // per page it keeps beyond spare_words() when the device may lose power (sequence numbers).
  std::function<std::unique_ptr<MappingScheme>(const SchemeContext&)> recover;
  std::function<std::optional<config::KeyProblem>(const config::PlatformConfig&)> recovery_problem;
  std::function<uint32_t(const Geometry&)> recovery_spare_words;
  // Spare words per page the scheme's settings add to those when the device may lose power: what a
  // layer above the scheme keeps for its own recovery (the sector log's sector addresses,
  // ftl/sector_log/); none: 0.
  std::function<uint32_t(const config::PlatformConfig&, const Geometry&)>
      settings_recovery_spare_words;
  // Sampled aging (precondition.aging = sampled, sampled_aging.h): whether the scheme can
  // (MappingScheme::describe_aged_planes, lay_out_aged), and why not with these settings, naming
  // the key to change (none: it can).
  bool ages_by_sampling = false;
  std::function<std::optional<config::KeyProblem>(const config::PlatformConfig&)>
      sampled_aging_problem;
  // Builds the scheme of sampled aging's miniature, which is aged untimed and described, never
  // timed or reported, when the scheme can do that faster with a simpler state that leaves the
  // same flash (the extent schemes: a flat map); none: `create`.
  std::function<std::unique_ptr<MappingScheme>(const SchemeContext&)> create_miniature;
  // The settings of sampled aging's miniature that count the device's units, scaled by `share`
  // (the miniature's logical units over the device's), so that they divide its units as they
  // divide `device`'s (DAC's young threshold, DFTL's cache); none: the device's settings as they
  // are.
  std::function<void(const config::PlatformConfig& device, config::PlatformConfig& miniature,
                     double share)>
      scale_to_miniature;
};

// SchemeDescriptor::spare_words for a scheme whose words follow from the geometry alone.
template <uint32_t (*words)(const Geometry&)>
uint32_t spare_words_by_geometry(const config::PlatformConfig& /*platform*/, const Geometry& g) {
  return words(g);
}

// Fresh default settings of the groups `Groups...`, for SchemeDescriptor::settings.
template <class... Groups>
std::vector<std::unique_ptr<config::SettingsGroup>> settings_of() {
  std::vector<std::unique_ptr<config::SettingsGroup>> groups;
  (groups.push_back(std::make_unique<Groups>()), ...);
  return groups;
}

}  // namespace ssd::ftl
