// The extent FTL (ftl/extent/extent_ftl.h) against the integrity oracle: how writes form
// extents, reads of holes, trims, GC remapping moved units as runs, and a million mixed commands
// on a full device with GC running, for every extent-mapping structure.
#include "ftl/extent/extent_ftl.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <functional>
#include <ostream>
#include <set>
#include <string>
#include <vector>

#include "config/scenario_config.h"
#include "ftl/core/ftl_device.h"
#include "ftl/core/preconditioner.h"
#include "ftl/core/random.h"
#include "ftl/extent/extent_map_factory.h"
#include "ftl/extent/extent_settings.h"
#include "ftl/extent/vet/vet_settings.h"
#include "rtl/model/vet_hash_model.h"
#include "tests/ftl/extent/extent_checks.h"
#include "tests/ftl/extent/interval_extent_map.h"
#include "tests/ftl/scheme_workloads.h"
#include "tests/ftl/tiny_platform.h"

namespace ssd::ftl {
namespace {

using testing::run_one;

// "interval": the std::map test double; otherwise a structure the factory builds, with the
// platform's ftl.vet.* options.
FtlDevice::SchemeMaker scheme_with(const std::string& structure) {
  return [structure](const SchemeContext& context) {
    if (structure == "interval") {
      return std::make_unique<ExtentFtl>(context, std::make_unique<testing::IntervalExtentMap>());
    }
    return std::make_unique<ExtentFtl>(context, structure);
  };
}

config::PlatformConfig extent_platform(uint32_t chunk_pages = 4, uint32_t unit_bytes = 0) {
  config::PlatformConfig p = testing::tiny_platform(unit_bytes);
  p.ftl.scheme = "vet";  // spare layout: one unit number per unit, as page mapping
  p.ftl.settings.edit<ExtentSettings>().chunk_pages = chunk_pages;
  return p;
}

struct VariantPlatform {
  static config::PlatformConfig of(const std::string& insertion, const std::string& layout,
                                   const std::string& hash, uint32_t chunk_pages,
                                   uint32_t unit_bytes) {
    config::PlatformConfig p = extent_platform(chunk_pages, unit_bytes);
    VetSettings& vet = p.ftl.settings.edit<VetSettings>();
    if (!insertion.empty()) vet.insertion = insertion;
    if (!layout.empty()) vet.layout = layout;
    // "accelerator": the node table on the accelerator's reference model, 1024 x 4 slots, so
    // that with this device's nodes many buckets overflow to software.
    if (hash == "accelerator") {
      vet.hash_backend = "accelerator";
      p.accelerator.bucket_bits = 10;
      p.accelerator.ways = 4;
    } else if (!hash.empty()) {
      vet.hash = hash;
    }
    return p;
  }
};

class ExtentFtlTest : public ::testing::Test {
 protected:
  void make(const config::PlatformConfig& p, const std::string& structure = "interval") {
    platform = p;
    device = std::make_unique<FtlDevice>(platform, FtlDeviceOptions{}, scheme_with(structure));
  }
  ExtentFtl& scheme() { return dynamic_cast<ExtentFtl&>(device->scheme()); }
  uint32_t spu() const { return device->geometry().sectors_per_unit; }
  uint64_t write_units(Lun first, uint32_t count) {
    return run_one(*device, CommandKind::kWrite, uint64_t(first) * spu(), count * spu());
  }
  uint64_t read_units(Lun first, uint32_t count) {
    return run_one(*device, CommandKind::kRead, uint64_t(first) * spu(), count * spu());
  }
  std::vector<Extent> stored() {
    std::vector<Extent> found;
    scheme().map().lookup(0, static_cast<uint32_t>(device->geometry().logical_units), found);
    return found;
  }
  uint32_t plane_of(SlotId slot) const {
    const Geometry& g = device->geometry();
    return g.plane_of_block(g.block_of_page(g.page_of_slot(slot)));
  }

