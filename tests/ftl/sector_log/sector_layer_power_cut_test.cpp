// The sector layer through power cuts (sector_layer.h, sector_log.h, "Power loss"): the write
// buffer is lost, the sector log comes back from its blocks (sector addresses in the spare area,
// or in the data area when the spare is too small), its map names each sector's newest logged
// copy that patches the scheme's recovered copy, and no sector a completed flush made durable is
// lost, with cuts anywhere among the operations in flight: mid-program, mid-erase, mid-clean
// (merges and the tail's erase), and during a recovery. Checked sector by sector by FtlDevice's
// durability check (ftl/power/durability_check.h, "Sector mode"; sector_cut_harness.h).
#include <gtest/gtest.h>

#include <cstdint>
#include <ostream>
#include <string>

#include "ftl/core/page_store.h"
#include "ftl/core/random.h"
#include "ftl/scheme_registry.h"
#include "ftl/sector_log/log_page_layout.h"
#include "ftl/sector_log/sector_layer_descriptor.h"
#include "ftl/sector_log/sector_log_settings.h"
#include "tests/ftl/sector_log/sector_cut_harness.h"
#include "tests/ftl/sector_log/sector_layer_checks.h"
#include "tests/ftl/tiny_platform.h"

namespace ssd::ftl {
namespace {

using testing::SectorCutHarness;

struct LayerSetup {
  std::string name;
  const char* scheme = "page";
  uint32_t unit_bytes = 0;
  uint32_t log_blocks = 8;
  uint64_t buffer_bytes = 64 * 1024;
  uint32_t spare_bytes = 64;  // the tiny platform's: the addresses fit
  uint32_t fua_percent = 0;   // of the writes
  uint32_t page_bytes = 4096;
};

void PrintTo(const LayerSetup& s, std::ostream* os) { *os << s.name; }

config::PlatformConfig platform_of(const LayerSetup& s) {
  config::PlatformConfig p = testing::tiny_platform(s.unit_bytes);
  p.ftl.scheme = s.scheme;
  p.nand.page_bytes = s.page_bytes;
  p.nand.spare_bytes = s.spare_bytes;
  p.ftl.settings.edit<SectorLogSettings>().size_bytes =
      uint64_t{s.log_blocks} * p.nand.pages_per_block * p.nand.page_bytes;
  p.ftl.settings.edit<WriteBufferSettings>().bytes = s.buffer_bytes;
  return p;
}

// Writes every sector once and flushes: GC and the log's cleaning run from the first cut on.
void fill(SectorCutHarness& h) {
  const Geometry& g = h.geometry();
  for (uint64_t s = 0; s < g.logical_sectors(); s += 64) {
    h.run(CommandKind::kWrite, s,
          static_cast<uint32_t>(std::min<uint64_t>(64, g.logical_sectors() - s)));
  }
  h.run(CommandKind::kFlush, 0, 0);
}

class SectorLayerPowerCuts : public ::testing::TestWithParam<LayerSetup> {};

TEST_P(SectorLayerPowerCuts, NothingDurableIsLostAndTheLayerComesBack) {
  const LayerSetup& setup = GetParam();
  SectorCutHarness h(platform_of(setup), 17 + setup.log_blocks + setup.unit_bytes);
  fill(h);
  h.set_fua_percent(setup.fua_percent);
  uint64_t log_erases = 0;
  uint64_t kept = 0;
  for (int cut = 0; cut < 60; ++cut) {
    ASSERT_EQ(h.run_random(400), 0u) << "cut " << cut << ": " << h.first_mismatch();
    if (h.layer().log() != nullptr) log_erases += h.layer().log()->counts().erases;
    const DurabilityCheck::Verdict verdict = h.cut();
    ASSERT_EQ(verdict.lost_durable, 0u) << "cut " << cut << ": " << verdict.first_loss;
    ASSERT_EQ(verdict.units, h.geometry().logical_units);
    ASSERT_NO_FATAL_FAILURE(testing::expect_sector_layer_invariants(h.device(), h.layer()))
        << "cut " << cut;
    if (h.layer().log() != nullptr) kept += h.layer().log()->recovery().sectors_kept;
  }
  // The cuts fell where they matter: pages torn, recent writes lost, the log cleaned between
  // cuts and holding sectors at them, GC running.
  EXPECT_GT(h.rig().totals().torn, 0u);
  EXPECT_GT(h.rig().totals().rolled_back + h.rig().totals().current, 0u);
  EXPECT_GT(h.device().stats().gc_erases, 0u);
  if (setup.log_blocks > 0) {
    EXPECT_GT(log_erases, 0u);
    EXPECT_GT(kept, 0u) << "no cut found sectors in the log";
  }
  // And the device goes on serving every sector right.
  EXPECT_EQ(h.run_random(4000), 0u) << h.first_mismatch();
}

INSTANTIATE_TEST_SUITE_P(
    Setups, SectorLayerPowerCuts,
    ::testing::Values(LayerSetup{"BufferAndLog"}, LayerSetup{"LogOnly", "page", 0, 8, 0},
                      LayerSetup{"BufferOnly", "page", 0, 0, 64 * 1024},
                      LayerSetup{"TwoUnitsAPage", "page", 2048},
                      LayerSetup{"AddressesInTheDataArea", "page", 0, 8, 64 * 1024, 12},
                      LayerSetup{"OverDac", "dac"},
                      LayerSetup{"FuaWrites", "page", 2048, 8, 64 * 1024, 64, 10},
                      // 64 sectors a page: their addresses go to the data area.
                      LayerSetup{"ThirtyTwoKiBPages", "page", 0, 8, 640 * 1024, 64, 0, 32768}),
    [](const ::testing::TestParamInfo<LayerSetup>& info) { return info.param.name; });

// The rollbacks counted above are the harness's; here the cut falls right after a completed
// flush, with nothing in flight: every sector reads its latest value.
TEST(SectorLayerPowerCut, AfterACompletedFlushEverySectorIsCurrent) {
  SectorCutHarness h(platform_of(LayerSetup{"BufferAndLog"}), 3);
  fill(h);
  ASSERT_EQ(h.run_random(3000, 0), 0u) << h.first_mismatch();
  h.run(CommandKind::kFlush, 0, 0);
  const DurabilityCheck::Verdict verdict = h.cut_at(h.rig().all_done());
  EXPECT_EQ(verdict.lost_durable, 0u) << verdict.first_loss;
  EXPECT_EQ(verdict.current, verdict.units);
  EXPECT_GT(h.layer().log()->recovery().sectors_kept, 0u);
  ASSERT_NO_FATAL_FAILURE(testing::expect_sector_layer_invariants(h.device(), h.layer()));
  // One pass over the spare areas: the scheme's scan reads the log's pages too, and the log
  // takes what they say from it.
  uint64_t programmed = 0;
  for (BlockId b = 0; b < h.geometry().blocks(); ++b) {
    programmed += h.device().flash().write_pointer(b);
  }
  EXPECT_EQ(h.rig().last_recovery().spare_reads, programmed);
  EXPECT_EQ(h.rig().last_recovery().flash_reads, 0u);
  EXPECT_EQ(h.rig().last_cut().undone + h.rig().last_cut().torn_programs, 0u);
}

// A page trimmed, then written in part and flushed: its old copy may come back (the trim is not
// durable), but the sectors written after the trim must not be lost under it. While power may be
// cut the layer writes such a page whole (the scheme maps nothing for logged sectors to patch).
TEST(SectorLayerPowerCut, SectorsWrittenAfterATrimSurviveTheTrimmedCopy) {
  SectorCutHarness h(platform_of(LayerSetup{"LogOnly", "page", 0, 8, 0}), 4);
  fill(h);
  const uint32_t spu = h.geometry().sectors_per_unit;
  const uint64_t writes_below = h.layer().counts().ftl_page_writes;
  for (Lun lpn = 100; lpn < 110; ++lpn) {
    h.run(CommandKind::kTrim, uint64_t{lpn} * spu, spu);
    h.run(CommandKind::kWrite, uint64_t{lpn} * spu + 2, 3);
  }
  h.run(CommandKind::kFlush, 0, 0);
  EXPECT_EQ(h.layer().counts().ftl_page_writes - writes_below, 10u) << "written whole";
  const DurabilityCheck::Verdict verdict = h.cut_at(h.rig().all_done());
  EXPECT_EQ(verdict.lost_durable, 0u) << verdict.first_loss;
  EXPECT_EQ(verdict.current, verdict.units);
}

// A FUA write is acknowledged once its own operations complete. Its logged sectors patch the copy
// below, which an earlier command may still be programming: the cut right at the FUA's
// acknowledgement must find both (the log's programs in a FUA command wait for everything before
// them).
TEST(SectorLayerPowerCut, AFuaWritesLoggedSectorsSurviveACutAtItsAcknowledgement) {
  SectorCutHarness h(platform_of(LayerSetup{"LogOnly", "page", 0, 8, 0}), 8);
  fill(h);
  const uint32_t spu = h.geometry().sectors_per_unit;
  Random random(3);
  for (int round = 0; round < 100; ++round) {
    ASSERT_EQ(h.run_random(30, 0), 0u) << h.first_mismatch();
    const Lun lpn = static_cast<Lun>(random.below(h.geometry().logical_units));
    h.run(CommandKind::kWrite, uint64_t{lpn} * spu, spu);                  // a new copy below
    h.run(CommandKind::kWrite, uint64_t{lpn} * spu + 1, 2, /*fua=*/true);  // logged over it
    const DurabilityCheck::Verdict verdict = h.cut_at(h.rig().last_done());
    ASSERT_EQ(verdict.lost_durable, 0u) << "round " << round << ": " << verdict.first_loss;
  }
}

// The layer's spare words: a log page's sector addresses, bits counted against nand.spare_bytes
// beside the scheme's words (a unit's number per unit, a 64-bit sequence), else none (the data
// area holds them).
TEST(SectorLayerPowerCut, AddressBitsAreCountedAgainstTheSpareArea) {
  config::PlatformConfig p = platform_of(LayerSetup{"BufferAndLog"});
  const Geometry g = Geometry::from_platform(p);
  // The tiny device has 49152 logical sectors: 16 bits each (all ones is none), 8 to a page.
  EXPECT_EQ(LogPageLayout::bits_per_address(g), 16u);
  EXPECT_EQ(sector_layer_recovery_spare_words(p, g), 4u);
  EXPECT_EQ(scheme_spare_words("page", p, true),
            scheme_spare_words("page", p, false) + UnitWriter::kSequenceWords + 4);
  EXPECT_EQ(scheme_spare_words("dac", p, true), scheme_spare_words("page", p, true));
  // 12 spare bytes hold the scheme's 3 words only: the addresses take a sector of each log page.
  p.nand.spare_bytes = 12;
  EXPECT_EQ(sector_layer_recovery_spare_words(p, Geometry::from_platform(p)), 0u);
  const LogPageLayout layout = LogPageLayout::of(Geometry::from_platform(p), 3);
  EXPECT_TRUE(layout.recoverable);
  EXPECT_FALSE(layout.addresses_in_spare);
  EXPECT_EQ(layout.address_sectors, 1u);
  EXPECT_EQ(layout.sectors, 7u);
  // Without a log, or without power cuts, nothing.
  p.ftl.settings.edit<SectorLogSettings>().size_bytes = 0;
  p.nand.spare_bytes = 64;
  EXPECT_EQ(sector_layer_recovery_spare_words(p, g), 0u);
  EXPECT_FALSE(LogPageLayout::of(g, PageStore::spare_words(g)).recoverable);
}

TEST(SectorLayerPowerCut, AddressesPackAndUnpack) {
  LogPageLayout layout;
  layout.sectors = 7;
  layout.address_bits = 13;
  layout.address_words = (7 * 13 + 31) / 32;
  const std::vector<uint64_t> addresses = {0, 8191 - 1, 4095, layout.no_address(), 1, 77, 8000};
  std::vector<uint32_t> words(layout.address_words);
  layout.pack(addresses, words.data());
  for (uint32_t i = 0; i < addresses.size(); ++i)
    EXPECT_EQ(layout.unpack(words.data(), i), addresses[i]);
}

// Cuts inside the log's cleaning: after a command that cleaned the tail block (its sectors merged
// into the scheme, the block erased), the cut falls just before the erase starts (the merges'
// programs may still run), while it runs (torn), or just after it (the merged copies must be on
// flash by then). Nothing durable is lost at any of them.
TEST(SectorLayerPowerCut, ACutInsideTheLogsCleaningLosesNothing) {
  SectorCutHarness h(platform_of(LayerSetup{"LogOnly", "page", 2048, 4, 0}), 23);
  fill(h);
  int cuts[3] = {0, 0, 0};  // before, during, after the erase
  for (int attempt = 0; attempt < 6000 && cuts[2] < 4; ++attempt) {
    const uint64_t erases = h.layer().log()->counts().erases;
    ASSERT_EQ(h.run_random(1, 2), 0u) << h.first_mismatch();
    if (h.layer().log()->counts().erases == erases) continue;
    // This command cleaned the tail: its erase is the latest timed.
    const int where = (cuts[0] + cuts[1] + cuts[2]) % 3;
    const Picoseconds done = h.rig().last_erase_done();
    const Picoseconds at = where == 0   ? done - testing::PowerCutRig::kErase - 1
                           : where == 1 ? done - testing::PowerCutRig::kErase / 2
                                        : done;
    const DurabilityCheck::Verdict verdict = h.cut_at(at);
    ASSERT_EQ(verdict.lost_durable, 0u) << "cut " << where << ": " << verdict.first_loss;
    ASSERT_NO_FATAL_FAILURE(testing::expect_sector_layer_invariants(h.device(), h.layer()));
    ++cuts[where];
  }
  EXPECT_EQ(cuts[0], 4);
  EXPECT_EQ(cuts[1], 4);
  EXPECT_EQ(cuts[2], 4);
  EXPECT_EQ(h.run_random(3000), 0u) << h.first_mismatch();
}

// Runs random commands until one cleans the log's tail, then cuts with that clean's erase undone
// and the log's first page in the replacement block programmed: a die that ran the program,
// ready, before the erase, which waits for the merged copies (the timed NAND model may; the
// rig's dies keep issue order). The log then holds one block more than its region.
DurabilityCheck::Verdict cut_with_a_cleans_erase_undone(SectorCutHarness& h) {
  for (int attempt = 0; attempt < 20000; ++attempt) {
    const uint64_t erases = h.layer().log()->counts().erases;
    EXPECT_EQ(h.run_random(1, 0), 0u) << h.first_mismatch();
    if (h.layer().log()->counts().erases != erases + 1) continue;
    const SectorLog& log = *h.layer().log();
    const BlockId replacement = log.ring_block(log.head());
    const Geometry& g = h.geometry();
    FlashBackend& backend = h.device().backend();
    const std::vector<FlashOp>& ops = backend.ops().ops();
    uint32_t erase = kNone;
    for (uint32_t i = 0; i < ops.size(); ++i) {
      if (ops[i].kind == OpKind::kErase) erase = i;
    }
    Picoseconds at = h.rig().now();
    bool programmed = false;
    for (uint32_t i = erase + 1; i < ops.size(); ++i) {
      if (ops[i].kind != OpKind::kProgram || g.block_of_page(ops[i].page) != replacement) continue;
      backend.op_completed(i, at + 1, at);
      programmed = true;
    }
    if (!programmed) continue;
    backend.op_completed(erase, FlashArray::kNotDone, FlashArray::kNotDone);
    return h.cut_at(at + 2);
  }
  ADD_FAILURE() << "no clean";
  return {};
}

// The ring outgrows the region when a clean's erase is undone after the log wrote its
// replacement block: the recovery cleans the oldest block again (its sectors merged out, the
// block erased and given back). Nothing durable is lost.
TEST(SectorLayerPowerCut, AnInterruptedCleanIsDoneAgain) {
  SectorCutHarness h(platform_of(LayerSetup{"LogOnly", "page", 0, 2, 0}), 5);
  fill(h);
  for (int round = 0; round < 5; ++round) {
    ASSERT_EQ(h.run_random(300), 0u) << h.first_mismatch();
    const DurabilityCheck::Verdict verdict = cut_with_a_cleans_erase_undone(h);
    ASSERT_EQ(verdict.lost_durable, 0u) << "round " << round << ": " << verdict.first_loss;
    EXPECT_EQ(h.layer().log()->recovery().blocks_found, 3u);
    EXPECT_EQ(h.layer().log()->recovery().blocks_retired, 1u);
    EXPECT_GT(h.rig().last_recovery().erases, 0u);
    ASSERT_NO_FATAL_FAILURE(testing::expect_sector_layer_invariants(h.device(), h.layer()));
    EXPECT_EQ(h.layer().log()->blocks(), 2u);
  }
  EXPECT_EQ(h.run_random(2000), 0u) << h.first_mismatch();
}

// A second cut during a recovery: the first recovery erases a torn block again (or cleans), and
// the power goes again halfway through that erase. The second recovery loses nothing either.
TEST(SectorLayerPowerCut, ASecondCutDuringRecoveryIsSurvived) {
  SectorCutHarness h(platform_of(LayerSetup{"BufferAndLog", "page", 0, 4}), 11);
  fill(h);
  int second_cuts = 0;
  for (int attempt = 0; attempt < 600 && second_cuts < 3; ++attempt) {
    ASSERT_EQ(h.run_random(200), 0u) << h.first_mismatch();
    const DurabilityCheck::Verdict first = h.cut();
    ASSERT_EQ(first.lost_durable, 0u) << first.first_loss;
    if (h.rig().last_recovery().erases == 0) continue;
    ++second_cuts;
    const DurabilityCheck::Verdict second =
        h.cut_at(h.rig().last_erase_done() - testing::PowerCutRig::kErase / 2);
    EXPECT_EQ(second.lost_durable, 0u) << second.first_loss;
    EXPECT_GT(h.rig().last_cut().torn_erases, 0u);
    ASSERT_NO_FATAL_FAILURE(testing::expect_sector_layer_invariants(h.device(), h.layer()));
  }
  EXPECT_EQ(second_cuts, 3);
  EXPECT_EQ(h.run_random(2000), 0u) << h.first_mismatch();
}

// The check catches a recovery that misses the log: sectors a flush made durable in the newest
// log block are erased behind the recovery's back (as if it had skipped that block).
TEST(SectorLayerPowerCut, ARecoveryThatSkipsTheNewestLogBlockIsCaught) {
  SectorCutHarness h(platform_of(LayerSetup{"LogOnly", "page", 0, 8, 0}), 9);
  fill(h);
  ASSERT_EQ(h.run_random(2000, 0), 0u);
  // Sub-page writes the log takes, then a flush: durable only in the log.
  for (uint64_t lpn = 0; lpn < 24; ++lpn) {
    h.run(CommandKind::kWrite, lpn * h.geometry().sectors_per_unit + 1, 2);
  }
  h.run(CommandKind::kFlush, 0, 0);
  const SectorLog& log = *h.layer().log();
  const BlockId newest = log.ring_block(log.head());
  ASSERT_GT(h.device().flash().write_pointer(newest), 0u);
  h.device().flash().set_journal(false);
  h.device().flash().erase(newest);
  h.device().flash().set_journal(true);
  const DurabilityCheck::Verdict verdict = h.cut_at(h.rig().all_done());
  EXPECT_GT(verdict.lost_durable, 0u);
  EXPECT_FALSE(verdict.first_loss.empty());
}

// What the recovery did is its own work: the layer's counts start afresh, and the scheme's GC
// figures leave out what the recovery's merges made it do.
TEST(SectorLayerPowerCut, TheRecoverysWorkIsNotCountedAsTheRuns) {
  SectorCutHarness h(platform_of(LayerSetup{"LogOnly", "page", 0, 2, 0}), 5);
  fill(h);
  ASSERT_EQ(h.run_random(300), 0u);
  ASSERT_EQ(cut_with_a_cleans_erase_undone(h).lost_durable, 0u);
  ASSERT_EQ(h.layer().log()->recovery().blocks_retired, 1u);
  EXPECT_GT(h.rig().last_recovery().programs, 0u) << "the retired block's sectors merged out";
  EXPECT_EQ(h.layer().counts().ftl_page_writes, 0u);
  EXPECT_EQ(h.layer().log()->counts().erases, 0u);
  EXPECT_EQ(h.layer().log()->counts().evictions, 0u);
  EXPECT_EQ(h.layer().stats().gc_erases, 0u);
  EXPECT_EQ(h.layer().stats().gc_units_copied, 0u);
}

}  // namespace
}  // namespace ssd::ftl
