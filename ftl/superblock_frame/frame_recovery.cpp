#include "ftl/superblock_frame/frame_recovery.h"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

namespace ssd::ftl {

FrameRecovery::FrameRecovery(SuperblockFrame& frame)
    : m_frame(frame), m_backend(frame.m_backend), m_geometry(frame.m_geometry) {
  m_newest.assign(m_geometry.logical_units, kNone);
  m_emptied.assign(m_geometry.logical_units, kNone);
  m_head.assign(frame.logical_blocks(), kNone);
  m_block_superblock.assign(m_geometry.blocks(), kNone);
  m_block_first.assign(m_geometry.blocks(), 0);
}

void FrameRecovery::run() {
  for (BlockId b = 0; b < m_geometry.blocks(); ++b) scan_block(b);
  m_frame.m_sequence = m_highest;  // the copies below are newer than anything read
  take_blocks();
  // Every map is read before anything is written: the reads of all dies go in parallel, and a
  // cut during the writes finds every map as the scan did.
  std::vector<uint32_t> rewritten;
  for (uint32_t sb = 0; sb < m_frame.superblock_count(); ++sb) check_maps(sb, rewritten);
  auto next = rewritten.begin();
  for (uint32_t sb = 0; sb < m_frame.superblock_count(); ++sb) {
    auto end = next;
    while (end != rewritten.end() && m_frame.superblock_of(*end) == sb) ++end;
    repair(sb, std::vector<uint32_t>(next, end));
    next = end;
  }
  m_frame.clear_cache();
  m_frame.m_lent_to_merges.clear();
  // Recovery's copies and erases are its own (power.recovery_operations), not GC's.
  m_frame.m_stats = FtlStats{};
  m_frame.m_counters = SuperblockFrame::Counters{};
  std::fill(m_frame.m_victim_free_pages.begin(), m_frame.m_victim_free_pages.end(), 0);
  m_frame.reset_figures();
}

void FrameRecovery::scan_block(BlockId block) {
  const FlashArray& flash = m_backend.flash();
  if (flash.erase_torn(block)) {
    m_backend.erase(block, OpClass::kMapping);  // neither erased nor intact: erased again
    m_backend.end_batch();
    return;
  }
  for (uint32_t p = 0; p < flash.write_pointer(block); ++p) {
    const PageId page = m_geometry.first_page(block) + p;
    m_backend.read_spare(page, m_frame.m_spare_bytes, OpClass::kMapping);
    if (!flash.readable(page)) continue;  // torn: its ECC fails
    ++m_backend.cpu().table_lookups;
    const Lun lpn = m_frame.di_lpn(page);
    if (lpn >= m_geometry.logical_units) {
      throw std::logic_error(m_frame.m_scheme + " recovery: page " + std::to_string(page) +
                             " names logical page " + std::to_string(lpn));
    }
    const uint64_t sequence = m_frame.di_sequence(page);
    const uint32_t lbn = m_frame.lbn_of(lpn);
    const uint32_t sb = m_frame.superblock_of(lbn);
    if (m_block_superblock[block] == kNone) {
      m_block_superblock[block] = sb;
      m_block_first[block] = sequence;
    } else if (m_block_superblock[block] != sb) {
      throw std::logic_error(m_frame.m_scheme + " recovery: block " + std::to_string(block) +
                             " holds pages of two superblocks");
    }
    PageId& newest = m_newest[lpn];
    if (newest == kNone || sequence > m_frame.di_sequence(newest)) newest = page;
    m_frame.recorded_empty(page, m_offsets);
    for (uint32_t offset : m_offsets) {
      const Lun lun = m_frame.first_lun(lbn) + offset;
      if (offset >= m_frame.units_in(lbn)) continue;
      PageId& emptied = m_emptied[lun];
      if (emptied == kNone || sequence > m_frame.di_sequence(emptied)) emptied = page;
    }
    PageId& head = m_head[lbn];
    if (m_frame.heads_map(page) && (head == kNone || sequence > m_frame.di_sequence(head))) {
      head = page;
    }
    m_highest = std::max(m_highest, sequence);
  }
  m_backend.end_batch();
}

void FrameRecovery::take_blocks() {
  // Blocks with programmed pages are taken, the others free (their pools in block order).
  m_frame.m_flash.blocks().rebuild(m_backend.flash());
  std::vector<std::pair<uint64_t, BlockId>> first_written;
  for (BlockId b = 0; b < m_geometry.blocks(); ++b) {
    if (m_block_superblock[b] != kNone) {
      first_written.push_back({m_block_first[b], b});
    } else if (m_backend.flash().write_pointer(b) > 0) {
      m_frame.m_flash.erase(b, kNone);  // torn pages only: nothing to keep
      ++m_frame.m_recovery_work.dead_blocks_erased;
      m_backend.end_batch();
    }
  }
  // Each superblock's blocks, oldest first, as it took them.
  std::sort(first_written.begin(), first_written.end());
  for (const auto& [sequence, block] : first_written) {
    const uint32_t sb = m_block_superblock[block];
    m_frame.m_superblocks[sb].push_back(block);
    m_frame.m_owner[block] = sb;
  }
  m_frame.recount_pages();  // programmed pages; none live until a map says so
}

void FrameRecovery::check_maps(uint32_t sb, std::vector<uint32_t>& rewritten) {
  const uint32_t first = sb * m_frame.m_superblock_blocks;
  const uint32_t end = std::min(first + m_frame.m_superblock_blocks, m_frame.logical_blocks());
  for (uint32_t lbn = first; lbn < end; ++lbn) {
    if (!has_copy(lbn)) continue;
    CacheEntry& e = take_entry(lbn);
    if (map_is_newest(lbn, e)) {
      m_frame.set_pgd(lbn, m_head[lbn]);
    } else {
      newest_map(lbn, e);
      rewritten.push_back(lbn);
      ++m_frame.m_recovery_work.maps_rewritten;
    }
    account(e);
    give_back(e);
    m_backend.end_batch();
  }
}

void FrameRecovery::repair(uint32_t sb, const std::vector<uint32_t>& rewritten) {
  erase_dead_blocks(sb);
  const std::vector<BlockId> victims = make_room(sb, rewritten);
  // What moves: the rewritten maps, and every logical block with a page kept in a victim.
  std::vector<uint32_t> moving = rewritten;
  for (BlockId victim : victims) {
    for (uint32_t p = 0; p < m_frame.written(victim); ++p) {
      const PageId page = m_geometry.first_page(victim) + p;
      if (m_backend.flash().readable(page)) moving.push_back(m_frame.lbn_of(m_frame.di_lpn(page)));
    }
  }
  std::sort(moving.begin(), moving.end());
  moving.erase(std::unique(moving.begin(), moving.end()), moving.end());
  uint32_t last_program = kNone;
  for (uint32_t lbn : moving) {
    const bool rewrite_map = std::binary_search(rewritten.begin(), rewritten.end(), lbn);
    const uint32_t program = relocate(lbn, rewrite_map, victims);
    if (program != kNone) last_program = program;
    // A victim's erase must wait for its copies: they stay in one batch with it.
    if (victims.empty()) m_backend.end_batch();
  }
  for (BlockId victim : victims) {
    if (m_frame.live(victim) != 0) {
      throw std::logic_error(m_frame.m_scheme + " recovery: block " + std::to_string(victim) +
                             " keeps live pages after its compaction");
    }
    m_frame.m_flash.erase(victim, last_program);
  }
  m_backend.end_batch();
  // Blocks taken for room the copies did not need go back as they came: erased.
  const std::vector<BlockId> blocks = m_frame.blocks_of(sb);
  for (BlockId b : blocks) {
    if (m_frame.written(b) != 0) continue;
    m_frame.drop_block(sb, b);
    m_frame.m_flash.blocks().release_block(b);
  }
}

bool FrameRecovery::has_copy(uint32_t lbn) const {
  const Lun first = m_frame.first_lun(lbn);
  for (uint32_t offset = 0; offset < m_frame.units_in(lbn); ++offset) {
    if (intended(first + offset) != kNone) return true;
  }
  return false;
}

bool FrameRecovery::map_is_newest(uint32_t lbn, CacheEntry& e) {
  // No head: LSB's first run of this logical block was cut before its PMD page.
  if (m_head[lbn] == kNone) return false;
  uint32_t after = kNone;
  if (!m_frame.resolve(e, m_head[lbn], OpClass::kMapping, after)) return false;
  const Lun first = m_frame.first_lun(lbn);
  for (uint32_t offset = 0; offset < m_geometry.pages_per_block; ++offset) {
    const PageId want = offset < m_frame.units_in(lbn) ? intended(first + offset) : kNone;
    if (e.page_of[offset] != want) return false;
  }
  return true;
}

void FrameRecovery::newest_map(uint32_t lbn, CacheEntry& e) {
  uint32_t after = kNone;
  m_frame.resolve(e, kNone, OpClass::kMapping, after);  // every location kNone
  const Lun first = m_frame.first_lun(lbn);
  for (uint32_t offset = 0; offset < m_frame.units_in(lbn); ++offset) {
    e.page_of[offset] = intended(first + offset);
  }
}

PageId FrameRecovery::intended(Lun lun) const {
  const PageId newest = m_newest[lun];
  const PageId emptied = m_emptied[lun];
  if (newest == kNone) return kNone;
  // A map written after the newest copy says the unit holds nothing: it was trimmed since.
  if (emptied != kNone && m_frame.di_sequence(emptied) > m_frame.di_sequence(newest)) return kNone;
  return newest;
}

void FrameRecovery::account(const CacheEntry& e) {
  const Lun first = m_frame.first_lun(e.lbn);
  std::vector<PageId> kept;
  for (uint32_t offset = 0; offset < m_frame.units_in(e.lbn); ++offset) {
    if (e.page_of[offset] == kNone) continue;
    m_frame.mark_valid(first + offset);
    kept.push_back(e.page_of[offset]);
  }
  for (uint32_t group = 0; group < m_frame.groups(); ++group) {
    if (e.pt_page[group] != kNone) kept.push_back(e.pt_page[group]);
    if (e.head[group] != kNone) kept.push_back(e.head[group]);
  }
  std::sort(kept.begin(), kept.end());
  kept.erase(std::unique(kept.begin(), kept.end()), kept.end());
  for (PageId page : kept) m_frame.note_live(page);
}

void FrameRecovery::erase_dead_blocks(uint32_t sb) {
  const std::vector<BlockId> blocks = m_frame.blocks_of(sb);
  for (BlockId b : blocks) {
    if (m_frame.live(b) != 0) continue;
    m_frame.drop_block(sb, b);
    m_frame.m_flash.erase(b, kNone);
    ++m_frame.m_recovery_work.dead_blocks_erased;
    m_backend.end_batch();
  }
}

std::vector<BlockId> FrameRecovery::make_room(uint32_t sb, const std::vector<uint32_t>& rewritten) {
  // A rewritten map takes a page per group holding data (and, in LSB, maybe an MIW).
  uint64_t map_pages = 0;
  for (uint32_t lbn : rewritten) {
    const Lun first = m_frame.first_lun(lbn);
    for (uint32_t group = 0; group < m_frame.groups(); ++group) {
      for (uint32_t k = 0; k < m_frame.group_pages(); ++k) {
        const uint32_t offset = group * m_frame.group_pages() + k;
        if (offset < m_frame.units_in(lbn) && intended(first + offset) != kNone) {
          ++map_pages;
          break;
        }
      }
    }
    ++map_pages;
  }
  const uint32_t cap = m_frame.m_max_blocks;
  std::vector<BlockId> victims, fresh;
  while (true) {
    uint64_t needed = map_pages;
    for (BlockId victim : victims) needed += m_frame.live(victim);
    const size_t held = m_frame.blocks_of(sb).size();
    const bool over_cap = cap != 0 && held > cap;
    if (!over_cap && m_frame.free_pages(sb) >= needed) return victims;
    if (!over_cap && (cap == 0 || held < cap) && m_frame.free_blocks_for(sb) > 0) {
      const BlockId block = m_frame.m_flash.allocate(m_frame.plane_for(sb));
      m_frame.add_block(sb, block);
      fresh.push_back(block);
      continue;
    }
    // A block given back: the one with the fewest live pages (ties: the oldest), never one this
    // recovery took.
    BlockId victim = kNone;
    for (BlockId b : m_frame.blocks_of(sb)) {
      if (std::find(fresh.begin(), fresh.end(), b) != fresh.end()) continue;
      if (victim == kNone || m_frame.live(b) < m_frame.live(victim)) victim = b;
    }
    if (victim == kNone) {
      throw std::runtime_error(m_frame.m_scheme + " recovery: superblock " + std::to_string(sb) +
                               " finds no room for its pages after the power cut (no free block "
                               "on its plane)");
    }
    m_frame.drop_block(sb, victim);
    victims.push_back(victim);
    ++m_frame.m_recovery_work.blocks_given_back;
  }
}

uint32_t FrameRecovery::relocate(uint32_t lbn, bool rewrite_map,
                                 const std::vector<BlockId>& victims) {
  CacheEntry& e = take_entry(lbn);
  uint32_t after = kNone;
  if (rewrite_map) {
    newest_map(lbn, e);
  } else if (!m_frame.resolve(e, m_frame.pgd(lbn), OpClass::kMapping, after)) {
    throw std::logic_error(m_frame.m_scheme + " recovery: the map of logical block " +
                           std::to_string(lbn) + " no longer resolves");
  }
  std::vector<SuperblockFrame::Move> moves;
  for (BlockId victim : victims) {
    for (uint32_t p = 0; p < m_frame.written(victim); ++p) {
      const PageId page = m_geometry.first_page(victim) + p;
      if (!m_backend.flash().readable(page) || m_frame.lbn_of(m_frame.di_lpn(page)) != lbn) {
        continue;
      }
      const uint32_t offset = m_frame.offset_of(m_frame.di_lpn(page));
      if (m_frame.keeps(e, page, offset)) moves.push_back({page, offset});
    }
  }
  if (rewrite_map) {
    // A page of each group holding data carries the group's map anew (the scheme's relocate()
    // writes the copies' maps from `e`: the newest copies).
    for (uint32_t group = 0; group < m_frame.groups(); ++group) {
      const uint32_t begin = group * m_frame.group_pages();
      const uint32_t stop = begin + m_frame.group_pages();
      const auto in_group = [&](const SuperblockFrame::Move& m) {
        return m.offset >= begin && m.offset < stop;
      };
      if (std::any_of(moves.begin(), moves.end(), in_group)) continue;
      for (uint32_t offset = begin; offset < stop; ++offset) {
        if (e.page_of[offset] != kNone) {
          moves.push_back({e.page_of[offset], offset});
          break;
        }
      }
    }
  }
  uint32_t program = kNone;
  if (!moves.empty()) program = m_frame.relocate(e, moves, after);
  give_back(e);
  return program;
}

SuperblockFrame::CacheEntry& FrameRecovery::take_entry(uint32_t lbn) {
  // Recovery caches nothing: any entry will do, kept out of the cache's index.
  CacheEntry& e = m_frame.free_entry();
  e.lbn = lbn;
  return e;
}

}  // namespace ssd::ftl
