// DAC through power cuts: the table is rebuilt from the spare areas as page mapping's (the newest
// copy of each unit by program sequence) with every region's write streams in play, nothing a
// completed flush made durable is lost with cuts anywhere among the operations in flight, and the
// per-unit metadata comes back as DacFtl::recovered chose: every unit in the first region, its
// first rewrite after the cut old, the figures counted afresh.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "ftl/core/ftl_device.h"
#include "ftl/dac/dac_ftl.h"
#include "ftl/dac/dac_settings.h"
#include "ftl/scheme_registry.h"
#include "ftl/sector_log/sector_layer_descriptor.h"
#include "ftl/sector_log/sector_log_settings.h"
#include "tests/ftl/dac/dac_checks.h"
#include "tests/ftl/power/power_cut_rig.h"
#include "tests/ftl/power/stream_blocks.h"

namespace ssd::ftl {
namespace {

using testing::dac;
using testing::dac_platform;
using testing::PowerCutRig;

using testing::power_options;

// Writes every unit once through the rig, then flushes: the device is full before the first cut,
// so GC runs throughout.
uint64_t fill(PowerCutRig& rig, const Geometry& g) {
  constexpr uint64_t kUnitsPerWrite = 8;
  uint64_t mismatches = 0;
  for (Lun first = 0; first < g.logical_units; first += kUnitsPerWrite) {
    const uint64_t units = std::min<uint64_t>(kUnitsPerWrite, g.logical_units - first);
    mismatches += rig.run(CommandKind::kWrite, uint64_t{first} * g.sectors_per_unit,
                          static_cast<uint32_t>(units * g.sectors_per_unit));
  }
  return mismatches + rig.run(CommandKind::kFlush, 0, 0);
}

MappingFigure figure(const FtlDevice& device, const std::string& name) {
  for (const MappingFigure& f : device.scheme().mapping_figures()) {
    if (f.name == name) return f;
  }
  ADD_FAILURE() << "no figure " << name;
  return {};
}

// Many cuts at random instants over a random workload on a full tiny device with four regions:
// seven write streams, each with open blocks and pages being assembled on every plane.
struct CutCase {
  uint32_t unit_bytes;
  bool copyback;
  const char* name;
};

class DacPowerCuts : public ::testing::TestWithParam<CutCase> {};

TEST_P(DacPowerCuts, NothingDurableIsLostAndTheDeviceComesBack) {
  config::PlatformConfig p = dac_platform(4, 0, GetParam().unit_bytes);
  p.nand.copyback = GetParam().copyback;
  FtlDevice device(p, power_options());
  PowerCutRig rig(device, 42 + GetParam().unit_bytes + (GetParam().copyback ? 1 : 0));
  ASSERT_EQ(fill(rig, device.geometry()), 0u) << device.oracle()->first_mismatch();
  uint64_t promotions = 0;
  for (int cut = 0; cut < 60; ++cut) {
    ASSERT_EQ(rig.run_random(700), 0u)
        << "cut " << cut << ": " << device.oracle()->first_mismatch();
    promotions += dac(device).promotions();  // the scheme's counts die with it
    const DurabilityCheck::Verdict verdict = rig.cut();
    ASSERT_EQ(verdict.lost_durable, 0u) << "cut " << cut << ": " << verdict.first_loss;
    ASSERT_EQ(verdict.units, device.geometry().logical_units);
    ASSERT_NO_FATAL_FAILURE(testing::expect_dac_invariants(device)) << "cut " << cut;
  }
  // The cuts fell where they matter: pages torn, recent writes lost, GC running throughout, and
  // units climbing regions between the cuts.
  EXPECT_GT(rig.totals().torn, 0u);
  EXPECT_GT(rig.totals().rolled_back, 0u);
  EXPECT_GT(rig.totals().current, 0u);
  EXPECT_GT(device.stats().gc_erases, 0u);
  EXPECT_GT(promotions, 0u);
  // And the device goes on serving correctly after all of them, regions climbing again.
  EXPECT_EQ(rig.run_random(5000), 0u) << device.oracle()->first_mismatch();
  ASSERT_NO_FATAL_FAILURE(testing::expect_dac_invariants(device));
  EXPECT_GT(dac(device).promotions(), 0u);
}

INSTANTIATE_TEST_SUITE_P(Platforms, DacPowerCuts,
                         ::testing::Values(CutCase{0, false, "UnitIsPage"},
                                           CutCase{2048, false, "TwoUnitsPerPage"},
                                           CutCase{2048, true, "TwoUnitsPerPageCopyBack"}),
                         [](const auto& info) { return std::string(info.param.name); });

// After a cut each of the seven write streams goes on in the block it was writing, which its pages
// name (PageStore::stream_of): the region streams keep their blocks apart after a recovery too.
TEST(DacPowerCut, EachRegionStreamGoesOnInTheBlockItWasWriting) {
  const config::PlatformConfig p = dac_platform(4);
  FtlDevice device(p, power_options());
  PowerCutRig rig(device, 21);
  const Geometry& g = device.geometry();
  ASSERT_EQ(fill(rig, g), 0u);
  ASSERT_EQ(rig.run_random(5000), 0u);
  rig.run(CommandKind::kFlush, 0, 0);  // the open pages programmed: every open block has some
  std::vector<StreamCode> streams;
  for (uint32_t s = 0; s < dac(device).store().streams(); ++s) {
    streams.push_back(StreamCodes::host(s));
  }
  for (uint32_t s = 0; s < DacFtl::gc_streams(4); ++s) streams.push_back(StreamCodes::gc(s));
  ASSERT_EQ(streams.size(), 7u);
  const std::vector<BlockId> before =
      testing::partly_written_stream_blocks(dac(device).store(), device.flash(), streams);
  uint32_t host_streams_with_blocks = 0;
  for (size_t s = 0; s < 4; ++s) {
    host_streams_with_blocks += testing::planes_with_block(before, s, g.planes()) > 0;
  }
  ASSERT_GT(host_streams_with_blocks, 1u);  // streams beyond the first are in play
  const DurabilityCheck::Verdict verdict = rig.cut_at(rig.all_done() + 1);
  ASSERT_EQ(verdict.lost_durable, 0u) << verdict.first_loss;
  testing::expect_streams_write(dac(device).store(), streams, before);
}

// What recovery does with the per-unit metadata (DacFtl::recovered): the regions are not on flash,
// so every unit restarts in the first region; the stamps are gone too, and a unit's first rewrite
// after the cut is old, however soon it comes; the figures count from the recovery on.
TEST(DacPowerCut, RegionsRestartInTheFirstRegionWithOldStamps) {
  config::PlatformConfig p = dac_platform(4, /*young_writes=*/10);
  p.ftl.settings.edit<DacSettings>().first_region = 1;  // not 0, so a reset to 0 would show
  FtlDevice device(p, power_options());
  PowerCutRig rig(device, 13);
  const uint32_t spu = device.geometry().sectors_per_unit;
  const auto write = [&](Lun first, uint32_t units) {
    return rig.run(CommandKind::kWrite, uint64_t{first} * spu, units * spu);
  };
  for (int i = 0; i < 3; ++i) write(0, 8);  // units 0..7: two young rewrites, up to the hottest
  write(8, 56);                             // units 8..63: region 1
  ASSERT_EQ(dac(device).region_of(0), 3u);
  ASSERT_EQ(dac(device).region_of(8), 1u);
  ASSERT_GT(dac(device).promotions(), 0u);
  rig.run(CommandKind::kFlush, 0, 0);
  const DurabilityCheck::Verdict verdict = rig.cut_at(rig.all_done());
  ASSERT_EQ(verdict.lost_durable, 0u) << verdict.first_loss;
  EXPECT_EQ(verdict.rolled_back, 0u);

  const DacFtl& scheme = dac(device);
  for (Lun lun = 0; lun < 64; ++lun) EXPECT_EQ(scheme.region_of(lun), 1u) << "unit " << lun;
  EXPECT_EQ(figure(device, "live_units_by_region").counts, (std::vector<uint64_t>{0, 64, 0, 0}));
  EXPECT_EQ(figure(device, "promotions").value, 0.0);
  EXPECT_EQ(figure(device, "demotions").value, 0.0);
  EXPECT_EQ(figure(device, "host_units_by_region").counts, (std::vector<uint64_t>(4, 0)));
  EXPECT_EQ(figure(device, "gc_units_by_region").counts, (std::vector<uint64_t>(4, 0)));
  ASSERT_NO_FATAL_FAILURE(testing::expect_dac_invariants(device));

  write(0, 1);  // the first rewrite after the cut: old, the unit stays in region 1
  EXPECT_EQ(scheme.region_of(0), 1u);
  EXPECT_EQ(scheme.promotions(), 0u);
  write(0, 1);  // a second one right after: young again, one region hotter
  EXPECT_EQ(scheme.region_of(0), 2u);
  EXPECT_EQ(scheme.promotions(), 1u);
  write(5, 1);  // another unit's first rewrite, three writes after the recovery: old
  EXPECT_EQ(scheme.region_of(5), 1u);
  EXPECT_EQ(figure(device, "host_units_by_region").counts, (std::vector<uint64_t>{0, 2, 1, 0}));
  EXPECT_EQ(rig.run(CommandKind::kRead, 0, 64 * spu), 0u) << device.oracle()->first_mismatch();
}

// A write supersedes a unit with PageStore::replace: GC does not erase the block holding the
// unit's durable copy while its newer copy waits in a page being assembled. Here that page sits
// in region 1's host stream, which nothing else writes, while cold overwrites in region 0 make GC
// erase every block of the fill, the durable copy's included.
TEST(DacPowerCut, ADurableCopyOutlivesItsRewriteInAnotherRegion) {
  const config::PlatformConfig p = dac_platform(4, /*young_writes=*/10, 2048);  // 2 units a page
  FtlDevice device(p, power_options());
  PowerCutRig rig(device, 21);
  const Geometry& g = device.geometry();
  ASSERT_EQ(fill(rig, g), 0u);
  const Lun hot = static_cast<Lun>(g.logical_units - 1);  // written last: its rewrite is young
  const BlockId durable = dac(device).store().blocks().block_of_slot(dac(device).slot_of(hot));
  const uint32_t erases = device.flash().erase_count(durable);
  rig.run(CommandKind::kWrite, uint64_t{hot} * g.sectors_per_unit, g.sectors_per_unit);
  ASSERT_EQ(dac(device).region_of(hot), 1u);
  ASSERT_TRUE(dac(device).store().buffered(dac(device).slot_of(hot)));
  for (int pass = 0; pass < 2; ++pass) {  // old rewrites of every other unit: region 0
    for (Lun first = 0; first < hot; first += 8) {
      const uint32_t units = static_cast<uint32_t>(std::min<uint64_t>(8, hot - first));
      rig.run(CommandKind::kWrite, uint64_t{first} * g.sectors_per_unit,
              units * g.sectors_per_unit);
    }
  }
  ASSERT_GT(device.flash().erase_count(durable), erases);  // GC took the durable copy's block
  const DurabilityCheck::Verdict verdict = rig.cut_at(rig.all_done());
  EXPECT_EQ(verdict.lost_durable, 0u) << verdict.first_loss;
}

// A rewrite that fills the page holding the unit's older copy programs that page before the old
// slot can be dropped from its spare: the page names the unit twice under one sequence, and the
// recovery must take the later slot. (In the hottest region rewrites stay in their stream.)
TEST(DacPowerCut, ARewriteInTheSamePageIsTheNewerCopy) {
  config::PlatformConfig p = dac_platform(2, 0, 2048);  // two units a page
  p.ftl.settings.edit<DacSettings>().first_region = 1;
  FtlDevice device(p, power_options());
  PowerCutRig rig(device, 17);
  const uint32_t spu = device.geometry().sectors_per_unit;
  rig.run(CommandKind::kWrite, 0, spu);
  const SlotId first = dac(device).slot_of(0);
  rig.run(CommandKind::kWrite, 0, spu);
  ASSERT_EQ(dac(device).slot_of(0), first + 1);  // the same page, now programmed
  ASSERT_FALSE(dac(device).store().buffered(first));
  rig.run(CommandKind::kFlush, 0, 0);
  const DurabilityCheck::Verdict verdict = rig.cut_at(rig.all_done());
  EXPECT_EQ(verdict.lost_durable, 0u) << verdict.first_loss;
  EXPECT_EQ(dac(device).slot_of(0), first + 1);
}

// A flush closes the pages every region's streams are assembling: after it, with nothing written
// since, every unit reads back its latest value; the recovery read each programmed page's spare
// area once.
TEST(DacPowerCut, AfterACompletedFlushEveryUnitIsCurrent) {
  const config::PlatformConfig p = dac_platform(4, 0, 2048);
  FtlDevice device(p, power_options());
  PowerCutRig rig(device, 9);
  ASSERT_EQ(fill(rig, device.geometry()), 0u);
  ASSERT_EQ(rig.run_random(3000), 0u) << device.oracle()->first_mismatch();
  ASSERT_GT(dac(device).promotions(), 0u);  // several regions' streams hold data
  rig.run(CommandKind::kFlush, 0, 0);
  const DurabilityCheck::Verdict verdict = rig.cut_at(rig.all_done());
  EXPECT_EQ(verdict.lost_durable, 0u) << verdict.first_loss;
  EXPECT_EQ(verdict.rolled_back, 0u);
  EXPECT_EQ(verdict.current + verdict.trimmed_resurrected, verdict.units);
  uint64_t programmed = 0;
  for (BlockId b = 0; b < device.geometry().blocks(); ++b) {
    programmed += device.flash().write_pointer(b);
  }
  EXPECT_EQ(rig.last_recovery().spare_reads, programmed);
  EXPECT_EQ(rig.last_cut().undone + rig.last_cut().torn_programs, 0u);
}

// DAC can recover with the sequence numbers alone (no spare words of its own), and under the
// sector layer (the durability check checks by sector): the buffer adds no spare words, the log
// its sectors' addresses.
TEST(DacPowerCut, RecoversWithSequenceNumbersAndUnderTheSectorLayer) {
  config::PlatformConfig p = dac_platform(4);
  EXPECT_FALSE(scheme_catalog().recovery_problem(p).has_value());
  const uint32_t plain = scheme_spare_words("dac", p, false);
  EXPECT_EQ(scheme_spare_words("dac", p, true), plain + UnitWriter::kSequenceWords);
  p.ftl.settings.edit<WriteBufferSettings>().bytes = 1 << 20;
  EXPECT_FALSE(scheme_catalog().recovery_problem(p).has_value());
  EXPECT_EQ(scheme_spare_words("dac", p, true), plain + UnitWriter::kSequenceWords);
  p.ftl.settings.edit<SectorLogSettings>().size_bytes =
      2ull * p.nand.pages_per_block * p.nand.page_bytes;
  EXPECT_FALSE(scheme_catalog().recovery_problem(p).has_value());
  const uint32_t addresses = sector_layer_recovery_spare_words(p, Geometry::from_platform(p));
  EXPECT_GT(addresses, 0u);
  EXPECT_EQ(scheme_spare_words("dac", p, true), plain + UnitWriter::kSequenceWords + addresses);
}

}  // namespace
}  // namespace ssd::ftl
