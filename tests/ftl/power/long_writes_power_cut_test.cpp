// Power cuts with many long writes in flight: erases undone, open blocks left partly programmed
// (some with a torn last page) on every plane. Each recovery must leave the device able to go on
// (GC finds room: the streams write into the partly programmed blocks before free ones), and
// lose nothing durable. Every scheme built on the PageStore that can recover.
#include <gtest/gtest.h>

#include <string>
#include <tuple>

#include "ftl/core/ftl_device.h"
#include "ftl/core/random.h"
#include "tests/ftl/power/power_cut_rig.h"
#include "tests/ftl/tiny_platform.h"

namespace ssd::ftl {
namespace {

class LongWritesInFlight : public ::testing::TestWithParam<std::tuple<std::string, uint32_t>> {};

TEST_P(LongWritesInFlight, TheDeviceComesBackWithRoomAndNothingDurableLost) {
  config::PlatformConfig p = testing::tiny_platform(std::get<1>(GetParam()));
  p.ftl.scheme = std::get<0>(GetParam());
  FtlDevice device(p, testing::power_options());
  const Geometry& g = device.geometry();
  testing::PowerCutRig rig(device, 42 + std::get<1>(GetParam()));
  Random random(17);
  for (int cut = 0; cut < 60; ++cut) {
    ASSERT_EQ(rig.run_random(600), 0u)
        << "cut " << cut << ": " << device.oracle()->first_mismatch();
    for (int i = 0; i < 12; ++i) {  // 8 to 64 units each, queued behind each other
      const auto units = static_cast<uint32_t>(8 + random.below(57));
      const uint64_t first = random.below(g.logical_units - units + 1);
      rig.run(CommandKind::kWrite, first * g.sectors_per_unit, units * g.sectors_per_unit);
    }
    const DurabilityCheck::Verdict verdict = rig.cut();
    ASSERT_EQ(verdict.lost_durable, 0u) << "cut " << cut << ": " << verdict.first_loss;
  }
  EXPECT_EQ(rig.run_random(3000), 0u) << device.oracle()->first_mismatch();
}

INSTANTIATE_TEST_SUITE_P(Schemes, LongWritesInFlight,
                         ::testing::Combine(::testing::Values("page", "vet", "emt"),
                                            ::testing::Values(0u, 2048u)));

}  // namespace
}  // namespace ssd::ftl
