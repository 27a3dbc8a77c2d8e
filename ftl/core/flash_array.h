// The functional state of the NAND array: which pages of each block are programmed, the spare
// words each scheme keeps per page, the content token of every mapping-unit slot (when the
// integrity oracle is on) and per-block erase counts. It enforces the NAND rules an FTL can break:
// pages of a block are programmed in order, once, and only an erase makes them writable again.
//
// Power loss: with the journal on, every program and erase is remembered until the timed models
// report it complete; power_cut(t) undoes, newest first, whatever had not completed by t, so only
// completed operations survive. One whose array operation had started by t is torn instead: a torn
// program leaves its page consumed and unreadable (ECC fails: its spare words and tokens are
// garbage), a torn erase leaves the block neither erased nor intact (every page unreadable, no page
// programmable) until it is erased again. The journal costs nothing when off.
//
// Writes to NVRAM are journaled here too (journal_memory_write), in the same order as the flash
// operations they depend on, so that a cut undoes them with the rest: NVRAM keeps what was
// written to it before the cut. An NVRAM write is never torn: the part commits a write whole
// (our choice; byte-addressable NVRAM with a power-fail-safe write is what controllers use).
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <set>
#include <unordered_map>
#include <utility>
#include <vector>

#include "ftl/core/geometry.h"
#include "ftl/core/prefaulted_allocator.h"
#include "ftl/core/spare_area.h"
#include "ftl/core/types.h"

namespace ssd::ftl {

class FlashArray {
 public:
  // `spare_words_per_page`: how many 32-bit spare words the scheme keeps per page (the rest of
  // the spare area is ECC and unused bytes, not stored). Erased flash reads as all ones (kNone).
  FlashArray(const Geometry& geometry, uint32_t spare_words_per_page, bool store_tokens);

  const Geometry& geometry() const { return m_geometry; }
  uint32_t spare_words_per_page() const { return m_spare_words; }
  bool stores_tokens() const { return m_store_tokens; }

  // Programs `page`, which must be the next free page of its block. `tokens` has units_per_page
  // entries and `spare` spare_words_per_page entries; either may be null (left erased).
  // Throws std::logic_error on a NAND rule violation: that is a bug in the calling FTL.
  void program(PageId page, const Token* tokens, const uint32_t* spare);
  void erase(BlockId block);
  // A sequential fill in bulk (MappingScheme::fill_sequential): `block`, erased and never
  // programmed since, takes `pages` pages at once, whose spare words and tokens the caller
  // writes in place (spare_to_fill, tokens_to_fill), as `pages` program() calls would have.
  // Journal off only (a bulk fill is no operation a cut could undo).
  void program_in_bulk(BlockId block, uint32_t pages);
  // The same with the spare words of SpareArea::SequentialLayout (set_sequential_layout()
  // first), which are then not written until something reads them (spare_area.h).
  void program_in_bulk_by_layout(BlockId block, uint32_t pages);
  // Sampled aging (sampled_aging.h): `block` was erased `count` times in the life the layout
  // gives it. Journal off only, as program_in_bulk.
  void set_erase_count_in_bulk(BlockId block, uint32_t count);
  void set_sequential_layout(SpareArea::SequentialLayout layout) {
    m_spare.set_layout(std::move(layout));
  }
  // program_in_bulk_by_layout() takes the words from `writer` (SpareArea::LayoutWriter) instead.
  void set_spare_layout_writer(SpareArea::LayoutWriter writer) {
    m_spare.set_layout_writer(std::move(writer));
  }
  // The spare words of `pages` pages from `page` on (across blocks), to be written in place.
  uint32_t* spare_to_fill(PageId page, uint64_t pages) { return m_spare.write_range(page, pages); }
  Token* tokens_to_fill(PageId page) {  // nullptr when tokens are not stored
    return m_store_tokens ? &m_tokens[m_geometry.first_slot(page)] : nullptr;
  }

