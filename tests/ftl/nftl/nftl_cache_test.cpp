// NFTL with a translation cache in front of its backward search (ftl.nftl.cache): a hit needs no
// spare-area read, a miss searches as before, folds and rewrites never leave the cache with an
// old page (the oracle checks every read), and the cache's work reaches the FTL processor.
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "ftl/nftl/nftl.h"
#include "ftl/nftl/nftl_settings.h"
#include "tests/ftl/hybrid/block_scheme_fixture.h"

namespace ssd::ftl {
namespace {

using testing::run_one;

config::PlatformConfig cached_platform(const std::string& cache, uint64_t bytes) {
  config::PlatformConfig p = testing::tiny_platform();
  p.ftl.scheme = "nftl";
  NftlSettings& s = p.ftl.settings.edit<NftlSettings>();
  s.cache = cache;
  s.cache_bytes = bytes;
  return p;
}

class NftlCacheTest : public ::testing::TestWithParam<std::string> {
 protected:
  config::PlatformConfig platform = cached_platform(GetParam(), 64 * 1024);
  FtlDevice device{platform, FtlDeviceOptions{}};
  const Geometry& g = device.geometry();
  uint32_t spu = g.sectors_per_unit;
  uint32_t ppb = g.pages_per_block;

  const Nftl& scheme() const { return dynamic_cast<const Nftl&>(device.scheme()); }
  void write_units(Lun first, uint32_t count) {
    run_one(device, CommandKind::kWrite, uint64_t(first) * spu, count * spu);
  }
  uint64_t read_units(Lun first, uint32_t count) {
    return run_one(device, CommandKind::kRead, uint64_t(first) * spu, count * spu);
  }
  // Spare-area reads of the last command (backend().ops() holds one command's operations).
  size_t spare_reads() {
    size_t n = 0;
    for (const FlashOp& op : device.backend().ops().ops()) n += op.kind == OpKind::kSpareRead;
    return n;
  }
};

TEST_P(NftlCacheTest, AMissSearchesTheReplacementBlockAsWithoutACache) {
  config::PlatformConfig p = cached_platform(GetParam(), 64 * 1024);
  p.ftl.settings.edit<NftlSettings>().cache = "none";
  FtlDevice plain(p, FtlDeviceOptions{});
  // The same writes on both, then the cache is made to forget unit 2 by evicting it: a device
  // whose cache holds one slot (LRU) or a root and a unit (LMT).
  config::PlatformConfig small = cached_platform(
      GetParam(),
      minimum_cache_bytes(TranslationCacheOptions{GetParam(), 0, NftlSettings{}.lmt_fanout}));
  FtlDevice forgetful(small, FtlDeviceOptions{});
  for (FtlDevice* d : {&plain, &forgetful}) {
    run_one(*d, CommandKind::kWrite, 0, 8 * spu);
    run_one(*d, CommandKind::kWrite, 2 * spu, spu);  // replacement page 0
    run_one(*d, CommandKind::kWrite, 6 * spu, spu);  // replacement page 1: evicts unit 2
  }
  const auto spare_of = [](FtlDevice& d) {
    size_t n = 0;
    for (const FlashOp& op : d.backend().ops().ops()) n += op.kind == OpKind::kSpareRead;
    return n;
  };
  EXPECT_EQ(run_one(plain, CommandKind::kRead, 2 * spu, spu), 0u);
  EXPECT_EQ(run_one(forgetful, CommandKind::kRead, 2 * spu, spu), 0u);
  EXPECT_EQ(spare_of(plain), 2u);  // replacement pages 1 and 0, newest first
  EXPECT_EQ(spare_of(forgetful), 2u);
}

TEST_P(NftlCacheTest, AHitNeedsNoSpareAreaReadAndReturnsTheNewestData) {
  write_units(0, 8);
  write_units(3, 1);  // replacement page 0
  write_units(5, 1);  // replacement page 1
  write_units(3, 1);  // replacement page 2: the newest copy of unit 3
  ASSERT_NE(scheme().replacement(0), kNone);
  // Every unit read was written since the cache was built: all hits, no search.
  EXPECT_EQ(read_units(3, 1), 0u) << device.oracle()->first_mismatch();
  EXPECT_EQ(spare_reads(), 0u);
  EXPECT_EQ(read_units(5, 1), 0u);
  EXPECT_EQ(spare_reads(), 0u);
  EXPECT_EQ(read_units(0, 8), 0u);
  EXPECT_EQ(spare_reads(), 0u);
  const TranslationCacheStats& stats = scheme().cache()->stats();
  EXPECT_EQ(stats.lookups, 10u);
  EXPECT_EQ(stats.hits, 10u);
}

TEST_P(NftlCacheTest, AFoldMovesTheCachedPagesAlong) {
  write_units(0, ppb);
  for (uint32_t i = 0; i < ppb; ++i) write_units(i % 5, 1);  // fills the replacement block
  write_units(7, 1);                                         // folds
  ASSERT_EQ(scheme().replacement(0), kNone);
  EXPECT_EQ(read_units(0, ppb), 0u) << device.oracle()->first_mismatch();
  EXPECT_EQ(spare_reads(), 0u);
  const PageId fresh = g.first_page(scheme().primary(0));
  for (Lun lun = 0; lun < ppb; ++lun) EXPECT_EQ(scheme().peek(lun), fresh + lun);
}

TEST_P(NftlCacheTest, TheCachesWorkIsPricedByTheFtlProcessor) {
  write_units(0, 4);
  const CpuWork before = device.backend().cpu();
  read_units(2, 1);
  const CpuWork spent = device.backend().cpu() - before;
  EXPECT_GT(spent.tree_nodes + spent.hash_probes, 0u);
}

// A million random commands on a device filled first (a fifth of it overwritten), the oracle
// checking every read; then `after` looks at the cache.
void million_commands_on_a_full_device(const config::PlatformConfig& p, uint64_t seed,
                                       const std::function<void(const TranslationCache&)>& after) {
  FtlDevice full(p, FtlDeviceOptions{});
  config::PreconditionConfig fill;
  fill.fill_ratio = 1.0;
  fill.overwrite_ratio = 0.2;
  precondition(full, fill);
  const auto check = [&full] { testing::check_block_scheme(full); };
  EXPECT_EQ(testing::run_random(full, 1'000'000, seed, check, 250'000), 0u)
      << full.oracle()->first_mismatch();
  after(*dynamic_cast<const Nftl&>(full.scheme()).cache());
}

// The cache never answers with an old page through writes, folds and GC, under a small threshold
// that keeps it replacing all the time.
TEST_P(NftlCacheTest, MillionRandomCommandsOnAFullDeviceUnderASmallThreshold) {
  million_commands_on_a_full_device(cached_platform(GetParam(), 2048), 44,
                                    [](const TranslationCache& cache) {
                                      EXPECT_GT(cache.stats().hits, 10'000u);
                                      EXPECT_GT(cache.stats().replacements, 1'000u);
                                      EXPECT_LE(cache.memory_bytes(), 2048u);
                                    });
}

TEST_P(NftlCacheTest, MillionRandomCommandsWithFoldsThatMakeTheCacheForget) {
  config::PlatformConfig p = cached_platform(GetParam(), 2048);
  p.ftl.settings.edit<NftlSettings>().cache_on_fold = "forget";
  million_commands_on_a_full_device(
      p, 45, [](const TranslationCache& cache) { EXPECT_GT(cache.stats().hits, 10'000u); });
}

TEST_P(NftlCacheTest, AFoldThatMakesTheCacheForgetLeavesTheBlocksUnitsToTheSearch) {
  config::PlatformConfig p = cached_platform(GetParam(), 64 * 1024);
  p.ftl.settings.edit<NftlSettings>().cache_on_fold = "forget";
  FtlDevice d(p, FtlDeviceOptions{});
  run_one(d, CommandKind::kWrite, 0, ppb * spu);
  for (uint32_t i = 0; i < ppb; ++i) run_one(d, CommandKind::kWrite, (i % 5) * spu, spu);
  run_one(d, CommandKind::kWrite, 7 * spu, spu);  // folds; unit 7 is then inserted
  const auto& nftl = dynamic_cast<const Nftl&>(d.scheme());
  const uint64_t hits = nftl.cache()->stats().hits;
  EXPECT_EQ(run_one(d, CommandKind::kRead, 3 * spu, spu), 0u);  // forgotten: a miss
  EXPECT_EQ(nftl.cache()->stats().hits, hits);
  EXPECT_EQ(run_one(d, CommandKind::kRead, 7 * spu, spu), 0u);  // written after the fold: a hit
  EXPECT_EQ(nftl.cache()->stats().hits, hits + 1);
}

INSTANTIATE_TEST_SUITE_P(Kinds, NftlCacheTest, ::testing::Values("lru", "lmt-wr", "lmt-scwr"),
                         [](const auto& info) {
                           std::string name = info.param;
                           for (char& c : name) c = c == '-' ? '_' : c;
                           return name;
                         });

TEST(NftlCache, WithoutACacheEveryLookupSearchesAndNoneIsCounted) {
  config::PlatformConfig p = cached_platform("none", 0);
  FtlDevice device(p, FtlDeviceOptions{});
  const uint32_t spu = device.geometry().sectors_per_unit;
  run_one(device, CommandKind::kWrite, 0, 4 * spu);
  run_one(device, CommandKind::kWrite, 2 * spu, spu);  // unit 2 in the replacement block
  run_one(device, CommandKind::kRead, 0, 4 * spu);
  const auto& nftl = dynamic_cast<const Nftl&>(device.scheme());
  EXPECT_EQ(nftl.cache(), nullptr);
  EXPECT_EQ(device.scheme().cache_hit_ratio(), std::nullopt);
  const auto figure = [&](const std::string& name) {
    for (const MappingFigure& f : nftl.mapping_figures()) {
      if (f.name == name) return f.value;
    }
    ADD_FAILURE() << name;
    return -1.0;
  };
  EXPECT_EQ(figure("searches"), 4.0);
  EXPECT_EQ(figure("search_spare_reads"), 4.0);  // the one replacement page, for each unit
  EXPECT_EQ(figure("cache_lookups"), 0.0);
  EXPECT_EQ(figure("cache_bytes_used"), 0.0);
}

TEST(NftlCache, ReadFillInsertsWhatAMissFound) {
  config::PlatformConfig p = cached_platform("lru", 40);  // two slots
  p.ftl.settings.edit<NftlSettings>().cache_fill_on_read = true;
  FtlDevice device(p, FtlDeviceOptions{});
  const uint32_t spu = device.geometry().sectors_per_unit;
  for (Lun lun = 0; lun < 4; ++lun) run_one(device, CommandKind::kWrite, lun * spu, spu);
  run_one(device, CommandKind::kWrite, 0, spu);  // replacement block: unit 0's newest copy
  run_one(device, CommandKind::kWrite, 3 * spu, spu);
  // Slots now hold units 0 and 3; unit 1 misses, searches, and is then cached.
  const auto& nftl = dynamic_cast<const Nftl&>(device.scheme());
  run_one(device, CommandKind::kRead, spu, spu);
  EXPECT_EQ(nftl.cache()->stats().hits, 0u);
  run_one(device, CommandKind::kRead, spu, spu);
  EXPECT_EQ(nftl.cache()->stats().hits, 1u);
  EXPECT_EQ(device.oracle()->mismatches(), 0u);
}

}  // namespace
}  // namespace ssd::ftl
