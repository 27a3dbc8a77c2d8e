// The FTL's only window on the hardware. A scheme runs as sequential firmware and calls these
// methods; each applies its effect to the functional flash at once and appends the operation to
// the command's list (flash_op.h), which the controller model later times. During untimed
// preconditioning recording is off and only the functional effect remains.
#pragma once

#include <cstdint>
#include <functional>
#include <iterator>
#include <memory>
#include <stdexcept>
#include <utility>
#include <vector>

#include "ftl/core/die_load.h"
#include "ftl/core/flash_array.h"
#include "ftl/core/flash_op.h"
#include "ftl/core/geometry.h"
#include "ftl/core/types.h"

namespace ssd::ftl {

// A unit a read command returned, for the integrity oracle. `sectors`: 0 when `token` is the
// whole unit's content; else, with sector-granular content (content_token.h), the sectors of the
// unit whose tokens `token` sums (a read served without the unit's other sectors).
struct DeliveredUnit {
  Lun lun;
  Token token;
  uint64_t sectors = 0;
};

// Mapping units programmed, by the class each was written for, and padding slots: what write
// amplification and the report's write breakdown are computed from, the same way for every
// scheme. Counted from every program, timed or not (preconditioning too).
struct WriteCounters {
  uint64_t units[kOpClasses] = {};
  uint64_t padded = 0;

  uint64_t of(OpClass op_class) const { return units[static_cast<int>(op_class)]; }
};

// What a scheme keeps beyond the flash that outlives a power cut: what its NVRAM holds, and what
// it models of its own pages' content beyond their tokens (e.g. the entries of a map page). The
// backend owns it, since the backend outlives every scheme object (FlashBackend::lasting).
struct LastingState {
  virtual ~LastingState() = default;
};

class FlashBackend {
 public:
  explicit FlashBackend(FlashArray& flash)
      : m_flash(flash), m_geometry(flash.geometry()), m_programs_in_command(m_geometry.dies(), 0) {}

  const Geometry& geometry() const { return m_geometry; }
  FlashArray& flash() { return m_flash; }
  const FlashArray& flash() const { return m_flash; }

  // Reads `units` mapping units of `page` (only they cross the channel). Returns the operation's
  // index, for `after` of a dependent operation.
  uint32_t read(PageId page, uint32_t units, OpClass op_class, uint32_t after = kNone) {
    return record(OpKind::kRead, op_class, page, units * m_geometry.unit_bytes, after);
  }
  // Reads the spare area only; `bytes` is how much of it crosses the channel.
  uint32_t read_spare(PageId page, uint32_t bytes, OpClass op_class, uint32_t after = kNone) {
    return record(OpKind::kSpareRead, op_class, page, bytes, after);
  }
  // Programs `page`: every unit of it written for `op_class`.
  uint32_t program(PageId page, const Token* tokens, const uint32_t* spare, OpClass op_class,
                   uint32_t after = kNone) {
    return program(page, tokens, spare, op_class, after,
                   ProgramUnits::all(op_class, m_geometry.units_per_page));
  }
  // The same, with the units it writes by class (the rest of the page is padding); `op_class`
  // is the program's own class, which sets its priority on the die.
  uint32_t program(PageId page, const Token* tokens, const uint32_t* spare, OpClass op_class,
                   uint32_t after, const ProgramUnits& units) {
    return write_page(OpKind::kProgram, page, kNone, tokens, spare, op_class, after, units);
  }
  // Copy-back (nand.copyback): programs `page` with `source`'s content through the die's page
  // register, on the same plane, nothing over the channel. `tokens` and `spare` are what `page`
  // then holds (the functional copy); `units` counts what it writes, as program() does.
  uint32_t copy_back(PageId source, PageId page, const Token* tokens, const uint32_t* spare,
                     OpClass op_class, uint32_t after, const ProgramUnits& units) {
    return write_page(OpKind::kCopyback, page, source, tokens, spare, op_class, after, units);
  }
  uint32_t erase(BlockId block, OpClass op_class, uint32_t after = kNone) {
    const uint64_t entry = m_flash.journal_next_entry();
    m_flash.erase(block);
    const PageId first = m_geometry.first_page(block);
    const uint32_t index = record(OpKind::kErase, op_class, first, 0, after);
    note_journal(index, entry);
    return index;
  }
  uint32_t dram(bool write, uint32_t bytes, OpClass op_class, uint32_t after = kNone) {
    return record_memory(write ? OpKind::kDramWrite : OpKind::kDramRead, op_class, bytes, after);
  }
  uint32_t nvram(bool write, uint32_t bytes, OpClass op_class, uint32_t after = kNone) {
    return record_memory(write ? OpKind::kNvramWrite : OpKind::kNvramRead, op_class, bytes, after);
  }
  // A write to NVRAM whose content the caller has just changed (in its LastingState): when the
  // device may lose power, a cut before the write completes calls `undo`, which must put back
  // what the write changed (FlashArray::journal_memory_write).
  uint32_t nvram_write(uint32_t bytes, OpClass op_class, uint32_t after,
                       std::function<void()> undo) {
    const uint64_t entry = m_flash.journal_next_entry();
    if (m_flash.journal_on()) m_flash.journal_memory_write(std::move(undo));
    const uint32_t index = record_memory(OpKind::kNvramWrite, op_class, bytes, after);
    if (m_flash.journal_on()) note_journal(index, entry);
    return index;
  }

