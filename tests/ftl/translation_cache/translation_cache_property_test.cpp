// Every cache kind (lru, lmt-wr, lmt-scwr) at fanouts 9, 19 and 41 and thresholds of 256, 2048 and
// 65536 bytes, driven by 20,000 random writes (four seeds each; some continuing a previous one's
// units and pages, so that units merge; some strictly inside a recent one), garbage-collection
// relocations of aligned 32-unit ranges (told as relocate or as forget) and lookups, with pages
// from one growing log or from four streams whose writes interleave, against a reference of each
// unit's newest page: a lookup answers kNone or exactly that page, the memory stays under the
// threshold after every call, the LMT tree's structure holds every 100 operations, the stats count
// what was done, and a large cache hits.
#include <gtest/gtest.h>

#include <memory>
#include <random>
#include <string>
#include <vector>

#include "ftl/translation_cache/lmt_tree.h"
#include "ftl/translation_cache/translation_cache.h"

namespace ssd::ftl {
namespace {

constexpr Lun kUnits = 4096;
constexpr uint32_t kOperations = 20000;
constexpr uint32_t kSeeds = 4;  // runs per combination, each from its own seed
constexpr uint64_t kThresholds[] = {256, 2048, 65536};

// The paper's node sizes, so that too-small combinations are skipped without asking the code
// under test.
uint64_t paper_minimum(const std::string& kind, uint32_t fanout) {
  if (kind == "lru") return 20;
  return (fanout == 9 ? 128 : fanout == 19 ? 256 : 512) + 20;
}

struct Run {
  uint64_t lookups = 0;
  uint64_t hits = 0;
  uint64_t insertions = 0;
  CpuWork lookup_work;
  CpuWork insertion_work;
};

void check_lookup(TranslationCache& cache, Run& run, const std::vector<PageId>& newest, Lun lun,
                  uint32_t op) {
  const PageId page = cache.lookup(lun, run.lookup_work);
  ++run.lookups;
  run.hits += page != kNone;
  ASSERT_TRUE(page == kNone || page == newest[lun])
      << "op " << op << ": unit " << lun << " answered " << page << ", newest is " << newest[lun];
}

void check_structure(TranslationCache& cache, uint32_t fanout, uint32_t op) {
  const auto* tree = dynamic_cast<const LmtTree*>(&cache);
  if (tree == nullptr) return;
  ASSERT_NO_THROW(tree->check_invariants()) << "op " << op;
  ASSERT_EQ(tree->memory_bytes(), uint64_t(tree->nodes()) * LmtTree::node_bytes(fanout) +
                                      uint64_t(tree->units()) * LmtTree::kUnitBytes)
      << "op " << op;
}

// A write stream: its own run of pages, like one of NFTL's replacement blocks. With one stream
// every page follows the last; with several, writes elsewhere come between a unit and the next
// one whose pages continue it.
struct Stream {
  PageId next_page = 0;
  Lun start = 0;  // its last write
  Lun end = 0;
};

void run_random(const std::string& kind, uint32_t fanout, uint64_t threshold, uint32_t streams,
                uint32_t seed) {
  SCOPED_TRACE(testing::Message() << kind << " fanout " << fanout << " threshold " << threshold
                                  << " streams " << streams << " seed " << seed);
  const std::unique_ptr<TranslationCache> cache = make_translation_cache({kind, threshold, fanout});
  ASSERT_NE(cache, nullptr);
  std::mt19937 rng(uint32_t(threshold * 131 + fanout * 7 + streams + 1000 * seed));
  std::vector<PageId> newest(kUnits, kNone);
  std::vector<Stream> stream(streams + 1);  // the last one is garbage collection's
  for (uint32_t k = 0; k <= streams; ++k) stream[k].next_page = PageId(k) << 24;
  Stream& gc = streams == 1 ? stream[0] : stream[streams];  // one stream: one log for all
  struct Range {
    Lun start;
    Lun end;
  };
  std::vector<Range> recent(8, Range{0, 1});  // the last eight writes, oldest overwritten first
  uint32_t written = 0;
  Run run;
  enum class Told { kInsert, kRelocate, kForget };  // what the cache hears of the write
  const auto write = [&](Stream& to, Lun lun, uint32_t count, Told told) {
    if (lun + count > kUnits) count = kUnits - lun;
    if (count == 0) return;
    switch (told) {
      case Told::kInsert:
        cache->insert(lun, to.next_page, count, run.insertion_work);
        break;
      case Told::kRelocate:
        cache->relocate(lun, to.next_page, count, run.insertion_work);
        break;
      case Told::kForget:  // the units moved, and the cache only hears to drop them
        cache->forget(lun, count, run.insertion_work);
        break;
    }
    ++run.insertions;
    for (uint32_t i = 0; i < count; ++i) newest[lun + i] = to.next_page + i;
    to.next_page += count;
    to.start = lun;
    to.end = lun + count;
    recent[written++ % recent.size()] = Range{lun, lun + count};
  };
  const auto any_stream = [&]() -> Stream& { return stream[rng() % streams]; };
  for (uint32_t op = 0; op < kOperations; ++op) {
    const uint32_t r = rng() % 100;
    if (r < 15) {  // a write anywhere
      write(any_stream(), rng() % kUnits, 1 + rng() % 16, Told::kInsert);
    } else if (r < 27) {  // a stream's next units on its next pages: merges with its last write
      Stream& s = any_stream();
      write(s, s.end % kUnits, 1 + rng() % 16, Told::kInsert);
    } else if (r < 35) {  // a hot region, rewritten often: overlaps, trims and cuts
      write(any_stream(), rng() % 128, 1 + rng() % 16, Told::kInsert);
    } else if (r < 47) {  // strictly inside a recent write: an older unit around a newer one
      const Range around = recent[rng() % recent.size()];
      if (around.end - around.start >= 3) {
        const Lun lun = around.start + 1 + rng() % (around.end - around.start - 2);
        write(any_stream(), lun, 1 + rng() % (around.end - 1 - lun), Told::kInsert);
      }
    } else if (r < 50) {  // pages that continue nothing: not every write follows the last
      Stream& s = any_stream();
      s.next_page += 1 + rng() % 3;
      write(s, rng() % kUnits, 1 + rng() % 16, Told::kInsert);
    } else if (r < 53) {  // garbage collection folds a block's worth of units
      write(gc, 32 * (rng() % (kUnits / 32)), 32, rng() % 2 ? Told::kRelocate : Told::kForget);
    } else if (r < 68) {  // a read anywhere
      check_lookup(*cache, run, newest, rng() % kUnits, op);
    } else if (r < 90) {  // a read around a recent write (an older unit around it moves up)
      const Range around = recent[rng() % recent.size()];
      const Lun lun = around.start + kUnits - 2 + rng() % (around.end - around.start + 4);
      check_lookup(*cache, run, newest, lun % kUnits, op);
    } else {  // a read in the hot region
      check_lookup(*cache, run, newest, rng() % 144, op);
    }
    if (testing::Test::HasFatalFailure()) return;
    ASSERT_LE(cache->memory_bytes(), threshold) << "op " << op;
    if (op % 100 == 99) {
      check_structure(*cache, fanout, op);
      if (testing::Test::HasFatalFailure()) return;
    }
  }
  for (Lun lun = 0; lun < kUnits; ++lun) {  // nothing anywhere is stale at the end
    check_lookup(*cache, run, newest, lun, kOperations);
    if (testing::Test::HasFatalFailure()) return;
  }
  check_structure(*cache, fanout, kOperations);

  const TranslationCacheStats& s = cache->stats();
  EXPECT_EQ(s.lookups, run.lookups);
  EXPECT_EQ(s.hits, run.hits);
  EXPECT_EQ(s.insertions, run.insertions);
#define SSD_EXPECT_FIELD(count, unit, default_cycles, is_mapping, description) \
  EXPECT_EQ(s.lookup_work.count, run.lookup_work.count) << #count;             \
  EXPECT_EQ(s.insertion_work.count, run.insertion_work.count) << #count;
  SSD_CPU_PRIMITIVES(SSD_EXPECT_FIELD)
#undef SSD_EXPECT_FIELD
  if (threshold < 65536) {
    EXPECT_GT(s.replacements, 0u);  // far fewer than 4096 units fit
  } else {
    EXPECT_GT(s.hits, 0u);  // the cache does something
  }
}

void run_all_sizes(const std::string& kind, std::initializer_list<uint32_t> fanouts) {
  uint32_t runs = 0;
  for (uint32_t fanout : fanouts) {
    for (uint64_t threshold : kThresholds) {
      if (threshold < paper_minimum(kind, fanout)) continue;
      for (uint32_t streams : {1u, 4u}) {
        for (uint32_t seed = 0; seed < kSeeds; ++seed) {
          run_random(kind, fanout, threshold, streams, seed);
          if (testing::Test::HasFatalFailure()) return;
          ++runs;
        }
      }
    }
  }
  EXPECT_GT(runs, 0u);
}

TEST(TranslationCacheProperty, LruNeverAnswersWithAnOldPageAndStaysUnderItsThreshold) {
  run_all_sizes("lru", {9});  // the fanout means nothing to it
}

TEST(TranslationCacheProperty, LmtWithWeightReplacementNeverAnswersWithAnOldPage) {
  run_all_sizes("lmt-wr", {9, 19, 41});
}

TEST(TranslationCacheProperty, LmtWithSecondChanceReplacementNeverAnswersWithAnOldPage) {
  run_all_sizes("lmt-scwr", {9, 19, 41});
}

}  // namespace
}  // namespace ssd::ftl
