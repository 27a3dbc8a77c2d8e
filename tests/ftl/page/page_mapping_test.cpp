// Page mapping against the integrity oracle: directed cases, then a million random commands on a
// full device (GC running all the time) with the allocator and GC invariants checked as it goes.
#include "ftl/page/page_mapping.h"

#include <gtest/gtest.h>

#include <vector>

#include "config/scenario_config.h"
#include "ftl/core/ftl_device.h"
#include "ftl/core/preconditioner.h"
#include "ftl/core/random.h"
#include "tests/ftl/page_table_checks.h"
#include "tests/ftl/scheme_workloads.h"
#include "tests/ftl/tiny_platform.h"

namespace ssd::ftl {
namespace {

HostCommand make(CommandKind kind, uint64_t sector, uint32_t count) {
  HostCommand c;
  c.kind = kind;
  c.start_sector = sector;
  c.sector_count = count;
  return c;
}

// The table's invariants (tests/ftl/page_table_checks.h).
void check_invariants(FtlDevice& device) {
  ASSERT_NO_FATAL_FAILURE(testing::expect_page_table_invariants(
      device, dynamic_cast<const PageMapping&>(device.scheme())));
}

class PageMappingTest : public ::testing::TestWithParam<uint32_t> {
 protected:
  config::PlatformConfig platform = testing::tiny_platform(GetParam());
  FtlDevice device{platform, FtlDeviceOptions{}};
  uint32_t spu = device.geometry().sectors_per_unit;