  config::PlatformConfig platform;
  std::unique_ptr<FtlDevice> device;
};

TEST_F(ExtentFtlTest, AWriteIsOneExtentPerChunkOnSuccessivePlanes) {
  make(extent_platform(/*chunk_pages=*/4));
  write_units(0, 16);
  const std::vector<Extent> extents = stored();
  ASSERT_EQ(extents.size(), 4u);
  const Geometry& g = device->geometry();
  for (uint32_t i = 0; i < 4; ++i) {
    EXPECT_EQ(extents[i].lun, 4 * i);
    EXPECT_EQ(extents[i].length, 4u);
    EXPECT_EQ(plane_of(extents[i].slot), g.plane_in_stripe_order(i)) << "chunk " << i;
  }
  // Four chunks on four different dies: the write programs on all of them.
  std::set<uint32_t> dies;
  for (const FlashOp& op : device->backend().ops().ops()) {
    if (op.kind == OpKind::kProgram) dies.insert(op.die);
  }
  EXPECT_EQ(dies.size(), 4u);
  EXPECT_EQ(read_units(0, 16), 0u);
}

TEST_F(ExtentFtlTest, ChunkZeroKeepsTheWholeWriteOnOnePlane) {
  make(extent_platform(/*chunk_pages=*/0));
  write_units(5, 12);
  const std::vector<Extent> extents = stored();
  ASSERT_EQ(extents.size(), 1u);
  EXPECT_EQ(extents[0], (Extent{5, 12, extents[0].slot}));
  EXPECT_EQ(read_units(0, 32), 0u);
}

TEST_F(ExtentFtlTest, AnExtentEndsWhereItsBlockEnds) {
  make(extent_platform(/*chunk_pages=*/0));
  const uint32_t ppb = device->geometry().pages_per_block;
  write_units(0, ppb - 3);  // leaves three pages in plane 0's open block
  write_units(100, 8);      // the next request starts on the next plane
  write_units(200, 2 * ppb);
  // Planes 0, 1, 2: the third write fills a whole block and spills into the next one.
  const std::vector<Extent> extents = stored();
  uint32_t pieces_of_third = 0;
  for (const Extent& e : extents) pieces_of_third += e.lun >= 200;
  EXPECT_GE(pieces_of_third, 1u);
  for (const Extent& e : extents) {
    const Geometry& g = device->geometry();
    // An extent never crosses into a block that was not the numerically next one.
    const BlockId first = g.block_of_page(g.page_of_slot(e.slot));
    const BlockId last = g.block_of_page(g.page_of_slot(e.slot + e.length - 1));
    EXPECT_LE(last - first, 1u);
  }
  EXPECT_EQ(read_units(0, 300), 0u);
}

TEST_F(ExtentFtlTest, ReadsOfHolesDeliverZeroesAndSeveralPiecesReadEachPageOnce) {
  make(extent_platform(/*chunk_pages=*/0, /*unit_bytes=*/2048));  // two units per page
  write_units(10, 4);
  write_units(20, 4);
  device->backend().begin_command();
  HostCommand read = testing::command(CommandKind::kRead, 8 * uint64_t(spu()), 20 * spu());
  EXPECT_EQ(device->run(read), 0u);
  ASSERT_EQ(device->backend().delivered().size(), 20u);
  uint32_t zeroes = 0;
  for (const DeliveredUnit& unit : device->backend().delivered()) zeroes += unit.token == 0;
  EXPECT_EQ(zeroes, 12u);
}

TEST_F(ExtentFtlTest, PartialUnitsAreReadBeforeTheyAreRewritten) {
  make(extent_platform());
  write_units(0, 8);
  // Sectors 3 .. 3 + 2 units: partial first and last units.
  HostCommand write = testing::command(CommandKind::kWrite, 3, 2 * spu());
  device->run(write);
  uint32_t reads = 0;
  for (const FlashOp& op : device->backend().ops().ops()) reads += op.kind == OpKind::kRead;
  EXPECT_EQ(reads, 2u);
  EXPECT_EQ(read_units(0, 8), 0u);
}

TEST_F(ExtentFtlTest, TrimUnmapsTheUnitsItCoversWhole) {
  make(extent_platform());
  write_units(0, 16);
  run_one(*device, CommandKind::kTrim, 2 * uint64_t(spu()) + 1, 6 * spu());  // units 2..8 partly
  EXPECT_EQ(scheme().map().slot_of(2), scheme().map().slot_of(2));           // unit 2 partly: kept
  EXPECT_NE(scheme().map().slot_of(2), kNone);
  for (Lun lun = 3; lun < 8; ++lun) EXPECT_EQ(scheme().map().slot_of(lun), kNone) << lun;
  EXPECT_NE(scheme().map().slot_of(8), kNone);
  EXPECT_EQ(read_units(0, 16), 0u);
  check_extent_ftl(*device);
}

// Fill with 8-unit extents, then overwrite whole aligned 8-unit extents at random: the host
// never cuts an extent, so every extent cut is GC's doing.
struct AgingResult {
  uint64_t pieces;
  uint64_t gc_runs;
  uint64_t splits;
  uint64_t units_copied;
};
AgingResult age_with(const std::string& relocation) {
  config::PlatformConfig p = extent_platform(/*chunk_pages=*/0);
  p.ftl.settings.edit<ExtentSettings>().gc_relocation = relocation;
  FtlDevice device(p, FtlDeviceOptions{}, scheme_with("interval"));
  const Geometry& g = device.geometry();
  constexpr uint32_t kExtent = 8;
  const uint32_t spu = g.sectors_per_unit;
  for (Lun lun = 0; lun + kExtent <= g.logical_units; lun += kExtent) {
    run_one(device, CommandKind::kWrite, uint64_t(lun) * spu, kExtent * spu);
  }
  Random random(7);
  uint64_t mismatches = 0;
  for (int i = 0; i < 20'000; ++i) {
    const Lun lun = static_cast<Lun>(random.below(g.logical_units / kExtent) * kExtent);
    run_one(device, CommandKind::kWrite, uint64_t(lun) * spu, kExtent * spu);
    if (i % 10 == 0) {
      const Lun at = static_cast<Lun>(random.below(g.logical_units - 64));
      mismatches += run_one(device, CommandKind::kRead, uint64_t(at) * g.sectors_per_unit,
                            64 * g.sectors_per_unit);
    }
  }
  EXPECT_EQ(mismatches, 0u);
  check_extent_ftl(device);
  auto& scheme = dynamic_cast<ExtentFtl&>(device.scheme());
  return {scheme.map().pieces(), scheme.gc_relocation_runs(), scheme.extents_split_by_gc(),
          scheme.stats().gc_units_copied};
}

TEST(ExtentFtlGc, RemappingMovedUnitsAsRunsKeepsExtentsWhole) {
  const AgingResult runs = age_with("runs");
  const AgingResult units = age_with("units");
  ASSERT_GT(runs.units_copied, 10'000u) << "GC must have been busy";
  std::printf("runs: %llu pieces, %llu runs, %llu splits, %llu copied; units: %llu pieces\n",
              (unsigned long long)runs.pieces, (unsigned long long)runs.gc_runs,
              (unsigned long long)runs.splits, (unsigned long long)runs.units_copied,
              (unsigned long long)units.pieces);
  // Units mode remaps every moved unit alone; runs mode needs far fewer remaps and pieces.
  EXPECT_EQ(units.gc_runs, units.units_copied);
  EXPECT_LT(runs.gc_runs * 4, runs.units_copied);
  EXPECT_LT(runs.pieces * 2, units.pieces);
  EXPECT_GT(runs.splits, 0u);
  EXPECT_LE(runs.splits, 2 * runs.gc_runs);
}

// --- a million commands per structure ---

// Mixed random commands: sector-granular writes of 1 unit to 64 units anywhere, reads of up to
// 64 units, trims, flushes; 45 % writes, 40 % reads, 10 % trims, 5 % flushes.
uint64_t run_mixed(FtlDevice& device, uint64_t commands, uint64_t seed,
                   const std::function<void()>& check) {
  const Geometry& g = device.geometry();
  Random random(seed);
  uint64_t mismatches = 0;
  for (uint64_t i = 1; i <= commands; ++i) {
    const uint64_t draw = random.below(100);
    const uint32_t units = random.below(4) == 0 ? 1 + static_cast<uint32_t>(random.below(64))
                                                : 1 + static_cast<uint32_t>(random.below(4));
    const uint32_t count =
        static_cast<uint32_t>(units * g.sectors_per_unit - random.below(g.sectors_per_unit));
    const uint64_t start = random.below(g.logical_sectors() - count + 1);
    const CommandKind kind = draw < 45   ? CommandKind::kWrite
                             : draw < 85 ? CommandKind::kRead
                             : draw < 95 ? CommandKind::kTrim
                                         : CommandKind::kFlush;
    mismatches += run_one(device, kind, start, count);
    if (i % 250'000 == 0) check();
  }
  check();
  return mismatches;
}

struct Variant {
  std::string name;
  std::string structure;  // "interval", "vet" or "emt"
  uint32_t unit_bytes;
  uint32_t chunk_pages;
  std::string vet_insertion, vet_layout, vet_hash;
  // Whether a write can wrap around every plane (more chunks than planes), so that GC may pick
  // a block the write itself filled before it is mapped.
  bool wraps_planes;
  friend void PrintTo(const Variant& v, std::ostream* os) { *os << v.name; }
};

class ExtentFtlWorkloads : public ::testing::TestWithParam<Variant> {};

// Devices of these tests; with the accelerator backend, VET's node table goes to a reference
// model (rtl/model/) of the engine the platform describes.
struct DeviceWithEngine {
  rtl::HashEngineModel engine;
  FtlDevice device;

  DeviceWithEngine(const config::PlatformConfig& p, const std::string& structure)
      : engine({p.accelerator.bucket_bits, p.accelerator.ways}),
        device(p, options(), scheme_with(structure)) {}
  FtlDeviceOptions options() {
    FtlDeviceOptions o;
    o.hash_engine = &engine;
    return o;
  }
};

config::PlatformConfig platform_of(const Variant& v) {
  return VariantPlatform::of(v.vet_insertion, v.vet_layout, v.vet_hash, v.chunk_pages,
                             v.unit_bytes);
}

TEST_P(ExtentFtlWorkloads, MillionMixedCommandsOnAFullDevice) {
  const Variant& v = GetParam();
  DeviceWithEngine with_engine(platform_of(v), v.structure);
  FtlDevice& device = with_engine.device;
  config::PreconditionConfig fill;
  fill.fill_ratio = 1.0;
  fill.overwrite_ratio = 0.5;
  precondition(device, fill);
  check_extent_ftl(device);
  const uint64_t mismatches = run_mixed(device, 1'000'000, 11, [&] { check_extent_ftl(device); });
  EXPECT_EQ(mismatches, 0u) << device.oracle()->first_mismatch();
  EXPECT_GT(device.oracle()->checked_reads(), 300'000u);
  auto& scheme = dynamic_cast<ExtentFtl&>(device.scheme());
  EXPECT_GT(scheme.stats().gc_invocations, 1000u);
  EXPECT_GT(scheme.gc_relocation_runs(), 0u);
  // GC picked blocks the write in progress had filled, before the write was mapped.
  if (v.wraps_planes) {
    EXPECT_GT(scheme.pending_units_moved(), 0u);
  }
}

TEST_P(ExtentFtlWorkloads, MillionSequentialCommandsOnAFullDevice) {
  const Variant& v = GetParam();
  DeviceWithEngine with_engine(platform_of(v), v.structure);
  FtlDevice& device = with_engine.device;
  config::PreconditionConfig fill;
  fill.fill_ratio = 1.0;
  precondition(device, fill);
  const uint64_t mismatches =
      testing::run_sequential(device, 1'000'000, 12, [&] { check_extent_ftl(device); });
  EXPECT_EQ(mismatches, 0u) << device.oracle()->first_mismatch();
  EXPECT_GT(device.scheme().stats().gc_invocations, 100u);
}

INSTANTIATE_TEST_SUITE_P(
    Structures, ExtentFtlWorkloads,
    ::testing::Values(
        Variant{"Interval", "interval", 0, 4, "", "", "", true},
        Variant{"IntervalTwoUnitsPerPage", "interval", 2048, 4, "", "", "", false},
        Variant{"IntervalWholeWrites", "interval", 0, 0, "", "", "", true},
        Variant{"Emt", "emt", 0, 4, "", "", "", true},
        Variant{"EmtTwoUnitsPerPageWholeWrites", "emt", 2048, 0, "", "", "", true},
        Variant{"VetLisPdChaining", "vet", 0, 4, "lis", "pd", "chaining", true},
        Variant{"VetLisPdCuckoo", "vet", 0, 4, "lis", "pd", "cuckoo", true},
        Variant{"VetLisPfChaining", "vet", 0, 4, "lis", "pf", "chaining", true},
        Variant{"VetLisPfCuckoo", "vet", 0, 4, "lis", "pf", "cuckoo", true},
        Variant{"VetBisPdChaining", "vet", 0, 4, "bis", "pd", "chaining", true},
        Variant{"VetBisPdCuckoo", "vet", 0, 4, "bis", "pd", "cuckoo", true},
        Variant{"VetBisPfChaining", "vet", 0, 4, "bis", "pf", "chaining", true},
        Variant{"VetBisPfCuckoo", "vet", 0, 4, "bis", "pf", "cuckoo", true},
        Variant{"VetTwoUnitsPerPageWholeWrites", "vet", 2048, 0, "bis", "pf", "chaining", true},
        Variant{"VetBisPfAccelerator", "vet", 0, 4, "bis", "pf", "accelerator", true},
        Variant{"VetLisPdAccelerator", "vet", 0, 4, "lis", "pd", "accelerator", true}),
    [](const auto& info) { return info.param.name; });

}  // namespace
}  // namespace ssd::ftl
