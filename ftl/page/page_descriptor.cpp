#include "ftl/page/page_descriptor.h"

#include "ftl/core/page_store.h"
#include "ftl/core/page_store_rules.h"
#include "ftl/page/map_layout.h"
#include "ftl/page/map_sync.h"
#include "ftl/page/page_mapping.h"
#include "ftl/page/page_settings.h"
#include "ftl/sector_log/sector_layer_descriptor.h"
#include "ftl/sector_log/sector_log_settings.h"

namespace ssd::ftl {

SchemeDescriptor page_descriptor() {
  SchemeDescriptor d;
  d.name = "page";
  d.summary = "page mapping: one table entry per mapping unit in DRAM (docs/ftl.md)";
  d.settings = settings_of<PageSettings, SectorLogSettings, WriteBufferSettings>;
  d.check = [](const config::PlatformConfig& p) -> std::optional<config::KeyProblem> {
    if (auto problem = check_page_granular(p)) return problem;
    if (auto problem = check_sector_layer(p)) return problem;
    return check_map_layout(p);
  };
  d.sector_granular = sector_layer_on;
  d.spare_words = spare_words_by_geometry<PageStore::spare_words>;
  d.figures = {{"map_sync",
                "what a flush does with the table (ftl.page.map_sync): none (the "
                "table is volatile), conventional or nvram"}};
  for (const FigureDoc& doc : map_sync_figure_docs()) d.figures.push_back(doc);
  d.simulator_bytes = [](const config::PlatformConfig& p, const Geometry& g) {
    // The table; with a durable map also what its pages and NVRAM copies say, and dirty bits.
    const bool durable = map_layout(p, g).policy != MapSyncPolicy::kNone;
    return g.logical_units * sizeof(SlotId) * (durable ? 3 : 1) +
           (durable ? g.logical_units / 8 : 0) + sector_layer_simulator_bytes(p, g);
  };
  d.create = [](const SchemeContext& c) {
    return with_sector_layer(c, std::make_unique<PageMapping>(c));
  };
  d.recover = [](const SchemeContext& c) {
    return recovered_with_sector_layer(c, PageMapping::recovered(c));
  };
  d.recovery_problem = [](const config::PlatformConfig& p) -> std::optional<config::KeyProblem> {
    const bool synced = map_layout(p, Geometry::from_platform(p)).policy != MapSyncPolicy::kNone;
    if (synced && sector_layer_on(p)) {
      return config::KeyProblem{"ftl.page.map_sync",
                                "recovery of a synced map under the sector layer is not built "
                                "(the layer lends blocks the map's log does not cover); with "
                                "power cuts and the sector layer use none"};
    }
    if (auto problem = check_map_recovery(p)) return problem;
    return sector_layer_recovery_problem(p);
  };
  d.recovery_spare_words = PageStore::recovery_spare_words;
  d.ages_by_sampling = true;
  d.sampled_aging_problem =
      [](const config::PlatformConfig& p) -> std::optional<config::KeyProblem> {
    if (map_layout(p, Geometry::from_platform(p)).policy != MapSyncPolicy::kNone) {
      return config::KeyProblem{"ftl.page.map_sync",
                                "sampled aging lays out the units, not the map's own pages: "
                                "use none or precondition.aging = simulated"};
    }
    return sector_layer_sampled_aging_problem(p);
  };
  d.settings_recovery_spare_words = sector_layer_recovery_spare_words;
  return d;
}

}  // namespace ssd::ftl
