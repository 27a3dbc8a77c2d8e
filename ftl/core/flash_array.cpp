#include "ftl/core/flash_array.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace ssd::ftl {

FlashArray::FlashArray(const Geometry& geometry, uint32_t spare_words_per_page, bool store_tokens)
    : m_geometry(geometry),
      m_spare_words(spare_words_per_page),
      m_store_tokens(store_tokens),
      m_write_pointer(geometry.blocks(), 0),
      m_erase_count(geometry.blocks(), 0),
      m_spare(geometry, spare_words_per_page),
      m_tokens(store_tokens ? geometry.slots() : 0, 0) {
  if (uint64_t(spare_words_per_page) * 4 > geometry.spare_bytes) {
    throw std::invalid_argument(
        "the mapping scheme needs " + std::to_string(spare_words_per_page * 4) +
        " spare bytes per page but the flash has " + std::to_string(geometry.spare_bytes));
  }
}

void FlashArray::program(PageId page, const Token* tokens, const uint32_t* spare) {
  const BlockId block = m_geometry.block_of_page(page);
  const uint32_t offset = m_geometry.page_in_block(page);
  if (offset != m_write_pointer[block]) {
    throw std::logic_error("NAND rule broken: program of page " + std::to_string(offset) +
                           " of block " + std::to_string(block) + " whose next free page is " +
                           std::to_string(m_write_pointer[block]));
  }
  if (m_journal_on) journal_program(block);
  m_write_pointer[block] = static_cast<uint16_t>(offset + 1);
  if (spare) std::copy_n(spare, m_spare_words, m_spare.write(page));
  if (m_store_tokens && tokens) {
    std::copy_n(tokens, m_geometry.units_per_page, &m_tokens[m_geometry.first_slot(page)]);
  }
}

void FlashArray::program_in_bulk(BlockId block, uint32_t pages) {
  if (m_journal_on || m_write_pointer[block] != 0 || pages > m_geometry.pages_per_block) {
    throw std::logic_error("bulk program of " + std::to_string(pages) + " pages of block " +
                           std::to_string(block) + ": only into an erased block, journal off");
  }
  m_write_pointer[block] = static_cast<uint16_t>(pages);
}

void FlashArray::set_erase_count_in_bulk(BlockId block, uint32_t count) {
  if (m_journal_on) {
    throw std::logic_error("bulk erase count of block " + std::to_string(block) +
                           ": journal off only");
  }
  m_erase_count[block] = count;
}

void FlashArray::program_in_bulk_by_layout(BlockId block, uint32_t pages) {
  program_in_bulk(block, pages);
  m_spare.fill_by_layout(block, pages);
}

void FlashArray::erase(BlockId block) {
  if (m_journal_on) journal_erase(block);
  const PageId first = m_geometry.first_page(block);
  for (uint32_t p = 0; p < m_write_pointer[block]; ++p) clear_tokens_and_data_words(first + p);
  m_spare.erase(block);
  m_write_pointer[block] = 0;
  ++m_erase_count[block];
  if (!m_torn_pages.empty()) {
    m_torn_pages.erase(m_torn_pages.lower_bound(first),
                       m_torn_pages.lower_bound(first + m_geometry.pages_per_block));
  }
  m_torn_blocks.erase(block);
}

void FlashArray::set_data_words(PageId page, std::vector<uint32_t> words) {
  if (!is_programmed(page)) {
    throw std::logic_error("data words for page " + std::to_string(page) +
                           ", which is not programmed");
  }
  m_data_words[page] = std::move(words);
}

void FlashArray::clear_page(PageId page) {
  std::fill_n(m_spare.write(page), m_spare_words, kNone);
  clear_tokens_and_data_words(page);
}

void FlashArray::clear_tokens_and_data_words(PageId page) {
  if (!m_data_words.empty()) m_data_words.erase(page);
  if (m_store_tokens)
    std::fill_n(&m_tokens[m_geometry.first_slot(page)], m_geometry.units_per_page, 0);
}

void FlashArray::garble_page(PageId page) {
  // Deterministic garbage: the same cut gives the same report.
  uint64_t x = 0x9e3779b97f4a7c15ull * (page + 1);
  const auto next = [&x] {
    x ^= x >> 29;
    x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 32;
    return static_cast<uint32_t>(x);
  };
  uint32_t* spare = m_spare.write(page);
  for (uint32_t w = 0; w < m_spare_words; ++w) spare[w] = next();
  if (!m_data_words.empty()) {
    const auto found = m_data_words.find(page);
    if (found != m_data_words.end()) {
      for (uint32_t& word : found->second) word = next();
    }
  }
  if (m_store_tokens) {
    Token* tokens = &m_tokens[m_geometry.first_slot(page)];
    for (uint32_t u = 0; u < m_geometry.units_per_page; ++u) tokens[u] = next() | 1u;
  }
}

void FlashArray::journal_program(BlockId block) {
  m_journal.push_back(JournalEntry{
      Kind::kProgram, block, kNotDone, kNotDone, m_write_pointer[block], {}, {}, false, {}, {}});
}

