// Cycle-approximate timing of the NAND flash array: channel buses and dies, as busy-until
// reservations in integer picoseconds. Models command/address cycles and data transfer at the
// channel rate, tR / spare-area tR / tPROG / tBERS, and per-die priority (host reads before host
// writes before GC, non-preemptive). Leaves out multi-plane, cache read/program, per-page-type
// timings, ECC and read retry; the channel has no priority (first come, first served).
// Plain C++ with no SystemC, so the timing can be tested and benchmarked without a kernel.
//
// Dies and channels keep lists of future reservations, not one busy-until time each: a channel
// idles while its dies read their arrays, and another die's command or data must be able to use
// that gap. A transfer takes the first idle window, at or after the time it can start, that is
// long enough; what other dies reserved on the channel is never moved for it.
//
// Approximation: when a new operation goes ahead of lower-priority reservations that have not
// started yet, those reservations (and their channel slots) are moved later on the timelines, so
// later operations see the die and channel as they will be; but the completion times already
// returned for the moved operations are not revised.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <deque>
#include <vector>

#include "config/platform_config.h"
#include "ftl/core/flash_op.h"
#include "ftl/core/types.h"

namespace ssd::models {

using ftl::Picoseconds;

struct NandTimingParams {
  uint32_t channels = 1;
  uint32_t dies = 1;             // all dies; die d sits on channel d % channels
  Picoseconds t_read = 0;        // tR
  Picoseconds t_spare_read = 0;  // array time of a spare-area-only read
  Picoseconds t_program = 0;     // tPROG
  Picoseconds t_erase = 0;       // tBERS
  Picoseconds t_command = 0;     // command and address cycles on the channel, per operation
  double ps_per_byte = 0.0;      // data transfer on the channel
  // Die priority of each ftl::OpClass: a lower rank goes first; the lowest rank (GC's) is placed
  // lazily. Default: host read 0, host write 1, mapping 1 (nand.mapping_priority), GC 2.
  std::array<uint8_t, ftl::kOpClasses> rank = {0, 1, 1, 2};

  static NandTimingParams from_config(const config::NandConfig& nand);
};

inline constexpr int kNandOpKinds = 4;  // the flash kinds of ftl::OpKind: read .. erase

struct NandCounters {
  std::array<uint64_t, kNandOpKinds> ops{};    // operations by kind (ftl::OpKind as index)
  std::array<uint64_t, kNandOpKinds> bytes{};  // bytes moved over the channel, by kind
  std::vector<Picoseconds> die_busy_ps;        // time each die was reserved (includes data-out)
  std::vector<Picoseconds> channel_busy_ps;    // time each channel carried commands or data

  uint64_t count(ftl::OpKind kind) const { return ops[static_cast<size_t>(kind)]; }
};

class NandTiming {
 public:
  explicit NandTiming(const NandTimingParams& params);

  // Reserves the die and channel for `op`, which can start no earlier than `ready`, and returns
  // its completion time. An operation ready before a reservation that advance() already forgot
  // ended is placed after it (pessimistic rather than two operations on one die at once).
  Picoseconds schedule(const ftl::FlashOp& op, Picoseconds ready);
  // No operation will be ready before `now` any more: reservations that ended by then can be
  // forgotten. Ready times themselves may jump ahead (an operation that depends on a long chain),
  // so forgetting follows the caller's clock, not each operation's ready time.
  void advance(Picoseconds now) { m_now = std::max(m_now, now); }

  const NandCounters& counters() const { return m_counters; }
  const NandTimingParams& params() const { return m_params; }
  uint32_t channel_of(uint32_t die) const { return die % m_params.channels; }
  Picoseconds transfer_ps(uint32_t bytes) const {
    return static_cast<Picoseconds>(bytes * m_params.ps_per_byte + 0.5);
  }

