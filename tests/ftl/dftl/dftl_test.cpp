// DFTL against the integrity oracle: the cached mapping table's misses, evictions and dirty
// write-back, translation pages kept current through GC, then a million random and a million
// sequential commands on a full device with a small cache, in both mapping-unit modes.
#include "ftl/dftl/dftl.h"

#include <gtest/gtest.h>

#include <vector>

#include "ftl/core/ftl_device.h"
#include "ftl/core/preconditioner.h"
#include "ftl/dftl/dftl_settings.h"
#include "tests/ftl/scheme_workloads.h"
#include "tests/ftl/tiny_platform.h"

namespace ssd::ftl {
namespace {

using testing::run_one;

config::PlatformConfig dftl_platform(uint32_t unit_bytes, uint32_t cache_entries) {
  config::PlatformConfig p = testing::tiny_platform(unit_bytes);
  p.ftl.scheme = "dftl";
  p.ftl.settings.edit<DftlSettings>().cache_entries = cache_entries;
  return p;
}

// Every data unit is where the map says with the oracle's token and its number in the spare
// area; every translation page is where the GTD says; per-block valid counts match exactly; no
// translation page is left stale after a command.
void check_invariants(FtlDevice& device) {
  const auto& scheme = dynamic_cast<const Dftl&>(device.scheme());
  const Geometry& g = device.geometry();
  const BlockManager& blocks = scheme.store().blocks();
  std::vector<uint32_t> valid(g.blocks(), 0);
  const auto check_slot = [&](SlotId slot, Lun lun) {
    ++valid[blocks.block_of_slot(slot)];
    if (!scheme.store().buffered(slot)) {
      ASSERT_EQ(device.flash().spare(g.page_of_slot(slot))[g.unit_in_page(slot)], lun) << lun;
    }
  };
  for (Lun lun = 0; lun < g.logical_units; ++lun) {
    const SlotId slot = scheme.slot_of(lun);
    if (slot == kNone) {
      ASSERT_EQ(device.oracle()->expected(lun), 0u) << "unit " << lun << " lost";
      continue;
    }
    ASSERT_EQ(scheme.store().token(slot), device.oracle()->expected(lun)) << "unit " << lun;
    check_slot(slot, lun);
  }
  for (uint32_t t = 0; t < scheme.translation_pages(); ++t) {
    if (scheme.translation_slot(t) != kNone) {
      check_slot(scheme.translation_slot(t), Lun(g.logical_units + t));
    }
  }
  for (BlockId b = 0; b < g.blocks(); ++b) ASSERT_EQ(blocks.valid_units(b), valid[b]) << b;
  ASSERT_LE(scheme.cache().size(), scheme.cache().capacity());
}

class DftlTest : public ::testing::Test {
 protected:
  config::PlatformConfig platform = dftl_platform(0, 4);
  FtlDevice device{platform, FtlDeviceOptions{}};
  const Geometry& g = device.geometry();
  uint32_t spu = g.sectors_per_unit;

