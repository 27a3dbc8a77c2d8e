#include "ftl/core/flash_array.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace ssd::ftl {

namespace {
constexpr Picoseconds kNotDone = ~Picoseconds{0};
}

FlashArray::FlashArray(const Geometry& geometry, uint32_t spare_words_per_page, bool store_tokens)
    : m_geometry(geometry),
      m_spare_words(spare_words_per_page),
      m_store_tokens(store_tokens),
      m_write_pointer(geometry.blocks(), 0),
      m_erase_count(geometry.blocks(), 0),
      m_spare(geometry.pages() * spare_words_per_page, kNone),
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
  if (spare) std::copy_n(spare, m_spare_words, &m_spare[uint64_t(page) * m_spare_words]);
  if (m_store_tokens && tokens) {
    std::copy_n(tokens, m_geometry.units_per_page, &m_tokens[m_geometry.first_slot(page)]);
  }
}

void FlashArray::erase(BlockId block) {
  if (m_journal_on) journal_erase(block);
  const PageId first = m_geometry.first_page(block);
  for (uint32_t p = 0; p < m_write_pointer[block]; ++p) clear_page(first + p);
  m_write_pointer[block] = 0;
  ++m_erase_count[block];
}

void FlashArray::clear_page(PageId page) {
  std::fill_n(&m_spare[uint64_t(page) * m_spare_words], m_spare_words, kNone);
  if (m_store_tokens)
    std::fill_n(&m_tokens[m_geometry.first_slot(page)], m_geometry.units_per_page, 0);
}

void FlashArray::journal_program(BlockId block) {
  m_journal.push_back(JournalEntry{false, block, kNotDone, m_write_pointer[block], {}, {}});
}

void FlashArray::journal_erase(BlockId block) {
  JournalEntry entry{true, block, kNotDone, m_write_pointer[block], {}, {}};
  const PageId first = m_geometry.first_page(block);
  const auto spare_begin = m_spare.begin() + uint64_t(first) * m_spare_words;
  entry.old_spare.assign(spare_begin,
                         spare_begin + uint64_t(m_geometry.pages_per_block) * m_spare_words);
  if (m_store_tokens) {
    const auto token_begin = m_tokens.begin() + m_geometry.first_slot(first);
    entry.old_tokens.assign(token_begin, token_begin + uint64_t(m_geometry.pages_per_block) *
                                                           m_geometry.units_per_page);
  }
  m_journal.push_back(std::move(entry));
}

void FlashArray::journal_complete(uint64_t entry, Picoseconds done) {
  if (entry < m_journal_base) return;  // already retired
  m_journal[entry - m_journal_base].done = done;
}

void FlashArray::journal_retire(Picoseconds now) {
  while (!m_journal.empty() && m_journal.front().done <= now) {
    m_journal.pop_front();
    ++m_journal_base;
  }
}

uint64_t FlashArray::power_cut(Picoseconds cut) {
  uint64_t undone = 0;
  for (auto it = m_journal.rbegin(); it != m_journal.rend(); ++it) {
    if (it->done > cut) {
      undo(*it);
      ++undone;
    }
  }
  m_journal_base += m_journal.size();
  m_journal.clear();
  return undone;
}

void FlashArray::undo(const JournalEntry& entry) {
  const PageId first = m_geometry.first_page(entry.block);
  if (!entry.is_erase) {
    // Newest first, so the page this program wrote is the block's last programmed one.
    clear_page(first + entry.old_write_pointer);
    m_write_pointer[entry.block] = static_cast<uint16_t>(entry.old_write_pointer);
    return;
  }
  std::copy(entry.old_spare.begin(), entry.old_spare.end(),
            m_spare.begin() + uint64_t(first) * m_spare_words);
  if (m_store_tokens) {
    std::copy(entry.old_tokens.begin(), entry.old_tokens.end(),
              m_tokens.begin() + m_geometry.first_slot(first));
  }
  m_write_pointer[entry.block] = static_cast<uint16_t>(entry.old_write_pointer);
  --m_erase_count[entry.block];
}

}  // namespace ssd::ftl
