// NFTL's settings, `ftl.nftl.*`: the translation cache in front of its backward spare-area search
// (shared/papers/lmt-translation-caching.md; docs/schemes.md, "Translation caching").
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "config/scheme_settings.h"

namespace ssd::ftl {

struct NftlSettings : config::SettingsGroupOf<NftlSettings> {
  static constexpr std::string_view kGroup = "nftl";

  std::string cache = "none";  // none | lmt-wr | lmt-scwr | lru
  uint64_t cache_bytes = 512 * 1024;
  uint32_t lmt_fanout = 9;
  // The paper inserts a translation when a write places it (section 5.3.1) and says nothing of
  // reads; off by default. On: a read that misses the cache and searches flash inserts what it
  // found.
  bool cache_fill_on_read = false;
  // What a fold tells the cache (the paper is silent): "update" gives it the block's new pages
  // (LMT records the block as one translation unit, LRU corrects the slots it holds); "forget"
  // makes it drop what it holds for the block.
  std::string cache_on_fold = "update";

  std::vector<config::KeyDef> keys() override {
    return {{"ftl.nftl.cache",
             &cache,
             "NFTL translation cache: none, lmt-wr (LMT with weight-based replacement), "
             "lmt-scwr (LMT with second-chance weight-based replacement) or lru (one hash slot "
             "per address)",
             std::nullopt,
             {"none", "lmt-wr", "lmt-scwr", "lru"}},
            {"ftl.nftl.cache_bytes", &cache_bytes,
             "Memory threshold of the NFTL translation cache, bytes (20-byte translation units "
             "and LRU slots, LMT nodes of ftl.nftl.lmt_fanout)",
             config::at_least(1)},
            {"ftl.nftl.lmt_fanout", &lmt_fanout,
             "Child ranges per LMT translation node (the paper's 9, 19 and 41 give 128-, 256- "
             "and 512-byte nodes)",
             config::closed(3, 1024)},
            {"ftl.nftl.cache_fill_on_read", &cache_fill_on_read,
             "Whether a read that misses the NFTL translation cache inserts the translation its "
             "spare-area search found (the paper inserts on writes only)"},
            {"ftl.nftl.cache_on_fold",
             &cache_on_fold,
             "What a fold tells the NFTL translation cache: update (the block's new pages: LMT "
             "records one translation unit, LRU corrects the slots it holds) or forget (drop "
             "what it holds for the block)",
             std::nullopt,
             {"update", "forget"}}};
  }
};

}  // namespace ssd::ftl
