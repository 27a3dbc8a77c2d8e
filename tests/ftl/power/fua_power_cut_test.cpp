// FUA writes through power cuts: a FUA write, once acknowledged, keeps the values it wrote with no
// flush after it (the FTL serves it as the write then what a flush does, FtlDevice::run), while
// a plain write after it may roll back; the check holds a FUA write to its own units only, and
// catches a device that acknowledges a FUA write before its data is on flash.
#include <gtest/gtest.h>

#include <memory>
#include <ostream>
#include <string>

#include "ftl/core/ftl_device.h"
#include "ftl/scheme_registry.h"
#include "tests/ftl/dac/dac_checks.h"
#include "tests/ftl/dftl/dftl_checks.h"
#include "tests/ftl/power/power_cut_rig.h"
#include "tests/ftl/tiny_platform.h"

namespace ssd::ftl {
namespace {

using testing::power_options;
using testing::PowerCutRig;

// Two units per page: a lone unit's write waits in DRAM, in a page being assembled, until the
// page fills or a flush programs it.
config::PlatformConfig two_units_per_page() { return testing::tiny_platform(2048); }

uint64_t sector_of(const FtlDevice& device, Lun lun) {
  return uint64_t{lun} * device.geometry().sectors_per_unit;
}

// Writes `lun` whole (a FUA write when `fua`); returns the value the unit was given.
Token write_unit(PowerCutRig& rig, FtlDevice& device, Lun lun, bool fua = false) {
  EXPECT_EQ(
      rig.run(CommandKind::kWrite, sector_of(device, lun), device.geometry().sectors_per_unit, fua),
      0u);
  return device.oracle()->expected(lun);
}

// After the check the oracle holds what each unit read back.
Token read_back(const FtlDevice& device, Lun lun) { return device.oracle()->expected(lun); }

// A unit made durable by a flush, then written again: with FUA the new value survives a cut with
// no flush after it; the same write without FUA, still in a page being assembled, is lost (the
// unit rolls back), which is what makes the first case a test of FUA.
TEST(FuaPowerCut, AFuaWriteSurvivesACutWithNoFlushAfterIt) {
  for (const bool fua : {true, false}) {
    SCOPED_TRACE(fua ? "FUA" : "plain write");
    FtlDevice device(two_units_per_page(), power_options());
    PowerCutRig rig(device, 3);
    const Lun unit = 5;
    const Token durable = write_unit(rig, device, unit);
    rig.run(CommandKind::kFlush, 0, 0);
    const Token written = write_unit(rig, device, unit, fua);
    ASSERT_NE(written, durable);
    const DurabilityCheck::Verdict verdict = rig.cut_at(rig.all_done());
    EXPECT_EQ(verdict.lost_durable, 0u) << verdict.first_loss;
    EXPECT_EQ(read_back(device, unit), fua ? written : durable);
    EXPECT_EQ(verdict.rolled_back, fua ? 0u : 1u);
  }
}

// A FUA write's promise covers the values it wrote, not a plain write after it: that one, still
// in a page being assembled at the cut, rolls back to the FUA write's value, which is allowed.
TEST(FuaPowerCut, APlainWriteAfterAFuaWriteMayRollBack) {
  FtlDevice device(two_units_per_page(), power_options());
  PowerCutRig rig(device, 4);
  const Lun unit = 7;
  write_unit(rig, device, unit);
  rig.run(CommandKind::kFlush, 0, 0);
  const Token fua = write_unit(rig, device, unit, /*fua=*/true);
  const Token later = write_unit(rig, device, unit);
  ASSERT_NE(later, fua);
  const DurabilityCheck::Verdict verdict = rig.cut_at(rig.all_done());
  EXPECT_EQ(verdict.lost_durable, 0u) << verdict.first_loss;
  EXPECT_EQ(read_back(device, unit), fua);
  EXPECT_EQ(verdict.rolled_back, 1u);
  EXPECT_EQ(verdict.current, verdict.units - 1);
}

// A FUA write whose operations have not all completed at the cut is not acknowledged: it may be
// lost like any write in flight, and the check does not count it against the device.
TEST(FuaPowerCut, AFuaWriteCutBeforeItCompletesMayBeLost) {
  FtlDevice device(two_units_per_page(), power_options());
  PowerCutRig rig(device, 5);
  const Lun unit = 9;
  const Token durable = write_unit(rig, device, unit);
  rig.run(CommandKind::kFlush, 0, 0);
  const Picoseconds flushed = rig.last_done();
  write_unit(rig, device, unit, /*fua=*/true);  // one program: the page its flush closes
  ASSERT_GT(rig.last_done() - 1, flushed);      // the flush is acknowledged at the cut
  // Just before that program completes: it is torn.
  const DurabilityCheck::Verdict verdict = rig.cut_at(rig.last_done() - 1);
  EXPECT_EQ(rig.last_cut().torn_programs, 1u);
  EXPECT_EQ(rig.totals().fua_acknowledged, 0u);
  EXPECT_EQ(verdict.lost_durable, 0u) << verdict.first_loss;
  EXPECT_EQ(read_back(device, unit), durable);
}

// Page mapping whose flush does nothing when a FUA write asks for it: the device acknowledges FUA
// writes it has not made durable. Recovery is the real page mapping's.
class FuaIgnoringPageMapping final : public MappingScheme {
 public:
  explicit FuaIgnoringPageMapping(const SchemeContext& context)
      : m_inner(create_scheme("page", context)) {}
  void read(const HostCommand& command) override { m_inner->read(command); }
  void write(const HostCommand& command) override { m_inner->write(command); }
  void trim(const HostCommand& command) override { m_inner->trim(command); }
  void flush(const HostCommand& command) override {
    if (command.kind != CommandKind::kWrite) m_inner->flush(command);
  }
  const FtlStats& stats() const override { return m_inner->stats(); }
  uint64_t mapping_memory_bytes() const override { return m_inner->mapping_memory_bytes(); }