  // The scheme's lasting state, made on first use; the same object after a power cut.
  template <class State>
  State& lasting() {
    if (!m_lasting) m_lasting = std::make_unique<State>();
    State* state = dynamic_cast<State*>(m_lasting.get());
    if (state == nullptr) throw std::logic_error("two kinds of lasting state on one device");
    return *state;
  }

  // The dies' queued work as the controller sees it (die_load.h), for placement that follows
  // load; nullptr (the default) when there is no timing model.
  const DieLoad* die_load() const { return m_die_load; }
  void set_die_load(const DieLoad* load) { m_die_load = load; }
  // Programs the current command has made on `die` so far (not yet known to the timing).
  uint32_t programs_in_command(uint32_t die) const {
    return die < m_programs_in_command.size() ? m_programs_in_command[die] : 0;
  }
  // Placement that compares dies by them (ftl.placement=least_busy_die) turns this on: then they
  // are counted whether or not operations are recorded, so an untimed pass (preconditioning, a
  // warm-up) places pages as the same commands recorded one by one do. Off, they are counted only
  // with the recording, and an untimed pass spends nothing on them.
  void count_programs_unrecorded(bool on) { m_count_unrecorded = on; }

  // Power-loss safe erases (garbage_collector.h, EraseGuard): program `op` of this command wrote
  // newer copies of units whose older copies are in `block`, so an erase of `block` must wait for
  // it. The controller keeps, per block, when the last such program completes.
  void note_supersedes(uint32_t op, BlockId block) {
    if (op == kNone) return;
    // Kept in operation order (the controller walks them with the operations); notes come
    // nearly in order, so the insertion point is found from the back.
    auto at = m_supersedes.end();
    while (at != m_supersedes.begin() && std::prev(at)->op > op) --at;
    m_supersedes.insert(at, {op, block});
  }
  struct Supersedes {
    uint32_t op;
    BlockId block;
  };
  // This command's, in operation order.
  const std::vector<Supersedes>& supersedes() const { return m_supersedes; }
  // The operation of this command that programmed `page` (kNone: none did).
  uint32_t program_of(PageId page) const {
    for (uint32_t i = static_cast<uint32_t>(m_ops.size()); i-- > 0;) {
      const FlashOp& op = m_ops[i];
      if ((op.kind == OpKind::kProgram || op.kind == OpKind::kCopyback) && op.page == page) {
        return i;
      }
    }
    return kNone;
  }

