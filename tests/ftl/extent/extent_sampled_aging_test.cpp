// VET and EMT aged by sampling (precondition.aging = sampled, ftl/extent/extent_aged.cpp): every
// copy of the miniature keeps its units' neighbours in neighbouring slots, on the copy's own dies;
// the map then holds one extent per such run; a cut right after the layout finds every unit; and
// the next writes cost about what they cost after simulated aging.
#include <gtest/gtest.h>

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "ftl/core/ftl_device.h"
#include "ftl/core/preconditioner.h"
#include "ftl/core/sampled_aging.h"
#include "ftl/extent/extent_ftl.h"
#include "ftl/extent/extent_settings.h"
#include "tests/ftl/extent/extent_checks.h"
#include "tests/ftl/power/power_cut_rig.h"
#include "tests/ftl/scheme_workloads.h"
#include "tests/ftl/tiny_platform.h"

namespace ssd::ftl {
namespace {

using testing::half_overwritten;

struct Case {
  std::string scheme;
  uint32_t planes_per_die;
  uint32_t chunk_pages;  // ftl.extent.chunk_pages
};

void PrintTo(const Case& c, std::ostream* out) {
  *out << c.scheme << ", " << c.planes_per_die << " planes, chunks of " << c.chunk_pages;
}

// 4 dies of 256 blocks of 32 pages per plane: the one-die miniature is a quarter of the device.
// With one plane per die and chunks of 3 pages, the fill's chunks follow each other in a plane's
// slots (one run across chunks, to be cut where they end) and some straddle two blocks (to be
// cut where a block ends); with two planes and chunks of 4 neither happens.
config::PlatformConfig aging_platform(const Case& c) {
  config::PlatformConfig p = testing::aging_room_with(c.scheme, c.planes_per_die);
  p.ftl.settings.edit<ExtentSettings>().chunk_pages = c.chunk_pages;
  return p;
}

// Unit -> slot of the whole map (kNone: unmapped).
std::vector<SlotId> slots_of(FtlDevice& device) {
  auto& scheme = dynamic_cast<ExtentFtl&>(device.scheme());
  std::vector<Extent> found;
  scheme.map().lookup(0, static_cast<uint32_t>(device.geometry().logical_units), found);
  std::vector<SlotId> table(device.geometry().logical_units, kNone);
  for (const Extent& e : found) {
    for (uint32_t k = 0; k < e.length; ++k) table[e.lun + k] = e.slot + k;
  }
  return table;
}

uint64_t pieces(FtlDevice& device) {
  return dynamic_cast<ExtentFtl&>(device.scheme()).map().pieces();
}

class ExtentSampledAging : public ::testing::TestWithParam<Case> {};

TEST_P(ExtentSampledAging, EveryCopyKeepsTheMiniaturesNeighboursTogether) {
  const config::PlatformConfig platform = aging_platform(GetParam());
  const AgedPlanes miniature = age_miniature(platform, half_overwritten());
  FtlDevice device(platform, FtlDeviceOptions{});
  ASSERT_TRUE(precondition(device, half_overwritten()).aged_by_sampling);
  ASSERT_NO_FATAL_FAILURE(check_extent_ftl(device));

  const Geometry& g = device.geometry();
  const uint32_t copies = g.planes() / miniature.planes;
  ASSERT_EQ(copies, 4u);
  ASSERT_EQ(miniature.planes, GetParam().planes_per_die);
  const uint32_t chunk = platform.ftl.settings.get<ExtentSettings>().chunk_pages *
                         g.units_per_page;  // the extent FTL's chunk (4 units here)
  // Copy c's unit m is the device's (m / chunk) * copies * chunk + c * chunk + m % chunk.
  const auto device_unit = [&](uint32_t copy, uint64_t m) {
    return m / chunk * copies * chunk + uint64_t{copy} * chunk + m % chunk;
  };
  std::vector<uint64_t> slot_of_unit(miniature.logical_units, kNone);
  for (uint64_t slot = 0; slot < miniature.slot_units.size(); ++slot) {
    if (miniature.slot_units[slot] != kNone) slot_of_unit[miniature.slot_units[slot]] = slot;
  }
  const std::vector<SlotId> table = slots_of(device);
  uint64_t pairs = 0;     // neighbours in one chunk, in neighbouring slots of one block
  uint64_t kept = 0;      // ... that are so in a copy
  uint64_t crossing = 0;  // neighbours in neighbouring slots across a chunk's or a block's end
  for (uint64_t m = 0; m + 1 < miniature.logical_units; ++m) {
    const uint64_t slot = slot_of_unit[m];
    const bool adjacent = slot != kNone && slot_of_unit[m + 1] == slot + 1;
    const bool together =
        adjacent && (m + 1) % chunk != 0 && (slot + 1) % miniature.units_per_block != 0;
    crossing += adjacent && !together ? 1 : 0;
    for (uint32_t copy = 0; copy < copies; ++copy) {
      const uint64_t u = device_unit(copy, m);
      if (u >= g.logical_units) continue;
      ASSERT_NE(table[u], kNone) << u;
      // On the copy's own planes.
      EXPECT_EQ(g.plane_of_block(g.block_of_page(g.page_of_slot(table[u]))) / miniature.planes,
                copy)
          << u;
      if (!together || u + 1 >= g.logical_units) continue;
      ++pairs;
      kept += table[u + 1] == table[u] + 1 ? 1 : 0;
    }
  }
  EXPECT_GT(pairs, g.logical_units / 8) << "the miniature's aging left few runs to keep";
  EXPECT_EQ(kept, pairs);
  if (GetParam().planes_per_die == 1) {
    EXPECT_GT(crossing, 0u) << "no run of the miniature to cut";
  }
}

// The miniature ages with a flat unit -> slot table (ExtentFtl::for_miniature): its flash comes
// out exactly as the scheme's own structure leaves it.
TEST_P(ExtentSampledAging, TheMiniaturesFlatMapLeavesTheStructuresFlash) {
  const config::PlatformConfig platform = aging_platform(GetParam());
  const AgedPlanes flat = age_miniature(platform, half_overwritten());
  FtlDeviceOptions options;
  options.oracle = false;
  FtlDevice structure(miniature_platform(platform, 1), options);
  precondition(structure, half_overwritten("simulated"));
  AgedPlanes expected;
  ASSERT_TRUE(structure.scheme().describe_aged_planes(expected));
  EXPECT_EQ(flat.programmed_pages, expected.programmed_pages);
  EXPECT_EQ(flat.erase_counts, expected.erase_counts);
  EXPECT_EQ(flat.valid_bits, expected.valid_bits);
  EXPECT_EQ(flat.open_in_stream, expected.open_in_stream);
  EXPECT_EQ(flat.slot_units, expected.slot_units);
  EXPECT_GT(dynamic_cast<ExtentFtl&>(structure.scheme()).map().pieces(), 0u);
}

TEST_P(ExtentSampledAging, ACutRightAfterTheLayoutFindsEveryUnit) {
  FtlDevice device(aging_platform(GetParam()), testing::power_options());
  ASSERT_TRUE(precondition(device, half_overwritten()).aged_by_sampling);
  ASSERT_NO_FATAL_FAILURE(check_extent_ftl(device));
  ASSERT_NO_FATAL_FAILURE(testing::expect_cuts_after_layout_lose_nothing(device, 10));
}

TEST_P(ExtentSampledAging, APartialFillLaysOutTheFilledUnitsOnly) {
  // Half the units filled: the copies of the miniature's filled units that fall beyond the
  // device's half hold nothing, and the units of its half that no copy holds are written.
  config::PreconditionConfig half = half_overwritten();
  half.fill_ratio = 0.5;
  FtlDevice device(aging_platform(GetParam()), FtlDeviceOptions{});
  ASSERT_TRUE(precondition(device, half).aged_by_sampling);
  ASSERT_NO_FATAL_FAILURE(check_extent_ftl(device));
  const std::vector<SlotId> table = slots_of(device);
  const uint64_t filled = device.geometry().logical_units / 2;
  for (Lun lun = 0; lun < table.size(); ++lun) {
    ASSERT_EQ(table[lun] != kNone, lun < filled) << lun;
  }
}

// After sampled and after simulated aging, the map holds about as many extents and the next
// random writes cost about as many GC copies. One aged state differs from another, so the means
// over four seeds are compared. Measured here: the pieces within 0.2 % (VET, two planes: 47,594
// against 47,543; one plane: 26,338 against 26,340; EMT alike), GC copies per host write 0.7 %
// fewer with two planes (6.857 against 6.905) and 1.9 % with one (6.850 against 6.981), the same
// for both schemes (their flash is managed alike). docs/ftl.md (sampled aging) states it.
TEST_P(ExtentSampledAging, AgesAsSimulatedAgingDoes) {
  constexpr uint64_t kWrites = 20000;
  const config::PlatformConfig platform = aging_platform(GetParam());
  struct After {
    double pieces = 0;  // the map's pieces after aging
    double gc = 0;      // GC copies per host write after it
  };
  const auto after_aging = [&](const char* aging) {
    After mean;
    testing::on_aged_seeds(platform, aging, [&](FtlDevice& device) {
      mean.pieces += double(pieces(device)) / 4;
      mean.gc += testing::gc_copies_per_write(device, kWrites, 5) / 4;
    });
    return mean;
  };
  const After by_sampling = after_aging("sampled");
  const After by_simulation = after_aging("simulated");
  EXPECT_NEAR(by_sampling.pieces / by_simulation.pieces, 1.0, 0.03)
      << "sampled " << by_sampling.pieces << ", simulated " << by_simulation.pieces;
  EXPECT_NEAR(by_sampling.gc / by_simulation.gc, 1.0, 0.03)
      << "sampled " << by_sampling.gc << ", simulated " << by_simulation.gc;
}

INSTANTIATE_TEST_SUITE_P(Schemes, ExtentSampledAging,
                         ::testing::Values(Case{"vet", 2, 4}, Case{"emt", 2, 4}, Case{"vet", 1, 3},
                                           Case{"emt", 1, 3}),
                         [](const ::testing::TestParamInfo<Case>& info) {
                           return info.param.scheme + "_" +
                                  std::to_string(info.param.planes_per_die) + "_planes_" +
                                  std::to_string(info.param.chunk_pages) + "_page_chunks";
                         });

}  // namespace
}  // namespace ssd::ftl
