#include "ftl/dftl/dftl.h"

#include <algorithm>
#include <cstddef>
#include <utility>

#include "ftl/core/content_token.h"
#include "ftl/core/memory_sizes.h"
#include "ftl/core/prefaulted_allocator.h"
#include "ftl/core/unit_span.h"
#include "ftl/dftl/dftl_settings.h"

namespace ssd::ftl {

namespace {

uint32_t cmt_entry_bytes(const Geometry& g) {
  return bytes_to_name(g.logical_units) + bytes_to_name(g.slots());
}

}  // namespace

uint32_t Dftl::cache_capacity(const DftlSettings& settings, const Geometry& g) {
  const uint64_t wanted = settings.cache_entries != 0 ? settings.cache_entries
                                                      : settings.cache_bytes / cmt_entry_bytes(g);
  return static_cast<uint32_t>(std::clamp<uint64_t>(wanted, 1, g.logical_units));
}

Dftl::Dftl(const SchemeContext& context)
    : m_backend(context.backend),
      m_geometry(context.backend.geometry()),
      // Per unit, read and written at random (prefaulted_allocator.h).
      m_flash_entries(populated_vector(m_geometry.logical_units, SlotId{kNone})),
      m_relocated(populated_vector(m_geometry.logical_units, SlotId{kNone})),
      m_slot_bytes(bytes_to_name(m_geometry.slots())),
      m_entries_per_tpage(std::max(1u, m_geometry.unit_bytes / m_slot_bytes)),
      m_gtd((m_geometry.logical_units + m_entries_per_tpage - 1) / m_entries_per_tpage, kNone),
      m_digest(m_gtd.size(), 0),
      m_cmt(m_geometry.logical_units,
            cache_capacity(context.platform.ftl.settings.get<DftlSettings>(), m_geometry)),
      m_store(context.platform, context.backend, *this, m_stats),
      m_is_stale(m_gtd.size(), false),
      m_changed(m_gtd.size()) {}

void Dftl::expect_random_work() {
  back_by_huge_pages(m_flash_entries);
  back_by_huge_pages(m_relocated);
}

std::unique_ptr<Dftl> Dftl::recovered(const SchemeContext& context) {
  auto scheme = std::make_unique<Dftl>(context);
  scheme->recover();
  return scheme;
}

// DFTL's paper does not say how the GTD and the lost CMT entries come back after a power cut;
// this is our firmware's way. A translation page's newest copy need not say what the spare areas
// say, and sequence numbers alone cannot tell: a copy GC moved is newer than its content, a
// write-back programmed after the page of a later data write lacks that write, and a copy may
// name a data page the cut tore. So each newest copy is read and compared with the table (a page
// read each, against the scan's spare read per programmed page; the simulator compares 32-bit
// digests, entry_token), and only those that differ are written again: rewriting them all would
// cost a program each.
void Dftl::recover() {
  const uint64_t units = m_geometry.logical_units;
  const auto tpages = static_cast<uint32_t>(m_gtd.size());
  CpuWork& cpu = m_backend.cpu();
  // The scan: for every data unit and every translation page (unit `units + t`), its newest copy.
  std::vector<SlotId> table(units + tpages, kNone);
  {
    std::vector<uint64_t> newest(table.size(), 0);
    m_store.scan_flash([&](Lun key, SlotId slot, uint64_t sequence) {
      ++cpu.table_lookups;
      if (key >= table.size()) return;  // no key DFTL writes
      // A tie is two copies in one page: a rewrite that filled the page holding its older copy
      // programmed it before the older copy could be dropped from the spare. The later slot wins.
      if (table[key] == kNone || sequence >= newest[key]) {
        table[key] = slot;
        newest[key] = sequence;
      }
    });
  }
  m_store.adopt(table);  // data units and translation pages alike are valid
  m_gtd.assign(table.begin() + static_cast<std::ptrdiff_t>(units), table.end());
  table.resize(units);
  m_flash_entries = std::move(table);  // what every translation page will say once rewritten

  // Read every translation page's newest copy; the reads wait for the scan, not for each other.
  for (const SlotId slot : m_gtd) {
    if (slot != kNone) m_store.read(slot, 1, OpClass::kMapping, kAfterData);
  }
  m_backend.end_batch();
  // Compare each copy with the table (firmware work only: it starts once the reads are done).
  std::vector<uint32_t> stale;
  for (uint32_t t = 0; t < tpages; ++t) {
    const Token digest = flash_entries_digest(t);
    cpu.table_lookups += entries_in(t);
    m_digest[t] = digest;
    // A page never written says every unit is unmapped (token 0).
    if (digest != (m_gtd[t] != kNone ? m_store.token(m_gtd[t]) : 0)) stale.push_back(t);
  }
  m_backend.end_batch();
  // Write the stale ones again from the table (the CMT is empty, nothing is pending), after
  // everything before; GC those writes run may leave more stale. Then onto the flash.
  for (const uint32_t t : stale) write_translation(t, OpClass::kMapping, kAfterData);
  write_back_stale();
  m_store.flush();
  m_backend.end_batch();
}

uint64_t Dftl::mapping_memory_bytes() const {
  return uint64_t(m_cmt.capacity()) * cmt_entry_bytes(m_geometry) + m_gtd.size() * m_slot_bytes;
}

std::optional<double> Dftl::cache_hit_ratio() const {
  if (m_lookups == 0) return std::nullopt;
  return double(m_hits) / double(m_lookups);
}

SlotId Dftl::slot_of(Lun lun) const {
  if (m_cmt.contains(lun)) return m_cmt.slot(lun);
  return m_relocated[lun] != kNone ? m_relocated[lun] : m_flash_entries[lun];
}

void Dftl::prefetch_unit(Lun lun) const {
  if (lun >= m_geometry.logical_units) return;  // a translation page: the GTD is small
  m_cmt.prefetch(lun);
  __builtin_prefetch(&m_relocated[lun]);
  __builtin_prefetch(&m_flash_entries[lun]);
}

bool Dftl::maps(Lun lun, SlotId slot) const {
  if (lun < m_geometry.logical_units) return slot_of(lun) == slot;
  return m_gtd[lun - m_geometry.logical_units] == slot;
}

void Dftl::relocate(Lun lun, SlotId /*from*/, SlotId to) {
  if (lun >= m_geometry.logical_units) {  // a translation page: the GTD follows it
    m_gtd[lun - m_geometry.logical_units] = to;
    return;
  }
  if (m_cmt.contains(lun)) {
    cache_update(lun, to);
    return;
  }
  pend(lun, to);
}

void Dftl::pend(Lun lun, SlotId slot) {
  const uint32_t tpage = tpage_of(lun);
  if (m_relocated[lun] == kNone) m_changed[tpage].push_back(lun);
  m_relocated[lun] = slot;
  if (!m_is_stale[tpage]) {
    m_is_stale[tpage] = true;
    m_stale.push_back(tpage);
  }
}

SlotId Dftl::lookup(Lun lun, OpClass op_class, uint32_t& after) {
  ++m_backend.cpu().hash_probes;
  const bool counted = m_backend.recording();
  m_lookups += counted;
  if (m_cmt.contains(lun)) {
    m_hits += counted;
    m_cmt.touch(lun);
    return m_cmt.slot(lun);
  }
  if (m_cmt.full()) {
    const Lun victim = m_cmt.least_recent();
    if (m_cmt.dirty(victim)) {
      write_back(tpage_of(victim), op_class);
      // GC run by that write may have moved the victim after its entry went into the page: the
      // move stays pending, as for a unit that was not cached.
      if (m_cmt.dirty(victim)) pend(victim, m_cmt.slot(victim));
    }
    m_cmt.remove(victim);
  }
  const SlotId tslot = m_gtd[tpage_of(lun)];
  if (tslot != kNone) after = m_store.read(tslot, 1, op_class);  // fetch the entry from flash
  if (m_relocated[lun] != kNone) {  // GC moved it earlier in this command: the cache takes over
    cache_insert(lun, m_relocated[lun], true);
    m_relocated[lun] = kNone;
  } else {
    cache_insert(lun, m_flash_entries[lun], false);
  }
  return m_cmt.slot(lun);
}

uint32_t Dftl::entries_in(uint32_t tpage) const {
  const uint64_t first = uint64_t{tpage} * m_entries_per_tpage;
  return static_cast<uint32_t>(
      std::min<uint64_t>(m_entries_per_tpage, m_geometry.logical_units - first));
}

Token Dftl::flash_entries_digest(uint32_t tpage) const {
  const Lun first = tpage * m_entries_per_tpage;
  const Lun end = first + entries_in(tpage);
  Token digest = 0;
  for (Lun lun = first; lun < end; ++lun) digest += entry_token(lun, m_flash_entries[lun]);
  return digest;
}

Token Dftl::entry_token(Lun lun, SlotId slot) {
  if (slot == kNone) return 0;
  return static_cast<Token>(detail::mix64(uint64_t{lun} << 32 | slot));
}

void Dftl::set_flash_entry(uint32_t tpage, Lun lun, SlotId slot) {
  SlotId& entry = m_flash_entries[lun];
  if (entry == slot) return;
  if (m_store.sequenced()) {  // mod 2^32
    m_digest[tpage] += entry_token(lun, slot) - entry_token(lun, entry);
  }
  entry = slot;
}

void Dftl::write_back(uint32_t tpage, OpClass op_class) {
  // The page also holds entries that are not cached: read it, merge, write it anew.
  const uint32_t read = m_gtd[tpage] != kNone ? m_store.read(m_gtd[tpage], 1, op_class) : kNone;
  write_translation(tpage, op_class, read);
}

void Dftl::write_translation(uint32_t tpage, OpClass op_class, uint32_t after) {
  // With power cuts the copy's token must say what it holds (the recovery compares it), so the
  // page is assembled before its write, which may run GC: a unit GC moves then stays pending
  // (its cached entry dirty again, or a relocation that leaves the page stale), as any later
  // move does. Without, the page takes in what that GC moved, as firmware assembling the page
  // once GC made room would: one write where the other way needs two.
  const bool sealed = m_store.sequenced();
  if (sealed) assemble(tpage);
  const SlotId slot = m_store.write_mapping(Lun(m_geometry.logical_units + tpage),
                                            sealed ? m_digest[tpage] : 0, after);
  ++m_translation_writes;
  // Look the old copy up only now: GC run by this write may have moved it. It stays on flash
  // until the new copy is programmed (PageStore::replace): a cut before then finds it.
  if (m_gtd[tpage] != kNone) m_store.replace(m_gtd[tpage], slot);
  m_gtd[tpage] = slot;
  if (!sealed) assemble(tpage);
  m_backend.dram(false, m_geometry.unit_bytes, op_class);  // the page assembled from the CMT
}

void Dftl::assemble(uint32_t tpage) {
  // Cached entries (the batch update of every dirty one), relocations GC made, and for the rest
  // what the old page said: only the units listed as changed can differ from it (m_changed).
  std::vector<Lun>& changed = m_changed[tpage];
  for (const Lun lun : changed) {
    if (m_cmt.contains(lun)) {
      if (!m_cmt.dirty(lun)) continue;  // listed twice: already taken in
      set_flash_entry(tpage, lun, m_cmt.slot(lun));
      m_cmt.set_clean(lun);
      ++m_backend.cpu().list_steps;
    } else if (m_relocated[lun] != kNone) {
      set_flash_entry(tpage, lun, m_relocated[lun]);
      m_relocated[lun] = kNone;
    }
  }
  changed.clear();
  m_is_stale[tpage] = false;
}

void Dftl::write_back_stale() {
  while (!m_stale.empty()) {
    const uint32_t tpage = m_stale.back();
    m_stale.pop_back();
    if (m_is_stale[tpage]) write_back(tpage, OpClass::kGc);
  }
}

void Dftl::remap(Lun lun, SlotId slot) {
  // Look the old slot up only now: GC run by the caller's write may have moved the unit. A write
  // replaces the old copy (kept on flash until the new one is programmed: PageStore::replace);
  // a trim only drops it.
  const SlotId old = m_cmt.slot(lun);
  if (old != kNone) {
    if (slot != kNone) {
      m_store.replace(old, slot);
    } else {
      m_store.invalidate(old);
    }
  }
  cache_update(lun, slot);
}

void Dftl::read(const HostCommand& command) {
  const UnitSpan span =
      unit_span(command.start_sector, command.sector_count, m_geometry.sectors_per_unit);
  m_backend.dram(false, span.count * m_slot_bytes, OpClass::kHostRead);
  for (uint32_t i = 0; i < span.count; ++i) {
    const Lun lun = span.first + i;
    uint32_t after = kNone;
    const SlotId slot = lookup(lun, OpClass::kHostRead, after);
    if (slot == kNone) {  // never written or trimmed: zeroes, no data read
      m_backend.deliver(lun, 0);
      continue;
    }
    m_store.read(slot, 1, OpClass::kHostRead, after);
    m_backend.deliver(lun, m_store.token(slot));
  }
  write_back_stale();  // evictions may have written translation pages, and so run GC
}

void Dftl::write(const HostCommand& command) {
  const UnitSpan span =
      unit_span(command.start_sector, command.sector_count, m_geometry.sectors_per_unit);
  m_backend.dram(true, span.count * m_slot_bytes, OpClass::kHostWrite);
  for (uint32_t i = 0; i < span.count; ++i) {
    const Lun lun = span.first + i;
    uint32_t after = kNone;
    const SlotId old = lookup(lun, OpClass::kHostWrite, after);
    const Token token = m_store.unit_content(command, span, i, old, after);
    remap(lun, m_store.write(lun, token, after));
  }
  write_back_stale();
}

void Dftl::write_whole_unit(Lun lun, Token token) {
  uint32_t after = kNone;
  lookup(lun, OpClass::kHostWrite, after);
  remap(lun, m_store.write(lun, token, after));
}

void Dftl::trim(const HostCommand& command) {
  const UnitSpan span =
      unit_span(command.start_sector, command.sector_count, m_geometry.sectors_per_unit);
  for (uint32_t i = 0; i < span.count; ++i) {
    const Lun lun = span.first + i;
    if (span.mask_of(i) != span.full_mask) continue;
    uint32_t after = kNone;
    if (lookup(lun, OpClass::kHostWrite, after) != kNone) remap(lun, kNone);
  }
  write_back_stale();
}

void Dftl::flush(const HostCommand& /*command*/) {
  m_store.flush();
  write_back_stale();
}

}  // namespace ssd::ftl
