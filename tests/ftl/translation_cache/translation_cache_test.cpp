// Building a translation cache from its options (ftl.nftl.cache, cache_bytes, lmt_fanout): "none"
// builds nothing, "lru" the LRU baseline, "lmt-wr" and "lmt-scwr" the LMT tree with the node size
// of their fanout; an unknown kind or a threshold below the structure's least state (one root node
// and one unit, or one slot) is refused.
#include "ftl/translation_cache/translation_cache.h"

#include <gtest/gtest.h>

#include <stdexcept>

#include "ftl/translation_cache/lmt_tree.h"
#include "ftl/translation_cache/lru_translation_cache.h"

namespace ssd::ftl {
namespace {

TEST(TranslationCacheFactory, NoneBuildsNoCache) {
  EXPECT_EQ(make_translation_cache({"none", 0, 9}), nullptr);
  EXPECT_EQ(make_translation_cache({"none", 65536, 9}), nullptr);
}

TEST(TranslationCacheFactory, LruBuildsTheBaselineWithOneSlotPerTwentyBytes) {
  const auto cache = make_translation_cache({"lru", 2048, 9});
  ASSERT_NE(cache, nullptr);
  const auto* lru = dynamic_cast<const LruTranslationCache*>(cache.get());
  ASSERT_NE(lru, nullptr);
  EXPECT_EQ(lru->capacity(), 102u);
  EXPECT_EQ(cache->memory_bytes(), 0u);
}

TEST(TranslationCacheFactory, LmtKindsBuildTheTreeWithTheirFanoutsNodeSize) {
  for (const char* kind : {"lmt-wr", "lmt-scwr"}) {
    for (uint32_t fanout : {9u, 19u, 41u}) {
      SCOPED_TRACE(testing::Message() << kind << " fanout " << fanout);
      const auto cache = make_translation_cache({kind, 4096, fanout});
      ASSERT_NE(cache, nullptr);
      auto* tree = dynamic_cast<LmtTree*>(cache.get());
      ASSERT_NE(tree, nullptr);
      EXPECT_EQ(cache->memory_bytes(), LmtTree::node_bytes(fanout));  // the root
      CpuWork work;
      for (uint32_t i = 0; i < 300; ++i) cache->insert(7 * i, 3 * i, 2, work);
      EXPECT_LE(cache->memory_bytes(), 4096u);  // the threshold it was built with
      EXPECT_GT(cache->stats().replacements, 0u);
      EXPECT_NO_THROW(tree->check_invariants());
    }
  }
}

TEST(TranslationCacheFactory, TheLeastThresholdIsOneRootAndOneUnitOrOneSlot) {
  EXPECT_EQ(minimum_cache_bytes({"lru", 0, 9}), 20u);
  EXPECT_EQ(minimum_cache_bytes({"lmt-wr", 0, 9}), 128u + 20u);
  EXPECT_EQ(minimum_cache_bytes({"lmt-scwr", 0, 19}), 256u + 20u);
  EXPECT_EQ(minimum_cache_bytes({"lmt-wr", 0, 41}), 512u + 20u);
}

TEST(TranslationCacheFactory, AThresholdBelowTheLeastIsRefusedAndTheLeastItselfWorks) {
  for (const char* kind : {"lru", "lmt-wr", "lmt-scwr"}) {
    for (uint32_t fanout : {9u, 19u, 41u}) {
      SCOPED_TRACE(testing::Message() << kind << " fanout " << fanout);
      TranslationCacheOptions options{kind, 0, fanout};
      const uint64_t least = minimum_cache_bytes(options);
      options.bytes = least - 1;
      EXPECT_THROW(make_translation_cache(options), std::invalid_argument);
      options.bytes = 0;
      EXPECT_THROW(make_translation_cache(options), std::invalid_argument);
      options.bytes = least;
      const auto cache = make_translation_cache(options);
      ASSERT_NE(cache, nullptr);
      CpuWork work;
      for (uint32_t i = 0; i < 50; ++i) {  // scattered writes: one unit or slot at a time fits
        cache->insert(5 * i, 1000 + 9 * i, 1, work);
        ASSERT_LE(cache->memory_bytes(), least);
        const PageId page = cache->lookup(5 * i, work);
        ASSERT_TRUE(page == kNone || page == 1000 + 9 * i);
      }
    }
  }
}

TEST(TranslationCacheFactory, AnUnknownKindIsRefused) {
  EXPECT_THROW(make_translation_cache({"lmt", 65536, 9}), std::invalid_argument);
  EXPECT_THROW(make_translation_cache({"LRU", 65536, 9}), std::invalid_argument);
  EXPECT_THROW(make_translation_cache({"", 65536, 9}), std::invalid_argument);
}

}  // namespace
}  // namespace ssd::ftl