  const Dftl& scheme() const { return dynamic_cast<const Dftl&>(device.scheme()); }
  uint64_t write_unit(Lun lun) {
    return run_one(device, CommandKind::kWrite, uint64_t(lun) * spu, spu);
  }
  uint64_t read_unit(Lun lun) {
    return run_one(device, CommandKind::kRead, uint64_t(lun) * spu, spu);
  }
  uint32_t count_ops(OpKind kind) {
    uint32_t n = 0;
    for (const auto& op : device.backend().ops().ops()) n += op.kind == kind;
    return n;
  }
};

TEST_F(DftlTest, EvictionWritesBackDirtyEntriesAndALaterReadFindsThem) {
  const uint32_t per_page = scheme().entries_per_translation_page();
  for (Lun lun = 0; lun < 4; ++lun) write_unit(lun);  // four dirty entries of translation page 0
  EXPECT_EQ(scheme().translation_writes(), 0u);
  EXPECT_EQ(scheme().translation_slot(0), kNone);
  // Four units of translation page 1 push them out: the first eviction writes page 0 once, with
  // all four dirty entries (batch update), the later three evict clean entries.
  for (Lun lun = per_page; lun < per_page + 4; ++lun) write_unit(lun);
  EXPECT_EQ(scheme().translation_writes(), 1u);
  EXPECT_NE(scheme().translation_slot(0), kNone);
  for (Lun lun = 0; lun < 4; ++lun) EXPECT_FALSE(scheme().cache().contains(lun));
  // Reading them back misses, fetches translation page 0 from flash, and finds the data.
  for (Lun lun = 0; lun < 4; ++lun) {
    EXPECT_EQ(read_unit(lun), 0u);
    EXPECT_EQ(count_ops(OpKind::kRead), 2u) << "translation page, then data";
    EXPECT_NE(device.backend().delivered()[0].token, 0u);
  }
  check_invariants(device);
}

TEST_F(DftlTest, CleanEvictionsWriteNothing) {
  for (Lun lun = 0; lun < 8; ++lun) read_unit(lun);
  EXPECT_EQ(scheme().translation_writes(), 0u);
  EXPECT_EQ(count_ops(OpKind::kProgram), 0u);
}

TEST_F(DftlTest, HitsNeedNoTranslationRead) {
  write_unit(3);
  read_unit(3);
  EXPECT_EQ(count_ops(OpKind::kRead), 1u);  // the data only
  ASSERT_TRUE(device.scheme().cache_hit_ratio().has_value());
  EXPECT_DOUBLE_EQ(*device.scheme().cache_hit_ratio(), 0.5);  // write missed, read hit
}

TEST_F(DftlTest, MappingMemoryIsTheCachePlusTheDirectory) {
  // Tiny platform: 6144 logical units (2 bytes), 8192 slots (2 bytes): 4-byte cache entries;
  // 2-byte slots give 2048 entries per 4 KiB translation page, so 3 translation pages.
  EXPECT_EQ(scheme().translation_pages(), 3u);
  EXPECT_EQ(device.scheme().mapping_memory_bytes(), 4u * 4 + 3u * 2);
}

TEST(DftlCacheSize, BytesSetTheEntriesWhenEntriesAreZero) {
  config::PlatformConfig p = dftl_platform(0, 0);
  p.ftl.settings.edit<DftlSettings>().cache_bytes = 400;
  FtlDevice device(p, FtlDeviceOptions{});
  EXPECT_EQ(dynamic_cast<const Dftl&>(device.scheme()).cache().capacity(), 100u);
}

class DftlWorkloads : public ::testing::TestWithParam<uint32_t> {
 protected:
  // 64 cache entries over 6144 (or 12288) units: misses and evictions all the time.
  config::PlatformConfig platform = dftl_platform(GetParam(), 64);
  FtlDevice device{platform, FtlDeviceOptions{}};
  std::function<void()> check = [this] { check_invariants(device); };

  void SetUp() override {
    config::PreconditionConfig fill;
    fill.fill_ratio = 1.0;
    fill.overwrite_ratio = 0.5;
    precondition(device, fill);
    check_invariants(device);
  }
  void expect_gc_and_write_back() {
    const auto& scheme = dynamic_cast<const Dftl&>(device.scheme());
    EXPECT_GT(device.scheme().stats().gc_invocations, 1000u);
    EXPECT_GT(scheme.translation_writes(), 10'000u);
    // The backend counts translation pages as mapping metadata, GC copies as GC writes.
    const WriteCounters& written = device.backend().written();
    EXPECT_EQ(written.of(OpClass::kMapping), scheme.translation_writes());
    EXPECT_EQ(written.of(OpClass::kGc), device.scheme().stats().gc_units_copied);
  }
};

TEST_P(DftlWorkloads, MillionRandomCommandsOnAFullDevice) {
  const uint64_t mismatches = testing::run_random(device, 1'000'000, 42, check);
  EXPECT_EQ(mismatches, 0u) << device.oracle()->first_mismatch();
  EXPECT_GT(device.oracle()->checked_reads(), 300'000u);
  expect_gc_and_write_back();
}

TEST_P(DftlWorkloads, MillionSequentialCommandsOnAFullDevice) {
  const uint64_t mismatches = testing::run_sequential(device, 1'000'000, 43, check);
  EXPECT_EQ(mismatches, 0u) << device.oracle()->first_mismatch();
  EXPECT_GT(device.oracle()->checked_reads(), 300'000u);
  expect_gc_and_write_back();
}

INSTANTIATE_TEST_SUITE_P(UnitSizes, DftlWorkloads, ::testing::Values(0u, 2048u),
                         [](const auto& info) {
                           return info.param == 0 ? std::string("UnitIsPage")
                                                  : std::string("TwoUnitsPerPage");
                         });

}  // namespace
}  // namespace ssd::ftl