  // --- the data cache (ftl/cache/data_cache.h) ---
  // Operations recorded while this is on run behind the command (FlashOp::background).
  void set_background(bool on) { m_background = on; }
  // A cache frame's data was written back by this command's operations [first, end): the frame
  // may take new data once they complete (all at once when the range is empty).
  struct FrameRelease {
    uint32_t frame;
    uint32_t first;
    uint32_t end;
  };
  void note_frame_released(uint32_t frame, uint32_t first, uint32_t end) {
    if (m_recording) m_frame_releases.push_back({frame, first, end});
  }
  // Operation `op` puts new data into cache frame `frame`: it waits until the frame is free.
  struct FrameFill {
    uint32_t op;
    uint32_t frame;
  };
  void note_frame_filled(uint32_t op, uint32_t frame) {
    if (op != kNone) m_frame_fills.push_back({op, frame});
  }
  // Data read ahead (the cache's read-ahead, behind the host) lands in a frame with operation
  // `op` (a load); a later operation that reads the frame's data (a read hit) waits for the
  // load, and the frame takes no new data before it.
  struct FrameAccess {
    uint32_t op;
    uint32_t frame;
    bool load;  // true: `op` loads the frame; false: `op` reads it
  };
  void note_frame_loaded(uint32_t op, uint32_t frame) {
    if (op != kNone) m_frame_accesses.push_back({op, frame, true});
  }
  void note_frame_read(uint32_t op, uint32_t frame) {
    if (op != kNone) m_frame_accesses.push_back({op, frame, false});
  }
  // This command's, in the order noted (the operations' order).
  const std::vector<FrameRelease>& frame_releases() const { return m_frame_releases; }
  const std::vector<FrameFill>& frame_fills() const { return m_frame_fills; }
  const std::vector<FrameAccess>& frame_accesses() const { return m_frame_accesses; }
  // The index the next recorded operation will have.
  uint32_t next_op() const { return static_cast<uint32_t>(m_ops.size()); }

  CpuWork& cpu() { return m_cpu; }
  const WriteCounters& written() const { return m_written; }
  // A sequential fill in bulk (MappingScheme::fill_sequential) programmed `units` units of
  // `op_class` in whole pages, untimed: counted as their programs would have been.
  void count_written_in_bulk(OpClass op_class, uint64_t units) {
    m_written.units[static_cast<int>(op_class)] += units;
  }
  void deliver(Lun lun, Token token, uint64_t sectors = 0) {
    m_delivered.push_back({lun, token, sectors});
  }
  // Takes back the unit delivered last (a layer above the scheme replaces it with the unit it
  // assembles). There must be one.
  DeliveredUnit take_last_delivered() {
    const DeliveredUnit last = m_delivered.back();
    m_delivered.pop_back();
    return last;
  }

  // --- for the controller (or a test) that drives the scheme ---
  void begin_command() {
    for (const uint32_t die : m_programmed_dies) m_programs_in_command[die] = 0;
    m_programmed_dies.clear();
    m_ops.clear();
    m_cpu.clear();
    m_delivered.clear();
    m_journal_of_op.clear();
    m_supersedes.clear();
    m_frame_releases.clear();
    m_frame_fills.clear();
    m_frame_accesses.clear();
  }
  // A power-loss recovery reads the whole device: it calls end_batch() whenever nothing it does
  // later depends on the operations recorded so far, and `sink` (the timing) takes them; then
  // they are forgotten, so the list holds a block's worth. Without a sink they are only forgotten.
  void set_batch_sink(std::function<void()> sink) { m_batch_sink = std::move(sink); }
  const std::function<void()>& batch_sink() const { return m_batch_sink; }
  void end_batch() {
    if (m_batch_sink) m_batch_sink();
    begin_command();
  }
  void set_recording(bool on) { m_recording = on; }
  bool recording() const { return m_recording; }
  const OpList& ops() const { return m_ops; }
  const CpuWork& cpu_work() const { return m_cpu; }
  const std::vector<DeliveredUnit>& delivered() const { return m_delivered; }
  // The timed models report when operation `index` of this command completed and when its array
  // operation started (FlashArray::journal_complete: what a power cut between the two tears).
  void op_completed(uint32_t index, Picoseconds done,
                    Picoseconds array_start = FlashArray::kNotDone) {
    if (index < m_journal_of_op.size() && m_journal_of_op[index] != kNoEntry) {
      m_flash.journal_complete(m_journal_of_op[index], done, array_start);
    }
  }

