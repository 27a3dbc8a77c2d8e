// Power-cut tests the Superblock and LSB FTLs share (tests/ftl/superblock/, tests/ftl/lsb/): a
// full device under random commands with GC busy, cut at random instants, in the middle of a
// merge's copies, in the middle of an erase, and again during a recovery; after every recovery
// nothing durable is lost, every unit is read back, and the scheme's invariants hold, its live
// pages exactly the ones the maps keep (frame_recovery.h counts them afresh).
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "config/scenario_config.h"
#include "ftl/core/ftl_device.h"
#include "ftl/core/preconditioner.h"
#include "ftl/core/random.h"
#include "ftl/hybrid/block_scheme.h"
#include "ftl/superblock_frame/superblock_frame.h"
#include "tests/ftl/power/power_cut_rig.h"

namespace ssd::testing {

// Every unit written, a fifth of them again: GC runs from the first command on.
inline void fill_for_cuts(ftl::FtlDevice& device) {
  config::PreconditionConfig fill;
  fill.fill_ratio = 1.0;
  fill.overwrite_ratio = 0.2;
  ftl::precondition(device, fill);
}

// What the recoveries of a test did beyond reading.
struct FrameRecoveryTotals {
  uint64_t recoveries = 0;
  uint64_t programs = 0;
  uint64_t maps_rewritten = 0;
  uint64_t blocks_given_back = 0;
  uint64_t dead_blocks_erased = 0;

