#include "models/nand/nand_timing.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <stdexcept>

#include "ftl/core/checked_time.h"

namespace ssd::models {

namespace {

// Both kinds of slot lists are sorted by start and disjoint, so they are sorted by end as well:
// the first slot that ends after `t` is found by bisection.
template <typename Slots>
auto first_ending_after(Slots& slots, Picoseconds t) {
  return std::partition_point(slots.begin(), slots.end(),
                              [t](const auto& s) { return s.end <= t; });
}

template <typename Slot>
void insert_sorted(std::vector<Slot>& slots, const Slot& slot) {
  auto pos = std::upper_bound(slots.begin(), slots.end(), slot.start,
                              [](Picoseconds t, const Slot& s) { return t < s.start; });
  slots.insert(pos, slot);
}

// Merges `extra` (sorted by start, disjoint from `into`) into `into`, from the back, in one pass;
// it allocates only when `into` outgrows its capacity.
template <typename Slot>
void merge_sorted(std::vector<Slot>& into, const std::vector<Slot>& extra) {
  size_t i = into.size();
  size_t j = extra.size();
  if (j == 0) return;
  into.resize(i + j);
  for (size_t k = i + j; j > 0;) {
    if (i > 0 && into[i - 1].start > extra[j - 1].start) {
      into[--k] = into[--i];
    } else {
      into[--k] = extra[--j];
    }
  }
}

// Drops the slots that ended by `t`; `floor` keeps the latest end dropped (see schedule()).
template <typename Slot>
void drop_ended(std::vector<Slot>& slots, Picoseconds t, Picoseconds& floor) {
  auto keep = first_ending_after(slots, t);
  if (keep == slots.begin()) return;
  floor = std::max(floor, std::prev(keep)->end);
  slots.erase(slots.begin(), keep);
}

}  // namespace

NandTimingParams NandTimingParams::from_config(const config::NandConfig& nand) {
  NandTimingParams p;
  p.channels = nand.channels;
  p.dies = nand.channels * nand.chips_per_channel * nand.dies_per_chip;
  p.t_read = ftl::checked_ps(nand.t_read_us * 1e6, "nand.t_read_us");
  p.t_spare_read = ftl::checked_ps(nand.t_spare_read_us * 1e6, "nand.t_spare_read_us");
  p.t_program = ftl::checked_ps(nand.t_program_us * 1e6, "nand.t_program_us");
  p.t_erase = ftl::checked_ps(nand.t_erase_us * 1e6, "nand.t_erase_us");
  p.t_command = ftl::checked_ps(nand.command_address_cycles * (1e6 / nand.channel_mt_s),
                                "nand.command_address_cycles at nand.channel_mt_s");
  p.ps_per_byte = 1e6 / (nand.channel_mt_s * nand.channel_width_bytes);
  const ftl::OpClass like = nand.mapping_priority == "host_read" ? ftl::OpClass::kHostRead
                            : nand.mapping_priority == "gc"      ? ftl::OpClass::kGc
                                                                 : ftl::OpClass::kHostWrite;
  p.rank[static_cast<int>(ftl::OpClass::kMapping)] = p.rank[static_cast<int>(like)];
  return p;
}

NandTiming::NandTiming(const NandTimingParams& params) : m_params(params) {
  if (params.channels == 0 || params.dies == 0) {
    throw std::invalid_argument("NandTiming: channels and dies must be at least 1");
  }
  if (!(params.ps_per_byte >= 0.0)) {
    throw std::invalid_argument("NandTiming: ps_per_byte must be a non-negative number");
  }
  // Capacity reserved once so that steady-state scheduling does not allocate.
  m_die_slots.resize(params.dies);
  for (auto& slots : m_die_slots) slots.reserve(16);
  m_channel_slots.resize(params.channels);
  for (auto& slots : m_channel_slots) slots.reserve(64);
  m_die_floor.assign(params.dies, 0);
  m_gc_queue.resize(params.dies);
  m_gc_tail.assign(params.dies, 0);
  m_gc_cursor.assign(params.dies, 0);
  m_channel_floor.assign(params.channels, 0);
  m_moved.reserve(16);
  m_moved_die.reserve(16);
  m_moved_channel.reserve(32);
  m_counters.die_busy_ps.assign(params.dies, 0);
  m_counters.channel_busy_ps.assign(params.channels, 0);
}

NandTiming::Shape NandTiming::shape_of(const ftl::FlashOp& op) const {
  const Picoseconds cmd = m_params.t_command;
  switch (op.kind) {
    case ftl::OpKind::kRead:
      return {cmd, m_params.t_read, transfer_ps(op.bytes)};
    case ftl::OpKind::kSpareRead:
      return {cmd, m_params.t_spare_read, transfer_ps(op.bytes)};
    case ftl::OpKind::kProgram:
      return {cmd + transfer_ps(op.bytes), m_params.t_program, 0};
    case ftl::OpKind::kErase:
      return {cmd, m_params.t_erase, 0};
    default:
      return {0, 0, 0};  // memory kinds never get here (schedule() filters them)
  }
}

Picoseconds NandTiming::schedule(const ftl::FlashOp& op, Picoseconds ready) {
  assert(ftl::is_flash_op(op.kind) && "memory operations go to the memory model, not NAND");
  if (!ftl::is_flash_op(op.kind)) return ready;
  assert(op.die < m_params.dies);
  const uint32_t die = op.die;
  const uint32_t channel = channel_of(die);

  drop_ended(m_die_slots[die], m_now, m_die_floor[die]);
  drop_ended(m_channel_slots[channel], m_now, m_channel_floor[channel]);

  const Shape shape = shape_of(op);
  if (rank_of(op.op_class) >= lowest_rank()) return queue_gc(op, shape, ready);
  materialize_gc(die, ready);
  const Overtake rule{true, die, rank_of(op.op_class), ready, &m_params.rank};
  const Picoseconds earliest = std::max(ready, m_die_floor[die]);
  // Host work this operation brings (itself, and reservations it pushes) into the time queued GC
  // had planned to use delays that GC by as much.
  const bool gc_queued = !m_gc_queue[die].empty();
  const Picoseconds gc_from = gc_queued ? m_gc_queue[die].front().planned_start : 0;
  const Picoseconds reserved_before = gc_queued ? reserved_after(die, gc_from) : 0;
  const Placement at = place(die, shape, earliest, rule);

  // Lower-priority work that has not started makes room: take it off both timelines, put the new
  // operation in, then put the moved work back, in its old order, at the first places that fit.
  take_overtaken(die, rule, at.start);
  reserve(die, op.op_class, shape, at);
  if (!m_moved.empty()) put_back_moved(die, at.end);
  if (gc_queued) m_gc_tail[die] += reserved_after(die, gc_from) - reserved_before;

  const auto kind = static_cast<size_t>(op.kind);
  ++m_counters.ops[kind];
  if (op.kind != ftl::OpKind::kErase) m_counters.bytes[kind] += op.bytes;
  m_counters.die_busy_ps[die] += at.end - at.start;
  m_counters.channel_busy_ps[channel] += shape.in_ps + shape.out_ps;
  return at.end;
}

Picoseconds NandTiming::reserved_after(uint32_t die, Picoseconds from) const {
  Picoseconds total = 0;
  const auto& slots = m_die_slots[die];
  for (auto it = first_ending_after(slots, from); it != slots.end(); ++it) {
    total += it->end - std::max(it->start, from);
  }
  return total;
}

Picoseconds NandTiming::queue_gc(const ftl::FlashOp& op, const Shape& shape, Picoseconds ready) {
  const uint32_t die = op.die;
  const Picoseconds die_ps = shape.in_ps + shape.array_ps + shape.out_ps;
  m_gc_queue[die].push_back(PendingGc{shape, ready});
  const auto kind = static_cast<size_t>(op.kind);
  ++m_counters.ops[kind];
  if (op.kind != ftl::OpKind::kErase) m_counters.bytes[kind] += op.bytes;
  m_counters.die_busy_ps[die] += die_ps;
  m_counters.channel_busy_ps[channel_of(die)] += shape.in_ps + shape.out_ps;
  // Estimate: where it would go if placed now, after the GC queued before it, in the first gaps
  // the die and channel have. It is not reserved: later host work may take that place, and the
  // operation is placed for real when an operation passes it (materialize_gc).
  const Overtake fixed = fixed_at(die, ready);
  const Placement at = place(
      die, shape, std::max({ready, m_gc_tail[die], m_gc_cursor[die], m_die_floor[die]}), fixed);
  m_gc_queue[die].back().planned_start = at.start;
  m_gc_tail[die] = at.end;
  return at.end;
}

void NandTiming::materialize_gc(uint32_t die, Picoseconds before) {
  auto& queue = m_gc_queue[die];
  while (!queue.empty()) {
    const PendingGc& next = queue.front();
    const Overtake fixed = fixed_at(die, next.ready);
    const Picoseconds earliest = std::max({next.ready, m_gc_cursor[die], m_die_floor[die]});
    const Placement at = place(die, next.shape, earliest, fixed);
    if (at.start >= before) break;  // not started by then: the host operation goes first
    reserve(die, ftl::OpClass::kGc, next.shape, at);
    m_gc_cursor[die] = at.end;
    queue.pop_front();
  }
}

NandTiming::Placement NandTiming::place(uint32_t die, const Shape& shape, Picoseconds earliest,
                                        const Overtake& rule) const {
  const uint32_t channel = channel_of(die);
  const auto& slots = m_die_slots[die];
  Picoseconds t = earliest;
  const Picoseconds die_ps = shape.in_ps + shape.array_ps + shape.out_ps;
  // Each round either fits or moves past one die reservation, so the loop ends.
  for (;;) {
    // An operation starting at or after t holds the die for at least die_ps, so a reservation in
    // its way that begins before t + die_ps forces a start after that reservation's end: skip
    // such reservations here, before the (much dearer) channel searches. The round below would
    // reject the same starts; with a deep backlog this is what keeps an operation's cost low.
    for (auto it = first_ending_after(slots, t); it != slots.end() && it->start < t + die_ps;
         ++it) {
      if (!rule.allows(die, it->op_class, it->start)) t = it->end;
    }
    const Picoseconds start = channel_gap(channel, t, shape.in_ps, rule);
    const Picoseconds array_end = start + shape.in_ps + shape.array_ps;
    const Picoseconds out_start =
        shape.out_ps ? channel_gap(channel, array_end, shape.out_ps, rule) : array_end;
    const Picoseconds end = out_start + shape.out_ps;

    bool clash = false;
    for (auto it = first_ending_after(slots, start); it != slots.end() && it->start < end; ++it) {
      if (!rule.allows(die, it->op_class, it->start)) {
        t = it->end;
        clash = true;
        break;
      }
    }
    if (!clash) return {start, out_start, end};
  }
}

Picoseconds NandTiming::channel_gap(uint32_t channel, Picoseconds earliest, Picoseconds length,
                                    const Overtake& rule) const {
  Picoseconds t = std::max(earliest, m_channel_floor[channel]);
  if (length == 0) return t;
  const auto& slots = m_channel_slots[channel];
  for (auto it = first_ending_after(slots, t); it != slots.end(); ++it) {
    if (rule.allows(it->die, it->op_class, it->owner_start)) continue;  // will be moved
    if (t + length <= it->start) break;
    t = std::max(t, it->end);
  }
  return t;
}

void NandTiming::reserve(uint32_t die, ftl::OpClass op_class, const Shape& shape,
                         const Placement& at) {
  if (at.end > at.start)
    insert_sorted(m_die_slots[die], DieSlot{at.start, at.end, shape, op_class});
  auto& channel = m_channel_slots[channel_of(die)];
  if (shape.in_ps > 0) {
    insert_sorted(channel, ChannelSlot{at.start, at.start + shape.in_ps, at.start, die, op_class});
  }
  if (shape.out_ps > 0) {
    insert_sorted(channel, ChannelSlot{at.out_start, at.end, at.start, die, op_class});
  }
}

void NandTiming::take_overtaken(uint32_t die, const Overtake& rule, Picoseconds new_start) {
  m_moved.clear();
  auto& slots = m_die_slots[die];
  // Reservations that end before the new operation starts are not in its way and stay. The rest
  // that may be overtaken move to m_moved, in start order; the others close up behind them.
  auto out = first_ending_after(slots, new_start);
  for (auto it = out; it != slots.end(); ++it) {
    if (rule.allows(die, it->op_class, it->start)) {
      m_moved.push_back(*it);
    } else {
      *out++ = *it;
    }
  }
  if (m_moved.empty()) return;
  slots.erase(out, slots.end());

  // Their channel slots go too; a channel slot names its die slot by die and start.
  const auto moved_owner = [&](const ChannelSlot& c) {
    if (c.die != die) return false;
    auto it = std::lower_bound(m_moved.begin(), m_moved.end(), c.owner_start,
                               [](const DieSlot& s, Picoseconds t) { return s.start < t; });
    return it != m_moved.end() && it->start == c.owner_start;
  };
  auto& channel = m_channel_slots[channel_of(die)];
  channel.erase(std::remove_if(channel.begin(), channel.end(), moved_owner), channel.end());
}

// Puts the reservations take_overtaken() removed back, in their old order, each at the first
// place at or after its old start (and after the one before it) that fits around everything
// else. Each one is placed after all those already put back, so those never stand in its way:
// the searches need only the timelines, and the moved work is merged into them at the end. An
// operation still where it was, after the new one and after the ones put back, is in nobody's
// way and stays; so do all after it.
void NandTiming::put_back_moved(uint32_t die, Picoseconds new_end) {
  m_moved_die.clear();
  m_moved_channel.clear();
  const Overtake fixed = fixed_at(die, 0);
  Picoseconds previous_end = new_end;
  for (const DieSlot& moved : m_moved) {
    const Placement again =
        moved.start >= previous_end
            ? Placement{moved.start, moved.end - moved.shape.out_ps, moved.end}
            : place(die, moved.shape, std::max(moved.start, previous_end), fixed);
    // A moved read may wait longer for its data-out: the die stays reserved that much longer.
    m_counters.die_busy_ps[die] += (again.end - again.start) - (moved.end - moved.start);
    m_moved_die.push_back(DieSlot{again.start, again.end, moved.shape, moved.op_class});
    if (moved.shape.in_ps > 0) {
      m_moved_channel.push_back(ChannelSlot{again.start, again.start + moved.shape.in_ps,
                                            again.start, die, moved.op_class});
    }
    if (moved.shape.out_ps > 0) {
      m_moved_channel.push_back(
          ChannelSlot{again.out_start, again.end, again.start, die, moved.op_class});
    }
    previous_end = again.end;
  }
  merge_sorted(m_die_slots[die], m_moved_die);
  merge_sorted(m_channel_slots[channel_of(die)], m_moved_channel);
}

}  // namespace ssd::models
