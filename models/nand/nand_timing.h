// Cycle-approximate timing of the NAND flash array: channel buses and dies, as busy-until
// reservations in integer picoseconds. Models command/address cycles and data transfer at the
// channel rate, tR / spare-area tR / tPROG / tBERS (tR and tPROG per page type for MLC/TLC
// parts), copy-back (a page copied inside the die, no transfer), multi-plane operations (pages at
// the same offset in different planes of a die sharing one array time), and per-die priority
// (host reads before host writes before GC, non-preemptive). Leaves out cache read/program, ECC
// and read retry; the channel has no priority (first come, first served). Plain C++ with no
// SystemC, so the timing can be tested and benchmarked without a kernel.
//
// Multi-plane (nand.multiplane), as MQSim's transaction scheduler forms it: an operation joins
// one of its die's that has not started by the time it is ready, of the same kind and priority,
// at the same page offset in another plane (any block; erases at any block). The joined
// operation moves each page over the channel in turn (the commands, then the data, plane by
// plane) and takes the array once, for the slowest of its pages; the die's later reservations
// move later by what the join added. Queued GC joins queued GC the same way.
//
// Order across commands, per block: a program starts after the block's erase and its previous
// program have completed, an erase after the block's last program and last read, and a read
// after its page's program (a page being written cannot be read). A queued GC operation another
// operation depends on this way is placed at once (see PendingGc), and a placed one that a later
// overtaking could move past its dependant is pinned: nothing goes ahead of it. A read of a page
// whose GC copy is still queued reads the old copy, and the die's queued erases wait for it. A
// copy-back is a program of its destination block and a read of its source block; a read of its
// destination does not wait for it (the source stays valid until its block's erase).
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
#include <vector>

#include "config/platform_config.h"
#include "ftl/core/die_load.h"
#include "ftl/core/flash_op.h"
#include "ftl/core/types.h"
#include "models/common/ring_queue.h"
#include "models/common/slot_list.h"

namespace ssd::models {

using ftl::Picoseconds;

struct NandTimingParams {
  uint32_t channels = 1;
  uint32_t dies = 1;             // all dies; die d sits on channel d % channels
  Picoseconds t_read = 0;        // tR
  Picoseconds t_spare_read = 0;  // array time of a spare-area-only read
  Picoseconds t_program = 0;     // tPROG
  // Per-page-type tR and tPROG of an MLC/TLC part (LSB first; empty: t_read / t_program for
  // every page) and the type of each page of a block, by its number in the block, tiled over the
  // block (empty: page p has type p % types). Without pages_per_block, a page's number is taken
  // as its number in the block.
  std::vector<Picoseconds> t_read_by_type;
  std::vector<Picoseconds> t_program_by_type;
  std::vector<uint8_t> page_type_order;
  Picoseconds t_erase = 0;    // tBERS
  Picoseconds t_command = 0;  // command and address cycles on the channel, per operation
  double ps_per_byte = 0.0;   // data transfer on the channel
  // Die priority of each ftl::OpClass: a lower rank goes first; the lowest rank (GC's) is placed
  // lazily. Default: host read 0, host write 1, mapping 1 (nand.mapping_priority), GC 2.
  std::array<uint8_t, ftl::kOpClasses> rank = {0, 1, 1, 2};
  // Per-block order (see above) needs the block of each operation: pages_per_block and the
  // number of blocks; 0 leaves it out (unit tests of the die and channel alone).
  uint32_t pages_per_block = 0;
  uint64_t blocks = 0;
  // Multi-plane operations (nand.multiplane) need the plane of a block: blocks are numbered
  // plane-major inside a die (ftl/core/geometry.h), blocks_per_plane of them per plane.
  bool multiplane = false;
  uint32_t planes_per_die = 1;
  uint32_t blocks_per_plane = 0;
  // Erases of queued GC (a victim each) a die may defer behind host work before the oldest is
  // placed for good (nand.gc_backlog_victims_per_die); 0 = no bound.
  uint32_t gc_backlog_erases = 0;

