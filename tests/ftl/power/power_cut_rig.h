// Power cuts on a functional device, without SystemC: a stand-in clock gives every operation a
// completion (after what it waits for, after its block's earlier operations, with the array time
// of its kind last), flushes are acknowledged once the clock passes their completion (a flush's:
// every operation so far; a FUA write's: its own operations), and cut()
// cuts at an instant among the operations in flight, recovers, and checks every unit. What the
// timed platform does (models/platform/power_cuts.h), with the timing simplified to what the
// rules of the flash need: a die does one operation at a time, in the order they come (so a
// block's operations complete in order), and an operation starts after what it depends on.
#pragma once

#include <algorithm>
#include <cstdint>
#include <deque>
#include <functional>
#include <vector>

#include "ftl/core/ftl_device.h"
#include "ftl/core/random.h"
#include "tests/ftl/scheme_workloads.h"

namespace ssd::testing {

// A device that may lose power, with the oracle the check after each recovery needs.
inline ftl::FtlDeviceOptions power_options() {
  ftl::FtlDeviceOptions options;
  options.oracle = true;
  options.power_loss = true;
  return options;
}

class PowerCutRig {
 public:
  PowerCutRig(ftl::FtlDevice& device, uint64_t seed) : m_device(device), m_random(seed) {
    m_die_done.assign(device.geometry().dies(), 0);
    m_superseded_until.assign(device.geometry().blocks(), 0);
    device.start_durability_check();
  }

  // Runs one command (a write with FUA when `fua`), times its operations, and acknowledges the
  // flushes and FUA writes that completed.
  uint64_t run(ftl::CommandKind kind, uint64_t sector, uint32_t count, bool fua = false) {
    ftl::HostCommand c = command(kind, sector, count);
    c.fua = fua;
    const uint64_t mismatches = m_device.run(c);
    const ftl::Picoseconds done = time_ops();
    m_last_done = done;
    if (kind == ftl::CommandKind::kFlush) {
      m_flushes.push_back({std::max(done, m_all_done), m_device.last_flush_marker()});
    }
    if (kind == ftl::CommandKind::kWrite && fua) {
      m_fua_writes.push_back({done, m_device.last_fua_changes()});
    }
    // Closed loop: at most kQueueDepth commands in flight, the next submitted when the oldest
    // completes (so the host waits for GC as it does on the timed platform).
    m_in_flight.push_back(std::max(done, m_now));
    m_now += 1 + m_random.below(kStep);
    if (m_in_flight.size() >= kQueueDepth) {
      m_now = std::max(m_now, m_in_flight.front());
      m_in_flight.pop_front();
    }
    acknowledge(m_now);
    m_device.flash().journal_retire(m_now);
    return mismatches;
  }

  // Random commands as run_random's mix (writes, reads, trims, flushes); with set_fua_percent,
  // that share of the writes FUA.
  uint64_t run_random(uint64_t commands) {
    const ftl::Geometry& g = m_device.geometry();
    uint64_t mismatches = 0;
    for (uint64_t i = 0; i < commands; ++i) {
      const uint64_t draw = m_random.below(100);
      const auto count = static_cast<uint32_t>(1 + m_random.below(g.sectors_per_unit * 4));
      const uint64_t start = m_random.below(g.logical_sectors() - count + 1);
      const ftl::CommandKind kind = draw < 55   ? ftl::CommandKind::kWrite
                                    : draw < 85 ? ftl::CommandKind::kRead
                                    : draw < 90 ? ftl::CommandKind::kTrim
                                                : ftl::CommandKind::kFlush;
      // Drawn only when asked for, so that the mix without FUA stays what it was.
      const bool fua = kind == ftl::CommandKind::kWrite && m_fua_percent > 0 &&
                       m_random.below(100) < m_fua_percent;
      mismatches += run(kind, start, count, fua);
    }
    return mismatches;
  }
  void set_fua_percent(uint32_t percent) { m_fua_percent = percent; }

