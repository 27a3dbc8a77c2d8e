// The LRU baseline of shared/papers/lmt-translation-caching.md, section 6.1: one 20-byte slot per
// logical unit, as many as the threshold holds; a hit makes a slot the most recently used; the
// least recently used slot makes room for a new one; a rewrite refreshes its slot; a relocation
// corrects the slots held without adding any or changing their recency; and the work each call
// counts.
#include "ftl/translation_cache/lru_translation_cache.h"

#include <gtest/gtest.h>

#include <list>
#include <random>
#include <unordered_map>

#include "tests/ftl/translation_cache/expect_work.h"

namespace ssd::ftl {
namespace {

constexpr Lun kA = 10, kB = 20, kC = 30, kD = 40;

// A cache of `slots` slots holding units kA, kB and kC (pages 1, 2, 3, written in that order).
struct ThreeUnits {
  explicit ThreeUnits(uint32_t slots = 3) : cache(uint64_t(slots) * 20) {
    cache.insert(kA, 1, 1, work);
    cache.insert(kB, 2, 1, work);
    cache.insert(kC, 3, 1, work);
  }
  LruTranslationCache cache;
  CpuWork work;
  PageId lookup(Lun lun) { return cache.lookup(lun, work); }
};

TEST(LruTranslationCache, ItHoldsOneTwentyByteSlotPerUnitTheThresholdAffords) {
  EXPECT_EQ(LruTranslationCache(20).capacity(), 1u);
  EXPECT_EQ(LruTranslationCache(60).capacity(), 3u);
  EXPECT_EQ(LruTranslationCache(79).capacity(), 3u);
  EXPECT_EQ(LruTranslationCache(65536).capacity(), 3276u);
  LruTranslationCache cache(1000);
  EXPECT_EQ(cache.slots_used(), 0u);
  EXPECT_EQ(cache.memory_bytes(), 0u);
  CpuWork work;
  EXPECT_EQ(cache.lookup(5, work), kNone);
}

TEST(LruTranslationCache, AnInsertOfSeveralUnitsTakesOneSlotPerUnit) {
  LruTranslationCache cache(200);  // ten slots
  CpuWork work;
  cache.insert(100, 5000, 4, work);
  EXPECT_EQ(cache.slots_used(), 4u);
  EXPECT_EQ(cache.memory_bytes(), 80u);
  for (Lun i = 0; i < 4; ++i) EXPECT_EQ(cache.lookup(100 + i, work), 5000 + i);
  EXPECT_EQ(cache.lookup(99, work), kNone);
  EXPECT_EQ(cache.lookup(104, work), kNone);
  cache.insert(102, 7000, 4, work);  // two refreshed, two new
  EXPECT_EQ(cache.slots_used(), 6u);
  for (Lun i = 0; i < 2; ++i) EXPECT_EQ(cache.lookup(100 + i, work), 5000 + i);
  for (Lun i = 0; i < 4; ++i) EXPECT_EQ(cache.lookup(102 + i, work), 7000 + i);
}

TEST(LruTranslationCache, TheLeastRecentlyUsedSlotMakesRoomAndAHitMakesASlotMostRecent) {
  ThreeUnits t;
  EXPECT_EQ(t.lookup(kA), 1u);  // kA is the most recently used now: kB the least
  EXPECT_EQ(t.cache.stats().replacements, 0u);
  t.cache.insert(kD, 4, 1, t.work);
  EXPECT_EQ(t.cache.slots_used(), 3u);
  EXPECT_EQ(t.cache.stats().replacements, 1u);
  EXPECT_EQ(t.lookup(kB), kNone);
  EXPECT_EQ(t.lookup(kA), 1u);
  EXPECT_EQ(t.lookup(kC), 3u);
  EXPECT_EQ(t.lookup(kD), 4u);
}

TEST(LruTranslationCache, WithoutHitsSlotsGoInTheOrderTheyWereWritten) {
  ThreeUnits t;
  t.cache.insert(kD, 4, 1, t.work);
  t.cache.insert(kD + 1, 5, 1, t.work);
  EXPECT_EQ(t.lookup(kA), kNone);
  EXPECT_EQ(t.lookup(kB), kNone);
  EXPECT_EQ(t.lookup(kC), 3u);
  EXPECT_EQ(t.lookup(kD), 4u);
  EXPECT_EQ(t.lookup(kD + 1), 5u);
}

TEST(LruTranslationCache, ARewriteRefreshesItsSlotWithTheNewPageAndMakesItMostRecent) {
  ThreeUnits t;
  t.cache.insert(kA, 11, 1, t.work);
  EXPECT_EQ(t.cache.slots_used(), 3u);
  EXPECT_EQ(t.cache.stats().replacements, 0u);
  t.cache.insert(kD, 4, 1, t.work);  // kB is the least recently used
  EXPECT_EQ(t.lookup(kB), kNone);
  EXPECT_EQ(t.lookup(kA), 11u);
  EXPECT_EQ(t.lookup(kC), 3u);
}

TEST(LruTranslationCache, ARelocationCorrectsHeldSlotsAndAddsNone) {
  LruTranslationCache cache(200);  // ten slots
  CpuWork work;
  cache.insert(0, 100, 2, work);
  cache.insert(40, 300, 1, work);
  cache.relocate(0, 900, 32, work);
  EXPECT_EQ(cache.slots_used(), 3u);
  EXPECT_EQ(cache.lookup(0, work), 900u);
  EXPECT_EQ(cache.lookup(1, work), 901u);
  for (Lun lun = 2; lun < 32; ++lun) EXPECT_EQ(cache.lookup(lun, work), kNone) << lun;
  EXPECT_EQ(cache.lookup(40, work), 300u);
  EXPECT_EQ(cache.slots_used(), 3u);
  EXPECT_EQ(cache.stats().insertions, 3u);  // insert() and relocate() calls
}

TEST(LruTranslationCache, ForgetFreesTheSlotsOfTheRangeForNewUnits) {
  ThreeUnits t;
  t.cache.forget(kB, kC - kB + 1, t.work);  // kB and kC, and the absent units between
  EXPECT_EQ(t.cache.slots_used(), 1u);
  EXPECT_EQ(t.cache.memory_bytes(), 20u);
  EXPECT_EQ(t.lookup(kB), kNone);
  EXPECT_EQ(t.lookup(kC), kNone);
  t.cache.insert(kD, 4, 1, t.work);  // a freed slot, no eviction
  t.cache.insert(kB, 5, 1, t.work);
  EXPECT_EQ(t.cache.stats().replacements, 0u);
  EXPECT_EQ(t.lookup(kA), 1u);
  EXPECT_EQ(t.lookup(kD), 4u);
  EXPECT_EQ(t.lookup(kB), 5u);
  t.cache.insert(kC, 6, 1, t.work);  // full again: the least recently used (kA) goes
  EXPECT_EQ(t.lookup(kA), kNone);
  EXPECT_EQ(t.lookup(kC), 6u);
}

TEST(LruTranslationCache, ARelocationDoesNotMakeASlotMoreRecent) {
  ThreeUnits t;
  t.cache.relocate(kA, 21, 1, t.work);  // kA stays the least recently used
  t.cache.insert(kD, 4, 1, t.work);
  EXPECT_EQ(t.lookup(kA), kNone);
  EXPECT_EQ(t.lookup(kB), 2u);
  EXPECT_EQ(t.lookup(kC), 3u);
  EXPECT_EQ(t.lookup(kD), 4u);
}

TEST(LruTranslationCache, AWriteLargerThanTheCacheKeepsItFullAndNeverWrong) {
  ThreeUnits t;
  t.cache.insert(100, 700, 8, t.work);
  EXPECT_EQ(t.cache.slots_used(), 3u);
  EXPECT_LE(t.cache.memory_bytes(), 60u);
  EXPECT_GT(t.cache.stats().replacements, 0u);
  for (Lun lun : {kA, kB, kC}) EXPECT_EQ(t.lookup(lun), kNone);
  uint32_t hits = 0;
  for (Lun i = 0; i < 8; ++i) {
    const PageId page = t.lookup(100 + i);
    EXPECT_TRUE(page == kNone || page == 700 + i) << i;
    hits += page != kNone;
  }
  EXPECT_EQ(hits, 3u);
}

// The textbook LRU: a list, most recently used first, and where each held unit sits in it.
class ReferenceLru {
 public:
  explicit ReferenceLru(uint32_t capacity) : m_capacity(capacity) {}
  PageId lookup(Lun lun) {
    const auto it = m_held.find(lun);
    if (it == m_held.end()) return kNone;
    m_order.splice(m_order.begin(), m_order, it->second.second);
    return it->second.first;
  }
  bool insert(Lun lun, PageId page) {  // whether a slot was evicted
    if (const auto it = m_held.find(lun); it != m_held.end()) {
      it->second.first = page;
      m_order.splice(m_order.begin(), m_order, it->second.second);
      return false;
    }
    const bool evict = m_held.size() == m_capacity;
    if (evict) {
      m_held.erase(m_order.back());
      m_order.pop_back();
    }
    m_order.push_front(lun);
    m_held[lun] = {page, m_order.begin()};
    return evict;
  }
  void relocate(Lun lun, PageId page) {
    if (const auto it = m_held.find(lun); it != m_held.end()) it->second.first = page;
  }
  size_t size() const { return m_held.size(); }

