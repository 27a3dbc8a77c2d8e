// Order across commands on one block (models/nand/nand_timing.h): a program waits for its block's
// erase, an erase for the block's last read and program, a read for the page's program; the GC
// backlog bound; and the die-scheduling and GC-mode policies. Expected times are written out from
// the parameters below; the property test drives an FTL-like stream over a million operations.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <vector>

#include "models/nand/nand_timing.h"
#include "tests/models/nand_test_timings.h"

namespace ssd::models {
namespace {

using ftl::FlashOp;
using ftl::OpClass;
using ftl::OpKind;

using namespace test;  // the round timings

constexpr uint32_t kPagesPerBlock = 4;

// One channel, one die, blocks of four pages; a spare-area read takes a page read's time.
NandTimingParams one_die() {
  NandTimingParams p = round_timings(1, 1);
  p.t_spare_read = kRead;
  p.pages_per_block = kPagesPerBlock;
  p.blocks = 8;
  return p;
}

FlashOp on_block(OpKind kind, OpClass op_class, ftl::BlockId block, uint32_t page = 0) {
  const uint32_t bytes = kind == OpKind::kErase ? 0 : kPage;
  return FlashOp{kind, op_class, 0, bytes, ftl::kNone, block * kPagesPerBlock + page};
}

TEST(NandBlockOrder, ProgramWaitsForTheQueuedEraseOfItsBlock) {
  NandTiming nand(one_die());
  const Picoseconds erase_end = nand.schedule(on_block(OpKind::kErase, OpClass::kGc, 1), 0);
  EXPECT_EQ(erase_end, kCmd + kErase);
  // A host program elsewhere goes ahead of the queued GC erase ...
  NandTiming other(one_die());
  other.schedule(on_block(OpKind::kErase, OpClass::kGc, 1), 0);
  EXPECT_EQ(other.schedule(on_block(OpKind::kProgram, OpClass::kHostWrite, 2), 0),
            kCmd + kXfer + kProg);
  // ... but a program into the block being erased waits until the erase has completed.
  EXPECT_EQ(nand.schedule(on_block(OpKind::kProgram, OpClass::kHostWrite, 1), 0),
            erase_end + kCmd + kXfer + kProg);
}

TEST(NandBlockOrder, EraseWaitsForTheLastReadOfItsBlock) {
  NandTiming nand(one_die());
  const Picoseconds late = 1'000'000'000;  // a read that can only start at 1 ms
  const Picoseconds read_end = nand.schedule(on_block(OpKind::kRead, OpClass::kHostRead, 1), late);
  nand.schedule(on_block(OpKind::kErase, OpClass::kGc, 1), 0);
  nand.place_queued_gc();
  const auto slots = nand.reservations(0);
  ASSERT_EQ(slots.size(), 2u);
  EXPECT_EQ(slots[1].kind, OpKind::kErase);
  EXPECT_EQ(slots[1].start, read_end);  // not in the idle millisecond before the read
}

TEST(NandBlockOrder, ReadOfAPageWaitsForItsProgram) {
  NandTiming nand(one_die());
  const Picoseconds program_end =
      nand.schedule(on_block(OpKind::kProgram, OpClass::kHostWrite, 1), 0);
  // A host read would go ahead of a host write that has not started; not of the page's own.
  EXPECT_EQ(nand.schedule(on_block(OpKind::kRead, OpClass::kHostRead, 1), 0),
            program_end + kCmd + kRead + kXfer);
}

TEST(NandBlockOrder, HostReadStillOvertakesAWriteToAnotherBlock) {
  NandTiming nand(one_die());
  nand.schedule(on_block(OpKind::kProgram, OpClass::kHostWrite, 1), 0);
  EXPECT_EQ(nand.schedule(on_block(OpKind::kRead, OpClass::kHostRead, 2), 0), kCmd + kRead + kXfer);
}

// Victim v: read one page, program it into block `into`, erase v; each waits for the one before.
Picoseconds queue_victim(NandTiming& nand, ftl::BlockId victim, ftl::BlockId into) {
  const Picoseconds read = nand.schedule(on_block(OpKind::kRead, OpClass::kGc, victim), 0);
  const Picoseconds program = nand.schedule(on_block(OpKind::kProgram, OpClass::kGc, into), read);
  return nand.schedule(on_block(OpKind::kErase, OpClass::kGc, victim), program);
}

TEST(NandBlockOrder, GcBacklogPastTheBoundHoldsHostWrites) {
  const Picoseconds victim_ps = (kCmd + kRead + kXfer) + (kCmd + kXfer + kProg) + (kCmd + kErase);
  // Unbounded: two victims stay queued and a host write goes first.
  NandTiming free_running(one_die());
  queue_victim(free_running, 1, 3);
  queue_victim(free_running, 2, 3);
  EXPECT_EQ(free_running.queued_gc_ops(), 6u);
  EXPECT_EQ(free_running.schedule(on_block(OpKind::kProgram, OpClass::kHostWrite, 4), 0),
            kCmd + kXfer + kProg);

  // At most one victim deferred: the second one's erase places the first for good.
  NandTimingParams p = one_die();
  p.gc_backlog_erases = 1;
  NandTiming bounded(p);
  queue_victim(bounded, 1, 3);
  EXPECT_EQ(bounded.queued_gc_ops(), 3u);
  queue_victim(bounded, 2, 3);
  EXPECT_EQ(bounded.queued_gc_ops(), 3u);
  EXPECT_EQ(bounded.schedule(on_block(OpKind::kProgram, OpClass::kHostWrite, 4), 0),
            victim_ps + kCmd + kXfer + kProg);
  // A host read still goes ahead of the held GC that has not started (all of it but the read).
  const Picoseconds arrival = 1'000'000;  // 1 us: victim 1's GC read is in progress
  EXPECT_EQ(bounded.schedule(on_block(OpKind::kRead, OpClass::kHostRead, 5), arrival),
            (kCmd + kRead + kXfer) + kCmd + kRead + kXfer);
}

// A page GC has queued a copy of (the copy not placed yet) is read from its old copy at once,
// and the victim's erase waits for that read.
TEST(NandBlockOrder, ReadOfAQueuedCopyIsServedFromTheOldCopy) {
  NandTiming nand(one_die());
  queue_victim(nand, 1, 3);  // copies block 1 page 0 to block 3 page 0: queued, not placed
  ASSERT_EQ(nand.queued_gc_ops(), 3u);
  const Picoseconds read_end = nand.schedule(on_block(OpKind::kRead, OpClass::kHostRead, 3), 0);
  EXPECT_EQ(read_end, kCmd + kRead + kXfer);  // not after the copy's program
  nand.place_queued_gc();
  const auto slots = nand.reservations(0);
  ASSERT_EQ(slots.size(), 4u);
  EXPECT_EQ(slots[0].kind, OpKind::kRead);  // the host's, from the old copy
  ASSERT_EQ(slots.back().kind, OpKind::kErase);
  EXPECT_GE(slots.back().start, read_end);
}

NandTimingParams with_policies(const std::string& die_scheduling, const std::string& gc_mode) {
  config::PlatformConfig platform;
  platform.nand.channels = 1;
  platform.nand.chips_per_channel = 1;
  platform.nand.die_scheduling = die_scheduling;
  platform.ftl.gc_mode = gc_mode;
  return NandTimingParams::from_config(platform);
}

TEST(NandBlockOrder, FcfsServesADieInArrivalOrder) {
  for (const std::string scheduling : {"read_priority", "fcfs"}) {
    NandTiming nand(with_policies(scheduling, "incremental"));
    const auto& p = nand.params();
    const Picoseconds program_ps = p.t_command + nand.transfer_ps(kPage) + p.t_program;
    const Picoseconds read_ps = p.t_command + p.t_read + nand.transfer_ps(kPage);
    const ftl::PageId elsewhere = 2 * p.pages_per_block;
    nand.schedule(FlashOp{OpKind::kProgram, OpClass::kHostWrite, 0, kPage, ftl::kNone, 0}, 0);
    const Picoseconds read_end = nand.schedule(
        FlashOp{OpKind::kRead, OpClass::kHostRead, 0, kPage, ftl::kNone, elsewhere}, 0);
    EXPECT_EQ(read_end, scheduling == "fcfs" ? program_ps + read_ps : read_ps) << scheduling;
  }
}

TEST(NandBlockOrder, BlockingGcHoldsTheDie) {
  for (const std::string mode : {"incremental", "blocking"}) {
    NandTiming nand(with_policies("read_priority", mode));
    const auto& p = nand.params();
    const Picoseconds program_ps = p.t_command + nand.transfer_ps(kPage) + p.t_program;
    const Picoseconds read_ps = p.t_command + p.t_read + nand.transfer_ps(kPage);
    const ftl::PageId elsewhere = 2 * p.pages_per_block;
    nand.schedule(FlashOp{OpKind::kProgram, OpClass::kGc, 0, kPage, ftl::kNone, 0}, 0);
    EXPECT_EQ(nand.queued_gc_ops(), mode == "blocking" ? 0u : 1u) << mode;
    const Picoseconds read_end = nand.schedule(
        FlashOp{OpKind::kRead, OpClass::kHostRead, 0, kPage, ftl::kNone, elsewhere}, 0);
    EXPECT_EQ(read_end, mode == "blocking" ? program_ps + read_ps : read_ps) << mode;
  }
}

// --- Property: an FTL-like stream on many blocks, every policy ---------------------------------

// Drives blocks through their life as an FTL does (erased, programmed page by page, read, taken
// as a GC victim: its pages read and programmed elsewhere, then erased and handed straight back
// to the host stream), at random dies, classes and ready times, some of them late. Records, per
// block, how many programs and reads each of its lives (the time between two erases) was given.
// With `copyback`, GC moves a page by one copy-back (a program of its new block and a read of the
// victim) instead of a read and a program.
class FtlLikeStream {
 public:
  FtlLikeStream(const NandTimingParams& params, uint32_t blocks_per_die, uint64_t seed,
                bool copyback)
      : m_params(params), m_blocks_per_die(blocks_per_die), m_random(seed), m_copyback(copyback) {
    m_dies.resize(params.dies);
    for (uint32_t die = 0; die < params.dies; ++die) {
      Die& d = m_dies[die];
      for (uint32_t b = 0; b < blocks_per_die; ++b) d.free.push_back(die * blocks_per_die + b);
      d.host_open = take_free(d);
      d.gc_open = take_free(d);
    }
    m_lives.resize(uint64_t(params.dies) * blocks_per_die, std::vector<Life>(1));
  }