  // nand.* with the GC mode (ftl.gc_mode: blocking GC takes the die at the host read rank).
  static NandTimingParams from_config(const config::PlatformConfig& platform);
};

inline constexpr int kNandOpKinds = 5;  // the flash kinds of ftl::OpKind: read .. copy-back

struct NandCounters {
  std::array<uint64_t, kNandOpKinds> ops{};    // operations by kind (ftl::OpKind as index)
  std::array<uint64_t, kNandOpKinds> bytes{};  // bytes moved over the channel, by kind
  std::vector<Picoseconds> die_busy_ps;        // time each die was reserved (includes data-out)
  std::vector<Picoseconds> channel_busy_ps;    // time each channel carried commands or data
  // Operations, by kind, that joined another's array time as one multi-plane operation (also
  // counted in `ops`).
  std::array<uint64_t, kNandOpKinds> multiplane_joined{};
  // Array time the operations took, each its own (a multi-plane operation's planes each count
  // theirs; a copy-back its tR and its tPROG): what the array draws current for (energy.*).
  Picoseconds read_array_ps = 0;     // tR of reads and copy-backs, and spare reads' time
  Picoseconds program_array_ps = 0;  // tPROG of programs and copy-backs
  Picoseconds erase_array_ps = 0;    // tBERS

  uint64_t count(ftl::OpKind kind) const { return ops[static_cast<size_t>(kind)]; }
  uint64_t joined(ftl::OpKind kind) const { return multiplane_joined[static_cast<size_t>(kind)]; }
  uint64_t joined() const {
    uint64_t total = 0;
    for (const uint64_t n : multiplane_joined) total += n;
    return total;
  }
};

// One reservation of a die or a channel as it finally happened: what a timeline
// (models/timeline/) draws. A die's span runs from its operation's command to its last byte of
// data-out; a channel's is one transfer (the command, with a program's data-in; or data-out).
struct NandSpan {
  Picoseconds start;
  Picoseconds end;
  uint32_t die;
  ftl::OpKind kind;
  ftl::OpClass op_class;
  bool on_channel;   // a transfer on the die's channel, not the die's reservation
  bool data_out;     // a channel span: the data-out after the array time
  uint32_t planes;   // a die span: the planes of a multi-plane operation (1: none)
  ftl::PageId page;  // a die span: its (first) page; ftl::kNone when not known
};

// Receives each reservation once its place is final: when it has ended before the caller's
// clock (nothing moves a reservation that started), when the power goes (cut short), and at
// the end of the run (NandTiming::flush_spans()). Not in time order across dies.
class NandSpanSink {
 public:
  virtual ~NandSpanSink() = default;
  virtual void span(const NandSpan& span) = 0;
};

class NandTiming final : public ftl::DieLoad {
 public:
  explicit NandTiming(const NandTimingParams& params);

  // When the work reserved or queued (GC) on `die` ends, as the controller's per-die queues
  // show it: what ftl.placement=least_busy_die compares.
  Picoseconds work_ends(uint32_t die) const override;

  // Reserves the die and channel for `op`, which can start no earlier than `ready`, and returns
  // its completion time. An operation ready before a reservation that advance() already forgot
  // ended is placed after it (pessimistic rather than two operations on one die at once).
  Picoseconds schedule(const ftl::FlashOp& op, Picoseconds ready);
  // No operation will be ready before `now` any more: reservations that ended by then can be
  // forgotten. Ready times themselves may jump ahead (an operation that depends on a long chain),
  // so forgetting follows the caller's clock, not each operation's ready time.
  void advance(Picoseconds now) { m_now = std::max(m_now, now); }

  // A die's reservation as placed: what a test or a trace of the timeline reads.
  struct Reservation {
    Picoseconds start;
    Picoseconds end;
    ftl::OpKind kind;
    ftl::OpClass op_class;
    ftl::BlockId block;                       // ~0 without per-block order
    ftl::BlockId source_block;                // a copy-back's source block, else ~0
    std::vector<ftl::BlockId> joined_blocks;  // the other planes' blocks of a multi-plane one
  };
  // What `die` holds now (what advance() has not forgotten), in time order; queued GC not yet
  // placed is not in it (place_queued_gc()).
  std::vector<Reservation> reservations(uint32_t die) const;
  // Places every queued GC operation, as host work on its die coming after it would.
  void place_queued_gc();
  // Where each reservation goes once final (none: nothing is reported, nothing costs).
  void set_span_sink(NandSpanSink* sink) { m_span_sink = sink; }
  // The run is over: queued GC is placed (as place_queued_gc()) and every reservation still held
  // goes to the sink and is forgotten.
  void flush_spans();
  // Queued GC operations not placed yet, over all dies (bounded by gc_backlog_erases).
  size_t queued_gc_ops() const;

