#include "ftl/core/garbage_collector.h"

namespace ssd::ftl {

GcMode gc_mode(const std::string& name) {
  return name == "blocking" ? GcMode::kBlocking : GcMode::kIncremental;
}

GarbageCollector::GarbageCollector(FlashBackend& backend, BlockManager& blocks,
                                   UnitWriter& gc_writer, MappingOwner& owner,
                                   const VictimPolicy& policy, FtlStats& stats, GcMode mode,
                                   bool copyback)
    : m_backend(backend),
      m_blocks(blocks),
      m_gc_writer(gc_writer),
      m_owner(owner),
      m_policy(policy),
      m_stats(stats),
      m_geometry(blocks.geometry()),
      m_mode(mode),
      m_copyback(copyback) {}

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
  // last free block of a plane, so that GC can always move data out). Each round frees at least a
  // page, so a block comes back within a bounded number of rounds; the cap guards against a bad
  // policy. Should no victim be worth taking, compaction packs several into whole pages.
  for (uint32_t round = 0;
       needs_block && m_blocks.free_blocks(plane) <= 1 && round < m_geometry.blocks_per_plane;
       ++round) {
    if (!collect_one(plane)) break;
  }
  if (needs_block && m_blocks.free_blocks(plane) <= 1) compact(plane);
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
  m_gc_writer.forget_last_program();
  relocate_victim(victim, plane, last_op);
  // Valid data must be on flash before its old copy is erased: the erase waits for the last GC
  // program, the page closed now or one that filled while copying (each waits for its reads).
  m_gc_writer.close_page(plane);
  if (m_gc_writer.last_program() != kNone) last_op = m_gc_writer.last_program();
  erase_victim(victim, last_op);
  return true;
}

bool GarbageCollector::compact(uint32_t plane) {
  const uint32_t slots_per_block = m_geometry.pages_per_block * m_geometry.units_per_page;
  m_waiting.clear();
  m_gc_writer.forget_last_program();
  m_seen_programs = m_gc_writer.programs();
  uint32_t last_op = kNone;
  while (m_blocks.free_blocks(plane) <= 1) {
    const BlockId victim = m_policy.select(m_blocks, plane);
    if (victim == kNone || m_blocks.valid_units(victim) >= slots_per_block) break;
    m_blocks.mark_collecting(victim);
    relocate_victim(victim, plane, last_op);
    if (m_gc_writer.assembling(plane)) {
      m_waiting.push_back(victim);  // its last copies wait in the page being assembled
    } else {
      const uint32_t program = m_gc_writer.last_program();
      erase_victim(victim, program != kNone ? program : last_op);
    }
  }
  // Out of victims (or a block is back): the last page is closed, padding and all.
  if (!m_waiting.empty()) {
    m_gc_writer.close_page(plane);
    erase_waiting_if_programmed();
  }
  return m_blocks.free_blocks(plane) > 1;
}

void GarbageCollector::relocate_victim(BlockId victim, uint32_t plane, uint32_t& last_op) {
  ++m_stats.gc_invocations;
  const PageId first = m_geometry.first_page(victim);
  const uint32_t programmed = m_backend.flash().write_pointer(victim);
  prefetch_mappings(victim);
  for (uint32_t p = 0; p < programmed; ++p) relocate_page(first + p, plane, last_op);
  m_owner.relocations_done();
}

void GarbageCollector::erase_victim(BlockId victim, uint32_t after) {
  m_backend.erase(victim, OpClass::kGc, after);
  m_blocks.release_block(victim);
  ++m_stats.gc_erases;
}

void GarbageCollector::erase_waiting_if_programmed() {
  if (m_gc_writer.programs() == m_seen_programs) return;
  m_seen_programs = m_gc_writer.programs();  // also with nothing waiting: later victims wait
  for (const BlockId victim : m_waiting) erase_victim(victim, m_gc_writer.last_program());
  m_waiting.clear();
}

void GarbageCollector::copy_back_page(PageId page, uint32_t plane) {
  const uint32_t* spare = m_backend.flash().spare(page);
  const SlotId from = m_geometry.first_slot(page);
  m_tokens.resize(m_geometry.units_per_page);
  for (uint32_t u = 0; u < m_geometry.units_per_page; ++u) {
    m_tokens[u] = m_backend.flash().token(from + u);
  }
  const SlotId to = m_gc_writer.copy_page(plane, page, spare, m_tokens.data(), kNone);
  for (uint32_t u = 0; u < m_geometry.units_per_page; ++u) {
    m_owner.relocate(spare[u], from + u, to + u);
    m_blocks.remove_valid(from + u);
    ++m_stats.gc_units_copied;
  }
  erase_waiting_if_programmed();
}

void GarbageCollector::prefetch_mappings(BlockId victim) const {
  const PageId first = m_geometry.first_page(victim);
  const uint32_t programmed = m_backend.flash().write_pointer(victim);
  for (uint32_t p = 0; p < programmed; ++p) {
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
  if (m_copyback && valid_units == m_geometry.units_per_page && !m_gc_writer.assembling(plane)) {
    copy_back_page(page, plane);
    return;
  }
  const uint32_t read_op = m_backend.read(page, valid_units, OpClass::kGc);
  if (read_op != kNone) last_op = read_op;
  for (uint32_t u = 0; u < m_geometry.units_per_page; ++u) {
    if ((valid_mask >> u & 1u) == 0) continue;
    const Lun lun = spare[u];
    const SlotId from = first_slot + u;
    const SlotId to =
        m_gc_writer.append_on_plane(plane, lun, m_backend.flash().token(from), read_op);
    m_owner.relocate(lun, from, to);
    m_blocks.remove_valid(from);
    ++m_stats.gc_units_copied;
    // compact(): a page just programmed holds the last copies of the victims waiting for it.
    erase_waiting_if_programmed();
  }
}

}  // namespace ssd::ftl