  void run(NandTiming& nand, uint64_t operations) {
    while (m_issued < operations) {
      const uint32_t die = pick(m_params.dies);
      Die& d = m_dies[die];
      const uint32_t action = pick(10);
      if (action < 5) {
        host_write(nand, die, d);
      } else if (action < 8) {
        host_read(nand, die, d);
      } else if (d.full.size() > 2 && d.free.size() < 3) {
        collect(nand, die, d);
      } else {
        host_write(nand, die, d);
      }
      m_now += pick(200'000'000);  // up to 200 us between operations
    }
  }

  // Every block's reservations in time order match its lives: an erase ends each life, and the
  // programs and reads issued in a life are all placed inside it.
  void check(const NandTiming& nand) const {
    std::map<ftl::BlockId, std::vector<NandTiming::Reservation>> by_block;
    for (uint32_t die = 0; die < m_params.dies; ++die) {
      const auto slots = nand.reservations(die);
      for (size_t i = 1; i < slots.size(); ++i) {
        ASSERT_LE(slots[i - 1].end, slots[i].start) << "die " << die << " does two things";
      }
      for (const auto& slot : slots) {
        by_block[slot.block].push_back(slot);
        // A multi-plane operation is the same operation on each of its other blocks.
        for (const ftl::BlockId joined : slot.joined_blocks) by_block[joined].push_back(slot);
        if (slot.kind != OpKind::kCopyback) continue;
        NandTiming::Reservation read = slot;  // a read of its source block, at the same time
        read.kind = OpKind::kRead;
        by_block[slot.source_block].push_back(read);
      }
    }
    for (const auto& [block, slots] : by_block) {
      const std::vector<Life>& lives = m_lives[block];
      std::vector<Life> placed(1);
      for (const auto& slot : slots) {
        if (slot.kind == OpKind::kErase) {
          placed.emplace_back();
        } else if (slot.kind == OpKind::kProgram || slot.kind == OpKind::kCopyback) {
          ++placed.back().programs;
        } else {
          ++placed.back().reads;
        }
      }
      ASSERT_EQ(placed.size(), lives.size()) << "block " << block;
      for (size_t life = 0; life < lives.size(); ++life) {
        ASSERT_EQ(placed[life].programs, lives[life].programs)
            << "block " << block << ": a program placed outside its life " << life;
        ASSERT_EQ(placed[life].reads, lives[life].reads)
            << "block " << block << ": a read placed outside its life " << life;
      }
    }
  }

