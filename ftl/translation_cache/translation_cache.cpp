#include "ftl/translation_cache/translation_cache.h"

#include <stdexcept>
#include <string>

#include "ftl/translation_cache/lmt_tree.h"
#include "ftl/translation_cache/lru_translation_cache.h"

namespace ssd::ftl {

uint64_t minimum_cache_bytes(const TranslationCacheOptions& options) {
  if (options.kind == "lru") return LruTranslationCache::kSlotBytes;
  if (options.kind == "lmt-wr" || options.kind == "lmt-scwr") {
    return LmtTree::node_bytes(options.fanout) + LmtTree::kUnitBytes;
  }
  return 0;
}

std::unique_ptr<TranslationCache> make_translation_cache(const TranslationCacheOptions& options) {
  if (options.kind == "none") return nullptr;
  if (options.bytes < minimum_cache_bytes(options)) {
    throw std::invalid_argument(
        "translation cache \"" + options.kind + "\": " + std::to_string(options.bytes) +
        " bytes is below its least " + std::to_string(minimum_cache_bytes(options)));
  }
  if (options.kind == "lru") return std::make_unique<LruTranslationCache>(options.bytes);
  if (options.kind == "lmt-wr") {
    return std::make_unique<LmtTree>(options.bytes, options.fanout, LmtReplacement::kWeight);
  }
  if (options.kind == "lmt-scwr") {
    return std::make_unique<LmtTree>(options.bytes, options.fanout, LmtReplacement::kSecondChance);
  }
  throw std::invalid_argument("unknown translation cache \"" + options.kind +
                              "\" (none, lru, lmt-wr or lmt-scwr)");
}

}  // namespace ssd::ftl
