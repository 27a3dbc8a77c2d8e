// An untimed sequential fill of VET and EMT (preconditioning) maps each extent that lands where
// nothing was ever mapped without searching for what it displaces (ExtentMap::insert_unmapped,
// EMT's ExtentTree::append). That must leave the map a timed fill leaves, down to the order of
// VET's hash chains and EMT's tree shape, which later lookups' costs depend on: two devices fed
// the same sector-granular sequential writes, one recording nothing, then serve the same random
// workload with the same operations, units read and CPU work per command. (VET on the
// accelerator keeps every search: each is a command to it.)
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "ftl/core/ftl_device.h"
#include "ftl/core/random.h"
#include "ftl/extent/vet/vet_settings.h"
#include "tests/ftl/served_alike.h"
#include "tests/ftl/tiny_platform.h"

namespace ssd::ftl {
namespace {

// Writes the whole device front to back on both, in commands of 1 .. 8 units' worth of sectors
// (so a command often begins inside a unit the previous one mapped).
void fill_sequentially(FtlDevice& untimed, FtlDevice& recorded) {
  const uint64_t sectors = untimed.geometry().logical_sectors();
  const uint32_t per_unit = untimed.geometry().sectors_per_unit;
  Random random(3);
  untimed.backend().set_recording(false);
  for (uint64_t sector = 0; sector < sectors;) {
    HostCommand a;
    a.kind = CommandKind::kWrite;
    a.start_sector = sector;
    a.sector_count =
        static_cast<uint32_t>(std::min<uint64_t>(1 + random.below(per_unit * 8), sectors - sector));
    HostCommand b = a;
    untimed.run(a);
    recorded.run(b);
    sector += a.sector_count;
  }
  untimed.backend().set_recording(true);
}

void expect_same_device(const config::PlatformConfig& platform, const std::string& what) {
  FtlDevice untimed(platform, FtlDeviceOptions{});
  FtlDevice recorded(platform, FtlDeviceOptions{});
  fill_sequentially(untimed, recorded);
  EXPECT_EQ(untimed.scheme().mapping_memory_bytes(), recorded.scheme().mapping_memory_bytes())
      << what;
  const auto figures_a = untimed.scheme().mapping_figures();
  const auto figures_b = recorded.scheme().mapping_figures();
  ASSERT_EQ(figures_a.size(), figures_b.size()) << what;
  for (size_t i = 0; i < figures_a.size(); ++i) {
    if (!figures_a[i].whole) continue;  // per-write means count recorded writes only
    EXPECT_EQ(figures_a[i].value, figures_b[i].value) << what << " " << figures_a[i].name;
  }

  const Geometry& g = untimed.geometry();
  Random random(7);
  uint64_t differing = 0, mismatches = 0;
  for (int i = 0; i < 4000; ++i) {
    HostCommand a;
    const uint64_t draw = random.below(100);
    a.kind = draw < 50 ? CommandKind::kWrite : draw < 95 ? CommandKind::kRead : CommandKind::kTrim;
    a.sector_count = static_cast<uint32_t>(1 + random.below(g.sectors_per_unit * 4));
    a.start_sector = random.below(g.logical_sectors() - a.sector_count + 1);
    HostCommand b = a;
    mismatches += untimed.run(a) + recorded.run(b);
    const bool same =
        testing::served_alike(untimed, recorded) &&
        testing::same_cpu_work(untimed.backend().cpu_work(), recorded.backend().cpu_work());
    differing += !same;
  }
  EXPECT_EQ(differing, 0u) << what << ": commands served differently";
  EXPECT_EQ(mismatches, 0u) << what;
}

TEST(ExtentUntimedFill, LeavesTheMapATimedFillLeaves) {
  config::PlatformConfig p = testing::tiny_platform();
  p.ftl.scheme = "emt";
  expect_same_device(p, "emt");
  p.ftl.scheme = "vet";
  for (const char* hash : {"chaining", "cuckoo"}) {
    for (const char* layout : {"pf", "pd"}) {
      VetSettings& vet = p.ftl.settings.edit<VetSettings>();
      vet.hash = hash;
      vet.layout = layout;
      vet.hash_backend = "software";
      expect_same_device(p, std::string("vet ") + hash + " " + layout);
    }
  }
}

}  // namespace
}  // namespace ssd::ftl
