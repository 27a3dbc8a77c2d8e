// DFTL against the integrity oracle: the cached mapping table's misses, evictions and dirty
// write-back, translation pages kept current through GC, then a million random and a million
// sequential commands on a full device with a small cache, in both mapping-unit modes.
#include "ftl/dftl/dftl.h"

#include <gtest/gtest.h>

#include <vector>

#include "ftl/core/ftl_device.h"
#include "ftl/core/preconditioner.h"
#include "ftl/dftl/dftl_settings.h"
#include "tests/ftl/dftl/dftl_checks.h"
#include "tests/ftl/scheme_workloads.h"
#include "tests/ftl/tiny_platform.h"

namespace ssd::ftl {
namespace {

using testing::run_one;

using testing::dftl_platform;

void check_invariants(FtlDevice& device) {
  ASSERT_NO_FATAL_FAILURE(testing::expect_dftl_invariants(device));
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
