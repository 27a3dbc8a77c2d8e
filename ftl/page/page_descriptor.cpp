#include "ftl/page/page_descriptor.h"

#include "ftl/core/page_store.h"
#include "ftl/core/page_store_rules.h"
#include "ftl/page/page_mapping.h"

namespace ssd::ftl {

SchemeDescriptor page_descriptor() {
  SchemeDescriptor d;
  d.name = "page";
  d.summary = "page mapping: one table entry per mapping unit in DRAM (docs/ftl.md)";
  d.check = check_page_granular;
  d.spare_words = PageStore::spare_words;
  d.simulator_bytes = [](const config::PlatformConfig&, const Geometry& g) {
    return g.logical_units * sizeof(SlotId);  // the table
  };
  d.create = [](const SchemeContext& c) { return std::make_unique<PageMapping>(c); };
  return d;
}

}  // namespace ssd::ftl
