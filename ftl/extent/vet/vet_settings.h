// VET's settings, `ftl.vet.*` (docs/vet.md, docs/accelerator.md).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "config/scheme_settings.h"

namespace ssd::ftl {

struct VetSettings : config::SettingsGroupOf<VetSettings> {
  static constexpr std::string_view kGroup = "vet";

  std::string insertion = "bis";          // lis | bis
  std::string layout = "pf";              // pd | pf
  std::string hash = "chaining";          // chaining | cuckoo
  std::string hash_backend = "software";  // software | accelerator

  std::vector<config::KeyDef> keys() override {
    return {{"ftl.vet.insertion",
             &insertion,
             "VET insertion scheme: linear (LIS) or binary (BIS)",
             std::nullopt,
             {"lis", "bis"}},
            {"ftl.vet.layout",
             &layout,
             "VET leaf layout: pointer-dependent (pd) or pointer-free (pf)",
             std::nullopt,
             {"pd", "pf"}},
            {"ftl.vet.hash", &hash, "VET hash table", std::nullopt, {"chaining", "cuckoo"}},
            {"ftl.vet.hash_backend",
             &hash_backend,
             "VET node table in software (ftl.vet.hash) or in the hash-lookup accelerator",
             std::nullopt,
             {"software", "accelerator"}}};
  }
};

}  // namespace ssd::ftl
