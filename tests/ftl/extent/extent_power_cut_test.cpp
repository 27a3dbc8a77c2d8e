// VET and EMT through power cuts: the extent map is rebuilt from the spare areas (the newest copy
// of each unit by program sequence, every maximal run of units in consecutive slots inserted as
// one extent), and nothing a completed flush made durable is lost, with cuts anywhere among the
// operations in flight: mid-program, mid-erase, mid-GC, during a recovery.
#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "ftl/core/ftl_device.h"
#include "ftl/core/page_store.h"
#include "ftl/core/random.h"
#include "ftl/extent/extent_ftl.h"
#include "ftl/extent/vet/vet_settings.h"
#include "ftl/scheme_registry.h"
#include "tests/ftl/extent/extent_checks.h"
#include "tests/ftl/power/power_cut_rig.h"
#include "tests/ftl/tiny_platform.h"

namespace ssd::ftl {
namespace {

using testing::power_options;

config::PlatformConfig extent_platform(const std::string& scheme, uint32_t unit_bytes = 0) {
  config::PlatformConfig p = testing::tiny_platform(unit_bytes);
  p.ftl.scheme = scheme;
  return p;
}

uint64_t write_units(testing::PowerCutRig& rig, const Geometry& g, Lun first, uint32_t units) {
  return rig.run(CommandKind::kWrite, uint64_t{first} * g.sectors_per_unit,
                 units * g.sectors_per_unit);
}

// The rig's random mix, then long writes (8 to 64 units), so that the map holds long extents.
uint64_t run_with_long_writes(testing::PowerCutRig& rig, const Geometry& g, Random& random) {
  uint64_t mismatches = rig.run_random(600);
  for (int i = 0; i < 12; ++i) {
    const auto units = static_cast<uint32_t>(8 + random.below(57));
    mismatches += write_units(rig, g, random.below(g.logical_units - units + 1), units);
  }
  return mismatches;
}

// What a recovery should find, worked out here from the flash alone: for every unit, the slot of
// its copy in the readable page with the highest program sequence, the later slot of a page that
// names it twice (kNone: no copy).
std::vector<SlotId> newest_copies(FtlDevice& device) {
  const Geometry& g = device.geometry();
  const FlashArray& flash = device.flash();
  const uint32_t units = g.units_per_page;
  std::vector<SlotId> table(g.logical_units, kNone);
  std::vector<uint64_t> newest(g.logical_units, 0);
  for (BlockId b = 0; b < g.blocks(); ++b) {
    if (flash.erase_torn(b)) continue;
    for (uint32_t page = 0; page < flash.write_pointer(b); ++page) {
      const PageId id = g.first_page(b) + page;
      if (!flash.readable(id)) continue;
      const uint32_t* spare = flash.spare(id);
      const uint64_t sequence = PageStore::program_sequence(spare, units);
      for (uint32_t u = 0; u < units; ++u) {
        const Lun lun = spare[u];
        if (lun >= g.logical_units || sequence < newest[lun]) continue;
        table[lun] = g.first_slot(id) + u;
        newest[lun] = sequence;
      }
    }
  }
  return table;
}

// The maximal runs of `table`: consecutive units in consecutive slots.
std::vector<Extent> runs_of(const std::vector<SlotId>& table) {
  std::vector<Extent> runs;
  for (Lun lun = 0; lun < table.size(); ++lun) {
    if (table[lun] == kNone) continue;
    if (!runs.empty() && runs.back().end() == lun &&
        runs.back().slot + runs.back().length == table[lun]) {
      ++runs.back().length;
    } else {
      runs.push_back({lun, 1, table[lun]});
    }
  }
  return runs;
}

// The map's pieces over the whole device, those that continue each other joined (VET stores an
// extent as its canonical pieces).
std::vector<Extent> joined_pieces(ExtentFtl& scheme, const Geometry& g) {
  std::vector<Extent> found;
  scheme.map().lookup(0, static_cast<uint32_t>(g.logical_units), found);
  std::vector<Extent> joined;
  for (const Extent& piece : found) {
    if (!joined.empty() && joined.back().end() == piece.lun &&
        joined.back().slot + joined.back().length == piece.slot) {
      joined.back().length += piece.length;
    } else {
      joined.push_back(piece);
    }
  }
  return joined;
}

// Many cuts at random instants over a random workload that keeps GC busy on a full tiny device.
// Parameters: the scheme, the mapping unit (0 = a page; 2048 = two units per page).
class ExtentPowerCuts : public ::testing::TestWithParam<std::tuple<std::string, uint32_t>> {};

TEST_P(ExtentPowerCuts, NothingDurableIsLostAndTheDeviceComesBack) {
  const auto& [name, unit_bytes] = GetParam();
  FtlDevice device(extent_platform(name, unit_bytes), power_options());
  testing::PowerCutRig rig(device, 42 + unit_bytes);
  for (int cut = 0; cut < 60; ++cut) {
    ASSERT_EQ(rig.run_random(700), 0u)
        << "cut " << cut << ": " << device.oracle()->first_mismatch();
    const DurabilityCheck::Verdict verdict = rig.cut();
    ASSERT_EQ(verdict.lost_durable, 0u) << "cut " << cut << ": " << verdict.first_loss;
    ASSERT_EQ(verdict.units, device.geometry().logical_units);
    ASSERT_NO_FATAL_FAILURE(check_extent_ftl(device)) << "cut " << cut;
  }
  // The cuts fell where they matter: pages torn, recent writes lost, GC running throughout.
  EXPECT_GT(rig.totals().torn, 0u);
  EXPECT_GT(rig.totals().rolled_back, 0u);
  EXPECT_GT(rig.totals().current, 0u);
  EXPECT_GT(device.stats().gc_erases, 0u);
  // And the device goes on serving correctly after all of them.
  EXPECT_EQ(rig.run_random(5000), 0u) << device.oracle()->first_mismatch();
  ASSERT_NO_FATAL_FAILURE(check_extent_ftl(device));
}

INSTANTIATE_TEST_SUITE_P(Schemes, ExtentPowerCuts,
                         ::testing::Combine(::testing::Values("vet", "emt"),
                                            ::testing::Values(0u, 2048u)),
                         [](const auto& info) {
                           return std::get<0>(info.param) + (std::get<1>(info.param) == 0
                                                                 ? "UnitIsAPage"
                                                                 : "TwoUnitsPerPage");
                         });

// After a cut with nothing in flight, the rebuilt map is the newest copies' table as maximal
// runs: one extent per run (EMT stores each as one node, VET as its canonical pieces), and the
// insertions were counted as the structure's CPU work, so the recovery's time includes them.
class ExtentRecovery : public ::testing::TestWithParam<std::string> {};

TEST_P(ExtentRecovery, TheRebuiltMapIsTheMaximalRunsOfTheNewestCopies) {
  FtlDevice device(extent_platform(GetParam()), power_options());
  const Geometry& g = device.geometry();
  testing::PowerCutRig rig(device, 5);
  Random random(23);
  for (int i = 0; i < 15; ++i) ASSERT_EQ(run_with_long_writes(rig, g, random), 0u);
  rig.run(CommandKind::kFlush, 0, 0);
  ASSERT_GT(device.stats().gc_erases, 0u);

  device.power_cut(rig.all_done() + 1);
  const std::vector<Extent> runs = runs_of(newest_copies(device));
  CpuWork work;
  device.backend().set_batch_sink([&] { work += device.backend().cpu_work(); });
  device.recover();
  device.backend().set_batch_sink(nullptr);

  auto& scheme = dynamic_cast<ExtentFtl&>(device.scheme());
  ASSERT_GT(runs.size(), 100u);
  EXPECT_EQ(joined_pieces(scheme, g), runs);
  if (GetParam() == "emt") {
    EXPECT_EQ(scheme.map().pieces(), runs.size());
    EXPECT_GT(work.tree_nodes, 0u);
  } else {
    EXPECT_GE(scheme.map().pieces(), runs.size());
    EXPECT_GT(work.hash_probes, 0u);
  }
  const DurabilityCheck::Verdict verdict = device.check_after_recovery();
  EXPECT_EQ(verdict.lost_durable, 0u) << verdict.first_loss;
  EXPECT_EQ(verdict.rolled_back, 0u);
  EXPECT_EQ(verdict.current + verdict.trimmed_resurrected, verdict.units);
  ASSERT_NO_FATAL_FAILURE(check_extent_ftl(device));
  EXPECT_EQ(rig.run_random(3000), 0u) << device.oracle()->first_mismatch();
}

INSTANTIATE_TEST_SUITE_P(Schemes, ExtentRecovery, ::testing::Values("vet", "emt"),
                         [](const auto& info) { return info.param; });

// Overwrites while GC runs in the middle of the write (a unit per page: each unit's page is
// programmed as it is placed, and the next unit's new page may start GC). Were an old copy still
// live until the write is mapped, GC could copy it after its new copy's page was programmed,
// and that GC copy, with the higher sequence, would win the recovery scan. Flushed overwrites on
// a full device, then a cut with nothing in flight: every unit is current.
TEST(ExtentPowerCut, GcNeverCopiesAnOldCopyAfterItsNewCopyIsPlaced) {
  for (const std::string name : {"vet", "emt"}) {
    FtlDevice device(extent_platform(name), power_options());
    const Geometry& g = device.geometry();
    testing::PowerCutRig rig(device, 3);
    Random random(29);
    for (int i = 0; i < 6000; ++i) {
      const auto units = static_cast<uint32_t>(2 + random.below(7));
      ASSERT_EQ(write_units(rig, g, random.below(g.logical_units - units + 1), units), 0u);
    }
    rig.run(CommandKind::kFlush, 0, 0);
    ASSERT_GT(device.stats().gc_erases, 0u);
    const DurabilityCheck::Verdict verdict = rig.cut_at(rig.all_done() + 1);
    EXPECT_EQ(verdict.lost_durable, 0u) << name << ": " << verdict.first_loss;
    EXPECT_EQ(verdict.current, verdict.units) << name;
  }
}

// A unit rewritten into the page that still assembles its older copy, the rewrite filling that
// page: the page is programmed naming the unit twice (the old copy could not be dropped from its
// spare first), and recovery takes the later slot.
TEST(ExtentPowerCut, ARewriteThatFillsThePageOfItsOldCopyIsRecovered) {
  for (const std::string name : {"vet", "emt"}) {
    FtlDevice device(extent_platform(name, 2048), power_options());  // two units per page
    const Geometry& g = device.geometry();
    testing::PowerCutRig rig(device, 13);
    auto& scheme = dynamic_cast<ExtentFtl&>(device.scheme());
    write_units(rig, g, 0, 1);  // unit 0, v1: half a page on the stripe's first plane
    const SlotId v1 = scheme.map().slot_of(0);
    // One unit on each other plane: the stripe comes back to the first one.
    for (Lun lun = 1; lun < g.planes(); ++lun) write_units(rig, g, 100 * lun, 1);
    write_units(rig, g, 0, 1);  // unit 0, v2: fills v1's page, which is programmed at once
    const SlotId v2 = scheme.map().slot_of(0);
    ASSERT_EQ(g.page_of_slot(v2), g.page_of_slot(v1));
    ASSERT_FALSE(scheme.store().buffered(v2));
    const uint32_t* spare = device.flash().spare(g.page_of_slot(v2));
    ASSERT_EQ(spare[g.unit_in_page(v1)], 0u);  // the scenario: the page names unit 0 twice
    ASSERT_EQ(spare[g.unit_in_page(v2)], 0u);
    rig.run(CommandKind::kFlush, 0, 0);
    const DurabilityCheck::Verdict verdict = rig.cut_at(rig.all_done() + 1);
    EXPECT_EQ(verdict.lost_durable, 0u) << name << ": " << verdict.first_loss;
    EXPECT_EQ(verdict.current, verdict.units) << name;
  }
}

// VET's node table on the hash-lookup accelerator: power cuts are refused, naming the key.
TEST(ExtentPowerCut, VetOnTheAcceleratorRefusesPowerCuts) {
  config::PlatformConfig p = extent_platform("vet");
  EXPECT_FALSE(scheme_catalog().recovery_problem(p));
  EXPECT_FALSE(scheme_catalog().recovery_problem(extent_platform("emt")));
  p.ftl.settings.edit<VetSettings>().hash_backend = "accelerator";
  const std::optional<config::KeyProblem> problem = scheme_catalog().recovery_problem(p);
  ASSERT_TRUE(problem);
  EXPECT_EQ(problem->key, "ftl.vet.hash_backend");
}

}  // namespace
}  // namespace ssd::ftl
