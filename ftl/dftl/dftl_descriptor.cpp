#include "ftl/dftl/dftl_descriptor.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "ftl/core/memory_sizes.h"
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
  d.spare_words = spare_words_by_geometry<PageStore::spare_words>;
  d.simulator_bytes = [](const config::PlatformConfig&, const Geometry& g) {
    // The translation pages' content, pending relocations and the cache's index, per unit; and
    // per translation page the list of its changed entries (Dftl::m_changed, a handful each).
    const uint64_t per_page = std::max<uint32_t>(1, g.unit_bytes / bytes_to_name(g.slots()));
    const uint64_t tpages = (g.logical_units + per_page - 1) / per_page;
    return g.logical_units * 3 * sizeof(SlotId) + tpages * sizeof(std::vector<Lun>);
  };
  d.create = [](const SchemeContext& c) { return std::make_unique<Dftl>(c); };
  // Every setting recovers (Dftl::recovered), so there is no recovery_problem. The scan's slot
  // and sequence per unit (12 bytes) live only while a recovery runs and, as page mapping's, are
  // not in simulator_bytes.
  d.recover = [](const SchemeContext& c) { return Dftl::recovered(c); };
  d.recovery_spare_words = PageStore::recovery_spare_words;
  // Sampled aging: the translation pages and the CMT's entries come from the miniature
  // (dftl_aged.cpp), whose cache holds the device's share of its entries, so that it caches the
  // same part of its units as the device's does (its hit ratio under random work).
  d.ages_by_sampling = true;
  d.scale_to_miniature = [](const config::PlatformConfig& device, config::PlatformConfig& miniature,
                            double share) {
    const uint32_t entries = Dftl::cache_capacity(device.ftl.settings.get<DftlSettings>(),
                                                  Geometry::from_platform(device));
    miniature.ftl.settings.edit<DftlSettings>().cache_entries =
        static_cast<uint32_t>(std::max<int64_t>(1, std::llround(double(entries) * share)));
  };
  return d;
}

}  // namespace ssd::ftl