  uint64_t run(CommandKind kind, uint64_t sector, uint32_t count) {
    HostCommand c = make(kind, sector, count);
    return device.run(c);
  }
};

TEST_P(PageMappingTest, ReadOfUnwrittenUnitsReturnsZeroWithoutFlashAccess) {
  EXPECT_EQ(run(CommandKind::kRead, 0, spu * 3), 0u);
  for (const auto& unit : device.backend().delivered()) EXPECT_EQ(unit.token, 0u);
  for (const auto& op : device.backend().ops().ops()) EXPECT_FALSE(is_flash_op(op.kind));
}

TEST_P(PageMappingTest, WrittenDataReadsBack) {
  run(CommandKind::kWrite, spu * 4, spu * 5);
  EXPECT_EQ(run(CommandKind::kRead, spu * 4, spu * 5), 0u);
  EXPECT_EQ(device.oracle()->checked_reads(), 1u);
}

TEST_P(PageMappingTest, PartialWriteReadsTheOldUnitFirst) {
  run(CommandKind::kWrite, 0, spu);
  run(CommandKind::kFlush, 0, 0);
  run(CommandKind::kWrite, 1, 1);  // one sector inside unit 0
  const auto& ops = device.backend().ops().ops();
  bool read_before_write = false;
  for (const auto& op : ops)
    read_before_write |= op.kind == OpKind::kRead && op.op_class == OpClass::kHostWrite;
  EXPECT_TRUE(read_before_write);
  EXPECT_EQ(run(CommandKind::kRead, 0, spu), 0u);
}

TEST_P(PageMappingTest, TrimForgetsWholeUnitsOnly) {
  run(CommandKind::kWrite, 0, spu * 2);
  run(CommandKind::kTrim, 1, spu * 2 - 1);  // covers unit 1 whole, unit 0 partly
  const auto& scheme = dynamic_cast<const PageMapping&>(device.scheme());
  EXPECT_NE(scheme.slot_of(0), kNone);
  EXPECT_EQ(scheme.slot_of(1), kNone);
  EXPECT_EQ(run(CommandKind::kRead, 0, spu * 2), 0u);
}

TEST_P(PageMappingTest, FlushProgramsPartlyFilledPages) {
  run(CommandKind::kWrite, 0, spu);
  run(CommandKind::kFlush, 0, 0);
  const auto& scheme = dynamic_cast<const PageMapping&>(device.scheme());
  EXPECT_FALSE(scheme.store().buffered(scheme.slot_of(0)));
  EXPECT_TRUE(device.flash().is_programmed(device.geometry().page_of_slot(scheme.slot_of(0))));
}

TEST_P(PageMappingTest, WritesStripeOverDies) {
  const Geometry& g = device.geometry();
  run(CommandKind::kWrite, 0, g.sectors_per_unit * g.units_per_page * g.dies());
  std::vector<bool> die_used(g.dies(), false);
  for (const auto& op : device.backend().ops().ops()) {
    if (op.kind == OpKind::kProgram) die_used[op.die] = true;
  }
  for (uint32_t d = 0; d < g.dies(); ++d) EXPECT_TRUE(die_used[d]) << "die " << d;
}

TEST_P(PageMappingTest, MillionRandomCommandsOnAFullDevice) {
  config::PreconditionConfig fill;
  fill.fill_ratio = 1.0;
  fill.overwrite_ratio = 0.5;
  precondition(device, fill);
  check_invariants(device);

  const Geometry& g = device.geometry();
  const uint64_t sectors = g.logical_sectors();
  Random random(42);
  uint64_t mismatches = 0;
  constexpr uint64_t kCommands = 1'000'000;
  for (uint64_t i = 0; i < kCommands; ++i) {
    const uint64_t draw = random.below(100);
    const uint32_t count = static_cast<uint32_t>(1 + random.below(spu * 4));
    const uint64_t start = random.below(sectors - count + 1);
    const CommandKind kind = draw < 50   ? CommandKind::kWrite
                             : draw < 85 ? CommandKind::kRead
                             : draw < 95 ? CommandKind::kTrim
                                         : CommandKind::kFlush;
    mismatches +=
        run(kind, kind == CommandKind::kFlush ? 0 : start, kind == CommandKind::kFlush ? 0 : count);
    if (i % 250'000 == 0) {
      check_invariants(device);
      if (HasFatalFailure()) return;
    }
  }
  check_invariants(device);
  EXPECT_EQ(mismatches, 0u) << device.oracle()->first_mismatch();
  EXPECT_GT(device.oracle()->checked_reads(), kCommands / 4);
  EXPECT_GT(device.scheme().stats().gc_invocations, 1000u);
  EXPECT_GT(device.scheme().stats().gc_units_copied, 0u);
}

// One unit per page (read-modify-write of sub-page writes) and two 2 KiB units per 4 KiB page.
INSTANTIATE_TEST_SUITE_P(UnitSizes, PageMappingTest, ::testing::Values(0u, 2048u),
                         [](const auto& info) {
                           return info.param == 0 ? std::string("UnitIsPage")
                                                  : std::string("TwoUnitsPerPage");
                         });

}  // namespace
}  // namespace ssd::ftl

namespace ssd::ftl {
namespace {

// Blocks of two pages of eight 1 KiB units, on a full device under random overwrites: a victim
// is worth taking alone only if half of it is garbage, which random overwrites seldom leave, so
// GC must pack several victims into whole pages (GarbageCollector::compact) to free a block.
TEST(PageMappingSmallBlocks, GcPacksSeveralVictimsWhenNoneIsWorthItAlone) {
  config::PlatformConfig p = testing::tiny_platform(1024);
  p.nand.page_bytes = 8192;
  p.nand.pages_per_block = 2;
  p.nand.blocks_per_plane = 256;
  p.ftl.over_provisioning = 0.07;
  FtlDevice device(p, FtlDeviceOptions{});
  config::PreconditionConfig fill;
  fill.fill_ratio = 1.0;
  fill.overwrite_ratio = 1.0;
  precondition(device, fill);
  const auto no_check = [] {};
  EXPECT_EQ(testing::run_random(device, 200'000, 5, no_check), 0u)
      << device.oracle()->first_mismatch();
  EXPECT_GT(device.scheme().stats().gc_invocations, 10'000u);
}

}  // namespace
}  // namespace ssd::ftl