  // Host memory the per-block order takes per block of the device (what a memory estimate made
  // before the run adds for the timing; the reservations themselves stay a few per die).
  static constexpr uint64_t bytes_per_block() { return sizeof(BlockOrder); }

  // The array part of `op` that changes the flash and ends it (tPROG by page type, tBERS; a
  // copy-back's program after its read; a read's tR), without its transfers.
  Picoseconds array_ps(const ftl::FlashOp& op) const;
  // The power went off at `cut` and came back: what the dies and channels had reserved or queued
  // is dropped (the operations in progress stopped with the power), and nothing is placed before
  // `cut` any more. Counters keep what was counted: busy times include the reservations the cut
  // stopped, in full.
  void power_off(Picoseconds cut);

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

    Picoseconds total() const { return in_ps + array_ps + out_ps; }
  };
  // Counts `op` and its array time in m_counters.
  void count(const ftl::FlashOp& op);
  // How firmly a reservation holds its place: kFree ones may be overtaken by higher-priority
  // work; kHeld ones (GC placed for good by the backlog bound) only by work of the host-read
  // rank, so that GC progresses against host writes while reads still go first; kPinned ones
  // (another operation on the block depends on them) by nothing.
  enum class Hold : uint8_t { kFree, kHeld, kPinned };
  static constexpr ftl::BlockId kNoBlock = ~ftl::BlockId{0};
  static constexpr uint32_t kNoGroup = ~uint32_t{0};
  // A page of a multi-plane operation other than its first (m_groups).
  struct Member {
    ftl::BlockId block;
    ftl::PageId page;
  };
  // One operation's reservation of a die, from its command until its last byte has moved.
  struct DieSlot {
    Picoseconds start;
    Picoseconds end;
    Shape shape;
    ftl::OpClass op_class;
    ftl::OpKind kind;
    ftl::BlockId block;  // kNoBlock without per-block order
    ftl::PageId page;
    Hold hold = Hold::kFree;
    ftl::BlockId source_block = kNoBlock;  // a copy-back's source block (read from)
    uint32_t group = kNoGroup;             // the other pages of a multi-plane operation
  };
  // One transfer on a die's channel; `owner_start` names the die's DieSlot it belongs to.
  struct ChannelSlot {
    Picoseconds start;
    Picoseconds end;
    Picoseconds owner_start;
    ftl::OpClass op_class;
    Hold hold = Hold::kFree;                // as its DieSlot
    ftl::OpKind kind = ftl::OpKind::kRead;  // its DieSlot's (what a timeline names it by)
  };
  struct Placement {
    Picoseconds start;
    Picoseconds out_start;
    Picoseconds end;
  };
  // Which reservations a placement may go ahead of: with `may_overtake`, the not-yet-started
  // (start >= ready) reservations on `die` of a lower priority (higher rank) than `rank` that do
  // not hold their place more firmly than `passes`; without, none.
  struct Overtake {
    bool may_overtake;
    uint32_t die;
    uint8_t rank;
    Picoseconds ready;
    const std::array<uint8_t, ftl::kOpClasses>* ranks;
    Hold passes = Hold::kFree;

    bool allows(uint32_t slot_die, ftl::OpClass slot_class, Picoseconds slot_start,
                Hold slot_hold) const {
      return may_overtake && slot_die == die && (*ranks)[static_cast<int>(slot_class)] > rank &&
             slot_start >= ready && slot_hold <= passes;
    }
  };
  // Per block: where its latest erase or program and its latest read are placed (start, end),
  // the number of its latest queued GC operation (0: none queued), and the time before which
  // every reservation of the block is pinned.
  struct BlockOrder {
    Picoseconds written_start = 0;
    Picoseconds written_at = 0;
    Picoseconds read_start = 0;
    Picoseconds read_at = 0;
    uint64_t queued_gc = 0;
    Picoseconds pinned_before = 0;
  };
  uint8_t rank_of(ftl::OpClass op_class) const { return m_params.rank[static_cast<int>(op_class)]; }
  static constexpr uint8_t kNoDeferredRank = 255;
  Overtake fixed_at(uint32_t die, Picoseconds ready) const {
    return Overtake{false, die, 0, ready, &m_params.rank};
  }

