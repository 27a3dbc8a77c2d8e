#include "ftl/dac/dac_descriptor.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "config/capacity.h"
#include "ftl/core/page_store.h"
#include "ftl/core/page_store_rules.h"
#include "ftl/dac/dac_ftl.h"
#include "ftl/dac/dac_settings.h"
#include "ftl/sector_log/sector_layer_descriptor.h"
#include "ftl/sector_log/sector_log_settings.h"

namespace ssd::ftl {

SchemeDescriptor dac_descriptor() {
  SchemeDescriptor d;
  d.name = "dac";
  d.summary =
      "DAC: page mapping with hot-to-cold regions, each its own write point; young rewrites "
      "climb a region, GC copies fall one (docs/schemes.md)";
  d.settings = settings_of<DacSettings, SectorLogSettings, WriteBufferSettings>;
  d.check = [](const config::PlatformConfig& p) -> std::optional<config::KeyProblem> {
    if (auto problem = check_page_granular(p)) return problem;
    const DacSettings& s = p.ftl.settings.get<DacSettings>();
    if (s.first_region >= s.regions) {
      return config::KeyProblem{"ftl.dac.first_region", "must be below ftl.dac.regions (" +
                                                            std::to_string(s.regions) + "; got " +
                                                            std::to_string(s.first_region) + ")"};
    }
    // One host write point per region, one GC write point per region that receives copies.
    const uint32_t gc_streams = DacFtl::gc_streams(s.regions);
    if (auto problem = check_page_streams(p, s.regions, gc_streams, "ftl.dac.regions")) {
      return problem;
    }
    // A sector log's blocks come out of what the streams leave (check_page_streams' bound).
    const uint64_t streams_need = uint64_t{s.regions} + 2 * gc_streams + 1;
    return check_sector_layer(
        p, std::max<uint64_t>(config::gc_reserve_blocks_per_plane(p) + 2, streams_need));
  };
  d.sector_granular = sector_layer_on;
  d.spare_words = spare_words_by_geometry<PageStore::spare_words>;
  d.figures = {
      {"regions", "hotness regions (ftl.dac.regions), region 0 the coldest"},
      {"young_writes",
       "the young-age threshold in host unit writes (ftl.dac.young_writes, 0 resolved)"},
      {"promotions", "host rewrites that were young and moved their unit one region hotter"},
      {"demotions", "units GC copied out of a victim into the next colder region"},
      {"host_units_by_region", "host units written into each region (element r: region r)"},
      {"gc_units_by_region", "units GC copied into each region (element r: region r)"},
      {"live_units_by_region", "mapped units in each region at the end of the run"}};
  d.simulator_bytes = [](const config::PlatformConfig& p, const Geometry& g) {
    // The table, a region byte per unit and, with several regions, a 32-bit stamp per unit.
    const bool stamps = p.ftl.settings.get<DacSettings>().regions > 1;
    return g.logical_units * (sizeof(SlotId) + 1 + (stamps ? sizeof(uint32_t) : 0)) +
           sector_layer_simulator_bytes(p, g);
  };
  d.create = [](const SchemeContext& c) {
    return with_sector_layer(c, std::make_unique<DacFtl>(c));
  };
  // Power cuts: the table from the spare areas' sequence numbers, as page mapping's; regions are
  // not persisted (DacFtl::recovered), so DAC needs no spare words of its own beyond them.
  d.recover = [](const SchemeContext& c) {
    return recovered_with_sector_layer(c, DacFtl::recovered(c));
  };
  d.recovery_problem = sector_layer_recovery_problem;
  d.recovery_spare_words = PageStore::recovery_spare_words;
  d.settings_recovery_spare_words = sector_layer_recovery_spare_words;
  // Sampled aging: the units' regions and ages come from the miniature (DacFtl::lay_out_aged); an
  // explicit young threshold counts the device's units, so the miniature's is scaled to its own.
  d.ages_by_sampling = true;
  d.sampled_aging_problem = sector_layer_sampled_aging_problem;
  d.scale_to_miniature = [](const config::PlatformConfig& /*device*/,
                            config::PlatformConfig& miniature, double share) {
    uint64_t& young = miniature.ftl.settings.edit<DacSettings>().young_writes;
    if (young != 0) young = std::max<uint64_t>(1, std::llround(double(young) * share));
  };
  return d;
}

}  // namespace ssd::ftl