 private:
  uint32_t m_capacity;
  std::list<Lun> m_order;
  std::unordered_map<Lun, std::pair<PageId, std::list<Lun>::iterator>> m_held;
};

TEST(LruTranslationCache, MatchesTheTextbookLruOverRandomSingleUnitWritesRelocationsAndReads) {
  for (uint32_t capacity : {1u, 2u, 3u, 17u, 64u}) {
    SCOPED_TRACE(testing::Message() << "capacity " << capacity);
    LruTranslationCache cache(uint64_t(capacity) * 20);
    ReferenceLru reference(capacity);
    std::mt19937 rng(capacity);
    CpuWork work;
    PageId next_page = 0;
    uint64_t evictions = 0;
    for (uint32_t op = 0; op < 20000; ++op) {
      const uint32_t r = rng() % 10;
      const Lun lun = rng() % (2 * capacity + 4);
      if (r < 4) {
        cache.insert(lun, next_page, 1, work);
        evictions += reference.insert(lun, next_page++);
      } else if (r < 5) {
        const uint32_t count = 1 + rng() % 8;
        cache.relocate(lun, next_page, count, work);
        for (uint32_t i = 0; i < count; ++i) reference.relocate(lun + i, next_page + i);
        next_page += count;
      } else {
        ASSERT_EQ(cache.lookup(lun, work), reference.lookup(lun)) << "op " << op << " unit " << lun;
      }
      ASSERT_EQ(cache.slots_used(), reference.size()) << "op " << op;
    }
    EXPECT_EQ(cache.stats().replacements, evictions);
  }
}

TEST(LruTranslationCache, EachCallCountsItsWorkIntoTheCallersCounterAndTheStats) {
  LruTranslationCache cache(400);  // twenty slots
  CpuWork lookups;
  CpuWork insertions;
  for (Lun lun = 0; lun < 60; lun += 2) cache.insert(lun, 1000 + lun, 1, insertions);
  uint64_t hits = 0;
  for (Lun lun = 0; lun < 60; ++lun) hits += cache.lookup(lun, lookups) != kNone;
  cache.relocate(0, 5000, 60, insertions);
  const TranslationCacheStats& s = cache.stats();
  EXPECT_EQ(hits, 20u);  // the last twenty written of thirty
  EXPECT_EQ(s.lookups, 60u);
  EXPECT_EQ(s.hits, hits);
  EXPECT_EQ(s.insertions, 31u);
  EXPECT_GT(s.replacements, 0u);
  EXPECT_GT(lookups.hash_probes, 0u);
  EXPECT_GT(insertions.hash_probes, 0u);
  expect_same_work(s.lookup_work, lookups);
  expect_same_work(s.insertion_work, insertions);
}

}  // namespace
}  // namespace ssd::ftl