  Shape shape_of(const ftl::FlashOp& op) const;
  // tR or tPROG of `page`: `single` unless `by_type` gives one per page type.
  Picoseconds page_time(const std::vector<Picoseconds>& by_type, Picoseconds single,
                        ftl::PageId page) const;
  ftl::BlockId block_of(ftl::PageId page) const {
    return m_params.pages_per_block == 0 ? kNoBlock : page / m_params.pages_per_block;
  }
  ftl::BlockId block_of(const ftl::FlashOp& op) const { return block_of(op.page); }
  // The block a copy-back reads from (kNoBlock for every other kind): it is a read there.
  ftl::BlockId source_block_of(const ftl::FlashOp& op) const {
    return op.kind == ftl::OpKind::kCopyback ? block_of(op.source) : kNoBlock;
  }
  // The plane of `block` inside its die.
  uint32_t plane_of(ftl::BlockId block) const {
    return (block / m_params.blocks_per_plane) % m_params.planes_per_die;
  }
  // Multi-plane operations are formed of reads, spare-area reads, programs and erases.
  static bool joinable(ftl::OpKind kind) {
    return kind == ftl::OpKind::kRead || kind == ftl::OpKind::kSpareRead ||
           kind == ftl::OpKind::kProgram || kind == ftl::OpKind::kErase;
  }
  // The pages of a multi-plane operation besides its first (none for any other operation).
  const std::vector<Member>& members(uint32_t group) const {
    static const std::vector<Member> kNone;
    return group == kNoGroup ? kNone : m_groups[group];
  }
  // Whether `op` (on `block`) may join the operation of `kind` and `op_class` whose first page
  // is `page` (on `first_block`) and other pages `group`: the same kind and die priority, the
  // same page offset (erases: any), and a plane it does not use yet.
  bool may_join(const ftl::FlashOp& op, ftl::BlockId block, ftl::OpKind kind, ftl::OpClass op_class,
                ftl::BlockId first_block, ftl::PageId page, uint32_t group) const;
  // The die's reservation `op` joins (its index): the first that has not started by `ready`
  // and may take it; kNoPartner if none.
  static constexpr size_t kNoPartner = ~size_t{0};
  size_t find_partner(uint32_t die, const ftl::FlashOp& op, ftl::BlockId block,
                      Picoseconds ready) const;
  // Joins `op` (`shape`, on `block`) to the die's reservation at `partner`: that reservation and
  // every later one come off the die (the later ones into m_moved, to be put back), the joined
  // operation is placed from the partner's start on and reserved; `old` is the partner as it was.
  Placement join_placed(uint32_t die, size_t partner, const ftl::FlashOp& op, ftl::BlockId block,
                        const Shape& shape, Picoseconds ready, Hold& hold, DieSlot& old);
  // Joins queued GC `op` to the die's queued GC that may take it, if one has not started by
  // `ready` as planned; returns the joined operation's planned completion (0: none joined).
  Picoseconds join_queued(uint32_t die, const ftl::FlashOp& op, ftl::BlockId block,
                          const Shape& shape, Picoseconds ready);
  // Adds a page to `group` (a new group for kNoGroup) and returns the group.
  uint32_t add_member(uint32_t group, const Member& member);
  // The shape of two operations done as one multi-plane operation: commands and data of each in
  // turn, the array once for the slower.
  static Shape joined_shape(const Shape& a, const Shape& b) {
    return {a.in_ps + b.in_ps, std::max(a.array_ps, b.array_ps), a.out_ps + b.out_ps};
  }
  // Forgets the die's reservations that ended by m_now, freeing their multi-plane groups.
  void drop_ended_slots(uint32_t die);
  // Forgets the transfers of `die` that ended by m_now.
  void drop_ended_transfers(uint32_t die);
  // Hands a final reservation to the span sink (which must be set), its end at most `cut`.
  void report_slot(uint32_t die, const DieSlot& slot, Picoseconds cut = kNoStart) const;
  void report_transfer(uint32_t die, const ChannelSlot& slot, Picoseconds cut = kNoStart) const;
  // Whether `slot` works on `block` (any of its pages, or a copy-back's source).
  bool touches(const DieSlot& slot, ftl::BlockId block) const;
  // The page `slot` programs, reads or erases on `block` (not as a copy-back's source), or kNone.
  ftl::PageId page_on(const DieSlot& slot, ftl::BlockId block) const;
  // A program or copy-back of a page: what a read of that page waits for.
  static bool writes_page(ftl::OpKind kind) {
    return kind == ftl::OpKind::kProgram || kind == ftl::OpKind::kCopyback;
  }
  // The earliest start the per-block order allows an operation of `kind` on `block`.
  Picoseconds block_allows(ftl::OpKind kind, ftl::BlockId block) const;
  // An operation of `kind` on `block`, of `rank`, held as `hold`, was placed after what
  // block_allows() named: those that a later placement could move past it are pinned.
  void protect_predecessors(uint32_t die, ftl::OpKind kind, ftl::BlockId block, uint8_t rank,
                            Hold hold);
  // The same for the one reservation of `block` starting at `start`, if it is still there.
  void protect(uint32_t die, ftl::BlockId block, Picoseconds start, uint8_t rank, Hold hold);
  void pin_through(uint32_t die, ftl::BlockId block, Picoseconds start);
  // When the program of `page` (on `block`), if still in flight after `ready`, ends (0: it is not
  // in flight), and where it starts (`program_start`).
  Picoseconds page_written_at(uint32_t die, ftl::BlockId block, ftl::PageId page, Picoseconds ready,
                              Picoseconds& program_start) const;
  // Whether GC has queued (not placed) a program of `page` on `die`.
  bool copy_queued(uint32_t die, ftl::PageId page) const;
  static constexpr Picoseconds kNoStart = ~Picoseconds{0};
  // An operation of `kind` on `block` (and, a copy-back, reading `source_block`) is placed (or
  // moved) to [start, end).
  void note_block(ftl::OpKind kind, ftl::BlockId block, Picoseconds start, Picoseconds end,
                  ftl::BlockId source_block = kNoBlock);
  // The same for every block of `slot` (its pages in every plane, a copy-back's source).
  void note_slot(const DieSlot& slot, Picoseconds start, Picoseconds end);
  Placement place(uint32_t die, const Shape& shape, Picoseconds earliest,
                  const Overtake& rule) const;
  Picoseconds channel_gap(uint32_t channel, Picoseconds earliest, Picoseconds length,
                          const Overtake& rule) const;
  // Returns how firmly the new reservation holds its place (pinned when placed before a pinned
  // operation of its block).
  Hold reserve(uint32_t die, const DieSlot& what, const Placement& at, Hold hold = Hold::kFree);
  void take_overtaken(uint32_t die, const Overtake& rule, Picoseconds new_start);
  void put_back_moved(uint32_t die, Picoseconds new_end);
  Picoseconds queue_gc(const ftl::FlashOp& op, const Shape& shape, Picoseconds ready);
  // Puts GC operation `op` (on `block`, reading `source_block` if a copy-back) at the back of its
  // die's queue and plans it; returns its planned completion.
  Picoseconds enqueue_gc(const ftl::FlashOp& op, const Shape& shape, Picoseconds ready,
                         ftl::BlockId block, ftl::BlockId source_block);
  void materialize_gc(uint32_t die, Picoseconds before);
  // Places the die's queued GC up to and including operation number `seq` (or, with 0, up to
  // the first erase) for good, held: later host writes do not go ahead of it (reads do).
  void hold_gc_through(uint32_t die, uint64_t seq);
  // Where the die's oldest queued GC operation goes if placed now; placing it there.
  Placement plan_queued_front(uint32_t die) const;
  // The earliest the die's oldest queued GC operation could start (its placement is no earlier).
  Picoseconds queued_front_earliest(uint32_t die) const;
  void place_queued_front(uint32_t die, const Placement& at, Hold hold);
  // The part of [start, end) from `from` on.
  static Picoseconds time_after(Picoseconds start, Picoseconds end, Picoseconds from) {
    return end > from ? end - std::max(start, from) : 0;
  }