  uint64_t issued() const { return m_issued; }

 private:
  struct Life {
    uint64_t programs = 0;
    uint64_t reads = 0;
  };
  struct Die {
    std::vector<ftl::BlockId> free;
    std::vector<ftl::BlockId> full;
    std::vector<ftl::BlockId> host_full;  // the full blocks the host stream wrote
    ftl::BlockId host_open = 0;
    ftl::BlockId gc_open = 0;
    std::map<ftl::BlockId, uint32_t> written;  // pages programmed in the current life
  };

  uint32_t pick(uint32_t n) { return std::uniform_int_distribution<uint32_t>(0, n - 1)(m_random); }
  // Mostly ready now; one in eight late (waiting on something else), one in eight early.
  Picoseconds ready() {
    const uint32_t r = pick(8);
    if (r == 0) return m_now + pick(5'000'000) * Picoseconds{1000};
    if (r == 1) return m_now > 1'000'000'000 ? m_now - 1'000'000'000 : 0;
    return m_now;
  }
  ftl::BlockId take_free(Die& d) {
    const ftl::BlockId block = d.free.front();
    d.free.erase(d.free.begin());
    d.written[block] = 0;
    return block;
  }
  // `source`: a copy-back's source page.
  Picoseconds issue(NandTiming& nand, uint32_t die, OpKind kind, OpClass op_class,
                    ftl::BlockId block, uint32_t page, Picoseconds at,
                    ftl::PageId source = ftl::kNone) {
    ++m_issued;
    if (kind == OpKind::kErase) {
      m_lives[block].emplace_back();
    } else if (kind == OpKind::kProgram || kind == OpKind::kCopyback) {
      ++m_lives[block].back().programs;
    } else {
      ++m_lives[block].back().reads;
    }
    if (kind == OpKind::kCopyback) ++m_lives[source / m_params.pages_per_block].back().reads;
    const uint32_t bytes = kind == OpKind::kErase || kind == OpKind::kCopyback ? 0 : kPage;
    const ftl::PageId first = block * m_params.pages_per_block;
    return nand.schedule(FlashOp{kind, op_class, die, bytes, ftl::kNone, first + page, source}, at);
  }
  // Programs the next page of the stream's open block; a full block is closed and a free one
  // (perhaps one whose erase is still queued) opened.
  Picoseconds program_next(NandTiming& nand, uint32_t die, Die& d, ftl::BlockId& open,
                           OpClass op_class, Picoseconds at, ftl::PageId copy_from = ftl::kNone) {
    const OpKind kind = copy_from == ftl::kNone ? OpKind::kProgram : OpKind::kCopyback;
    const Picoseconds done =
        issue(nand, die, kind, op_class, open, d.written[open]++, at, copy_from);
    if (d.written[open] == m_params.pages_per_block) {
      d.full.push_back(open);
      if (op_class == OpClass::kHostWrite) d.host_full.push_back(open);
      open = take_free(d);
    }
    return done;
  }
  void host_write(NandTiming& nand, uint32_t die, Die& d) {
    if (d.free.empty() && d.written[d.host_open] + 1 == m_params.pages_per_block) return;
    program_next(nand, die, d, d.host_open, OpClass::kHostWrite, ready());
  }
  // Reads blocks the host wrote: a read of a page whose GC copy is still queued is served from
  // the old copy (the victim), which this bookkeeping does not follow (ReadOfAQueuedCopy below).
  void host_read(NandTiming& nand, uint32_t die, Die& d) {
    if (d.host_full.empty() && d.written[d.host_open] == 0) return;
    const ftl::BlockId block =
        d.host_full.empty() ? d.host_open : d.host_full[pick(d.host_full.size())];
    const uint32_t written = d.written[block];
    if (written == 0) return;
    issue(nand, die, OpKind::kRead, OpClass::kHostRead, block, pick(written), ready());
  }
  void collect(NandTiming& nand, uint32_t die, Die& d) {
    const size_t index = pick(d.full.size());
    const ftl::BlockId victim = d.full[index];
    d.full.erase(d.full.begin() + index);
    const auto host = std::find(d.host_full.begin(), d.host_full.end(), victim);
    if (host != d.host_full.end()) d.host_full.erase(host);
    Picoseconds chain = m_now;
    const uint32_t valid = pick(m_params.pages_per_block);
    for (uint32_t page = 0; page < valid; ++page) {
      if (d.free.empty() && d.written[d.gc_open] + 1 == m_params.pages_per_block) break;
      if (m_copyback) {
        const ftl::PageId source = victim * m_params.pages_per_block + page;
        chain = program_next(nand, die, d, d.gc_open, OpClass::kGc, chain, source);
        continue;
      }
      chain = issue(nand, die, OpKind::kRead, OpClass::kGc, victim, page, chain);
      chain = program_next(nand, die, d, d.gc_open, OpClass::kGc, chain);
    }
    issue(nand, die, OpKind::kErase, OpClass::kGc, victim, 0, chain);
    d.written[victim] = 0;
    d.free.push_back(victim);  // handed back at once: its erase may still be queued
  }

