#include "ftl/extent/vet/vet_descriptor.h"

#include "ftl/core/page_store.h"
#include "ftl/core/page_store_rules.h"
#include "ftl/extent/extent_figures.h"
#include "ftl/extent/extent_ftl.h"
#include "ftl/extent/extent_settings.h"
#include "ftl/extent/vet/vet_settings.h"

namespace ssd::ftl {

SchemeDescriptor vet_descriptor() {
  SchemeDescriptor d;
  d.name = "vet";
  d.summary =
      "VET: extent mapping in a virtual extent trie held in a hash table "
      "(docs/vet.md)";
  d.settings = settings_of<ExtentSettings, VetSettings>;
  d.check = check_page_granular;
  d.spare_words = spare_words_by_geometry<PageStore::spare_words>;
  d.needs_hash_engine = [](const config::PlatformConfig& p) {
    return p.ftl.settings.get<VetSettings>().hash_backend == "accelerator";
  };
  d.figures = extent_figures();
  d.simulator_bytes = [](const config::PlatformConfig&, const Geometry&) -> uint64_t {
    return 0;  // the trie grows with the extents written, from empty
  };
  d.create = [](const SchemeContext& c) { return std::make_unique<ExtentFtl>(c, "vet"); };
  d.create_miniature = [](const SchemeContext& c) { return ExtentFtl::for_miniature(c); };
  d.recover = [](const SchemeContext& c) { return ExtentFtl::recovered(c, "vet"); };
  d.recovery_spare_words = PageStore::recovery_spare_words;
  d.recovery_problem = [](const config::PlatformConfig& p) -> std::optional<config::KeyProblem> {
    // The engine's table is the accelerator's own memory, which a cut does not reach (the
    // rebuilt map would find the old nodes there), and a recovery's time is priced from CPU
    // primitives only, not from the accelerator answers it would wait for.
    if (p.ftl.settings.get<VetSettings>().hash_backend == "accelerator") {
      return config::KeyProblem{"ftl.vet.hash_backend",
                                "recovery with the node table on the hash-lookup accelerator is "
                                "not built; with power cuts use software"};
    }
    return std::nullopt;
  };
  // Sampled aging: the miniature's runs become extents on every copy (ExtentFtl::lay_out_aged).
  d.ages_by_sampling = true;
  d.sampled_aging_problem =
      [](const config::PlatformConfig& p) -> std::optional<config::KeyProblem> {
    // The layout loads the table in bulk in software; the accelerator's table is its own memory,
    // which nothing loads but its timed commands.
    if (p.ftl.settings.get<VetSettings>().hash_backend == "accelerator") {
      return config::KeyProblem{"ftl.vet.hash_backend",
                                "sampled aging with the node table on the hash-lookup "
                                "accelerator is not built; use simulated aging or software"};
    }
    return std::nullopt;
  };
  return d;
}

}  // namespace ssd::ftl