void FlashArray::journal_memory_write(std::function<void()> undo) {
  m_journal.push_back(JournalEntry{
      Kind::kMemoryWrite, 0, kNotDone, kNotDone, 0, {}, {}, false, {}, std::move(undo)});
}

void FlashArray::journal_erase(BlockId block) {
  JournalEntry entry{Kind::kErase, block, kNotDone, kNotDone, m_write_pointer[block],
                     {},           {},    false,    {},       {}};
  const PageId first = m_geometry.first_page(block);
  entry.old_erase_torn = m_torn_blocks.count(block) != 0;
  for (auto it = m_torn_pages.lower_bound(first);
       it != m_torn_pages.end() && *it < first + m_geometry.pages_per_block; ++it) {
    entry.old_torn_pages.push_back(*it);
  }
  const uint32_t* spare_begin = m_spare.read(first);  // the block's, page after page
  entry.old_spare.assign(spare_begin,
                         spare_begin + uint64_t(m_geometry.pages_per_block) * m_spare_words);
  if (m_store_tokens) {
    const auto token_begin = m_tokens.begin() + m_geometry.first_slot(first);
    entry.old_tokens.assign(token_begin, token_begin + uint64_t(m_geometry.pages_per_block) *
                                                           m_geometry.units_per_page);
  }
  if (!m_data_words.empty()) {
    for (uint32_t p = 0; p < m_write_pointer[block]; ++p) {
      const auto found = m_data_words.find(first + p);
      if (found != m_data_words.end()) entry.old_data_words.emplace_back(*found);
    }
  }
  m_journal.push_back(std::move(entry));
}

void FlashArray::journal_complete(uint64_t entry, Picoseconds done, Picoseconds array_start) {
  if (entry < m_journal_base) return;  // already retired
  JournalEntry& journaled = m_journal[entry - m_journal_base];
  journaled.done = done;
  journaled.array_start = array_start;
}

void FlashArray::journal_retire(Picoseconds now) {
  while (!m_journal.empty() && m_journal.front().done <= now) {
    m_journal.pop_front();
    ++m_journal_base;
  }
}

FlashArray::CutResult FlashArray::power_cut(Picoseconds cut) {
  CutResult result;
  // Newest first: an operation's block is back as it found it before an older one is looked at
  // (the timing runs a block's operations in the order they were issued).
  for (auto it = m_journal.rbegin(); it != m_journal.rend(); ++it) {
    if (it->done <= cut) continue;
    if (it->kind == Kind::kMemoryWrite) {  // never torn: undone unless complete
      it->undo_memory();
      ++result.undone;
    } else if (it->array_start > cut) {
      undo(*it);
      ++result.undone;
    } else if (it->kind == Kind::kErase) {
      tear_erase(*it);
      ++result.torn_erases;
    } else {
      tear_program(*it);
      ++result.torn_programs;
    }
  }
  m_journal_base += m_journal.size();
  m_journal.clear();
  return result;
}

void FlashArray::tear_program(const JournalEntry& entry) {
  undo(entry);  // the page is the block's next free one again; now consume it, unreadable
  const PageId page = m_geometry.first_page(entry.block) + entry.old_write_pointer;
  m_write_pointer[entry.block] = static_cast<uint16_t>(entry.old_write_pointer + 1);
  garble_page(page);
  m_torn_pages.insert(page);
}

void FlashArray::tear_erase(const JournalEntry& entry) {
  undo(entry);
  // The erase pulse was applied (it wears the block) but did not finish: no page reads, and the
  // block takes no program until a complete erase.
  ++m_erase_count[entry.block];
  const PageId first = m_geometry.first_page(entry.block);
  for (uint32_t p = 0; p < m_geometry.pages_per_block; ++p) garble_page(first + p);
  m_write_pointer[entry.block] = static_cast<uint16_t>(m_geometry.pages_per_block);
  m_torn_blocks.insert(entry.block);
}

void FlashArray::undo(const JournalEntry& entry) {
  const PageId first = m_geometry.first_page(entry.block);
  if (entry.kind == Kind::kProgram) {
    // Newest first, so the page this program wrote is the block's last programmed one.
    clear_page(first + entry.old_write_pointer);
    m_write_pointer[entry.block] = static_cast<uint16_t>(entry.old_write_pointer);
    return;
  }
  std::copy(entry.old_spare.begin(), entry.old_spare.end(), m_spare.write(first));
  if (m_store_tokens) {
    std::copy(entry.old_tokens.begin(), entry.old_tokens.end(),
              m_tokens.begin() + m_geometry.first_slot(first));
  }
  for (const auto& [page, words] : entry.old_data_words) m_data_words[page] = words;
  m_write_pointer[entry.block] = static_cast<uint16_t>(entry.old_write_pointer);
  --m_erase_count[entry.block];
  if (entry.old_erase_torn) m_torn_blocks.insert(entry.block);
  m_torn_pages.insert(entry.old_torn_pages.begin(), entry.old_torn_pages.end());
}

}  // namespace ssd::ftl