  // GC at the lowest priority, lazily: a GC operation is planned where it would go now (after
  // the GC queued before it, in the first gaps of die and channel) and that completion is
  // returned, but it only joins the die's queue; it is placed for real once an operation ready
  // after its start comes to the die (it is then in progress and cannot be overtaken). Host work
  // that arrives earlier simply takes the die first, and the queued GC is placed after it. The
  // results match placing every GC operation at once and moving the overtaken ones (within a
  // few per cent on an aged 512 GiB device: docs/performance.md), at O(1) per GC operation
  // instead of O(queued GC) per overtaking host operation.
  //
  // The queue is bounded: once a die has more than gc_backlog_erases erases queued, its GC up to
  // the oldest one is placed for good (held: host writes on that die wait for it, host reads still
  // go first); and an operation on a block with GC queued on it (a program into a block a queued
  // GC erases) has that GC placed first, and pinned. Both keep host writes at the pace GC sustains
  // in simulated time, and the queue (memory) at a few victims per die.
  // Kept small (80 bytes): the queue holds a few victims' operations per die.
  struct PendingGc {
    Shape shape;
    Picoseconds ready = 0;
    uint64_t seq = 0;               // number in the order all GC was queued, from 1
    Picoseconds planned_start = 0;  // where it was planned when queued
    Picoseconds planned_end = 0;    // its completion as planned (and returned)
    ftl::BlockId block = kNoBlock;
    ftl::PageId page = 0;
    ftl::BlockId source_block = kNoBlock;  // a copy-back's source block
    uint32_t group = kNoGroup;             // the other pages of a multi-plane operation
    // Multi-plane: how many operations queued on the die before it the previous one of the
    // same kind and page offset was (0: none), so that a join looks only at those.
    uint32_t back_to_alike = 0;
    ftl::OpKind kind = ftl::OpKind::kRead;
  };
  // The key of an operation's kind and page offset (erases: any offset) among the joinable.
  size_t alike_key(ftl::OpKind kind, ftl::PageId page) const;
  std::vector<RingQueue<PendingGc>> m_gc_queue;  // per die
  std::vector<Picoseconds> m_gc_tail;            // per die: planned end of the last queued GC op
  std::vector<Picoseconds> m_gc_cursor;          // per die: end of the last GC op placed
  std::vector<uint32_t> m_gc_queued_erases;      // per die
  std::vector<Picoseconds> m_gc_held_until;      // per die: GC placed before it is held
  // Per die: the latest end of a read served from an old copy while GC's copy of it was queued;
  // the die's queued erases wait for it.
  std::vector<Picoseconds> m_old_copy_read_end;
  uint64_t m_gc_seq = 0;
  // The other pages of each multi-plane operation (DieSlot::group, PendingGc::group), and the
  // groups free for reuse.
  std::vector<std::vector<Member>> m_groups;
  std::vector<uint32_t> m_free_groups;
  // Multi-plane, per die: operations queued as GC so far and taken off the queue so far (an
  // operation's position, its number in queuing order, less the second is its index in the
  // queue), and for each alike_key() 1 + the position of the latest queued with it (0: none).
  std::vector<uint64_t> m_gc_pushed;
  std::vector<uint64_t> m_gc_popped;
  std::vector<std::vector<uint64_t>> m_gc_latest_alike;
  std::vector<BlockOrder> m_block_order;  // per block, when per-block order is on

