// DFTL through power cuts: the GTD and the unit -> slot table are rebuilt from the spare areas,
// every translation page that does not say what they say is written again (dirty CMT entries and
// relocations the cut took away, entries naming a page the cut tore), and nothing a completed
// flush made durable is lost, with cuts anywhere among the operations in flight, GC moving data
// and translation pages, a small CMT writing translation pages back all the time.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "ftl/core/ftl_device.h"
#include "ftl/core/page_store.h"
#include "ftl/core/random.h"
#include "tests/ftl/dftl/dftl_checks.h"
#include "tests/ftl/power/power_cut_rig.h"

namespace ssd::ftl {
namespace {

using testing::dftl;

using testing::power_options;

// Per key (data units, then translation page t as unit logical_units + t), the copy in the
// readable page with the highest program sequence: what any recovery must find.
std::vector<SlotId> newest_copies(FtlDevice& device) {
  const Geometry& g = device.geometry();
  const uint32_t tpages = dftl(device).translation_pages();
  std::vector<SlotId> newest(g.logical_units + tpages, kNone);
  std::vector<uint64_t> sequence(newest.size(), 0);
  for (BlockId b = 0; b < g.blocks(); ++b) {
    for (uint32_t p = 0; p < device.flash().write_pointer(b); ++p) {
      const PageId page = g.first_page(b) + p;
      if (!device.flash().readable(page)) continue;
      const uint32_t* spare = device.flash().spare(page);
      const uint64_t seq = PageStore::program_sequence(spare, g.units_per_page);
      for (uint32_t u = 0; u < g.units_per_page; ++u) {
        const Lun key = spare[u];
        // A tie is two copies in one page: the later slot is the newer (Dftl::recover).
        if (key >= newest.size() || (newest[key] != kNone && seq < sequence[key])) continue;
        newest[key] = g.first_slot(page) + u;
        sequence[key] = seq;
      }
    }
  }
  return newest;
}

// Right after a recovery (nothing written since): every unit and every translation page is its
// newest copy on flash, and every translation page says what the table says (none is stale).
void expect_recovered(FtlDevice& device) {
  const Dftl& scheme = dftl(device);
  const Geometry& g = device.geometry();
  const std::vector<SlotId> newest = newest_copies(device);
  for (Lun lun = 0; lun < g.logical_units; ++lun) {
    ASSERT_EQ(scheme.slot_of(lun), newest[lun]) << "unit " << lun;
  }
  const uint32_t per_page = scheme.entries_per_translation_page();
  for (uint32_t t = 0; t < scheme.translation_pages(); ++t) {
    const SlotId slot = scheme.translation_slot(t);
    ASSERT_EQ(slot, newest[g.logical_units + t]) << "translation page " << t;
    Token says = 0;  // what the table says, as a translation page's token (Dftl::entry_token)
    for (Lun lun = t * per_page; lun < g.logical_units && lun < (t + 1) * per_page; ++lun) {
      says += Dftl::entry_token(lun, scheme.slot_of(lun));
    }
    if (slot == kNone) {  // never written: every unit it covers must be unmapped
      ASSERT_EQ(says, 0u) << "translation page " << t << " missing";
      continue;
    }
    ASSERT_FALSE(scheme.store().buffered(slot)) << "translation page " << t << " not programmed";
    ASSERT_EQ(device.flash().token(slot), says) << "stale translation page " << t;
  }
}

// Runs one command; returns the translation pages GC copied during it (GC programs whose page
// names one).
uint64_t run_counting_moves(testing::PowerCutRig& rig, FtlDevice& device, CommandKind kind,
                            uint64_t sector, uint32_t count, uint64_t& mismatches) {
  mismatches += rig.run(kind, sector, count);
  const Geometry& g = device.geometry();
  uint64_t moved = 0;
  for (const FlashOp& op : device.backend().ops().ops()) {
    if (op.op_class != OpClass::kGc ||
        (op.kind != OpKind::kProgram && op.kind != OpKind::kCopyback)) {
      continue;
    }
    const uint32_t* spare = device.flash().spare(op.page);
    for (uint32_t u = 0; u < g.units_per_page; ++u) {
      moved += spare[u] != kNone && spare[u] >= g.logical_units;
    }
  }
  return moved;
}

// Many cuts at random instants over a random workload on a full tiny device with a 16-entry
// CMT: translation pages written back all the time, GC moving data and translation pages.
class DftlPowerCuts : public ::testing::TestWithParam<uint32_t> {};

TEST_P(DftlPowerCuts, NothingDurableIsLostAndTranslationPagesComeBackCurrent) {
  const config::PlatformConfig p = testing::dftl_platform(GetParam(), 16);
  FtlDevice device(p, power_options());
  testing::PowerCutRig rig(device, 42 + GetParam());
  uint64_t rewritten = 0;
  uint64_t translation_writes = 0;
  uint64_t gc_moves = 0;
  for (int cut = 0; cut < 60; ++cut) {
    const uint64_t before = dftl(device).translation_writes();
    uint64_t mismatches = 0;
    Random random(1000 * GetParam() + cut);
    // run_random's mix, one command at a time, counting translation pages GC moved.
    for (int i = 0; i < 700; ++i) {
      const Geometry& g = device.geometry();
      const uint64_t draw = random.below(100);
      const auto count = static_cast<uint32_t>(1 + random.below(g.sectors_per_unit * 4));
      const uint64_t start = random.below(g.logical_sectors() - count + 1);
      const CommandKind kind = draw < 55   ? CommandKind::kWrite
                               : draw < 85 ? CommandKind::kRead
                               : draw < 90 ? CommandKind::kTrim
                                           : CommandKind::kFlush;
      gc_moves += run_counting_moves(rig, device, kind, start, count, mismatches);
    }
    ASSERT_EQ(mismatches, 0u) << "cut " << cut << ": " << device.oracle()->first_mismatch();
    translation_writes += dftl(device).translation_writes() - before;
    const DurabilityCheck::Verdict verdict = rig.cut();
    ASSERT_EQ(verdict.lost_durable, 0u) << "cut " << cut << ": " << verdict.first_loss;
    ASSERT_EQ(verdict.units, device.geometry().logical_units);
    rewritten += rig.last_recovery().programs;
    ASSERT_NO_FATAL_FAILURE(expect_recovered(device)) << "cut " << cut;
    ASSERT_NO_FATAL_FAILURE(testing::expect_dftl_invariants(device)) << "cut " << cut;
  }
  // The cuts fell where they matter: pages torn, recent writes lost, GC running throughout,
  // translation pages written back, moved by GC and written again by recoveries.
  EXPECT_GT(rig.totals().torn, 0u);
  EXPECT_GT(rig.totals().rolled_back, 0u);
  EXPECT_GT(rig.totals().current, 0u);
  EXPECT_GT(device.stats().gc_erases, 0u);
  EXPECT_GT(translation_writes, 1000u);
  EXPECT_GT(gc_moves, 0u);
  EXPECT_GT(rewritten, 0u);
  // And the device goes on serving correctly after all of them.
  EXPECT_EQ(rig.run_random(5000), 0u) << device.oracle()->first_mismatch();
  ASSERT_NO_FATAL_FAILURE(testing::expect_dftl_invariants(device));
}

INSTANTIATE_TEST_SUITE_P(UnitSizes, DftlPowerCuts, ::testing::Values(0u, 2048u),
                         [](const auto& info) {
                           return info.param == 0 ? std::string("UnitIsPage")
                                                  : std::string("TwoUnitsPerPage");
                         });

// Dirty CMT entries are lost with the cut: a flush made the data durable but no translation page
// names it yet. The recovery finds the data in the spare areas and writes the translation page.
TEST(DftlPowerCut, LostDirtyEntriesAreWrittenByTheRecovery) {
  const config::PlatformConfig p = testing::dftl_platform(0, 4);
  FtlDevice device(p, power_options());
  testing::PowerCutRig rig(device, 3);
  const uint32_t unit = device.geometry().sectors_per_unit;
  for (Lun lun = 0; lun < 4; ++lun) rig.run(CommandKind::kWrite, lun * unit, unit);
  rig.run(CommandKind::kFlush, 0, 0);
  ASSERT_EQ(dftl(device).translation_slot(0), kNone);  // four dirty entries, in DRAM only
  const DurabilityCheck::Verdict verdict = rig.cut_at(rig.all_done());
  EXPECT_EQ(verdict.lost_durable, 0u) << verdict.first_loss;
  EXPECT_EQ(verdict.current, verdict.units);
  EXPECT_EQ(rig.last_recovery().programs, 1u);     // translation page 0, nothing else
  EXPECT_EQ(rig.last_recovery().flash_reads, 0u);  // no translation page was on flash
  ASSERT_NO_FATAL_FAILURE(expect_recovered(device));
  EXPECT_NE(dftl(device).translation_slot(0), kNone);
}

// Every translation page was current when the power went (no dirty entry, no pending move, no
// trim whose unit's old copy is still on flash, nothing in flight): the recovery reads each
// once and writes none.
TEST(DftlPowerCut, CleanTranslationPagesAreReadNotRewritten) {
  const config::PlatformConfig p = testing::dftl_platform(0, 16);
  FtlDevice device(p, power_options());
  testing::PowerCutRig rig(device, 9);
  const Geometry& g = device.geometry();
  Random random(5);
  for (int i = 0; i < 20000; ++i) {  // writes and reads, no trims: GC busy, pages written back
    const auto count = static_cast<uint32_t>(1 + random.below(g.sectors_per_unit * 4));
    const uint64_t start = random.below(g.logical_sectors() - count + 1);
    const CommandKind kind = random.below(100) < 60 ? CommandKind::kWrite : CommandKind::kRead;
    ASSERT_EQ(rig.run(kind, start, count), 0u) << device.oracle()->first_mismatch();
  }
  ASSERT_GT(device.stats().gc_erases, 0u);
  // Reads of units not cached push every dirty entry out (their pages written back), until no
  // cached entry is dirty (GC run by those writes may dirty some again).
  const auto any_dirty = [&] {
    const CachedMappingTable& cmt = dftl(device).cache();
    for (Lun lun = 0; lun < g.logical_units; ++lun) {
      if (cmt.contains(lun) && cmt.dirty(lun)) return true;
    }
    return false;
  };
  for (Lun lun = 0; any_dirty(); lun = (lun + 1) % g.logical_units) {
    ASSERT_EQ(rig.run(CommandKind::kRead, uint64_t{lun} * g.sectors_per_unit, g.sectors_per_unit),
              0u);
  }
  rig.run(CommandKind::kFlush, 0, 0);  // data and translation pages onto the flash
  ASSERT_FALSE(any_dirty());
  uint32_t on_flash = 0;
  for (uint32_t t = 0; t < dftl(device).translation_pages(); ++t) {
    on_flash += dftl(device).translation_slot(t) != kNone;
  }
  ASSERT_GT(on_flash, 0u);
  const DurabilityCheck::Verdict verdict = rig.cut_at(rig.all_done() + 1);
  EXPECT_EQ(verdict.lost_durable, 0u) << verdict.first_loss;
  EXPECT_EQ(verdict.current, verdict.units);
  EXPECT_EQ(rig.last_cut().undone + rig.last_cut().torn_programs, 0u);
  EXPECT_EQ(rig.last_recovery().programs, 0u);
  EXPECT_EQ(rig.last_recovery().flash_reads, on_flash);
  ASSERT_NO_FATAL_FAILURE(expect_recovered(device));
}

// A cut during a recovery's translation-page writes: the next recovery finds the same stale
// pages (or the ones the torn program left) and still loses nothing durable.
TEST(DftlPowerCut, ACutDuringTheRecoverysWritesIsSurvived) {
  const config::PlatformConfig p = testing::dftl_platform(0, 16);
  FtlDevice device(p, power_options());
  testing::PowerCutRig rig(device, 11);
  int cuts_in_rewrites = 0;
  uint64_t torn = 0;
  for (int attempt = 0; attempt < 200 && cuts_in_rewrites < 3; ++attempt) {
    ASSERT_EQ(rig.run_random(300), 0u) << device.oracle()->first_mismatch();
    const DurabilityCheck::Verdict first = rig.cut();
    ASSERT_EQ(first.lost_durable, 0u) << first.first_loss;
    if (rig.last_recovery().programs == 0) continue;
    ++cuts_in_rewrites;
    // Cut again halfway through the recovery's last program (the rig's programs take kProgram).
    const DurabilityCheck::Verdict second =
        rig.cut_at(rig.all_done() - testing::PowerCutRig::kProgram / 2);
    EXPECT_EQ(second.lost_durable, 0u) << second.first_loss;
    torn += rig.last_cut().torn_programs + rig.last_cut().torn_erases;
    ASSERT_NO_FATAL_FAILURE(expect_recovered(device));
  }
  EXPECT_EQ(cuts_in_rewrites, 3);
  EXPECT_GT(torn, 0u);
  EXPECT_EQ(rig.run_random(3000), 0u) << device.oracle()->first_mismatch();
  ASSERT_NO_FATAL_FAILURE(testing::expect_dftl_invariants(device));
}

}  // namespace
}  // namespace ssd::ftl
