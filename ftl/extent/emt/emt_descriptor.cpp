#include "ftl/extent/emt/emt_descriptor.h"

#include "ftl/core/page_store.h"
#include "ftl/core/page_store_rules.h"
#include "ftl/extent/extent_figures.h"
#include "ftl/extent/extent_ftl.h"
#include "ftl/extent/extent_settings.h"

namespace ssd::ftl {

SchemeDescriptor emt_descriptor() {
  SchemeDescriptor d;
  d.name = "emt";
  d.summary = "EMT: extent mapping in a red-black extent tree (docs/emt.md)";
  d.settings = settings_of<ExtentSettings>;
  d.check = check_page_granular;
  d.spare_words = spare_words_by_geometry<PageStore::spare_words>;
  d.figures = extent_figures();
  d.simulator_bytes = [](const config::PlatformConfig&, const Geometry&) -> uint64_t {
    return 0;  // the tree grows with the extents written, from empty
  };
  d.create = [](const SchemeContext& c) { return std::make_unique<ExtentFtl>(c, "emt"); };
  d.create_miniature = [](const SchemeContext& c) { return ExtentFtl::for_miniature(c); };
  d.recover = [](const SchemeContext& c) { return ExtentFtl::recovered(c, "emt"); };
  d.recovery_spare_words = PageStore::recovery_spare_words;
  // No recovery_problem: every EMT setting recovers.
  // Sampled aging: the miniature's runs become extents on every copy (ExtentFtl::lay_out_aged).
  d.ages_by_sampling = true;
  return d;
}

}  // namespace ssd::ftl
