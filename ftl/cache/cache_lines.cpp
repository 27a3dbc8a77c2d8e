#include "ftl/cache/cache_lines.h"

#include <algorithm>
#include <stdexcept>

namespace ssd::ftl {

CacheLines::Links CacheLines::Entry::*const CacheLines::kAll = &CacheLines::Entry::all;
CacheLines::Links CacheLines::Entry::*const CacheLines::kDirty = &CacheLines::Entry::dirty_links;

CacheLines::CacheLines(uint32_t slots_per_line, uint64_t frames)
    : m_slots_per_line(slots_per_line), m_pool(slots_per_line), m_frames(frames) {
  if (slots_per_line == 0 || slots_per_line > 64) {
    throw std::invalid_argument("a cache line holds 1 to 64 slots");
  }
}

bool CacheLines::write(uint64_t line, uint64_t slots, const Token* tokens, bool dirty) {
  uint32_t entry = kNone;
  const auto found = m_index.find(line);
  const bool hit = found != m_index.end();
  if (hit) {
    entry = found->second;
    unlink(m_all, kAll, entry);
  } else {
    entry = take_entry();
    m_entries[entry] = Entry{line, 0, 0, m_pool.acquire(), {}, {}};
    m_index.emplace(line, entry);
  }
  Entry& e = m_entries[entry];
  // Clean data (a read fill) never replaces dirty slots: they are newer than what was read.
  if (!dirty) slots &= ~e.dirty;
  e.valid |= slots;
  e.marked &= ~slots;
  Token* kept = m_pool.at(e.tokens);
  for (uint64_t m = slots; m != 0; m &= m - 1) {
    const auto s = static_cast<uint32_t>(__builtin_ctzll(m));
    kept[s] = tokens[s];
  }
  push_newest(m_all, kAll, entry);
  const uint64_t now_dirty = dirty ? (e.dirty | slots) : e.dirty;
  if (now_dirty != e.dirty || (dirty && e.dirty != 0)) {
    if (e.dirty != 0) unlink(m_dirty, kDirty, entry);
    if (e.dirty == 0 && now_dirty != 0) ++m_dirty_count;
    e.dirty = now_dirty;
    push_newest(m_dirty, kDirty, entry);
  }
  return hit;
}

std::deque<uint32_t>::const_iterator CacheLines::best_free() const {
  auto best = m_free.begin();
  if (m_clock != nullptr) {
    const auto end = m_free.begin() + std::min(m_free.size(), kFramesCompared);
    for (auto it = m_free.begin(); it != end; ++it) {
      if (m_clock->frame_free_at(*it) < m_clock->frame_free_at(*best)) best = it;
    }
  }
  return best;
}

Picoseconds CacheLines::next_free_at() const {
  if (m_frames != 0 ? m_entries.size() < m_frames : m_free.empty()) return 0;  // a fresh frame
  if (m_free.empty()) return kNever;
  return m_clock != nullptr ? m_clock->frame_free_at(*best_free()) : 0;
}

uint32_t CacheLines::take_entry() {
  // A fresh frame while the budget allows (none has data in flight), else the free one that
  // frees first.
  const bool fresh = m_frames != 0 ? m_entries.size() < m_frames : m_free.empty();
  if (fresh) {
    m_entries.push_back({});
    return static_cast<uint32_t>(m_entries.size() - 1);
  }
  if (m_free.empty()) throw std::logic_error("every cache frame holds a line");
  const auto best = best_free();
  const uint32_t entry = *best;
  m_free.erase(best);
  return entry;
}

uint32_t CacheLines::rehome(uint64_t line) {
  const auto found = m_index.find(line);
  if (found == m_index.end()) throw std::logic_error("rehoming a line the cache does not hold");
  const uint32_t old_entry = found->second;
  if (m_free.empty() && m_frames != 0 && m_entries.size() >= m_frames) return old_entry;
  const uint32_t entry = take_entry();
  Entry moved = m_entries[old_entry];
  const bool was_dirty = moved.dirty != 0;
  if (was_dirty) unlink(m_dirty, kDirty, old_entry);
  unlink(m_all, kAll, old_entry);
  moved.all = {};
  moved.dirty_links = {};
  m_entries[entry] = moved;
  push_newest(m_all, kAll, entry);
  if (was_dirty) push_newest(m_dirty, kDirty, entry);
  found->second = entry;
  m_free.push_back(old_entry);
  return entry;
}

void CacheLines::touch(uint64_t line) {
  const auto found = m_index.find(line);
  if (found == m_index.end()) return;
  unlink(m_all, kAll, found->second);
  push_newest(m_all, kAll, found->second);
}

void CacheLines::mark(uint64_t line, uint64_t slots) {
  const auto found = m_index.find(line);
  if (found == m_index.end()) return;
  Entry& e = m_entries[found->second];
  e.marked |= slots & e.valid;
}

uint64_t CacheLines::take_marks(uint64_t line, uint64_t slots) {
  const auto found = m_index.find(line);
  if (found == m_index.end()) return 0;
  Entry& e = m_entries[found->second];
  const uint64_t taken = e.marked & slots;
  e.marked &= ~slots;
  return taken;
}

uint64_t CacheLines::valid(uint64_t line) const {
  const auto found = m_index.find(line);
  return found == m_index.end() ? 0 : m_entries[found->second].valid;
}

uint64_t CacheLines::dirty(uint64_t line) const {
  const auto found = m_index.find(line);
  return found == m_index.end() ? 0 : m_entries[found->second].dirty;
}

const Token* CacheLines::tokens(uint64_t line) const {
  const auto found = m_index.find(line);
  return found == m_index.end() ? nullptr : m_pool.at(m_entries[found->second].tokens);
}

uint32_t CacheLines::frame(uint64_t line) const {
  const auto found = m_index.find(line);
  return found == m_index.end() ? kNone : found->second;
}

void CacheLines::copy_out(uint32_t entry, Victim& victim) const {
  const Entry& e = m_entries[entry];
  const Token* kept = m_pool.at(e.tokens);
  victim.line = e.line;
  victim.frame = entry;
  victim.valid = e.valid;
  victim.dirty = e.dirty;
  victim.tokens.assign(kept, kept + m_slots_per_line);
}

void CacheLines::evict_oldest(Victim& victim) {
  if (m_all.oldest == kNone) throw std::logic_error("evicting from an empty cache");
  const uint32_t entry = m_all.oldest;
  copy_out(entry, victim);
  // The least recently used line's frame: its data is the oldest in the cache, so any write-back
  // from it is the likeliest to be done; the next new line takes it first.
  release(entry, true);
}

bool CacheLines::clean_oldest_dirty(Victim& victim) {
  if (m_dirty.oldest == kNone) return false;
  const uint32_t entry = m_dirty.oldest;
  copy_out(entry, victim);
  set_dirty(entry, 0);
  return true;
}

bool CacheLines::clean(uint64_t line, Victim& victim) {
  const auto found = m_index.find(line);
  if (found == m_index.end() || m_entries[found->second].dirty == 0) return false;
  copy_out(found->second, victim);
  set_dirty(found->second, 0);
  return true;
}

void CacheLines::forget(uint64_t line, uint64_t slots) {
  const auto found = m_index.find(line);
  if (found == m_index.end()) return;
  const uint32_t entry = found->second;
  Entry& e = m_entries[entry];
  set_dirty(entry, e.dirty & ~slots);
  e.valid &= ~slots;
  e.marked &= ~slots;
  if (e.valid == 0) release(entry, false);
}

void CacheLines::set_dirty(uint32_t entry, uint64_t dirty) {
  Entry& e = m_entries[entry];
  if (e.dirty != 0 && dirty == 0) {
    unlink(m_dirty, kDirty, entry);
    --m_dirty_count;
  } else if (e.dirty == 0 && dirty != 0) {
    push_newest(m_dirty, kDirty, entry);
    ++m_dirty_count;
  }
  e.dirty = dirty;
}

void CacheLines::unlink(List& list, Links Entry::*links, uint32_t entry) {
  Links& l = m_entries[entry].*links;
  if (l.older != kNone) (m_entries[l.older].*links).newer = l.newer;
  if (l.newer != kNone) (m_entries[l.newer].*links).older = l.older;
  if (list.oldest == entry) list.oldest = l.newer;
  if (list.newest == entry) list.newest = l.older;
  l.older = l.newer = kNone;
}

void CacheLines::push_newest(List& list, Links Entry::*links, uint32_t entry) {
  Links& l = m_entries[entry].*links;
  l.older = list.newest;
  l.newer = kNone;
  if (list.newest != kNone) (m_entries[list.newest].*links).newer = entry;
  list.newest = entry;
  if (list.oldest == kNone) list.oldest = entry;
}

void CacheLines::release(uint32_t entry, bool reuse_first) {
  set_dirty(entry, 0);
  unlink(m_all, kAll, entry);
  m_index.erase(m_entries[entry].line);
  m_pool.release(m_entries[entry].tokens);
  if (reuse_first) {
    m_free.push_front(entry);
  } else {
    m_free.push_back(entry);
  }
}

}  // namespace ssd::ftl