 private:
  static constexpr uint64_t kNoEntry = ~uint64_t{0};

  // A program (its page crosses the channel) or a copy-back from `source` (nothing does).
  uint32_t write_page(OpKind kind, PageId page, PageId source, const Token* tokens,
                      const uint32_t* spare, OpClass op_class, uint32_t after,
                      const ProgramUnits& units) {
    const uint64_t entry = m_flash.journal_next_entry();
    m_flash.program(page, tokens, spare);
    count_written(units);
    const uint32_t bytes = kind == OpKind::kProgram ? m_geometry.page_bytes : 0;
    const uint32_t index = record(kind, op_class, page, bytes, after, source);
    note_journal(index, entry);
    return index;
  }

  uint32_t record(OpKind kind, OpClass op_class, PageId page, uint32_t bytes, uint32_t after,
                  PageId source = kNone) {
    if (!m_recording) {
      if (m_count_unrecorded && kind == OpKind::kProgram) count_program(die_of(page));
      return kNone;
    }
    ++m_cpu.flash_ops;
    const uint32_t die = die_of(page);
    if (kind == OpKind::kProgram) count_program(die);
    return m_ops.push(FlashOp{kind, op_class, die, bytes, after, page, source, m_background});
  }
  uint32_t die_of(PageId page) const {
    return m_geometry.die_of_block(m_geometry.block_of_page(page));
  }
  void count_program(uint32_t die) {
    if (m_programs_in_command[die]++ == 0) m_programmed_dies.push_back(die);
  }
  uint32_t record_memory(OpKind kind, OpClass op_class, uint32_t bytes, uint32_t after) {
    if (!m_recording) return kNone;
    return m_ops.push(FlashOp{kind, op_class, 0, bytes, after, 0, kNone, m_background});
  }
  void count_written(const ProgramUnits& units) {
    for (int c = 0; c < kOpClasses; ++c) m_written.units[c] += units.by_class[c];
    const uint32_t data = units.total();
    if (data < m_geometry.units_per_page) m_written.padded += m_geometry.units_per_page - data;
  }
  void note_journal(uint32_t index, uint64_t entry) {
    if (!m_flash.journal_on()) return;
    if (index == kNone) {  // untimed (preconditioning): complete at once
      m_flash.journal_complete(entry, 0);
      // and forgotten at once: no cut can undo it, and an aging's millions of entries (an erase's
      // keeps its block's spare words and tokens) would otherwise all be held until the run.
      m_flash.journal_retire(0);
      return;
    }
    if (m_journal_of_op.size() <= index) m_journal_of_op.resize(index + 1, kNoEntry);
    m_journal_of_op[index] = entry;
  }

  FlashArray& m_flash;
  const Geometry& m_geometry;
  bool m_recording = true;
  bool m_background = false;
  const DieLoad* m_die_load = nullptr;
  std::vector<uint32_t> m_programs_in_command;  // per die, reset by begin_command()
  std::vector<uint32_t> m_programmed_dies;      // the dies counted above since then
  bool m_count_unrecorded = false;
  OpList m_ops;
  CpuWork m_cpu;
  WriteCounters m_written;
  std::vector<DeliveredUnit> m_delivered;
  std::vector<uint64_t> m_journal_of_op;
  std::function<void()> m_batch_sink;
  std::vector<Supersedes> m_supersedes;
  std::vector<FrameRelease> m_frame_releases;
  std::vector<FrameFill> m_frame_fills;
  std::vector<FrameAccess> m_frame_accesses;
  std::unique_ptr<LastingState> m_lasting;
};

}  // namespace ssd::ftl