  void add(const PowerCutRig& rig, const ftl::FtlDevice& device) {
    const auto& frame = dynamic_cast<const ftl::SuperblockFrame&>(device.scheme());
    ++recoveries;
    programs += rig.last_recovery().programs;
    maps_rewritten += frame.recovery_work().maps_rewritten;
    blocks_given_back += frame.recovery_work().blocks_given_back;
    dead_blocks_erased += frame.recovery_work().dead_blocks_erased;
  }
};

// Checks what a cut left: nothing durable lost, every unit read back, `check` (the scheme's
// invariants, live pages included) holds, GC counts nothing of the recovery's work.
inline void expect_recovered(const ftl::DurabilityCheck::Verdict& verdict, ftl::FtlDevice& device,
                             const std::function<void()>& check) {
  ASSERT_EQ(verdict.lost_durable, 0u) << verdict.first_loss;
  ASSERT_EQ(verdict.units, device.geometry().logical_units);
  ASSERT_NO_FATAL_FAILURE(check());
  ASSERT_EQ(device.scheme().stats().gc_erases, 0u) << "recovery's erases counted as GC's";
  ASSERT_EQ(device.scheme().stats().gc_units_copied, 0u) << "recovery's copies counted as GC's";
}

// Runs random commands (at most `limit`) until one runs a merge: GC copies at least `copies`
// pages and erases their victim. False when none did.
inline bool run_until_merge(PowerCutRig& rig, ftl::FtlDevice& device, uint64_t limit,
                            uint32_t copies) {
  for (uint64_t i = 0; i < limit; ++i) {
    if (rig.run_random(1) != 0) {
      ADD_FAILURE() << device.oracle()->first_mismatch();
      return false;
    }
    uint32_t copied = 0, erased = 0;
    for (const ftl::FlashOp& op : device.backend().ops().ops()) {
      if (op.op_class != ftl::OpClass::kGc) continue;
      copied += op.kind == ftl::OpKind::kProgram || op.kind == ftl::OpKind::kCopyback;
      erased += op.kind == ftl::OpKind::kErase;
    }
    if (copied >= copies && erased > 0) return true;
  }
  return false;
}

// The rule recovery relies on (SuperblockFrame::note_superseded): every program that writes a
// unit's new copy names the block of its old one, so that block's erase waits for it. Host
// writes (checked in commands that run no GC, where the old copy is where peek() said before the
// command) and GC's copies (a program after a read of a copy of the same unit) alike, over
// `commands` random writes.
inline void expect_new_copies_name_old_blocks(ftl::FtlDevice& device, uint64_t seed,
                                              uint64_t commands) {
  const auto& scheme = dynamic_cast<const ftl::BlockScheme&>(device.scheme());
  const ftl::Geometry& g = device.geometry();
  ftl::Random random(seed);
  std::vector<ftl::PageId> before(4);
  uint64_t host_checked = 0, copies_checked = 0;
  for (uint64_t i = 0; i < commands; ++i) {
    const auto units = static_cast<uint32_t>(1 + random.below(4));
    const ftl::Lun first = random.below(g.logical_units - units + 1);
    for (uint32_t k = 0; k < units; ++k) {
      before[k] = scheme.unit_valid(first + k) ? scheme.peek(first + k) : ftl::kNone;
    }
    ASSERT_EQ(run_one(device, ftl::CommandKind::kWrite, first * g.sectors_per_unit,
                      units * g.sectors_per_unit),
              0u);
    const std::vector<ftl::FlashOp>& ops = device.backend().ops().ops();
    const auto& supersedes = device.backend().supersedes();
    const auto named = [&](uint32_t op, ftl::PageId old) {
      for (const auto& s : supersedes) {
        if (s.op == op && s.block == g.block_of_page(old)) return true;
      }
      return false;
    };
    bool gc = false;
    for (const ftl::FlashOp& op : ops) gc = gc || op.op_class == ftl::OpClass::kGc;
    for (uint32_t index = 0; index < ops.size(); ++index) {
      const ftl::FlashOp& op = ops[index];
      if (op.kind != ftl::OpKind::kProgram) continue;
      const ftl::Lun lun = device.flash().spare(op.page)[0];
      if (op.after != ftl::kNone && ops[op.after].kind == ftl::OpKind::kRead &&
          device.flash().spare(ops[op.after].page)[0] == lun) {
        ASSERT_TRUE(named(index, ops[op.after].page)) << "a copy of unit " << lun;
        ++copies_checked;
      } else if (!gc && op.op_class == ftl::OpClass::kHostWrite && lun >= first &&
                 lun < first + units && before[lun - first] != ftl::kNone) {
        ASSERT_TRUE(named(index, before[lun - first])) << "a write of unit " << lun;
        ++host_checked;
      }
      // The unit's copy is here now (an MIW's copy, then the host's new data, in one command).
      if (lun >= first && lun < first + units) before[lun - first] = op.page;
    }
  }
  EXPECT_GT(host_checked, 0u);
  EXPECT_GT(copies_checked, 0u);
}

// Cuts at random instants while random commands keep GC busy on a full device, `cuts` times.
inline void expect_random_cuts_lose_nothing(ftl::FtlDevice& device, uint64_t seed, int cuts,
                                            const std::function<void()>& check,
                                            FrameRecoveryTotals& totals) {
  PowerCutRig rig(device, seed);
  for (int cut = 0; cut < cuts; ++cut) {
    ASSERT_EQ(rig.run_random(300), 0u)
        << "cut " << cut << ": " << device.oracle()->first_mismatch();
    const ftl::DurabilityCheck::Verdict verdict = rig.cut();
    ASSERT_NO_FATAL_FAILURE(expect_recovered(verdict, device, check)) << "cut " << cut;
    totals.add(rig, device);
  }
  // The cuts fell where they matter: pages torn, recent writes lost, GC running throughout.
  EXPECT_GT(rig.totals().torn, 0u);
  EXPECT_GT(rig.totals().rolled_back, 0u);
  EXPECT_GT(rig.totals().current, 0u);
  EXPECT_GT(device.stats().gc_erases, 0u);
  // And the device goes on serving correctly after all of them.
  EXPECT_EQ(rig.run_random(3000), 0u) << device.oracle()->first_mismatch();
}

// Cuts in the middle of merges: among a merge's copies (tearing one, undoing the later ones) or
// during its victim's erase, `rounds` times.
inline void expect_merges_cut_short_lose_nothing(ftl::FtlDevice& device, uint64_t seed, int rounds,
                                                 const std::function<void()>& check,
                                                 FrameRecoveryTotals& totals) {
  PowerCutRig rig(device, seed);
  ftl::Random random(seed);
  uint64_t torn_copies = 0, torn_erases = 0;
  for (int round = 0; round < rounds; ++round) {
    ASSERT_TRUE(run_until_merge(rig, device, 5000, 4)) << "round " << round << ": no merge";
    // The victim's erase waits for the copies, on the same die: they end before it starts.
    const ftl::Picoseconds erase_start = rig.last_erase_done() - PowerCutRig::kErase;
    const bool mid_erase = round % 3 == 2;
    const ftl::Picoseconds at =
        mid_erase ? erase_start + PowerCutRig::kErase / 2
                  : erase_start - 1 - random.below(4 * (2 * PowerCutRig::kProgram));
    const ftl::DurabilityCheck::Verdict verdict = rig.cut_at(at);
    ASSERT_NO_FATAL_FAILURE(expect_recovered(verdict, device, check)) << "round " << round;
    torn_copies += rig.last_cut().torn_programs;
    torn_erases += rig.last_cut().torn_erases;
    totals.add(rig, device);
  }
  EXPECT_GT(torn_copies, 0u);
  EXPECT_GT(torn_erases, 0u);
  EXPECT_EQ(rig.run_random(3000), 0u) << device.oracle()->first_mismatch();
}

// A second cut during recoveries. First cuts in the middle of merges: during a victim's erase
// (the recovery erases the torn block again, and the second cut falls halfway through the
// recovery's last erase), or among the copies (the recovery rewrites maps, and the second cut
// falls in the last quarter of the recovery, after its scan, among its copies).
inline void expect_cuts_during_recovery_lose_nothing(ftl::FtlDevice& device, uint64_t seed,
                                                     const std::function<void()>& check) {
  PowerCutRig rig(device, seed);
  ftl::Random random(seed);
  int erase_cuts = 0, copy_cuts = 0;
  uint64_t copies_cut = 0;  // the recoveries' programs the second cuts tore or undid
  for (int round = 0; round < 60 && (erase_cuts < 3 || copy_cuts < 3); ++round) {
    ASSERT_TRUE(run_until_merge(rig, device, 5000, 4)) << "round " << round << ": no merge";
    const ftl::Picoseconds erase_start = rig.last_erase_done() - PowerCutRig::kErase;
    const bool in_erase = erase_cuts < 3 && (round % 2 == 0 || copy_cuts >= 3);
    const ftl::Picoseconds first_at =
        in_erase ? erase_start + PowerCutRig::kErase / 2
                 : erase_start - 1 - random.below(4 * (2 * PowerCutRig::kProgram));
    ASSERT_NO_FATAL_FAILURE(expect_recovered(rig.cut_at(first_at), device, check));
    ftl::Picoseconds at = 0;
    if (in_erase) {
      ASSERT_GT(rig.last_cut().torn_erases, 0u);
      ASSERT_GT(rig.last_recovery().erases, 0u);  // the torn block erased again
      ++erase_cuts;
      at = rig.last_erase_done() - PowerCutRig::kErase / 2;
    } else if (rig.last_recovery().programs > 0) {
      ++copy_cuts;
      at = rig.all_done() - random.below((rig.all_done() - first_at) / 4 + 1);
    } else {
      continue;
    }
    ASSERT_NO_FATAL_FAILURE(expect_recovered(rig.cut_at(at), device, check));
    if (in_erase) {
      EXPECT_GT(rig.last_cut().torn_erases, 0u);
    } else {
      copies_cut += rig.last_cut().torn_programs + rig.last_cut().undone;
    }
  }
  EXPECT_EQ(erase_cuts, 3);
  EXPECT_EQ(copy_cuts, 3);
  EXPECT_GT(copies_cut, 0u);
  EXPECT_EQ(rig.run_random(3000), 0u) << device.oracle()->first_mismatch();
}

// A cut with nothing in flight after a flush: every unit current (or a trimmed one back with an
// older value of its own), every programmed page's spare area read, and a map rewritten only for
// a trimmed unit coming back (its page named by the map erased, an older copy left).
inline void expect_quiet_cut_keeps_everything(ftl::FtlDevice& device, uint64_t seed,
                                              const std::function<void()>& check) {
  PowerCutRig rig(device, seed);
  ASSERT_EQ(rig.run_random(3000), 0u) << device.oracle()->first_mismatch();
  rig.run(ftl::CommandKind::kFlush, 0, 0);
  uint64_t programmed = 0;
  for (ftl::BlockId b = 0; b < device.geometry().blocks(); ++b) {
    programmed += device.flash().write_pointer(b);
  }
  const ftl::DurabilityCheck::Verdict verdict = rig.cut_at(rig.all_done() + 1);
  ASSERT_NO_FATAL_FAILURE(expect_recovered(verdict, device, check));
  EXPECT_EQ(verdict.rolled_back, 0u);
  EXPECT_EQ(verdict.current + verdict.trimmed_resurrected, verdict.units);
  EXPECT_EQ(rig.last_cut().undone + rig.last_cut().torn_programs + rig.last_cut().torn_erases, 0u);
  EXPECT_GE(rig.last_recovery().spare_reads, programmed);
  const auto& frame = dynamic_cast<const ftl::SuperblockFrame&>(device.scheme());
  if (frame.recovery_work().maps_rewritten > 0) {
    EXPECT_GT(verdict.trimmed_resurrected, 0u);
  }
  EXPECT_EQ(frame.recovery_work().blocks_given_back, 0u);
}

}  // namespace ssd::testing
