#include "ftl/nftl/nftl_descriptor.h"

#include "ftl/hybrid/block_rules.h"
#include "ftl/nftl/nftl.h"
#include "ftl/nftl/nftl_settings.h"
#include "ftl/translation_cache/translation_cache.h"

namespace ssd::ftl {

namespace {
std::optional<config::KeyProblem> check_nftl(const config::PlatformConfig& p) {
  if (auto problem = check_block_granular(p, "nftl")) return problem;
  const NftlSettings& s = p.ftl.settings.get<NftlSettings>();
  const TranslationCacheOptions cache{s.cache, s.cache_bytes, s.lmt_fanout};
  const uint64_t least = minimum_cache_bytes(cache);
  if (s.cache != "none" && s.cache_bytes < least) {
    return config::KeyProblem{"ftl.nftl.cache_bytes", "is below the " + std::to_string(least) +
                                                          " bytes the \"" + s.cache +
                                                          "\" cache needs at least (got " +
                                                          std::to_string(s.cache_bytes) + ")"};
  }
  if (s.cache != "none" && s.cache_bytes > p.dram.capacity_bytes) {
    return config::KeyProblem{"ftl.nftl.cache_bytes",
                              "is larger than the controller's DRAM, which holds the cache "
                              "(dram.capacity_bytes = " +
                                  std::to_string(p.dram.capacity_bytes) + ", got " +
                                  std::to_string(s.cache_bytes) + ")"};
  }
  return std::nullopt;
}
}  // namespace

SchemeDescriptor nftl_descriptor() {
  SchemeDescriptor d;
  d.name = "nftl";
  d.summary =
      "NFTL: primary and replacement blocks per virtual block, backward spare-area "
      "search, optional LMT or LRU translation cache (docs/schemes.md)";
  d.settings = settings_of<NftlSettings>;
  d.check = check_nftl;
  d.spare_words = spare_words_by_geometry<BlockScheme::spare_words>;
  d.figures = {
      {"search_spare_reads", "spare areas read to locate host data (the backward search)"},
      {"searches", "lookups the cache did not answer (all without a cache)"},
      {"cache_lookups", "translation-cache lookups (ftl.nftl.cache)"},
      {"cache_hits", "lookups the cache answered, with no spare-area read"},
      {"cache_insertions", "translations given to the cache (writes, folds)"},
      {"cache_bytes_used", "the cache's memory at the end, by the paper's sizes"},
      {"cache_lookup_us_mean", "mean CPU time of one cache lookup at the platform's prices"},
      {"cache_insertion_us_mean", "mean CPU time of one cache insertion, replacement included"},
      {"cache_lookup_tree_nodes_mean", "translation nodes visited per lookup"},
      {"cache_lookup_list_steps_mean", "list steps per lookup"},
      {"cache_insertion_list_steps_mean", "list steps per insertion"},
      {"cache_insertion_unit_merges_mean", "unit merges, trims and cuts per insertion"},
  };
  d.simulator_bytes = [](const config::PlatformConfig& p, const Geometry& g) {
    // Chains, positions and replacement lists per virtual block; valid bits; the cache (its
    // nodes and units take about its threshold).
    const NftlSettings& s = p.ftl.settings.get<NftlSettings>();
    return logical_blocks(p) * 4 * sizeof(BlockId) + g.logical_units / 8 +
           (s.cache == "none" ? 0 : 2 * s.cache_bytes);
  };
  // Sampled aging lays the miniature's blocks out by role (ftl/hybrid/block_aged.cpp), with the
  // miniature's sequence numbers when power may be cut.
  d.ages_by_sampling = true;
  d.sampled_aging_problem =
      [](const config::PlatformConfig& p) -> std::optional<config::KeyProblem> {
    if (p.ftl.settings.get<NftlSettings>().cache == "none") return std::nullopt;
    return config::KeyProblem{"ftl.nftl.cache",
                              "sampled aging lays out NFTL's blocks, not what its translation "
                              "cache learnt while aging: set it to none or use "
                              "precondition.aging = simulated"};
  };
  d.create = [](const SchemeContext& c) { return std::make_unique<Nftl>(c); };
  // The block's allocation sequence, its top bit marking a replacement block's pages.
  d.recover = [](const SchemeContext& c) { return Nftl::recovered(c); };
  d.recovery_spare_words = [](const Geometry&) { return BlockFlash::kRecoverySpareWords; };
  return d;
}

}  // namespace ssd::ftl