  NandTimingParams m_params;
  uint32_t m_blocks_per_die;
  std::mt19937_64 m_random;
  bool m_copyback;
  std::vector<Die> m_dies;
  std::vector<std::vector<Life>> m_lives;  // per block
  Picoseconds m_now = 0;
  uint64_t m_issued = 0;
};

NandTimingParams property_params(const std::string& die_scheduling, const std::string& gc_mode,
                                 uint32_t backlog_victims, bool multiplane = false) {
  config::PlatformConfig platform;
  platform.nand.channels = 2;
  platform.nand.chips_per_channel = 2;
  platform.nand.planes_per_die = 2;
  platform.nand.blocks_per_plane = 8;
  platform.nand.pages_per_block = 8;
  platform.nand.die_scheduling = die_scheduling;
  platform.ftl.gc_mode = gc_mode;
  platform.nand.multiplane = multiplane;
  NandTimingParams p = NandTimingParams::from_config(platform);
  p.gc_backlog_erases = backlog_victims;
  return p;
}

void expect_order_holds(const NandTimingParams& params, uint64_t operations, uint64_t seed,
                        bool copyback = false) {
  const uint32_t blocks_per_die = static_cast<uint32_t>(params.blocks / params.dies);
  FtlLikeStream stream(params, blocks_per_die, seed, copyback);
  NandTiming nand(params);
  stream.run(nand, operations);
  nand.place_queued_gc();
  stream.check(nand);
  // With multi-plane operations on, the stream's two planes per die do form some.
  EXPECT_EQ(nand.counters().joined() > 0, params.multiplane);
}

TEST(NandBlockOrderProperty, AMillionOperationsWithTheDefaultPolicies) {
  expect_order_holds(property_params("read_priority", "incremental", 2), 1'000'000, 1);
}

TEST(NandBlockOrderProperty, AMillionOperationsWithCopyback) {
  expect_order_holds(property_params("read_priority", "incremental", 2), 1'000'000, 2, true);
}

TEST(NandBlockOrderProperty, AMillionOperationsWithMultiplane) {
  expect_order_holds(property_params("read_priority", "incremental", 2, true), 1'000'000, 3);
}

TEST(NandBlockOrderProperty, EveryPolicyCombination) {
  for (const std::string scheduling : {"read_priority", "fcfs"}) {
    for (const std::string mode : {"incremental", "blocking"}) {
      for (const uint32_t backlog : {0u, 1u, 16u}) {
        for (const bool copyback : {false, true}) {
          for (const bool multiplane : {false, true}) {
            SCOPED_TRACE(scheduling + " " + mode + " backlog " + std::to_string(backlog) +
                         (copyback ? " copyback" : "") + (multiplane ? " multiplane" : ""));
            expect_order_holds(property_params(scheduling, mode, backlog, multiplane), 100'000,
                               backlog + 7, copyback);
          }
        }
      }
    }
  }
}

}  // namespace
}  // namespace ssd::models
