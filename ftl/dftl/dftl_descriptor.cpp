#include "ftl/dftl/dftl_descriptor.h"

#include "ftl/core/page_store.h"
#include "ftl/core/page_store_rules.h"
#include "ftl/dftl/dftl.h"
#include "ftl/dftl/dftl_settings.h"

namespace ssd::ftl {

SchemeDescriptor dftl_descriptor() {
  SchemeDescriptor d;
  d.name = "dftl";
  d.summary =
      "DFTL: page mapping in flash translation pages, a cached mapping table in DRAM "
      "(docs/schemes.md)";
  d.settings = settings_of<DftlSettings>;
  d.check = check_page_granular;
  d.spare_words = PageStore::spare_words;
  d.simulator_bytes = [](const config::PlatformConfig&, const Geometry& g) {
    // The translation pages' content, pending relocations and the cache's index, per unit.
    return g.logical_units * 3 * sizeof(SlotId);
  };
  d.create = [](const SchemeContext& c) { return std::make_unique<Dftl>(c); };
  return d;
}

}  // namespace ssd::ftl
