#include "ftl/sector_log/write_buffer.h"

#include <stdexcept>

namespace ssd::ftl {

WriteBuffer::WriteBuffer(uint32_t sectors_per_unit)
    : m_sectors_per_unit(sectors_per_unit), m_pool(sectors_per_unit) {}

bool WriteBuffer::write(Lun lpn, uint64_t sectors, const Token* tokens) {
  uint32_t entry = kNone;
  const auto found = m_index.find(lpn);
  const bool hit = found != m_index.end();
  if (hit) {
    entry = found->second;
    unlink(entry);
  } else {
    if (!m_free.empty()) {
      entry = m_free.back();
      m_free.pop_back();
    } else {
      entry = static_cast<uint32_t>(m_entries.size());
      m_entries.push_back({});
    }
    m_entries[entry] = Entry{lpn, 0, m_pool.acquire(), kNone, kNone};
    m_index.emplace(lpn, entry);
  }
  Entry& e = m_entries[entry];
  e.sectors |= sectors;
  Token* kept = m_pool.at(e.tokens);
  for (uint64_t m = sectors; m != 0; m &= m - 1) {
    const auto s = static_cast<uint32_t>(__builtin_ctzll(m));
    kept[s] = tokens[s];
  }
  push_newest(entry);
  return hit;
}

uint64_t WriteBuffer::sectors(Lun lpn) const {
  const auto found = m_index.find(lpn);
  return found == m_index.end() ? 0 : m_entries[found->second].sectors;
}

const Token* WriteBuffer::tokens(Lun lpn) const {
  const auto found = m_index.find(lpn);
  return found == m_index.end() ? nullptr : m_pool.at(m_entries[found->second].tokens);
}

void WriteBuffer::evict_oldest(Victim& victim) {
  if (m_oldest == kNone) throw std::logic_error("evicting from an empty write buffer");
  const uint32_t entry = m_oldest;
  const Entry& e = m_entries[entry];
  const Token* kept = m_pool.at(e.tokens);
  victim.lpn = e.lpn;
  victim.sectors = e.sectors;
  victim.tokens.assign(kept, kept + m_sectors_per_unit);
  unlink(entry);
  release(entry);
}

void WriteBuffer::drop(Lun lpn) {
  const auto found = m_index.find(lpn);
  if (found == m_index.end()) return;
  const uint32_t entry = found->second;
  unlink(entry);
  release(entry);
}

void WriteBuffer::unlink(uint32_t entry) {
  Entry& e = m_entries[entry];
  if (e.older != kNone) m_entries[e.older].newer = e.newer;
  if (e.newer != kNone) m_entries[e.newer].older = e.older;
  if (m_oldest == entry) m_oldest = e.newer;
  if (m_newest == entry) m_newest = e.older;
  e.older = e.newer = kNone;
}

void WriteBuffer::push_newest(uint32_t entry) {
  Entry& e = m_entries[entry];
  e.older = m_newest;
  e.newer = kNone;
  if (m_newest != kNone) m_entries[m_newest].newer = entry;
  m_newest = entry;
  if (m_oldest == kNone) m_oldest = entry;
}

void WriteBuffer::release(uint32_t entry) {
  m_index.erase(m_entries[entry].lpn);
  m_pool.release(m_entries[entry].tokens);
  m_free.push_back(entry);
}

}  // namespace ssd::ftl