 private:
  std::unique_ptr<MappingScheme> m_inner;
};

// The check holds a FUA write to its promise: the unit reads back the value a flush made durable
// before the FUA write, which a plain write would be allowed (a rollback) but a FUA write's
// acknowledgement is not.
TEST(FuaPowerCut, AFuaWriteAcknowledgedBeforeItIsDurableIsCaught) {
  FtlDevice device(two_units_per_page(), power_options(), [](const SchemeContext& context) {
    return std::make_unique<FuaIgnoringPageMapping>(context);
  });
  PowerCutRig rig(device, 6);
  const Lun unit = 11;
  const Token durable = write_unit(rig, device, unit);
  rig.run(CommandKind::kFlush, 0, 0);
  const Token fua = write_unit(rig, device, unit, /*fua=*/true);
  const DurabilityCheck::Verdict verdict = rig.cut_at(rig.all_done());
  EXPECT_EQ(rig.totals().fua_acknowledged, 1u);
  EXPECT_EQ(read_back(device, unit), durable);
  EXPECT_EQ(verdict.lost_durable, 1u);
  EXPECT_EQ(verdict.first_loss, "unit " + std::to_string(unit) + " read back token " +
                                    std::to_string(durable) + "; durable token " +
                                    std::to_string(fua) + ", latest " + std::to_string(fua));
}

// Many cuts at random instants over a random workload with a third of the writes FUA, GC busy,
// on every scheme that recovers: nothing a flush or an acknowledged FUA write made durable is
// lost.
struct FuaCase {
  const char* name;
  config::PlatformConfig (*platform)();
  friend std::ostream& operator<<(std::ostream& out, const FuaCase& c) { return out << c.name; }
};

class FuaPowerCuts : public ::testing::TestWithParam<FuaCase> {};

TEST_P(FuaPowerCuts, NothingDurableIsLost) {
  FtlDevice device(GetParam().platform(), power_options());
  PowerCutRig rig(device, 77);
  rig.set_fua_percent(33);
  for (int cut = 0; cut < 40; ++cut) {
    ASSERT_EQ(rig.run_random(500), 0u)
        << "cut " << cut << ": " << device.oracle()->first_mismatch();
    const DurabilityCheck::Verdict verdict = rig.cut();
    ASSERT_EQ(verdict.lost_durable, 0u) << "cut " << cut << ": " << verdict.first_loss;
    ASSERT_EQ(verdict.units, device.geometry().logical_units);
  }
  EXPECT_GT(rig.totals().fua_acknowledged, 1000u);
  EXPECT_GT(rig.totals().torn, 0u);
  EXPECT_GT(rig.totals().rolled_back, 0u);
  EXPECT_GT(device.stats().gc_erases, 0u);
  EXPECT_EQ(rig.run_random(3000), 0u) << device.oracle()->first_mismatch();
}

config::PlatformConfig page_whole() { return testing::tiny_platform(); }
config::PlatformConfig page_half() { return testing::tiny_platform(2048); }
config::PlatformConfig dac() { return testing::dac_platform(4, 0, 2048); }
config::PlatformConfig dftl() { return testing::dftl_platform(2048, 16); }
config::PlatformConfig block() {
  config::PlatformConfig p = testing::tiny_platform();
  p.ftl.scheme = "block";
  return p;
}
config::PlatformConfig vet() {
  config::PlatformConfig p = testing::tiny_platform(2048);
  p.ftl.scheme = "vet";
  return p;
}

INSTANTIATE_TEST_SUITE_P(Schemes, FuaPowerCuts,
                         ::testing::Values(FuaCase{"page", page_whole},
                                           FuaCase{"page_2k", page_half}, FuaCase{"dac", dac},
                                           FuaCase{"dftl", dftl}, FuaCase{"block", block},
                                           FuaCase{"vet", vet}),
                         [](const ::testing::TestParamInfo<FuaCase>& info) {
                           return std::string(info.param.name);
                         });

}  // namespace
}  // namespace ssd::ftl