  uint32_t write_pointer(BlockId block) const { return m_write_pointer[block]; }
  bool is_programmed(PageId page) const {
    return m_geometry.page_in_block(page) < m_write_pointer[m_geometry.block_of_page(page)];
  }
  Token token(SlotId slot) const { return m_store_tokens ? m_tokens[slot] : 0; }
  const uint32_t* spare(PageId page) const { return m_spare.read(page); }
  // The most blocks whose spare words were in memory at once (SpareArea::peak_blocks_in_memory).
  uint64_t spare_peak_blocks_in_memory() const { return m_spare.peak_blocks_in_memory(); }
  uint32_t erase_count(BlockId block) const { return m_erase_count[block]; }
  // Words a scheme keeps in a page's data area beside the units' tokens, for content finer than a
  // unit (the sector log's sectors, ftl/sector_log/): given right after the page's program, kept
  // only for pages that have some, and erased, undone and torn with the page. nullptr: none.
  void set_data_words(PageId page, std::vector<uint32_t> words);
  const std::vector<uint32_t>* data_words(PageId page) const {
    if (m_data_words.empty()) return nullptr;
    const auto found = m_data_words.find(page);
    return found == m_data_words.end() ? nullptr : &found->second;
  }
  // Whether `page` reads back (its ECC corrects it): false for a page a power cut tore, or any page
  // of a block whose erase it tore. Erased pages read (as all ones).
  bool readable(PageId page) const {
    if (m_torn_pages.empty() && m_torn_blocks.empty()) return true;
    return m_torn_pages.count(page) == 0 &&
           m_torn_blocks.count(m_geometry.block_of_page(page)) == 0;
  }
  // Whether a power cut tore the erase of `block` (it must be erased before use).
  bool erase_torn(BlockId block) const { return m_torn_blocks.count(block) != 0; }

  // Power-loss journal. Entries are numbered from 0 in the order operations were applied.
  void set_journal(bool on) { m_journal_on = on; }
  bool journal_on() const { return m_journal_on; }
  uint64_t journal_next_entry() const { return m_journal_base + m_journal.size(); }
  // The models say when operation `entry` finished, and when its array operation (the program or
  // erase itself, after its command and data transfer) started: a cut between the two tears it.
  // Without `array_start`, a cut before `done` finds it not started.
  void journal_complete(uint64_t entry, Picoseconds done, Picoseconds array_start = kNotDone);
  void journal_retire(Picoseconds now);  // forget operations completed by `now`
  // Journals a write to memory that survives a cut (NVRAM) just applied by its owner; `undo`
  // puts back what it overwrote, if a cut comes before it completes. Journal on only.
  void journal_memory_write(std::function<void()> undo);
  // Entries below this one are retired: their operations completed and no cut can undo them.
  uint64_t journal_retired_below() const { return m_journal_base; }
  // Operations journaled and not retired yet (what the journal holds in memory).
  size_t journal_size() const { return m_journal.size(); }

  struct CutResult {
    uint64_t undone = 0;         // operations that had not started: as if never issued
    uint64_t torn_programs = 0;  // pages left unreadable
    uint64_t torn_erases = 0;    // blocks left neither erased nor intact
  };
  // Undoes every journaled operation not completed by `cut`, tearing the ones in their array
  // operation at `cut`, and empties the journal.
  CutResult power_cut(Picoseconds cut);
  static constexpr Picoseconds kNotDone = ~Picoseconds{0};

 private:
  enum class Kind : uint8_t { kProgram, kErase, kMemoryWrite };
  struct JournalEntry {
    Kind kind;
    BlockId block;
    Picoseconds done;
    Picoseconds array_start;
    // Erases keep the block as it was: write pointer, erase count, spare words and tokens, and
    // what an earlier cut had torn in it.
    uint32_t old_write_pointer;
    std::vector<uint32_t> old_spare;
    std::vector<Token> old_tokens;
    bool old_erase_torn = false;
    std::vector<PageId> old_torn_pages;
    std::function<void()> undo_memory;  // kMemoryWrite
    // Erases: the data words of the block's pages (set_data_words).
    std::vector<std::pair<PageId, std::vector<uint32_t>>> old_data_words = {};
  };
  void journal_program(BlockId block);
  void journal_erase(BlockId block);
  void undo(const JournalEntry& entry);
  void clear_page(PageId page);
  void clear_tokens_and_data_words(PageId page);
  // What a reader of a torn page gets: words and tokens no scheme wrote.
  void garble_page(PageId page);
  void tear_program(const JournalEntry& entry);
  void tear_erase(const JournalEntry& entry);

  Geometry m_geometry;
  uint32_t m_spare_words;
  bool m_store_tokens;
  std::vector<uint16_t> m_write_pointer;  // next free page per block
  std::vector<uint32_t> m_erase_count;
  SpareArea m_spare;
  std::vector<Token, PrefaultedAllocator<Token>> m_tokens;
  std::unordered_map<PageId, std::vector<uint32_t>> m_data_words;  // set_data_words()

  bool m_journal_on = false;
  std::deque<JournalEntry> m_journal;
  uint64_t m_journal_base = 0;  // entry number of m_journal.front()
  // Torn by power cuts and not erased since: few (at most one operation per die and cut).
  std::set<PageId> m_torn_pages;
  std::set<BlockId> m_torn_blocks;
};

}  // namespace ssd::ftl