  // Cuts at an instant from now to the last completion so far, recovers (its operations timed
  // too, so that a later cut can fall inside the recovery), and checks every unit.
  ftl::DurabilityCheck::Verdict cut() {
    const ftl::Picoseconds horizon = std::max(m_now, m_all_done);
    return cut_at(m_now + m_random.below(horizon - m_now + 1));
  }
  ftl::DurabilityCheck::Verdict cut_at(ftl::Picoseconds at) {
    acknowledge(at);
    m_flushes.clear();
    m_fua_writes.clear();
    m_in_flight.clear();
    m_last_cut = m_device.power_cut(at);
    std::fill(m_die_done.begin(), m_die_done.end(), at);
    m_now = m_all_done = at;
    std::fill(m_superseded_until.begin(), m_superseded_until.end(), 0);
    m_device.backend().set_batch_sink([this] { time_ops(); });
    m_recovery = m_device.recover();
    m_device.backend().set_batch_sink(nullptr);
    m_now = m_all_done;  // the host goes on once the device is back
    const ftl::DurabilityCheck::Verdict verdict = m_device.check_after_recovery();
    m_totals.torn += m_last_cut.torn_programs + m_last_cut.torn_erases;
    m_totals.rolled_back += verdict.rolled_back;
    m_totals.current += verdict.current;
    return verdict;
  }

  // Over every cut so far: operations torn, units rolled back, units read back current (what a
  // test checks to know its cuts fell where they matter).
  struct CutTotals {
    uint64_t torn = 0;
    uint64_t rolled_back = 0;
    uint64_t current = 0;
    uint64_t fua_acknowledged = 0;  // FUA writes acknowledged (before a cut or not)
  };
  const CutTotals& totals() const { return m_totals; }

  ftl::Picoseconds now() const { return m_now; }
  ftl::Picoseconds all_done() const { return m_all_done; }
  // When the last command run completes: its latest operation (a FUA write's acknowledgement).
  ftl::Picoseconds last_done() const { return m_last_done; }
  // When the latest erase timed so far completes (its array time is the kErase before it).
  ftl::Picoseconds last_erase_done() const { return m_last_erase_done; }
  const ftl::FlashArray::CutResult& last_cut() const { return m_last_cut; }
  const ftl::FtlDevice::RecoveryCounts& last_recovery() const { return m_recovery; }

  static constexpr ftl::Picoseconds kStep = 40;  // between submissions, at most
  static constexpr size_t kQueueDepth = 8;
  static constexpr ftl::Picoseconds kProgram = 100;
  static constexpr ftl::Picoseconds kErase = 300;
  static constexpr ftl::Picoseconds kRead = 20;

 private:
  struct PendingFlush {
    ftl::Picoseconds done;
    uint64_t marker;
  };
  struct PendingFua {
    ftl::Picoseconds done;
    ftl::ChangeSpan changes;
  };

  // Gives the backend's operations completions; returns the latest.
  ftl::Picoseconds time_ops() {
    ftl::FlashBackend& backend = m_device.backend();
    const std::vector<ftl::FlashOp>& ops = backend.ops().ops();
    m_done.assign(ops.size(), m_now);
    ftl::Picoseconds latest = m_now;
    const std::vector<ftl::FlashBackend::Supersedes>& supersedes = backend.supersedes();
    size_t next_supersedes = 0;
    const ftl::Geometry& g = m_device.geometry();
    for (uint32_t i = 0; i < ops.size(); ++i) {
      const ftl::FlashOp& op = ops[i];
      ftl::Picoseconds ready = m_now;
      if (op.after == ftl::kAfterAll || op.after == ftl::kAfterData) {
        ready = std::max(ready, m_all_done);
      } else if (op.after != ftl::kNone) {
        ready = std::max(ready, m_done[op.after]);
      }
      ftl::Picoseconds array = 0;
      if (ftl::is_flash_op(op.kind)) {
        const ftl::BlockId block = g.block_of_page(op.page);
        const bool writes = op.kind == ftl::OpKind::kProgram || op.kind == ftl::OpKind::kCopyback ||
                            op.kind == ftl::OpKind::kErase;
        array = op.kind == ftl::OpKind::kErase ? kErase : writes ? kProgram : kRead;
        // An erase waits for the programs of newer copies of its units (note_supersedes).
        if (op.kind == ftl::OpKind::kErase) ready = std::max(ready, m_superseded_until[block]);
        // The die is free once its previous operation is done; then a random transfer time.
        const ftl::Picoseconds start = std::max(ready, m_die_done[op.die]);
        m_done[i] = start + m_random.below(kProgram) + array;
        m_die_done[op.die] = m_done[i];
        if (op.kind == ftl::OpKind::kErase) m_last_erase_done = m_done[i];
      } else {
        m_done[i] = ready + 1;
      }
      backend.op_completed(i, m_done[i], m_done[i] - array);
      for (; next_supersedes < supersedes.size() && supersedes[next_supersedes].op == i;
           ++next_supersedes) {
        ftl::Picoseconds& until = m_superseded_until[supersedes[next_supersedes].block];
        until = std::max(until, m_done[i]);
      }
      latest = std::max(latest, m_done[i]);
      m_all_done = std::max(m_all_done, m_done[i]);
    }
    return latest;
  }

