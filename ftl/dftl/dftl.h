// DFTL (`--ftl dftl`, Gupta et al., ASPLOS 2009): page mapping whose table lives in flash
// translation pages; controller DRAM holds only a cached mapping table (CMT) of a configurable
// number of entries and the global translation directory (GTD), which names the flash slot of
// every translation page.
//
// A lookup that misses the CMT evicts the least recently used entry (writing its translation
// page back first if the entry is dirty, together with every other dirty cached entry of that
// page: DFTL's batch update) and reads the unit's translation page. Data and translation pages
// share one PageStore: translation page t is stored as unit `logical_units + t`, written as
// mapping metadata (OpClass::kMapping) in the host stream, so the same
// write streams and greedy GC serve both; GC tells them apart in relocate(). GC moving a data
// unit whose entry is cached updates the entry (now dirty); one that is not cached is remembered
// until its translation page is rewritten (one read and one write per page, however many of its
// entries moved), as soon as the command's own writes are done.
//
// The translation pages' content is modelled, not just their traffic: `m_flash_entries` holds
// what the pages on flash say, and a miss loads the entry from there, so an entry lost on
// eviction reads back wrong and the oracle sees it. Like the flash itself, it is not controller
// memory and is not counted in mapping_memory_bytes(). Each copy's content token on flash is a
// digest of what it says (entry_token), so that a recovery can compare a copy with the spare
// areas without the simulator storing the entries per copy.
//
// Power loss (recovered(), docs/schemes.md): the GTD, the CMT and pending relocations are lost.
// The spare areas name every unit and translation page with a program sequence number, so a scan
// rebuilds the unit -> slot table (each unit's newest copy) and the GTD (each translation page's
// newest copy). The newest copy of a translation page may still say less than the table (dirty
// CMT entries, relocations not yet written back) or more (a unit whose newer copy was torn):
// each is read and compared with the table, and the ones that differ are written again, so
// flash, GTD and table agree when the host comes back. The CMT starts empty.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "ftl/core/mapping_scheme.h"
#include "ftl/core/page_store.h"
#include "ftl/dftl/cached_mapping_table.h"
#include "ftl/dftl/dftl_settings.h"

namespace ssd::ftl {

class Dftl final : public MappingScheme, private MappingOwner {
 public:
  explicit Dftl(const SchemeContext& context);
  // Rebuilt after a power cut from the flash alone (above), its reads and programs recorded.
  static std::unique_ptr<Dftl> recovered(const SchemeContext& context);

  void read(const HostCommand& command) override;
  void write(const HostCommand& command) override;
  void trim(const HostCommand& command) override;
  // Programs pages being assembled. The CMT stays volatile, as page mapping's table does: its
  // dirty entries can be rebuilt from the data pages' spare areas.
  void flush(const HostCommand& command) override;
  // The bulk layout of PageStore::fill_sequential with the translation pages the CMT's evictions
  // write among the data (their places follow from the cache size; dftl_fill.cpp), then the
  // state those writes leave: the GTD, the entries on flash, the CMT's last entries and which
  // are dirty. Declines where the store does, and for a cache of 4 entries or fewer (a translation
  // write every few units: command by command costs little more).
  bool fill_sequential(const SequentialFill& fill) override;
  void expect_random_work() override;
  // Loads what looking `lun` up reads first: its CMT index entry, pending relocation and entry on
  // flash, three per-unit tables, each a cache miss on a large device (preconditioning's random
  // overwrites give the hint ahead, and GC for every unit of a victim before checking them).
  void prefetch_unit(Lun lun) const override;
  // Sampled aging (ftl/core/sampled_aging.h, dftl_aged.cpp): the store's planes with the
  // translation pages' slots marked as the scheme's own, and per slot whose unit the CMT holds its
  // place in LRU order and whether it is dirty; laid out, the device's translation pages take the
  // copies of the miniature's and its CMT the units in the copies of the cached slots.
  bool describe_aged_planes(AgedPlanes& planes) const override;
  bool lay_out_aged(const AgedLayout& layout) override;
  // The CMT's entries on geometry `g` with `settings`: cache_entries, or as many as cache_bytes
  // holds, at least 1 and at most the logical units.
  static uint32_t cache_capacity(const DftlSettings& settings, const Geometry& g);

  const FtlStats& stats() const override { return m_stats; }
  // CMT entries x (unit number + slot) + GTD entries x slot.
  uint64_t mapping_memory_bytes() const override;
  // Hits / lookups of host commands during the timed run (preconditioning is not counted).
  std::optional<double> cache_hit_ratio() const override;

