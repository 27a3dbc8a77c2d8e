#include "ftl/sector_log/sector_map.h"

#include <algorithm>

namespace ssd::ftl {

namespace {

// Thomas Wang's 32-bit integer hash (the paper's reference [21]).
uint32_t wang_hash(uint32_t key) {
  key = ~key + (key << 15);
  key = key ^ (key >> 12);
  key = key + (key << 2);
  key = key ^ (key >> 4);
  key = key * 2057;
  key = key ^ (key >> 16);
  return key;
}

uint32_t bytes_to_name(uint64_t count) {  // fewest whole bytes that number `count` things
  uint32_t bytes = 1;
  while (bytes < 8 && (count >> (8 * bytes)) != 0) ++bytes;
  return bytes;
}

}  // namespace

SectorMap::SectorMap(uint64_t buckets, uint32_t sectors_per_unit, uint64_t slots)
    : m_sectors_per_unit(sectors_per_unit),
      m_location_bytes(bytes_to_name(slots)),
      m_buckets(buckets == 0 ? 1 : buckets, kNone) {}

uint64_t SectorMap::bucket_of(Lun lpn) const { return wang_hash(lpn) % m_buckets.size(); }

uint32_t SectorMap::search(Lun lpn, uint32_t** link) {
  ++m_searches;
  ++m_new_probes;
  uint32_t* at = &m_buckets[bucket_of(lpn)];
  uint64_t visited = 0;
  while (*at != kNone) {
    ++visited;
    if (m_entries[*at].lpn == lpn) break;
    at = &m_entries[*at].next;
  }
  m_visited += visited;
  if (visited > 1) m_new_steps += visited - 1;
  *link = at;
  return *at;
}

uint32_t SectorMap::find(Lun lpn) {
  uint32_t* link = nullptr;
  return search(lpn, &link);
}

uint32_t SectorMap::find_or_add(Lun lpn) {
  uint32_t* link = nullptr;
  const uint32_t found = search(lpn, &link);
  if (found != kNone) return found;
  uint32_t entry = m_free;
  if (entry != kNone) {
    m_free = m_entries[entry].next;
  } else {
    entry = static_cast<uint32_t>(m_entries.size());
    m_entries.push_back({});
    m_locations.resize(m_locations.size() + m_sectors_per_unit);
  }
  // `link` may point into m_entries, which push_back can move: find the chain's end again.
  const uint64_t bucket = bucket_of(lpn);
  uint32_t* end = &m_buckets[bucket];
  while (*end != kNone) end = &m_entries[*end].next;
  *end = entry;
  m_entries[entry] = Entry{lpn, kNone};
  for (uint32_t s = 0; s < m_sectors_per_unit; ++s) set_location(entry, s, kNoSlot);
  ++m_live;
  if (m_live > m_peak) m_peak = m_live;
  return entry;
}

uint32_t SectorMap::peek(Lun lpn) const {
  uint32_t at = m_buckets[bucket_of(lpn)];
  while (at != kNone && m_entries[at].lpn != lpn) at = m_entries[at].next;
  return at;
}

void SectorMap::remove(Lun lpn) {
  uint32_t* link = nullptr;
  const uint32_t entry = search(lpn, &link);
  if (entry == kNone) return;
  *link = m_entries[entry].next;
  m_entries[entry].next = m_free;
  m_free = entry;
  --m_live;
}

void SectorMap::clear() {
  std::fill(m_buckets.begin(), m_buckets.end(), kNone);
  m_entries.clear();
  m_locations.clear();
  m_free = kNone;
  m_live = 0;
}

uint64_t SectorMap::sectors(uint32_t entry) const {
  uint64_t mask = 0;
  for (uint32_t s = 0; s < m_sectors_per_unit; ++s) {
    if (location(entry, s) != kNoSlot) mask |= uint64_t{1} << s;
  }
  return mask;
}

}  // namespace ssd::ftl