  void acknowledge(ftl::Picoseconds by) {
    while (!m_flushes.empty() && m_flushes.front().done <= by) {
      m_device.flush_acknowledged(m_flushes.front().marker);
      m_flushes.pop_front();
    }
    // FUA writes complete in any order (each with its own operations).
    for (auto it = m_fua_writes.begin(); it != m_fua_writes.end();) {
      if (it->done > by) {
        ++it;
        continue;
      }
      m_device.fua_acknowledged(it->changes);
      ++m_totals.fua_acknowledged;
      it = m_fua_writes.erase(it);
    }
  }

  ftl::FtlDevice& m_device;
  ftl::Random m_random;
  ftl::Picoseconds m_now = 1;
  ftl::Picoseconds m_all_done = 0;
  ftl::Picoseconds m_last_erase_done = 0;
  ftl::Picoseconds m_last_done = 0;
  std::vector<ftl::Picoseconds> m_die_done;          // per die: when its last operation completes
  std::vector<ftl::Picoseconds> m_superseded_until;  // per block (note_supersedes)
  std::vector<ftl::Picoseconds> m_done;
  std::deque<PendingFlush> m_flushes;
  std::vector<PendingFua> m_fua_writes;
  uint32_t m_fua_percent = 0;
  std::deque<ftl::Picoseconds> m_in_flight;  // completions of the commands in flight, in order
  ftl::FlashArray::CutResult m_last_cut;
  ftl::FtlDevice::RecoveryCounts m_recovery;
  CutTotals m_totals;
};

// Erases the block holding the newest page, by `sequence(spare)` (the page's program sequence
// as the scheme writes it), behind the scheme's back: as if a recovery had skipped that block.
// Returns it (kNone: nothing programmed).
template <class Sequence>
ftl::BlockId erase_newest_block(ftl::FtlDevice& device, Sequence sequence) {
  const ftl::Geometry& g = device.geometry();
  ftl::BlockId newest = ftl::kNone;
  uint64_t highest = 0;
  for (ftl::BlockId b = 0; b < g.blocks(); ++b) {
    for (uint32_t page = 0; page < device.flash().write_pointer(b); ++page) {
      const uint64_t s = sequence(device.flash().spare(g.first_page(b) + page));
      if (s > highest) {
        highest = s;
        newest = b;
      }
    }
  }
  if (newest == ftl::kNone) return newest;
  device.flash().set_journal(false);
  device.flash().erase(newest);
  device.flash().set_journal(true);
  return newest;
}

// Preconditioning has just laid the device out (sampled aging): a cut right away finds every unit
// as laid out, and `cuts` more, each after `commands` random ones, lose nothing durable.
// `after_recovery(cut)`, if given, checks what the scheme itself promises after each recovery
// (cut 0: the one right after the layout). Call with ASSERT_NO_FATAL_FAILURE.
inline void expect_cuts_after_layout_lose_nothing(
    ftl::FtlDevice& device, int cuts, uint64_t commands = 700,
    const std::function<void(int cut)>& after_recovery = nullptr) {
  PowerCutRig rig(device, 5);
  auto verdict = rig.cut_at(1);
  EXPECT_EQ(verdict.lost_durable, 0u) << verdict.first_loss;
  EXPECT_EQ(verdict.current, device.geometry().logical_units);
  if (after_recovery) {
    ASSERT_NO_FATAL_FAILURE(after_recovery(0));
  }
  for (int cut = 1; cut <= cuts; ++cut) {
    ASSERT_EQ(rig.run_random(commands), 0u)
        << "cut " << cut << ": " << device.oracle()->first_mismatch();
    verdict = rig.cut();
    ASSERT_EQ(verdict.lost_durable, 0u) << "cut " << cut << ": " << verdict.first_loss;
    if (after_recovery) {
      ASSERT_NO_FATAL_FAILURE(after_recovery(cut));
    }
  }
}

}  // namespace ssd::testing
