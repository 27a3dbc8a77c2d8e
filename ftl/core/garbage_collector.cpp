#include "ftl/core/garbage_collector.h"

#include <algorithm>
#include <stdexcept>
#include <utility>

namespace ssd::ftl {

GcMode gc_mode(const std::string& name) {
  return name == "blocking" ? GcMode::kBlocking : GcMode::kIncremental;
}

GarbageCollector::GarbageCollector(FlashBackend& backend, BlockManager& blocks,
                                   UnitWriter& gc_writer, MappingOwner& owner,
                                   const VictimPolicy& policy, FtlStats& stats, GcMode mode,
                                   bool copyback)
    : GarbageCollector(backend, blocks, std::vector<UnitWriter*>{&gc_writer}, owner, policy, stats,
                       mode, copyback) {}

GarbageCollector::GarbageCollector(FlashBackend& backend, BlockManager& blocks,
                                   std::vector<UnitWriter*> gc_writers, MappingOwner& owner,
                                   const VictimPolicy& policy, FtlStats& stats, GcMode mode,
                                   bool copyback)
    : m_backend(backend),
      m_blocks(blocks),
      m_gc_writers(std::move(gc_writers)),
      m_owner(owner),
      m_policy(policy),
      m_stats(stats),
      m_geometry(blocks.geometry()),
      m_mode(mode),
      m_copyback(copyback) {
  if (m_gc_writers.empty()) throw std::invalid_argument("GarbageCollector needs a GC stream");
}

UnitWriter& GarbageCollector::stream_of(Lun lun) const {
  if (m_gc_writers.size() == 1) return *m_gc_writers[0];
  const uint32_t stream = m_owner.relocation_stream(lun);
  if (stream >= m_gc_writers.size()) {
    throw std::logic_error("GC stream " + std::to_string(stream) + " asked for unit " +
                           std::to_string(lun) + "; the store has " +
                           std::to_string(m_gc_writers.size()));
  }
  return *m_gc_writers[stream];
}

void GarbageCollector::forget_last_programs() {
  for (UnitWriter* writer : m_gc_writers) writer->forget_last_program();
}

uint32_t GarbageCollector::last_program() const {
  // Operation indices grow as operations are recorded: the largest is the latest.
  uint32_t last = kNone;
  for (const UnitWriter* writer : m_gc_writers) {
    const uint32_t op = writer->last_program();
    if (op != kNone) last = last == kNone ? op : std::max(last, op);
  }
  return last;
}

bool GarbageCollector::assembling(uint32_t plane) const {
  for (const UnitWriter* writer : m_gc_writers) {
    if (writer->assembling(plane)) return true;
  }
  return false;
}

uint64_t GarbageCollector::programs() const {
  uint64_t programs = 0;
  for (const UnitWriter* writer : m_gc_writers) programs += writer->programs();
  return programs;
}

void GarbageCollector::close_pages(uint32_t plane) {
  for (UnitWriter* writer : m_gc_writers) writer->close_page(plane);
}

void GarbageCollector::before_new_page(uint32_t plane, bool needs_block) {
  if (m_mode == GcMode::kBlocking) {
    // Victims until the pool is back at the reserve; each frees at least a page, and the cap
    // guards against a bad policy as below.
    for (uint32_t round = 0;
         m_blocks.below_gc_threshold(plane) && round < m_geometry.blocks_per_plane; ++round) {
      if (!collect_one(plane)) break;
    }
  } else if (m_blocks.below_gc_threshold(plane)) {
    collect_one(plane);
  }
  // Emergency: a block is needed and only GC's last one is free (the host stream never takes the
  // last free block of a plane, so that GC can always move data out; with several GC streams,
  // the last one per stream). Each round frees at least a page, so a block comes back within a
  // bounded number of rounds; the cap guards against a bad policy. Should no victim be worth
  // taking, compaction packs several into whole pages.
  const uint32_t kept = gc_blocks();
  for (uint32_t round = 0;
       needs_block && m_blocks.free_blocks(plane) <= kept && round < m_geometry.blocks_per_plane;
       ++round) {
    if (!collect_one(plane)) break;
  }
  if (needs_block && m_blocks.free_blocks(plane) <= kept) compact(plane);
}

bool GarbageCollector::collect_one(uint32_t plane) {
  const BlockId victim = m_policy.select(m_blocks, plane);
  const uint32_t slots_per_block = m_geometry.pages_per_block * m_geometry.units_per_page;
  // Worth taking only if it frees at least one page after the GC page is padded and closed.
  if (victim == kNone ||
      m_blocks.valid_units(victim) + m_geometry.units_per_page > slots_per_block) {
    return false;
  }

  uint32_t last_op = kNone;
  forget_last_programs();
  relocate_victim(victim, plane, last_op);
  // Valid data must be on flash before its old copy is erased: the erase waits for the last GC
  // program, the page closed now or one that filled while copying (each waits for its reads).
  close_pages(plane);
  if (last_program() != kNone) last_op = last_program();
  erase_victim(victim, last_op);
  return true;
}

bool GarbageCollector::compact(uint32_t plane) {
  const uint32_t slots_per_block = m_geometry.pages_per_block * m_geometry.units_per_page;
  m_waiting.clear();
  forget_last_programs();
  m_seen_programs = programs();
  uint32_t last_op = kNone;
  while (m_blocks.free_blocks(plane) <= gc_blocks()) {
    const BlockId victim = m_policy.select(m_blocks, plane);
    if (victim == kNone || m_blocks.valid_units(victim) >= slots_per_block) break;
    m_blocks.mark_collecting(victim);
    relocate_victim(victim, plane, last_op);
    if (assembling(plane)) {
      m_waiting.push_back(victim);  // its last copies wait in the page being assembled
    } else {
      const uint32_t program = last_program();
      erase_victim(victim, program != kNone ? program : last_op);
    }
  }
  // Out of victims (or a block is back): the last page is closed, padding and all.
  if (!m_waiting.empty()) {
    close_pages(plane);
    erase_waiting_if_programmed(plane);
  }
  return m_blocks.free_blocks(plane) > gc_blocks();
}

void GarbageCollector::relocate_victim(BlockId victim, uint32_t plane, uint32_t& last_op) {
  ++m_stats.gc_invocations;
  const PageId first = m_geometry.first_page(victim);
  const uint32_t programmed = m_backend.flash().write_pointer(victim);
  prefetch_mappings(victim);
  for (uint32_t p = 0; p < programmed; ++p) {
    // A page a power cut tore holds nothing (its ECC fails): recovery mapped no unit to it.
    if (m_backend.flash().readable(first + p)) relocate_page(first + p, plane, last_op);
  }
  m_owner.relocations_done();
}

void GarbageCollector::erase_victim(BlockId victim, uint32_t after) {
  if (m_guard != nullptr) m_guard->before_erase(victim);
  m_backend.erase(victim, OpClass::kGc, after);
  m_blocks.release_block(victim);
  ++m_stats.gc_erases;
}

void GarbageCollector::erase_waiting_if_programmed(uint32_t plane) {
  const uint64_t programmed = programs();
  if (programmed == m_seen_programs) return;
  // With one stream a program leaves nothing assembled; with several, another stream may still
  // hold waiting copies in DRAM.
  if (m_gc_writers.size() > 1 && assembling(plane)) return;
  m_seen_programs = programmed;  // also with nothing waiting: later victims wait
  for (const BlockId victim : m_waiting) erase_victim(victim, last_program());
  m_waiting.clear();
}

void GarbageCollector::copy_back_page(PageId page, uint32_t plane, UnitWriter& stream) {
  const uint32_t* spare = m_backend.flash().spare(page);
  const SlotId from = m_geometry.first_slot(page);
  m_tokens.resize(m_geometry.units_per_page);
  for (uint32_t u = 0; u < m_geometry.units_per_page; ++u) {
    m_tokens[u] = m_backend.flash().token(from + u);
  }
  const SlotId to = stream.copy_page(plane, page, spare, m_tokens.data(), kNone);
  if (m_guard != nullptr) guard_copy(stream, to, m_geometry.block_of_page(page));
  for (uint32_t u = 0; u < m_geometry.units_per_page; ++u) {
    m_owner.relocate(spare[u], from + u, to + u);
    m_blocks.remove_valid(from + u);
    ++m_stats.gc_units_copied;
  }
  erase_waiting_if_programmed(plane);
}

void GarbageCollector::guard_copy(UnitWriter& stream, SlotId to, BlockId victim) {
  // The victim's erase waits for `to`'s program: named now if the page is still being assembled,
  // noted with its program if the copy filled it (the erase also waits for GC's last program,
  // but a die may run operations out of their order, and the note makes the order explicit).
  if (stream.holds(to)) {
    stream.set_origin(to, victim);
  } else {
    m_backend.note_supersedes(m_backend.program_of(m_geometry.page_of_slot(to)), victim);
  }
}

void GarbageCollector::prefetch_mappings(BlockId victim) const {
  const PageId first = m_geometry.first_page(victim);
  const uint32_t programmed = m_backend.flash().write_pointer(victim);
  for (uint32_t p = 0; p < programmed; ++p) {
    if (!m_backend.flash().readable(first + p)) continue;
    const uint32_t* spare = m_backend.flash().spare(first + p);
    for (uint32_t u = 0; u < m_geometry.units_per_page; ++u) {
      if (spare[u] != kNone) m_owner.prefetch(spare[u]);
    }
  }
}

void GarbageCollector::relocate_page(PageId page, uint32_t plane, uint32_t& last_op) {
  const uint32_t* spare = m_backend.flash().spare(page);
  const SlotId first_slot = m_geometry.first_slot(page);
  uint32_t valid_mask = 0;  // units_per_page <= 32 (config validation)
  uint32_t valid_units = 0;
  for (uint32_t u = 0; u < m_geometry.units_per_page; ++u) {
    if (spare[u] != kNone && m_owner.maps(spare[u], first_slot + u)) {
      valid_mask |= 1u << u;
      ++valid_units;
    }
  }
  if (valid_units == 0) return;
  // A page wholly valid, with no GC page being assembled on the plane, moves by copy-back (when
  // the part has it): the die copies it through its page register, nothing crosses the channel.
  // Pages partly valid are packed through the controller as below (copy-back moves whole pages).
  // With several GC streams, only a page whose units all go into one stream.
  // Copies of mapping metadata may have to wait (set_metadata_copies_wait).
  bool metadata = false;
  for (uint32_t u = 0; u < m_geometry.units_per_page && m_metadata_copies_wait; ++u) {
    metadata = metadata || ((valid_mask >> u & 1u) != 0 && spare[u] >= m_geometry.logical_units);
  }
  if (m_copyback && valid_units == m_geometry.units_per_page && !metadata) {
    UnitWriter& stream = stream_of(spare[0]);
    bool one_stream = true;
    for (uint32_t u = 1; u < m_geometry.units_per_page && m_gc_writers.size() > 1; ++u) {
      one_stream = one_stream && &stream_of(spare[u]) == &stream;
    }
    if (one_stream && !stream.assembling(plane)) {
      copy_back_page(page, plane, stream);
      return;
    }
  }
  const uint32_t read_op = m_backend.read(page, valid_units, OpClass::kGc);
  if (read_op != kNone) last_op = read_op;
  for (uint32_t u = 0; u < m_geometry.units_per_page; ++u) {
    if ((valid_mask >> u & 1u) == 0) continue;
    const Lun lun = spare[u];
    const SlotId from = first_slot + u;
    UnitWriter& stream = stream_of(lun);
    const uint32_t after = metadata && lun >= m_geometry.logical_units ? kAfterAll : read_op;
    const SlotId to = stream.append_on_plane(plane, lun, m_backend.flash().token(from), after);
    if (m_guard != nullptr) guard_copy(stream, to, m_geometry.block_of_page(page));
    m_owner.relocate(lun, from, to);
    m_blocks.remove_valid(from);
    ++m_stats.gc_units_copied;
    // compact(): a page just programmed holds the last copies of the victims waiting for it.
    erase_waiting_if_programmed(plane);
  }
}

}  // namespace ssd::ftl
