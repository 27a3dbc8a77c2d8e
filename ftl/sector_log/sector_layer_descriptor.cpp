#include "ftl/sector_log/sector_layer_descriptor.h"

#include <string>

#include "config/capacity.h"
#include "ftl/sector_log/log_page_layout.h"
#include "ftl/sector_log/sector_log_settings.h"

namespace ssd::ftl {

namespace {

uint64_t block_bytes(const config::PlatformConfig& p) {
  return uint64_t{p.nand.pages_per_block} * p.nand.page_bytes;
}

uint64_t planes(const config::PlatformConfig& p) {
  const config::NandConfig& n = p.nand;
  return uint64_t{n.channels} * n.chips_per_channel * n.dies_per_chip * n.planes_per_die;
}

}  // namespace

bool sector_layer_on(const config::PlatformConfig& platform) {
  return platform.ftl.settings.get<SectorLogSettings>().size_bytes > 0 ||
         platform.ftl.settings.get<WriteBufferSettings>().bytes > 0;
}

std::optional<config::KeyProblem> check_sector_layer(const config::PlatformConfig& p,
                                                     uint64_t scheme_blocks) {
  const SectorLogSettings& log = p.ftl.settings.get<SectorLogSettings>();
  const uint64_t dram = p.ftl.settings.get<WriteBufferSettings>().bytes;
  // The layer keeps data by sector in its own write buffer (the same line store as the data
  // cache, ftl/cache/cache_lines.h): a unit-granular cache above it would hold units the layer
  // is assembling from sectors, so the two are not stacked.
  if (sector_layer_on(p) && p.cache.on()) {
    return config::KeyProblem{"cache.mode",
                              "must be off with the sector layer: its write buffer "
                              "(ftl.write_buffer.bytes) is the data cache there (got '" +
                                  p.cache.mode + "')"};
  }
  if (log.size_bytes == 0) {
    if (log.hash_buckets == 0) return std::nullopt;
    return config::KeyProblem{"ftl.sector_log.hash_buckets",
                              "sizes the sector log's map, but there is no sector log "
                              "(ftl.sector_log.size_bytes is 0)"};
  }
  const uint64_t block = block_bytes(p);
  if (log.size_bytes % block != 0 || log.size_bytes / block < 2) {
    return config::KeyProblem{"ftl.sector_log.size_bytes",
                              "must be a whole number of blocks, at least two (a block is " +
                                  std::to_string(block) + " bytes; got " +
                                  std::to_string(log.size_bytes) + ")"};
  }
  // The log's blocks come out of the FTL's spare blocks, beside the GC reserve and the scheme's
  // open blocks.
  const uint64_t blocks = log.size_bytes / block;
  const uint64_t per_plane = (blocks + planes(p) - 1) / planes(p);
  const uint64_t spare = config::over_provisioned_blocks_per_plane(p);
  if (scheme_blocks == 0) scheme_blocks = config::gc_reserve_blocks_per_plane(p) + 2;
  const uint64_t needed = per_plane + scheme_blocks;
  if (needed > spare) {
    return config::KeyProblem{
        "ftl.sector_log.size_bytes",
        "takes " + std::to_string(per_plane) + " blocks per plane out of the " +
            std::to_string(spare) + " the FTL keeps spare (ftl.over_provisioning), which also " +
            "keeps " + std::to_string(scheme_blocks) +
            " for the scheme's GC reserve and open blocks: raise ftl.over_provisioning or "
            "shrink the log"};
  }
  // More buckets than the log has sectors could never all hold an entry; the table would only
  // take memory (and a huge count would not fit the machine).
  const uint64_t log_sectors = log.size_bytes / p.nand.sector_bytes;
  if (log.hash_buckets > log_sectors) {
    return config::KeyProblem{"ftl.sector_log.hash_buckets",
                              "must be at most the sector log's " + std::to_string(log_sectors) +
                                  " sectors (got " + std::to_string(log.hash_buckets) + ")"};
  }
  if (dram > 0) {
    // The map's bucket array, the page buffer, and the entries of one block's sectors: what the
    // layer must be able to hold while it cleans its tail block.
    const uint64_t unit = config::mapping_unit_bytes(p);
    const uint64_t sectors_per_unit = unit / p.nand.sector_bytes;
    const uint64_t pages = blocks * p.nand.pages_per_block;
    const uint64_t buckets = log.hash_buckets != 0 ? log.hash_buckets : pages;
    const uint64_t block_sectors = block / p.nand.sector_bytes;
    const uint64_t least =
        buckets * 4 + p.nand.page_bytes + 2 * block_sectors * (8 + sectors_per_unit * 4) + unit;
    if (dram < least) {
      return config::KeyProblem{"ftl.write_buffer.bytes",
                                "must hold the sector map of two log blocks, its buckets and the "
                                "page buffer: at least " +
                                    std::to_string(least) + " bytes (got " + std::to_string(dram) +
                                    ")"};
    }
  }
  return std::nullopt;
}

const std::vector<FigureDoc>& sector_layer_figure_docs() {
  static const std::vector<FigureDoc> docs = {
      {"subpage_writes", "pages host writes covered only in part (sub-page writes)"},
      {"buffer_hit_ratio", "share of pages written that the write buffer held already"},
      {"buffer_evictions", "pages the write buffer evicted (written down)"},
      {"dram_peak_bytes", "most DRAM the write buffer, sector map and page buffer held at once"},
      {"ftl_page_reads", "pages the layer read from the scheme below (host reads and merges)"},
      {"ftl_page_writes", "pages the layer wrote to the scheme below"},
      {"merge_reads", "reads of the scheme's copy made to merge sectors into a page"},
      {"subpage_down_sectors",
       "mean sectors of the sub-page pages written down (the paper's table 2 size at 0 MB)"},
      {"log_writes", "sub-page writes the sector log took in"},
      {"log_hit_ratio",
       "share of them whose every sector the log held already (the paper's table 2 hit ratio)"},
      {"log_page_programs", "sector-log pages programmed (Writes_SL)"},
      {"log_page_reads", "sector-log pages read (host reads and merges)"},
      {"log_erases", "sector-log blocks cleaned and erased"},
      {"log_evictions", "logical pages merged out of the log to the scheme (Evicts_SL)"},
      {"log_eviction_sectors", "mean logged sectors per eviction (the paper's table 2 size)"},
      {"sector_map_peak_bytes", "most DRAM the sector map took (the paper's table 5)"},
      {"hash_searches", "sector-map searches"},
      {"hash_search_length", "mean entries a search visited (the paper's table 6)"},
  };
  return docs;
}

uint64_t sector_layer_simulator_bytes(const config::PlatformConfig& p, const Geometry& g) {
  if (!sector_layer_on(p)) return 0;
  const uint64_t log_sectors = p.ftl.settings.get<SectorLogSettings>().size_bytes / g.sector_bytes;
  const uint64_t buffer_pages = p.ftl.settings.get<WriteBufferSettings>().bytes / g.unit_bytes;
  const uint64_t per_page = 4ull * g.sectors_per_unit + 48;  // tokens + bookkeeping
  // Log slots (page, sector, token), map entries, buffered pages, shadows of both; with power
  // cuts, the log pages' data words in the flash (LogPageLayout::kWordsPerSector a sector, and a
  // hash node a page), counted always: the estimate does not know whether power may be cut.
  const uint64_t log_pages = log_sectors * g.sector_bytes / g.page_bytes;
  const uint64_t data_words = log_sectors * 4 * LogPageLayout::kWordsPerSector + log_pages * 64;
  return log_sectors * 9 + log_sectors * per_page + 2 * buffer_pages * per_page + data_words;
}

std::optional<config::KeyProblem> sector_layer_sampled_aging_problem(
    const config::PlatformConfig& platform) {
  if (!sector_layer_on(platform)) return std::nullopt;
  const bool log = platform.ftl.settings.get<SectorLogSettings>().size_bytes > 0;
  return config::KeyProblem{log ? "ftl.sector_log.size_bytes" : "ftl.write_buffer.bytes",
                            "sampled aging lays out the page scheme's units, not the sector "
                            "layer's: set it to 0 or use precondition.aging = simulated"};
}

std::optional<config::KeyProblem> sector_layer_recovery_problem(
    const config::PlatformConfig& platform) {
  if (!sector_layer_on(platform)) return std::nullopt;
  const bool log = platform.ftl.settings.get<SectorLogSettings>().size_bytes > 0;
  const Geometry g = Geometry::from_platform(platform);
  // Addresses that do not fit in the spare area go to the data area, which must keep room for
  // data beside them.
  if (log && sector_layer_recovery_spare_words(platform, g) == 0 &&
      LogPageLayout::address_sectors_for(g) == 0) {
    return config::KeyProblem{
        "nand.spare_bytes",
        "holds neither the sector log's sector addresses beside the scheme's words nor does a "
        "page's data area hold them beside a sector of data; raise it (or nand.page_bytes)"};
  }
  return std::nullopt;
}

uint32_t sector_layer_recovery_spare_words(const config::PlatformConfig& platform,
                                           const Geometry& geometry) {
  return sector_log_spare_words(platform, geometry);
}

}  // namespace ssd::ftl
