#include "models/nand/nand_timing.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <stdexcept>

#include "config/page_types.h"
#include "ftl/core/checked_time.h"

namespace ssd::models {

namespace {

// Both kinds of slot lists are sorted by start and disjoint, so they are sorted by end as well:
// the first slot that ends after `t` is found by bisection. Most searches start near the
// caller's clock, where the answer is the list's first slot: that case is checked first.
template <typename Slots>
auto first_ending_after(Slots& slots, Picoseconds t) {
  if (slots.empty() || slots.front().end > t) return slots.begin();
  return std::partition_point(slots.begin() + 1, slots.end(),
                              [t](const auto& s) { return s.end <= t; });
}

// The same, starting from `hint` (any position: only the cost depends on it): galloping from
// the hint towards the answer, then bisecting what is left. `hint` is left at the answer.
template <typename Slots>
auto first_ending_after(Slots& slots, Picoseconds t, uint32_t& hint) {
  const size_t n = slots.size();
  const size_t at = std::min<size_t>(hint, n);
  // Every slot before `low` ends by t; the one at `high` (if high < n) ends after t.
  size_t low = 0;
  size_t high = n;
  if (at < n && slots[at].end <= t) {
    low = at + 1;
    for (size_t step = 1;; step *= 2) {
      const size_t probe = at + step;
      if (probe >= n) break;
      if (slots[probe].end > t) {
        high = probe;
        break;
      }
      low = probe + 1;
    }
  } else {
    high = at;
    for (size_t step = 1; step <= at; step *= 2) {
      const size_t probe = at - step;
      if (slots[probe].end <= t) {
        low = probe + 1;
        break;
      }
      high = probe;
    }
  }
  const auto answer = std::partition_point(slots.begin() + static_cast<std::ptrdiff_t>(low),
                                           slots.begin() + static_cast<std::ptrdiff_t>(high),
                                           [t](const auto& s) { return s.end <= t; });
  hint = static_cast<uint32_t>(answer - slots.begin());
  return answer;
}

template <typename Slots>
void insert_sorted(Slots& slots, const typename Slots::value_type& slot) {
  using Slot = typename Slots::value_type;
  auto pos = std::upper_bound(slots.begin(), slots.end(), slot.start,
                              [](Picoseconds t, const Slot& s) { return t < s.start; });
  slots.insert(pos, slot);
}

// Merges `extra` (sorted by start, disjoint from `into`) into `into`, from the back, in one pass;
// it allocates only when `into` outgrows its capacity.
template <typename Slots>
void merge_sorted(Slots& into, const std::vector<typename Slots::value_type>& extra) {
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
void drop_ended(SlotList<Slot>& slots, Picoseconds t, Picoseconds& floor) {
  auto keep = first_ending_after(slots, t);
  if (keep == slots.begin()) return;
  floor = std::max(floor, std::prev(keep)->end);
  slots.drop_front(keep);
}

}  // namespace

NandTimingParams NandTimingParams::from_config(const config::PlatformConfig& platform) {
  const config::NandConfig& nand = platform.nand;
  NandTimingParams p;
  p.channels = nand.channels;
  p.dies = nand.channels * nand.chips_per_channel * nand.dies_per_chip;
  // One time per page type, or one for all: a single value fills every type.
  const uint32_t types = config::page_types(nand);
  const auto by_type = [types](const std::vector<double>& us, const char* key) {
    std::vector<Picoseconds> ps;
    for (uint32_t type = 0; type < types; ++type) {
      ps.push_back(ftl::checked_ps(us[us.size() == 1 ? 0 : type] * 1e6, key));
    }
    return ps;
  };
  const std::vector<Picoseconds> t_read = by_type(nand.t_read_us, "nand.t_read_us");
  const std::vector<Picoseconds> t_program = by_type(nand.t_program_us, "nand.t_program_us");
  p.t_read = t_read[0];
  p.t_program = t_program[0];
  if (types > 1) {
    p.t_read_by_type = t_read;
    p.t_program_by_type = t_program;
    p.page_type_order = config::page_type_by_offset(nand);
  }
  p.t_spare_read = ftl::checked_ps(nand.t_spare_read_us * 1e6, "nand.t_spare_read_us");
  p.t_erase = ftl::checked_ps(nand.t_erase_us * 1e6, "nand.t_erase_us");
  p.t_command = ftl::checked_ps(nand.command_address_cycles * (1e6 / nand.channel_mt_s),
                                "nand.command_address_cycles at nand.channel_mt_s");
  p.ps_per_byte = 1e6 / (nand.channel_mt_s * nand.channel_width_bytes);
  const ftl::OpClass like = nand.mapping_priority == "host_read" ? ftl::OpClass::kHostRead
                            : nand.mapping_priority == "gc"      ? ftl::OpClass::kGc
                                                                 : ftl::OpClass::kHostWrite;
  p.rank[static_cast<int>(ftl::OpClass::kMapping)] = p.rank[static_cast<int>(like)];
  // First come, first served: one rank, so nothing goes ahead of anything (and GC is not
  // deferred). Blocking GC holds the die like a host read: nothing goes ahead of it either.
  if (nand.die_scheduling == "fcfs") p.rank.fill(0);
  if (platform.ftl.gc_mode == "blocking") {
    p.rank[static_cast<int>(ftl::OpClass::kGc)] = p.rank[static_cast<int>(ftl::OpClass::kHostRead)];
  }
  p.pages_per_block = nand.pages_per_block;
  p.blocks = uint64_t(p.dies) * nand.planes_per_die * nand.blocks_per_plane;
  p.gc_backlog_erases = nand.gc_backlog_victims_per_die;
  p.multiplane = nand.multiplane;
  p.planes_per_die = nand.planes_per_die;
  p.blocks_per_plane = nand.blocks_per_plane;
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
  m_transfer_slots.resize(params.dies);
  for (auto& slots : m_transfer_slots) slots.reserve(32);
  m_die_floor.assign(params.dies, 0);
  m_gc_queue.resize(params.dies);
  m_gc_tail.assign(params.dies, 0);
  m_gc_cursor.assign(params.dies, 0);
  m_gc_queued_erases.assign(params.dies, 0);
  m_gc_held_until.assign(params.dies, 0);
  m_old_copy_read_end.assign(params.dies, 0);
  if (params.pages_per_block > 0) m_block_order.resize(params.blocks);
  if (params.multiplane) {
    if (params.pages_per_block == 0 || params.blocks_per_plane == 0 || params.planes_per_die == 0) {
      throw std::invalid_argument(
          "NandTiming: multiplane needs pages_per_block, blocks_per_plane and planes_per_die");
    }
    m_gc_pushed.assign(params.dies, 0);
    m_gc_popped.assign(params.dies, 0);
    m_gc_latest_alike.assign(params.dies,
                             std::vector<uint64_t>(4 * size_t{params.pages_per_block}));
  }
  // GC is deferred (queued, placed lazily) only when its rank is below every host rank.
  const uint8_t gc_rank = rank_of(ftl::OpClass::kGc);
  m_deferred_rank =
      gc_rank > rank_of(ftl::OpClass::kHostRead) && gc_rank > rank_of(ftl::OpClass::kHostWrite)
          ? gc_rank
          : kNoDeferredRank;
  m_channel_floor.assign(params.channels, 0);
  m_gap_hint.assign(params.dies, 0);
  m_slot_hint.assign(params.dies, 0);
  m_moved.reserve(16);
  m_moved_die.reserve(16);
  m_moved_channel.reserve(32);
  m_counters.die_busy_ps.assign(params.dies, 0);
  m_counters.channel_busy_ps.assign(params.channels, 0);
}

Picoseconds NandTiming::page_time(const std::vector<Picoseconds>& by_type, Picoseconds single,
                                  ftl::PageId page) const {
  if (by_type.empty()) return single;
  const uint32_t per_block = m_params.pages_per_block;
  const uint64_t offset = per_block == 0 ? page : page % per_block;
  const std::vector<uint8_t>& order = m_params.page_type_order;
  const size_t type = order.empty() ? offset % by_type.size() : order[offset % order.size()];
  return by_type[type];
}

NandTiming::Shape NandTiming::shape_of(const ftl::FlashOp& op) const {
  const Picoseconds cmd = m_params.t_command;
  switch (op.kind) {
    case ftl::OpKind::kRead:
      return {cmd, page_time(m_params.t_read_by_type, m_params.t_read, op.page),
              transfer_ps(op.bytes)};
    case ftl::OpKind::kSpareRead:
      return {cmd, m_params.t_spare_read, transfer_ps(op.bytes)};
    case ftl::OpKind::kProgram:
      return {cmd + transfer_ps(op.bytes),
              page_time(m_params.t_program_by_type, m_params.t_program, op.page), 0};
    case ftl::OpKind::kErase:
      return {cmd, m_params.t_erase, 0};
    case ftl::OpKind::kCopyback:
      // Copy-back read and copy-back program: two commands on the channel (both counted at the
      // start: the second is a few cycles while the die is busy anyway), then the source page's
      // tR and the destination's tPROG on the die, the data staying in the page register.
      return {2 * cmd,
              page_time(m_params.t_read_by_type, m_params.t_read, op.source) +
                  page_time(m_params.t_program_by_type, m_params.t_program, op.page),
              0};
    default:
      return {0, 0, 0};  // memory kinds never get here (schedule() filters them)
  }
}

void NandTiming::count(const ftl::FlashOp& op) {
  const auto kind = static_cast<size_t>(op.kind);
  ++m_counters.ops[kind];
  if (op.kind != ftl::OpKind::kErase) m_counters.bytes[kind] += op.bytes;
  const auto read = [&](ftl::PageId page) {
    return page_time(m_params.t_read_by_type, m_params.t_read, page);
  };
  const auto program = [&](ftl::PageId page) {
    return page_time(m_params.t_program_by_type, m_params.t_program, page);
  };
  switch (op.kind) {
    case ftl::OpKind::kRead:
      m_counters.read_array_ps += read(op.page);
      break;
    case ftl::OpKind::kSpareRead:
      m_counters.read_array_ps += m_params.t_spare_read;
      break;
    case ftl::OpKind::kProgram:
      m_counters.program_array_ps += program(op.page);
      break;
    case ftl::OpKind::kErase:
      m_counters.erase_array_ps += m_params.t_erase;
      break;
    case ftl::OpKind::kCopyback:
      m_counters.read_array_ps += read(op.source);
      m_counters.program_array_ps += program(op.page);
      break;
    default:
      break;
  }
}

Picoseconds NandTiming::schedule(const ftl::FlashOp& op, Picoseconds ready) {
  assert(ftl::is_flash_op(op.kind) && "memory operations go to the memory model, not NAND");
  if (!ftl::is_flash_op(op.kind)) return ready;
  assert(op.die < m_params.dies);
  const uint32_t die = op.die;
  const uint32_t channel = channel_of(die);

  // Most calls find nothing ended: checked here, where it inlines, before the calls.
  const auto ended = [this](const auto& slots) {
    return !slots.empty() && slots.front().end <= m_now;
  };
  if (ended(m_die_slots[die])) drop_ended_slots(die);
  for (uint32_t d = channel; d < m_params.dies; d += m_params.channels) {
    if (ended(m_transfer_slots[d])) drop_ended_transfers(d);
  }

  const Shape shape = shape_of(op);
  if (rank_of(op.op_class) >= m_deferred_rank) return queue_gc(op, shape, ready);
  const ftl::BlockId block = block_of(op);
  const bool reads = ftl::is_flash_read(op.kind);
  Picoseconds program_start = kNoStart;  // a read: the placed program of its page it waits for
  bool old_copy = false;
  if (block != kNoBlock && reads) {
    // A read of a page GC has queued a copy of is served from the old copy, which stays valid
    // until the victim's erase: no wait for GC, but that erase waits for the read (see
    // m_old_copy_read_end). Otherwise only the page's own program, if still in flight, is waited
    // for: a block's other pages are readable while it is being written.
    old_copy = m_block_order[block].queued_gc != 0 && copy_queued(die, op.page);
    if (!old_copy) {
      ready = std::max(ready, page_written_at(die, block, op.page, ready, program_start));
    }
  } else if (block != kNoBlock) {
    // What this operation needs done to its block first is placed for good, then waited for.
    if (m_block_order[block].queued_gc != 0) hold_gc_through(die, m_block_order[block].queued_gc);
    ready = std::max(ready, block_allows(op.kind, block));
    // A copy-back also reads its source block (the page's program done).
    ready = std::max(ready, block_allows(ftl::OpKind::kRead, source_block_of(op)));
  }
  materialize_gc(die, ready);
  const Hold passes =
      rank_of(op.op_class) <= rank_of(ftl::OpClass::kHostRead) ? Hold::kHeld : Hold::kFree;
  const Overtake rule{true, die, rank_of(op.op_class), ready, &m_params.rank, passes};
  const Picoseconds earliest = std::max(ready, m_die_floor[die]);
  // Host work this operation brings (itself, and reservations it pushes) into the time queued GC
  // had planned to use delays that GC by as much.
  const bool gc_queued = !m_gc_queue[die].empty();
  const Picoseconds gc_from = gc_queued ? m_gc_queue[die].front().planned_start : 0;
  const ftl::BlockId source_block = source_block_of(op);
  // Multi-plane: a reservation of the die that has not started by `ready` and may take this
  // operation takes it (the scheduler would issue both as one command when the die frees).
  const size_t partner = m_params.multiplane && block != kNoBlock && joinable(op.kind)
                             ? find_partner(die, op, block, ready)
                             : kNoPartner;
  const bool joined = partner != kNoPartner;
  Placement at{};
  Hold hold = Hold::kFree;
  DieSlot old_partner{};
  if (joined) {
    at = join_placed(die, partner, op, block, shape, ready, hold, old_partner);
    ++m_counters.multiplane_joined[static_cast<size_t>(op.kind)];
  } else {
    at = place(die, shape, earliest, rule);
    // Lower-priority work that has not started makes room: take it off both timelines, put the
    // new operation in, then put the moved work back, in its old order, at the first places
    // that fit.
    take_overtaken(die, rule, at.start);
    hold = reserve(
        die, DieSlot{0, 0, shape, op.op_class, op.kind, block, op.page, Hold::kFree, source_block},
        at);
  }
  if (reads) {
    if (program_start != kNoStart) protect(die, block, program_start, rank_of(op.op_class), hold);
    if (old_copy) m_old_copy_read_end[die] = std::max(m_old_copy_read_end[die], at.end);
  } else {
    protect_predecessors(die, op.kind, block, rank_of(op.op_class), hold);
    protect_predecessors(die, ftl::OpKind::kRead, source_block, rank_of(op.op_class), hold);
  }
  note_block(op.kind, block, at.start, at.end, source_block);
  if (joined) note_slot(old_partner, at.start, at.end);  // the partner's blocks
  if (!m_moved.empty()) put_back_moved(die, at.end);
  if (gc_queued) {
    // The die time from gc_from on that this placement added: the new operation, and the moved
    // reservations where they are now less where they were (only they changed on the die).
    Picoseconds added = time_after(at.start, at.end, gc_from);
    Picoseconds removed = joined ? time_after(old_partner.start, old_partner.end, gc_from) : 0;
    if (!m_moved.empty()) {
      for (const DieSlot& again : m_moved_die) added += time_after(again.start, again.end, gc_from);
      for (const DieSlot& moved : m_moved) removed += time_after(moved.start, moved.end, gc_from);
    }
    m_gc_tail[die] += added - removed;
  }

  count(op);
  m_counters.die_busy_ps[die] += (at.end - at.start) - (old_partner.end - old_partner.start);
  m_counters.channel_busy_ps[channel] += shape.in_ps + shape.out_ps;
  return at.end;
}

void NandTiming::drop_ended_slots(uint32_t die) {
  auto& slots = m_die_slots[die];
  for (auto it = slots.begin(); it != slots.end() && it->end <= m_now; ++it) {
    if (m_span_sink != nullptr) report_slot(die, *it);
    if (it->group == kNoGroup) continue;
    m_groups[it->group].clear();
    m_free_groups.push_back(it->group);
  }
  drop_ended(slots, m_now, m_die_floor[die]);
}

void NandTiming::drop_ended_transfers(uint32_t die) {
  auto& transfers = m_transfer_slots[die];
  if (m_span_sink != nullptr) {
    for (auto it = transfers.begin(); it != transfers.end() && it->end <= m_now; ++it) {
      report_transfer(die, *it);
    }
  }
  drop_ended(transfers, m_now, m_channel_floor[channel_of(die)]);
}

void NandTiming::report_slot(uint32_t die, const DieSlot& slot, Picoseconds cut) const {
  if (slot.start >= cut) return;
  const auto planes = static_cast<uint32_t>(1 + members(slot.group).size());
  m_span_sink->span(NandSpan{slot.start, std::min(slot.end, cut), die, slot.kind, slot.op_class,
                             false, false, planes,
                             slot.block == kNoBlock ? ftl::kNone : slot.page});
}

void NandTiming::report_transfer(uint32_t die, const ChannelSlot& slot, Picoseconds cut) const {
  if (slot.start >= cut) return;
  m_span_sink->span(NandSpan{slot.start, std::min(slot.end, cut), die, slot.kind, slot.op_class,
                             true, slot.start != slot.owner_start, 1, ftl::kNone});
}

void NandTiming::flush_spans() {
  place_queued_gc();
  m_now = kNoStart;  // nothing comes after the run's end: every reservation has ended
  for (uint32_t die = 0; die < m_params.dies; ++die) {
    drop_ended_slots(die);
    drop_ended_transfers(die);
  }
}

uint32_t NandTiming::add_member(uint32_t group, const Member& member) {
  if (group == kNoGroup) {
    if (m_free_groups.empty()) {
      group = static_cast<uint32_t>(m_groups.size());
      m_groups.emplace_back();
    } else {
      group = m_free_groups.back();
      m_free_groups.pop_back();
    }
  }
  m_groups[group].push_back(member);
  return group;
}

bool NandTiming::may_join(const ftl::FlashOp& op, ftl::BlockId block, ftl::OpKind kind,
                          ftl::OpClass op_class, ftl::BlockId first_block, ftl::PageId page,
                          uint32_t group) const {
  if (kind != op.kind || rank_of(op_class) != rank_of(op.op_class)) return false;
  const uint32_t per_block = m_params.pages_per_block;
  if (kind != ftl::OpKind::kErase && page % per_block != op.page % per_block) return false;
  const uint32_t plane = plane_of(block);
  if (plane_of(first_block) == plane) return false;
  for (const Member& member : members(group)) {
    if (plane_of(member.block) == plane) return false;
  }
  return true;
}

size_t NandTiming::find_partner(uint32_t die, const ftl::FlashOp& op, ftl::BlockId block,
                                Picoseconds ready) const {
  const auto& slots = m_die_slots[die];
  auto it = std::lower_bound(slots.begin(), slots.end(), ready,
                             [](const DieSlot& s, Picoseconds t) { return s.start < t; });
  for (; it != slots.end(); ++it) {
    if (may_join(op, block, it->kind, it->op_class, it->block, it->page, it->group)) {
      return static_cast<size_t>(it - slots.begin());
    }
  }
  return kNoPartner;
}

NandTiming::Placement NandTiming::join_placed(uint32_t die, size_t partner, const ftl::FlashOp& op,
                                              ftl::BlockId block, const Shape& shape,
                                              Picoseconds ready, Hold& hold, DieSlot& old) {
  auto& slots = m_die_slots[die];
  old = slots[partner];
  m_moved.assign(slots.begin() + static_cast<std::ptrdiff_t>(partner) + 1, slots.end());
  slots.erase(slots.begin() + static_cast<std::ptrdiff_t>(partner), slots.end());
  // The transfers of the reservations taken off: those that start from the partner's start on
  // (a transfer lies inside its reservation, and the die's reservations are disjoint).
  auto& transfers = m_transfer_slots[die];
  transfers.erase(std::lower_bound(transfers.begin(), transfers.end(), old.start,
                                   [](const ChannelSlot& c, Picoseconds t) { return c.start < t; }),
                  transfers.end());
  DieSlot joined = old;
  joined.shape = joined_shape(old.shape, shape);
  joined.group = add_member(old.group, Member{block, op.page});
  // Nothing the die still holds may be overtaken (all from the partner on is off it): the joined
  // operation goes at the partner's place, or later if the channel has no room for its commands
  // and data there.
  const Placement at = place(die, joined.shape, old.start, fixed_at(die, ready));
  hold = reserve(die, joined, at, old.hold);
  return at;
}

size_t NandTiming::alike_key(ftl::OpKind kind, ftl::PageId page) const {
  const size_t offset = kind == ftl::OpKind::kErase ? 0 : page % m_params.pages_per_block;
  const size_t kind_index = kind == ftl::OpKind::kRead        ? 0
                            : kind == ftl::OpKind::kSpareRead ? 1
                            : kind == ftl::OpKind::kProgram   ? 2
                                                              : 3;
  return kind_index * m_params.pages_per_block + offset;
}

Picoseconds NandTiming::join_queued(uint32_t die, const ftl::FlashOp& op, ftl::BlockId block,
                                    const Shape& shape, Picoseconds ready) {
  auto& queue = m_gc_queue[die];
  if (queue.empty()) return 0;
  // The queued operations of the same kind and offset, latest first. Queued GC is planned in
  // queue order, each after the one before: those not started by `ready` are the latest.
  const uint64_t front = m_gc_popped[die];  // the position of the queue's first
  for (uint64_t at = m_gc_latest_alike[die][alike_key(op.kind, op.page)]; at > front;) {
    PendingGc* const it = &queue[at - 1 - front];
    at = it->back_to_alike == 0 ? 0 : at - it->back_to_alike;
    if (it->planned_start < ready) break;
    if (!may_join(op, block, it->kind, ftl::OpClass::kGc, it->block, it->page, it->group)) {
      continue;
    }
    // Queued GC on this block after the partner must stay after this operation.
    if (m_block_order[block].queued_gc > it->seq) continue;
    const Shape joined = joined_shape(it->shape, shape);
    const Picoseconds growth = joined.total() - it->shape.total();
    it->shape = joined;
    it->ready = std::max(it->ready, ready);
    it->group = add_member(it->group, Member{block, op.page});
    it->planned_end += growth;
    m_gc_tail[die] += growth;  // the GC queued after it is planned that much later
    m_block_order[block].queued_gc = it->seq;
    ++m_counters.multiplane_joined[static_cast<size_t>(op.kind)];
    m_counters.die_busy_ps[die] += growth;
    return it->planned_end;
  }
  return 0;
}

Picoseconds NandTiming::work_ends(uint32_t die) const {
  const auto& slots = m_die_slots[die];
  const Picoseconds reserved = slots.empty() ? m_die_floor[die] : slots.back().end;
  const Picoseconds queued = m_gc_queue[die].empty() ? 0 : m_gc_tail[die];
  return std::max(reserved, queued);
}

Picoseconds NandTiming::block_allows(ftl::OpKind kind, ftl::BlockId block) const {
  if (block == kNoBlock) return 0;
  const BlockOrder& order = m_block_order[block];
  return kind == ftl::OpKind::kErase ? std::max(order.written_at, order.read_at) : order.written_at;
}

// An operation that waits for others on its block (block_allows()) has just been placed: an
// overtaking operation that would move one of those later but not it (one of a lower rank than
// the new operation's, or holding its place less firmly) could put it past the new one, so such
// a predecessor is pinned. Predecessors of the same rank and hold move only together with it,
// in order: a GC chain, or a stream's programs into one block, stays free to be overtaken.
void NandTiming::protect_predecessors(uint32_t die, ftl::OpKind kind, ftl::BlockId block,
                                      uint8_t rank, Hold hold) {
  if (block == kNoBlock) return;
  const BlockOrder& order = m_block_order[block];
  if (order.written_at > 0) protect(die, block, order.written_start, rank, hold);
  if (kind == ftl::OpKind::kErase && order.read_at > 0) {
    protect(die, block, order.read_start, rank, hold);
  }
}

void NandTiming::protect(uint32_t die, ftl::BlockId block, Picoseconds start, uint8_t rank,
                         Hold hold) {
  const auto& slots = m_die_slots[die];
  auto it = std::lower_bound(slots.begin(), slots.end(), start,
                             [](const DieSlot& s, Picoseconds t) { return s.start < t; });
  if (it == slots.end() || it->start != start) return;  // forgotten
  if (!touches(*it, block)) return;
  if (rank_of(it->op_class) > rank || it->hold < hold) pin_through(die, block, start);
}

bool NandTiming::copy_queued(uint32_t die, ftl::PageId page) const {
  const RingQueue<PendingGc>& queue = m_gc_queue[die];
  for (size_t i = 0; i < queue.size(); ++i) {
    const PendingGc& queued = queue[i];
    if (!writes_page(queued.kind)) continue;
    if (queued.page == page) return true;
    for (const Member& member : members(queued.group)) {
      if (member.page == page) return true;
    }
  }
  return false;
}

Picoseconds NandTiming::page_written_at(uint32_t die, ftl::BlockId block, ftl::PageId page,
                                        Picoseconds ready, Picoseconds& program_start) const {
  const BlockOrder& order = m_block_order[block];
  if (order.written_at <= ready) return 0;  // nothing of the block in flight
  // The page's latest program (an earlier life's may be in flight too), searched back from the
  // block's latest write: programs go into a block in page order.
  const auto& slots = m_die_slots[die];
  auto it = std::upper_bound(slots.begin(), slots.end(), order.written_start,
                             [](Picoseconds t, const DieSlot& s) { return t < s.start; });
  const auto first = first_ending_after(slots, ready);
  while (it != first) {
    --it;
    const ftl::PageId on_block = page_on(*it, block);
    if (on_block == ftl::kNone) continue;
    if (it->kind == ftl::OpKind::kErase) break;  // the page was written in an earlier life
    if (on_block == page && writes_page(it->kind)) {
      // A copy-back's source stays valid until its block's erase, which comes after the copy:
      // a read placed before the copy reads the source, one placed after it the copy. No wait.
      if (it->kind == ftl::OpKind::kCopyback) return 0;
      program_start = it->start;
      return it->end;
    }
  }
  return 0;  // programmed before `ready`
}

// Pins the slot starting at `start` and every earlier slot of the same block: moving any of them
// later could put it past the one pinned. Slots of the block before `pinned_before` are pinned
// already (reserve() pins a new one placed there), so the walk back stops there. A copy-back
// pinned here is an operation on two blocks: what it waits for on its other block is pinned too.
void NandTiming::pin_through(uint32_t die, ftl::BlockId block, Picoseconds start) {
  Picoseconds& pinned_before = m_block_order[block].pinned_before;
  if (start < pinned_before) return;
  const Picoseconds walk_down_to = pinned_before;
  // Set first: a copy-back met below pins its other block, which may lead back here, to slots
  // this walk covers anyway.
  pinned_before = start + 1;
  auto& slots = m_die_slots[die];
  auto it = std::upper_bound(slots.begin(), slots.end(), start,
                             [](Picoseconds t, const DieSlot& s) { return t < s.start; });
  while (it != slots.begin() && std::prev(it)->start >= walk_down_to) {
    --it;
    if (!touches(*it, block) || it->hold == Hold::kPinned) continue;
    it->hold = Hold::kPinned;
    auto& transfers = m_transfer_slots[die];
    for (auto c = first_ending_after(transfers, it->start);
         c != transfers.end() && c->start < it->end; ++c) {
      if (c->owner_start == it->start) c->hold = Hold::kPinned;
    }
    // What the operation waits for on its other blocks (a copy-back's, a multi-plane one's).
    const DieSlot& pinned = *it;  // the walks below change holds only, never the list
    if (pinned.block != block) pin_through(die, pinned.block, pinned.start);
    if (pinned.source_block != kNoBlock && pinned.source_block != block) {
      pin_through(die, pinned.source_block, pinned.start);
    }
    for (const Member& member : members(pinned.group)) {
      if (member.block != block) pin_through(die, member.block, pinned.start);
    }
  }
}

void NandTiming::note_block(ftl::OpKind kind, ftl::BlockId block, Picoseconds start,
                            Picoseconds end, ftl::BlockId source_block) {
  if (source_block != kNoBlock) note_block(ftl::OpKind::kRead, source_block, start, end);
  if (block == kNoBlock) return;
  BlockOrder& order = m_block_order[block];
  const bool reads = ftl::is_flash_read(kind);
  Picoseconds& at = reads ? order.read_at : order.written_at;
  if (end <= at) return;
  at = end;
  (reads ? order.read_start : order.written_start) = start;
}

void NandTiming::note_slot(const DieSlot& slot, Picoseconds start, Picoseconds end) {
  note_block(slot.kind, slot.block, start, end, slot.source_block);
  for (const Member& member : members(slot.group)) note_block(slot.kind, member.block, start, end);
}

bool NandTiming::touches(const DieSlot& slot, ftl::BlockId block) const {
  return page_on(slot, block) != ftl::kNone || slot.source_block == block;
}

ftl::PageId NandTiming::page_on(const DieSlot& slot, ftl::BlockId block) const {
  if (slot.block == block) return slot.page;
  for (const Member& member : members(slot.group)) {
    if (member.block == block) return member.page;
  }
  return ftl::kNone;
}

Picoseconds NandTiming::queue_gc(const ftl::FlashOp& op, const Shape& shape, Picoseconds ready) {
  const uint32_t die = op.die;
  const ftl::BlockId block = block_of(op);
  const ftl::BlockId source_block = source_block_of(op);
  ready = std::max(
      {ready, block_allows(op.kind, block), block_allows(ftl::OpKind::kRead, source_block)});
  count(op);
  m_counters.channel_busy_ps[channel_of(die)] += shape.in_ps + shape.out_ps;
  if (op.kind == ftl::OpKind::kErase) ++m_gc_queued_erases[die];
  // Joined to a queued operation of another plane (multi-plane), or queued on its own.
  Picoseconds end = m_params.multiplane && block != kNoBlock && joinable(op.kind)
                        ? join_queued(die, op, block, shape, ready)
                        : 0;
  if (end == 0) end = enqueue_gc(op, shape, ready, block, source_block);
  // Too much deferred: the oldest victim's GC is placed for good, and host work waits for it.
  if (m_params.gc_backlog_erases > 0 && m_gc_queued_erases[die] > m_params.gc_backlog_erases) {
    hold_gc_through(die, 0);
  }
  return end;
}

Picoseconds NandTiming::enqueue_gc(const ftl::FlashOp& op, const Shape& shape, Picoseconds ready,
                                   ftl::BlockId block, ftl::BlockId source_block) {
  const uint32_t die = op.die;
  PendingGc queued;
  queued.shape = shape;
  queued.ready = ready;
  queued.seq = ++m_gc_seq;
  queued.block = block;
  queued.page = op.page;
  queued.source_block = source_block;
  queued.kind = op.kind;
  m_gc_queue[die].push_back(queued);
  if (m_params.multiplane) {
    const uint64_t position = m_gc_pushed[die]++;  // every operation: positions index the queue
    if (joinable(op.kind)) {
      uint64_t& latest = m_gc_latest_alike[die][alike_key(op.kind, op.page)];
      // Only one still queued is linked: an older one is never joined (it is taken off first).
      if (latest > m_gc_popped[die]) {
        m_gc_queue[die].back().back_to_alike = static_cast<uint32_t>(position + 1 - latest);
      }
      latest = position + 1;
    }
  }
  if (block != kNoBlock) m_block_order[block].queued_gc = m_gc_seq;
  m_counters.die_busy_ps[die] += shape.total();
  // Estimate: where it would go if placed now, after the GC queued before it, in the first gaps
  // the die and channel have. It is not reserved: later host work may take that place, and the
  // operation is placed for real when an operation passes it (materialize_gc).
  const Overtake fixed = fixed_at(die, ready);
  const Placement at = place(
      die, shape, std::max({ready, m_gc_tail[die], m_gc_cursor[die], m_die_floor[die]}), fixed);
  m_gc_queue[die].back().planned_start = at.start;
  m_gc_queue[die].back().planned_end = at.end;
  m_gc_tail[die] = at.end;
  return at.end;
}

std::vector<NandTiming::Reservation> NandTiming::reservations(uint32_t die) const {
  std::vector<Reservation> out;
  for (const DieSlot& slot : m_die_slots[die]) {
    std::vector<ftl::BlockId> joined_blocks;
    for (const Member& member : members(slot.group)) joined_blocks.push_back(member.block);
    out.push_back({slot.start, slot.end, slot.kind, slot.op_class, slot.block, slot.source_block,
                   std::move(joined_blocks)});
  }
  return out;
}

void NandTiming::place_queued_gc() {
  for (uint32_t die = 0; die < m_params.dies; ++die) {
    while (!m_gc_queue[die].empty()) place_queued_front(die, plan_queued_front(die), Hold::kFree);
  }
}

Picoseconds NandTiming::array_ps(const ftl::FlashOp& op) const {
  if (op.kind == ftl::OpKind::kCopyback) {
    return page_time(m_params.t_program_by_type, m_params.t_program, op.page);
  }
  return shape_of(op).array_ps;
}

void NandTiming::power_off(Picoseconds cut) {
  // Power comes back to idle dies and channels: every reservation, queued GC and per-block order
  // went with it, and the floors keep anything from being placed before the cut.
  for (uint32_t die = 0; die < m_params.dies; ++die) {
    if (m_span_sink != nullptr) {  // what ran before the cut, cut short; the rest never ran
      for (const DieSlot& slot : m_die_slots[die]) report_slot(die, slot, cut);
      for (const ChannelSlot& slot : m_transfer_slots[die]) report_transfer(die, slot, cut);
    }
    m_die_slots[die].clear();
    m_transfer_slots[die].clear();
    m_die_floor[die] = std::max(m_die_floor[die], cut);
    m_gc_queue[die].clear();
    m_gc_tail[die] = cut;
    m_gc_cursor[die] = cut;
    m_gc_queued_erases[die] = 0;
    m_gc_held_until[die] = 0;
    m_old_copy_read_end[die] = 0;
    m_gap_hint[die] = 0;
    m_slot_hint[die] = 0;
  }
  for (Picoseconds& floor : m_channel_floor) floor = std::max(floor, cut);
  std::fill(m_block_order.begin(), m_block_order.end(), BlockOrder{});
  m_groups.clear();
  m_free_groups.clear();
  std::fill(m_gc_pushed.begin(), m_gc_pushed.end(), 0);
  std::fill(m_gc_popped.begin(), m_gc_popped.end(), 0);
  for (auto& latest : m_gc_latest_alike) std::fill(latest.begin(), latest.end(), 0);
  m_now = std::max(m_now, cut);
}

size_t NandTiming::queued_gc_ops() const {
  size_t total = 0;
  for (const auto& queue : m_gc_queue) total += queue.size();
  return total;
}

Picoseconds NandTiming::queued_front_earliest(uint32_t die) const {
  const PendingGc& next = m_gc_queue[die].front();
  // An erase also waits for the reads served from old copies while GC's copies were queued
  // (all of the die's: which victim each read belongs to is not known here).
  const Picoseconds old_copy_reads =
      next.kind == ftl::OpKind::kErase ? m_old_copy_read_end[die] : 0;
  return std::max({next.ready, m_gc_cursor[die], m_die_floor[die],
                   block_allows(next.kind, next.block),
                   block_allows(ftl::OpKind::kRead, next.source_block), old_copy_reads});
}

NandTiming::Placement NandTiming::plan_queued_front(uint32_t die) const {
  const PendingGc& next = m_gc_queue[die].front();
  return place(die, next.shape, queued_front_earliest(die), fixed_at(die, next.ready));
}

void NandTiming::place_queued_front(uint32_t die, const Placement& at, Hold hold) {
  auto& queue = m_gc_queue[die];
  const PendingGc next = queue.front();
  queue.pop_front();
  if (m_params.multiplane) ++m_gc_popped[die];
  const DieSlot slot{0,          0,         next.shape,  ftl::OpClass::kGc, next.kind,
                     next.block, next.page, Hold::kFree, next.source_block, next.group};
  const Hold held = reserve(die, slot, at, hold);
  // Counted at its shape when queued; where it is placed its data-out may wait for the channel,
  // and the die stays reserved until then.
  m_counters.die_busy_ps[die] += (at.end - at.start) - next.shape.total();
  const uint8_t gc_rank = rank_of(ftl::OpClass::kGc);
  protect_predecessors(die, next.kind, next.block, gc_rank, held);
  protect_predecessors(die, ftl::OpKind::kRead, next.source_block, gc_rank, held);
  for (const Member& member : members(next.group)) {
    protect_predecessors(die, next.kind, member.block, gc_rank, held);
  }
  m_gc_cursor[die] = at.end;
  note_slot(slot, at.start, at.end);
  const auto done_queuing = [&](ftl::BlockId block) {
    if (block != kNoBlock && m_block_order[block].queued_gc == next.seq) {
      m_block_order[block].queued_gc = 0;
    }
  };
  done_queuing(next.block);
  for (const Member& member : members(next.group)) done_queuing(member.block);
  if (next.kind == ftl::OpKind::kErase) {
    m_gc_queued_erases[die] -= 1 + static_cast<uint32_t>(members(next.group).size());
  }
}

void NandTiming::materialize_gc(uint32_t die, Picoseconds before) {
  while (!m_gc_queue[die].empty()) {
    // A placement never starts before its earliest time: when that is not before `before`, the
    // search over the die and channel can be spared.
    if (queued_front_earliest(die) >= before) break;
    const Placement at = plan_queued_front(die);
    if (at.start >= before) break;  // not started by then: the host operation goes first
    place_queued_front(die, at, Hold::kFree);
  }
}

void NandTiming::hold_gc_through(uint32_t die, uint64_t seq) {
  auto& queue = m_gc_queue[die];
  if (queue.empty()) return;
  // The GC placed before (free to be overtaken) comes first in GC's order and may be what the
  // held operations wait for on their blocks: it is held too, so no host write moves it past
  // them (GC's holds then never decrease along its order, see protect_predecessors()).
  // GC placed before the last hold's end is held already (GC is placed at or after the cursor
  // and moves only later), so the search starts there.
  const Picoseconds from = m_gc_held_until[die];
  auto& slots = m_die_slots[die];
  const auto by_start = [](const auto& s, Picoseconds t) { return s.start < t; };
  for (auto it = std::lower_bound(slots.begin(), slots.end(), from, by_start); it != slots.end();
       ++it) {
    if (it->op_class == ftl::OpClass::kGc && it->hold == Hold::kFree) it->hold = Hold::kHeld;
  }
  auto& transfers = m_transfer_slots[die];
  for (auto it = std::lower_bound(transfers.begin(), transfers.end(), from, by_start);
       it != transfers.end(); ++it) {
    if (it->op_class == ftl::OpClass::kGc && it->hold == Hold::kFree) it->hold = Hold::kHeld;
  }
  while (!queue.empty()) {
    const PendingGc& next = queue.front();
    const bool last = seq == 0 ? next.kind == ftl::OpKind::kErase : next.seq >= seq;
    place_queued_front(die, plan_queued_front(die), Hold::kHeld);
    if (last) break;
  }
  m_gc_held_until[die] = m_gc_cursor[die];
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
    for (auto it = first_ending_after(slots, t, m_slot_hint[die]);
         it != slots.end() && it->start < t + die_ps; ++it) {
      if (!rule.allows(die, it->op_class, it->start, it->hold)) t = it->end;
    }
    const Picoseconds start = channel_gap(channel, t, shape.in_ps, rule);
    const Picoseconds array_end = start + shape.in_ps + shape.array_ps;
    const Picoseconds out_start =
        shape.out_ps ? channel_gap(channel, array_end, shape.out_ps, rule) : array_end;
    const Picoseconds end = out_start + shape.out_ps;

    bool clash = false;
    for (auto it = first_ending_after(slots, start, m_slot_hint[die]);
         it != slots.end() && it->start < end; ++it) {
      if (!rule.allows(die, it->op_class, it->start, it->hold)) {
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
  // The first window of `length` from t on that no die of the channel uses: a merge over the
  // dies' transfer lists (each sorted by start and by end). Of the transfers that end after t,
  // the one that starts first decides: if it starts before t + length, no window starting
  // before its end fits, so t moves to its end; otherwise the window at t is free. Each die's
  // cursor only moves forward, so every transfer in the way is looked at once per die step.
  // Transfers the new operation will overtake (they move) are not in the way.
  m_gap_cursors.clear();
  for (uint32_t die = channel; die < m_params.dies; die += m_params.channels) {
    const auto& slots = m_transfer_slots[die];
    if (slots.empty() || slots.back().end <= t) continue;  // nothing of this die from t on
    const ChannelSlot* first = &*first_ending_after(slots, t, m_gap_hint[die]);
    m_gap_cursors.push_back({first, slots.data() + slots.size(), die});
  }
  for (;;) {
    const ChannelSlot* next = nullptr;
    for (GapCursor& cursor : m_gap_cursors) {
      while (cursor.at != cursor.end &&
             (cursor.at->end <= t || rule.allows(cursor.die, cursor.at->op_class,
                                                 cursor.at->owner_start, cursor.at->hold))) {
        ++cursor.at;
      }
      if (cursor.at != cursor.end && (next == nullptr || cursor.at->start < next->start)) {
        next = cursor.at;
      }
    }
    if (next == nullptr || next->start >= t + length) return t;
    t = next->end;
  }
}

NandTiming::Hold NandTiming::reserve(uint32_t die, const DieSlot& what, const Placement& at,
                                     Hold hold) {
  const Shape& shape = what.shape;
  const ftl::OpClass op_class = what.op_class;
  // Placed before an operation of its block that is pinned: pinned too (pin_through()).
  const auto before_pinned = [&](ftl::BlockId block) {
    return block != kNoBlock && at.start < m_block_order[block].pinned_before;
  };
  if (before_pinned(what.block) || before_pinned(what.source_block)) hold = Hold::kPinned;
  for (const Member& member : members(what.group)) {
    if (before_pinned(member.block)) hold = Hold::kPinned;
  }
  if (at.end > at.start) {
    DieSlot slot = what;
    slot.start = at.start;
    slot.end = at.end;
    slot.hold = hold;
    insert_sorted(m_die_slots[die], slot);
  }
  auto& transfers = m_transfer_slots[die];
  if (shape.in_ps > 0) {
    insert_sorted(transfers, ChannelSlot{at.start, at.start + shape.in_ps, at.start, op_class, hold,
                                         what.kind});
  }
  if (shape.out_ps > 0) {
    insert_sorted(transfers,
                  ChannelSlot{at.out_start, at.end, at.start, op_class, hold, what.kind});
  }
  return hold;
}

void NandTiming::take_overtaken(uint32_t die, const Overtake& rule, Picoseconds new_start) {
  m_moved.clear();
  auto& slots = m_die_slots[die];
  // Reservations that end before the new operation starts are not in its way and stay. The rest
  // that may be overtaken move to m_moved, in start order; the others close up behind them.
  auto out = first_ending_after(slots, new_start);
  for (auto it = out; it != slots.end(); ++it) {
    if (rule.allows(die, it->op_class, it->start, it->hold)) {
      m_moved.push_back(*it);
    } else {
      *out++ = *it;
    }
  }
  if (m_moved.empty()) return;
  slots.erase(out, slots.end());

  // Their transfers go too; a transfer names its die slot by its start. A die's slots are
  // disjoint and each one's transfers lie within it, so in start order the transfers' owners come
  // in start order too: one walk down both lists finds the moved ones (a search per transfer made
  // a deep backlog's every overtaking cost O(backlog log backlog)).
  auto& transfers = m_transfer_slots[die];
  auto kept = first_ending_after(transfers, m_moved.front().start);
  auto owner = m_moved.cbegin();
  for (auto it = kept; it != transfers.end(); ++it) {
    while (owner != m_moved.cend() && owner->start < it->owner_start) ++owner;
    if (owner == m_moved.cend() || owner->start != it->owner_start) *kept++ = *it;
  }
  transfers.erase(kept, transfers.end());
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
    // A moved reservation keeps its hold (a host read may move held GC; it stays held).
    DieSlot again_slot = moved;
    again_slot.start = again.start;
    again_slot.end = again.end;
    m_moved_die.push_back(again_slot);
    note_slot(moved, again.start, again.end);
    if (moved.shape.in_ps > 0) {
      m_moved_channel.push_back(ChannelSlot{again.start, again.start + moved.shape.in_ps,
                                            again.start, moved.op_class, moved.hold, moved.kind});
    }
    if (moved.shape.out_ps > 0) {
      m_moved_channel.push_back(ChannelSlot{again.out_start, again.end, again.start, moved.op_class,
                                            moved.hold, moved.kind});
    }
    previous_end = again.end;
  }
  merge_sorted(m_die_slots[die], m_moved_die);
  merge_sorted(m_transfer_slots[die], m_moved_channel);
}

}  // namespace ssd::models