 private:
  // What an operation asks of the hardware: `in_ps` on the channel when it starts (command, plus
  // data-in for a program), `array_ps` on the die alone, then `out_ps` of data-out on the channel.
  struct Shape {
    Picoseconds in_ps;
    Picoseconds array_ps;
    Picoseconds out_ps;
  };
  // One operation's reservation of a die, from its command until its last byte has moved.
  struct DieSlot {
    Picoseconds start;
    Picoseconds end;
    Shape shape;
    ftl::OpClass op_class;
  };
  // One transfer on a channel; `owner_start` names the DieSlot it belongs to on die `die`.
  struct ChannelSlot {
    Picoseconds start;
    Picoseconds end;
    Picoseconds owner_start;
    uint32_t die;
    ftl::OpClass op_class;
  };
  struct Placement {
    Picoseconds start;
    Picoseconds out_start;
    Picoseconds end;
  };
  // Which reservations a placement may go ahead of: with `may_overtake`, the not-yet-started
  // (start >= ready) reservations on `die` of a lower priority (higher rank) than `rank`;
  // without, none.
  struct Overtake {
    bool may_overtake;
    uint32_t die;
    uint8_t rank;
    Picoseconds ready;
    const std::array<uint8_t, ftl::kOpClasses>* ranks;

    bool allows(uint32_t slot_die, ftl::OpClass slot_class, Picoseconds slot_start) const {
      return may_overtake && slot_die == die && (*ranks)[static_cast<int>(slot_class)] > rank &&
             slot_start >= ready;
    }
  };
  uint8_t rank_of(ftl::OpClass op_class) const { return m_params.rank[static_cast<int>(op_class)]; }
  uint8_t lowest_rank() const { return m_params.rank[static_cast<int>(ftl::OpClass::kGc)]; }
  Overtake fixed_at(uint32_t die, Picoseconds ready) const {
    return Overtake{false, die, 0, ready, &m_params.rank};
  }

  Shape shape_of(const ftl::FlashOp& op) const;
  Placement place(uint32_t die, const Shape& shape, Picoseconds earliest,
                  const Overtake& rule) const;
  Picoseconds channel_gap(uint32_t channel, Picoseconds earliest, Picoseconds length,
                          const Overtake& rule) const;
  void reserve(uint32_t die, ftl::OpClass op_class, const Shape& shape, const Placement& at);
  void take_overtaken(uint32_t die, const Overtake& rule, Picoseconds new_start);
  void put_back_moved(uint32_t die, Picoseconds new_end);
  Picoseconds queue_gc(const ftl::FlashOp& op, const Shape& shape, Picoseconds ready);
  void materialize_gc(uint32_t die, Picoseconds before);
  // Die time reserved on `die` from `from` on (host work, and GC already placed).
  Picoseconds reserved_after(uint32_t die, Picoseconds from) const;

  // GC at the lowest priority, lazily: a GC operation is planned where it would go now (after
  // the GC queued before it, in the first gaps of die and channel) and that completion is
  // returned, but it only joins the die's queue; it is placed for real once an operation ready
  // after its start comes to the die (it is then in progress and cannot be overtaken). Host work
  // that arrives earlier simply takes the die first, and the queued GC is placed after it. The
  // results match placing every GC operation at once and moving the overtaken ones (within a
  // few per cent on an aged 512 GiB device: docs/performance.md), at O(1) per GC operation
  // instead of O(queued GC) per overtaking host operation.
  struct PendingGc {
    Shape shape;
    Picoseconds ready;
    Picoseconds planned_start = 0;  // where it was planned when queued
  };
  std::vector<std::deque<PendingGc>> m_gc_queue;  // per die
  std::vector<Picoseconds> m_gc_tail;             // per die: planned end of the last queued GC op
  std::vector<Picoseconds> m_gc_cursor;           // per die: end of the last GC op placed

  NandTimingParams m_params;
  std::vector<std::vector<DieSlot>> m_die_slots;          // per die, sorted by start, disjoint
  std::vector<std::vector<ChannelSlot>> m_channel_slots;  // per channel, sorted, disjoint
  std::vector<Picoseconds> m_die_floor;                   // end of the last forgotten slot
  std::vector<Picoseconds> m_channel_floor;
  // Scratch, reused by every call: reservations taken off a die to make room, and the same
  // reservations put back, before they are merged into the timelines in one pass.
  std::vector<DieSlot> m_moved;
  std::vector<DieSlot> m_moved_die;
  std::vector<ChannelSlot> m_moved_channel;
  NandCounters m_counters;
  Picoseconds m_now = 0;
};

}  // namespace ssd::models