  // --- for tests ---
  // The unit's current mapping: the cached entry, else a relocation not yet written back, else
  // the entry on flash.
  SlotId slot_of(Lun lun) const;
  SlotId translation_slot(uint32_t tpage) const { return m_gtd[tpage]; }
  uint32_t translation_pages() const { return static_cast<uint32_t>(m_gtd.size()); }
  uint32_t entries_per_translation_page() const { return m_entries_per_tpage; }
  const CachedMappingTable& cache() const { return m_cmt; }
  const PageStore& store() const { return m_store; }
  uint64_t translation_writes() const { return m_translation_writes; }
  // The digest of what translation page `tpage` says on flash (entry_token's sum; 0 when pages
  // carry no sequence numbers, see m_digest).
  Token translation_digest(uint32_t tpage) const { return m_digest[tpage]; }
  // A translation page's content token is the sum, over its units, of entry_token(unit, slot):
  // an order-free digest that one changed entry updates in O(1); an unmapped entry adds 0.
  static Token entry_token(Lun lun, SlotId slot);

 private:
  bool maps(Lun lun, SlotId slot) const override;
  void relocate(Lun lun, SlotId from, SlotId to) override;
  void prefetch(Lun lun) const override { prefetch_unit(lun); }  // maps() reads the same

  uint32_t tpage_of(Lun lun) const { return lun / m_entries_per_tpage; }
  // Brings `lun`'s entry into the CMT (most recently used) and returns its mapping; `after` is
  // set to the translation-page read the caller's flash access must wait for, if any.
  SlotId lookup(Lun lun, OpClass op_class, uint32_t& after);
  // Rewrites translation page `tpage` with the current entries: its dirty cached entries become
  // clean and its pending relocations are applied.
  void write_back(uint32_t tpage, OpClass op_class);
  // The same once the old copy is known (read, or not needed): its program waits for `after`.
  void write_translation(uint32_t tpage, OpClass op_class, uint32_t after);
  // The content of translation page `tpage`'s next copy, from the CMT and pending relocations
  // (m_flash_entries); its dirty entries become clean, its relocations applied.
  void assemble(uint32_t tpage);
  // The units translation page `tpage` holds entries of (the last page holds fewer).
  uint32_t entries_in(uint32_t tpage) const;
  // The digest (entry_token's sum) of what m_flash_entries says for `tpage`'s units.
  Token flash_entries_digest(uint32_t tpage) const;
  // What translation page `tpage` says for `lun` on flash becomes `slot`; its digest follows.
  void set_flash_entry(uint32_t tpage, Lun lun, SlotId slot);
  // recovered()'s work on a scheme just built over the flash a cut left behind.
  void recover();
  // `lun`, not cached, is in `slot` now, and its translation page does not say so yet: the move
  // waits for the page's next write (write_back_stale at the latest).
  void pend(Lun lun, SlotId slot);
  // Rewrites the translation pages GC left stale.
  void write_back_stale();
  // Points `lun` at `slot` (kNone = unmapped), invalidating the old copy; the entry is cached.
  void remap(Lun lun, SlotId slot);
  // The CMT's changes, each noting a unit whose entry comes to differ from its page's (m_changed).
  void cache_insert(Lun lun, SlotId slot, bool dirty) {
    m_cmt.insert(lun, slot, dirty);
    if (dirty) m_changed[tpage_of(lun)].push_back(lun);
  }
  void cache_update(Lun lun, SlotId slot) {
    if (!m_cmt.dirty(lun)) m_changed[tpage_of(lun)].push_back(lun);
    m_cmt.update(lun, slot);
  }
  // Writes one whole unit of host data with content `token` (write()'s work per unit).
  void write_whole_unit(Lun lun, Token token);

  FlashBackend& m_backend;
  const Geometry& m_geometry;
  FtlStats m_stats;
  std::vector<SlotId> m_flash_entries;  // what the translation pages on flash say, see above
  // GC relocations of units not cached, until their translation page is rewritten (at most a
  // command's worth of GC victims; the list GC firmware keeps while it works).
  std::vector<SlotId> m_relocated;
  uint32_t m_slot_bytes;
  uint32_t m_entries_per_tpage;
  std::vector<SlotId> m_gtd;  // translation page -> slot, kNone = never written
  // Per translation page: the token of what m_flash_entries says. Kept only when pages carry
  // sequence numbers (the only time a copy is sealed with it and a recovery reads it); else 0.
  std::vector<Token> m_digest;
  CachedMappingTable m_cmt;
  PageStore m_store;
  std::vector<uint32_t> m_stale;  // translation pages GC left stale, each once
  std::vector<bool> m_is_stale;
  // Per translation page, its units whose entry may say other than the page: dirty in the CMT or
  // moved by GC while not cached, each listed when it became so (one may be listed twice).
  // assemble() visits these, not the page's every entry: a clean cached entry says what its page
  // says (it was read from there, or the page was last written from it), so only these change it.
  std::vector<std::vector<Lun>> m_changed;
  uint64_t m_translation_writes = 0;
  uint64_t m_hits = 0;
  uint64_t m_lookups = 0;
};

}  // namespace ssd::ftl