  NandTimingParams m_params;
  uint8_t m_deferred_rank = kNoDeferredRank;   // operations of this rank or lower are queued GC
  std::vector<SlotList<DieSlot>> m_die_slots;  // per die, sorted by start, disjoint
  // Per die: its transfers on its channel, sorted and disjoint; the transfers of the dies of one
  // channel are disjoint too. Kept per die, not per channel, so that a die whose reservations
  // reach far ahead (a deep backlog) does not make every insertion of its channel's other dies
  // move them: each die's new transfers go near the end of its own list.
  std::vector<SlotList<ChannelSlot>> m_transfer_slots;
  std::vector<Picoseconds> m_die_floor;  // end of the last forgotten slot
  std::vector<Picoseconds> m_channel_floor;
  // Scratch, reused by every call: reservations taken off a die to make room, and the same
  // reservations put back, before they are merged into the timelines in one pass.
  std::vector<DieSlot> m_moved;
  std::vector<DieSlot> m_moved_die;
  std::vector<ChannelSlot> m_moved_channel;
  // channel_gap()'s cursors, one per die of the channel with transfers in the way: its first
  // transfer, from the search's time on, that is not to be overtaken.
  struct GapCursor {
    const ChannelSlot* at;
    const ChannelSlot* end;
    uint32_t die;
  };
  mutable std::vector<GapCursor> m_gap_cursors;
  mutable std::vector<uint32_t> m_gap_hint;   // per die: where its last transfer search ended
  mutable std::vector<uint32_t> m_slot_hint;  // per die: where place()'s last search ended
  NandCounters m_counters;
  Picoseconds m_now = 0;
  NandSpanSink* m_span_sink = nullptr;
};

}  // namespace ssd::models
