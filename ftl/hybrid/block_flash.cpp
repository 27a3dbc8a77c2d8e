#include "ftl/hybrid/block_flash.h"

#include <algorithm>
#include <stdexcept>

#include "config/capacity.h"

namespace ssd::ftl {

BlockFlash::BlockFlash(const config::PlatformConfig& platform, FlashBackend& backend,
                       FtlStats& stats, bool page_sequence)
    : m_backend(backend),
      m_geometry(backend.geometry()),
      m_stats(stats),
      m_blocks(backend.geometry(), config::gc_reserve_blocks_per_plane(platform)),
      m_copyback(platform.nand.copyback),
      m_sequenced(backend.flash().spare_words_per_page() >= kSpareWords + kRecoverySpareWords),
      m_page_sequenced(page_sequence && backend.flash().spare_words_per_page() >=
                                            kSpareWords + kRecoverySpareWords + kPageSequenceWords),
      m_allocated(m_sequenced ? backend.geometry().blocks() : 0, 0) {}

uint32_t BlockFlash::erase(BlockId block, uint32_t after) {
  const uint32_t op = m_backend.erase(block, OpClass::kGc, after);
  m_blocks.release_block(block);
  ++m_stats.gc_erases;
  return op;
}

void BlockFlash::skip_to(BlockId block, uint32_t offset) {
  FlashArray& flash = m_backend.flash();
  for (uint32_t p = flash.write_pointer(block); p < offset; ++p) {
    // Left erased: nothing crosses the channel and no time passes. Marked complete in the
    // power-loss journal at once, since there is nothing a power cut could interrupt.
    const uint64_t entry = flash.journal_next_entry();
    flash.program(page(block, p), nullptr, nullptr);
    if (flash.journal_on()) flash.journal_complete(entry, 0);
  }
}

uint32_t BlockFlash::program(BlockId block, uint32_t offset, Lun lun, Token token, OpClass op_class,
                             uint32_t after, OpClass written_as) {
  skip_to(block, offset);
  uint32_t spare[kSpareWords + kRecoverySpareWords + kPageSequenceWords] = {};
  spare_of(block, lun, spare);
  return m_backend.program(page(block, offset), &token, spare, op_class, after,
                           ProgramUnits::all(written_as, 1));
}

void BlockFlash::program_in_bulk(BlockId block, Lun first_lun, uint32_t pages,
                                 const std::function<Token(Lun)>& token) {
  if (m_sequenced) throw std::logic_error("bulk program of sequenced pages");
  FlashArray& flash = m_backend.flash();
  const uint32_t words = flash.spare_words_per_page();
  uint32_t* spare = flash.spare_to_fill(page(block, 0), pages);
  Token* tokens = flash.tokens_to_fill(page(block, 0));  // one unit per page
  for (uint32_t p = 0; p < pages; ++p) {
    spare[uint64_t(p) * words] =
        first_lun + p;  // the other words stay 0, as spare_of() leaves them
    if (tokens != nullptr) tokens[p] = token(first_lun + p);
  }
  flash.program_in_bulk(block, pages);
  m_backend.count_written_in_bulk(OpClass::kHostWrite, pages);
}

bool BlockFlash::same_plane(PageId page, BlockId block) const {
  return m_geometry.plane_of_block(m_geometry.block_of_page(page)) ==
         m_geometry.plane_of_block(block);
}

uint32_t BlockFlash::copy_back(PageId from, BlockId to, uint32_t offset, Lun lun) {
  skip_to(to, offset);
  uint32_t spare[kSpareWords + kRecoverySpareWords + kPageSequenceWords] = {};
  spare_of(to, lun, spare);
  const Token data = token(from);
  return m_backend.copy_back(from, page(to, offset), &data, spare, OpClass::kGc, kNone,
                             ProgramUnits::all(OpClass::kGc, 1));
}

uint32_t BlockFlash::fill(BlockId to, uint32_t first_offset, Lun first_lun,
                          const std::function<MergeSource(uint32_t offset)>& source) {
  m_sources.clear();
  uint32_t end = first_offset;  // one past the last offset with data
  for (uint32_t offset = first_offset; offset < m_geometry.pages_per_block; ++offset) {
    m_sources.push_back(source(offset));
    if (m_sources.back().kind != MergeSource::Kind::kEmpty) end = offset + 1;
  }
  uint32_t last = kNone;
  m_source_blocks.clear();
  for (uint32_t offset = first_offset; offset < end; ++offset) {
    const MergeSource& s = m_sources[offset - first_offset];
    const Lun lun = first_lun + offset;
    if (s.kind == MergeSource::Kind::kCopy) {
      const BlockId from = m_geometry.block_of_page(s.from);
      if (from != to && std::find(m_source_blocks.begin(), m_source_blocks.end(), from) ==
                            m_source_blocks.end()) {
        m_source_blocks.push_back(from);
      }
    }
    if (s.kind == MergeSource::Kind::kCopy && m_copyback && same_plane(s.from, to)) {
      last = copy_back(s.from, to, offset, lun);
      ++m_stats.gc_units_copied;
    } else if (s.kind == MergeSource::Kind::kCopy) {
      const uint32_t read_op = read(s.from, OpClass::kGc);
      last = program(to, offset, lun, token(s.from), OpClass::kGc, read_op);
      ++m_stats.gc_units_copied;
    } else if (s.kind == MergeSource::Kind::kNew) {
      last = program(to, offset, lun, s.token, OpClass::kGc, s.after, OpClass::kHostWrite);
    }
  }
  // The block's programs complete in order: once the last has, every copy is on flash.
  for (const BlockId from : m_source_blocks) note_supersedes(last, from);
  return last;
}

}  // namespace ssd::ftl
