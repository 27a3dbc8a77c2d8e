// The functional state of the NAND array: which pages of each block are programmed, the spare
// words each scheme keeps per page, the content token of every mapping-unit slot (when the
// integrity oracle is on) and per-block erase counts. It enforces the NAND rules an FTL can break:
// pages of a block are programmed in order, once, and only an erase makes them writable again.
//
// Power loss: with the journal on, every program and erase is remembered until the timed models
// report it complete; power_cut(t) undoes, newest first, whatever had not completed by t, so only
// completed operations survive. The journal costs nothing when off.
#pragma once

#include <cstdint>
#include <deque>
#include <vector>

#include "ftl/core/geometry.h"
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

  uint32_t write_pointer(BlockId block) const { return m_write_pointer[block]; }
  bool is_programmed(PageId page) const {
    return m_geometry.page_in_block(page) < m_write_pointer[m_geometry.block_of_page(page)];
  }
  Token token(SlotId slot) const { return m_store_tokens ? m_tokens[slot] : 0; }
  const uint32_t* spare(PageId page) const { return &m_spare[uint64_t(page) * m_spare_words]; }
  uint32_t erase_count(BlockId block) const { return m_erase_count[block]; }

  // Power-loss journal. Entries are numbered from 0 in the order operations were applied.
  void set_journal(bool on) { m_journal_on = on; }
  bool journal_on() const { return m_journal_on; }
  uint64_t journal_next_entry() const { return m_journal_base + m_journal.size(); }
  void journal_complete(uint64_t entry, Picoseconds done);  // the models say when it finished
  void journal_retire(Picoseconds now);                     // forget operations completed by `now`
  // Undoes every journaled operation not completed by `cut`; returns how many were undone.
  uint64_t power_cut(Picoseconds cut);

 private:
  struct JournalEntry {
    bool is_erase;
    BlockId block;
    Picoseconds done;
    // Erases keep the block as it was: write pointer, erase count, spare words and tokens.
    uint32_t old_write_pointer;
    std::vector<uint32_t> old_spare;
    std::vector<Token> old_tokens;
  };
  void journal_program(BlockId block);
  void journal_erase(BlockId block);
  void undo(const JournalEntry& entry);
  void clear_page(PageId page);

  Geometry m_geometry;
  uint32_t m_spare_words;
  bool m_store_tokens;
  std::vector<uint16_t> m_write_pointer;  // next free page per block
  std::vector<uint32_t> m_erase_count;
  std::vector<uint32_t> m_spare;
  std::vector<Token> m_tokens;

  bool m_journal_on = false;
  std::deque<JournalEntry> m_journal;
  uint64_t m_journal_base = 0;  // entry number of m_journal.front()
};

}  // namespace ssd::ftl
