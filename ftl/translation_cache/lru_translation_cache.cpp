#include "ftl/translation_cache/lru_translation_cache.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace ssd::ftl {

LruTranslationCache::LruTranslationCache(uint64_t threshold_bytes)
    : m_capacity(static_cast<uint32_t>(
          std::min<uint64_t>(threshold_bytes / kSlotBytes, uint64_t(kNone) - 1))) {
  if (m_capacity == 0) {
    throw std::invalid_argument("LRU translation cache: a threshold of " +
                                std::to_string(threshold_bytes) + " bytes holds no slot");
  }
  uint32_t buckets = 1;
  while (buckets < m_capacity) buckets <<= 1;
  m_bucket_mask = buckets - 1;
  m_buckets.assign(buckets, kNone);
  m_slots.resize(m_capacity);
}

uint32_t LruTranslationCache::bucket_of(Lun lun) const {
  return static_cast<uint32_t>((uint64_t(lun) * 0x9E3779B97F4A7C15ull) >> 32) & m_bucket_mask;
}

uint32_t LruTranslationCache::find(Lun lun, CpuWork& work) const {
  for (uint32_t s = m_buckets[bucket_of(lun)]; s != kNone; s = m_slots[s].chain) {
    ++work.hash_probes;
    if (m_slots[s].lun == lun) return s;
  }
  ++work.hash_probes;  // the probe that finds the chain's end (or an empty bucket)
  return kNone;
}

void LruTranslationCache::unlink_lru(uint32_t slot) {
  Slot& s = m_slots[slot];
  (s.newer != kNone ? m_slots[s.newer].older : m_newest) = s.older;
  (s.older != kNone ? m_slots[s.older].newer : m_oldest) = s.newer;
  s.newer = s.older = kNone;
}

void LruTranslationCache::push_newest(uint32_t slot) {
  Slot& s = m_slots[slot];
  s.newer = kNone;
  s.older = m_newest;
  if (m_newest != kNone) m_slots[m_newest].newer = slot;
  m_newest = slot;
  if (m_oldest == kNone) m_oldest = slot;
}

void LruTranslationCache::unchain(uint32_t slot, CpuWork& work) {
  uint32_t* link = &m_buckets[bucket_of(m_slots[slot].lun)];
  while (*link != slot) {
    ++work.hash_probes;
    link = &m_slots[*link].chain;
  }
  *link = m_slots[slot].chain;
}

PageId LruTranslationCache::lookup(Lun lun, CpuWork& work) {
  CpuWork spent;
  ++m_stats.lookups;
  const uint32_t slot = find(lun, spent);
  PageId page = kNone;
  if (slot != kNone) {
    ++m_stats.hits;
    ++spent.list_steps;  // to the most recently used end
    unlink_lru(slot);
    push_newest(slot);
    page = m_slots[slot].page;
  }
  m_stats.lookup_work += spent;
  work += spent;
  return page;
}

bool LruTranslationCache::set(Lun lun, PageId page, CpuWork& work) {
  bool evicted = false;
  uint32_t slot = find(lun, work);
  ++work.list_steps;
  if (slot != kNone) {
    unlink_lru(slot);
  } else {
    if (!m_free.empty()) {
      slot = m_free.back();
      m_free.pop_back();
      ++m_used;
    } else if (m_never_used < m_capacity) {
      slot = m_never_used++;
      ++m_used;
    } else {  // full: the least recently used slot makes room
      slot = m_oldest;
      unlink_lru(slot);
      unchain(slot, work);
      evicted = true;
    }
    Slot& s = m_slots[slot];
    s.lun = lun;
    uint32_t& bucket = m_buckets[bucket_of(lun)];
    s.chain = bucket;
    bucket = slot;
  }
  m_slots[slot].page = page;
  push_newest(slot);
  return evicted;
}

void LruTranslationCache::insert(Lun lun, PageId page, uint32_t count, CpuWork& work) {
  CpuWork spent;
  ++m_stats.insertions;
  bool evicted = false;
  for (uint32_t k = 0; k < count; ++k) evicted = set(lun + k, page + k, spent) || evicted;
  if (evicted) ++m_stats.replacements;
  m_stats.insertion_work += spent;
  work += spent;
}

void LruTranslationCache::relocate(Lun lun, PageId page, uint32_t count, CpuWork& work) {
  CpuWork spent;
  ++m_stats.insertions;
  for (uint32_t k = 0; k < count; ++k) {
    const uint32_t slot = find(lun + k, spent);
    if (slot != kNone) m_slots[slot].page = page + k;
  }
  m_stats.insertion_work += spent;
  work += spent;
}

void LruTranslationCache::forget(Lun lun, uint32_t count, CpuWork& work) {
  CpuWork spent;
  ++m_stats.insertions;
  for (uint32_t k = 0; k < count; ++k) {
    const uint32_t slot = find(lun + k, spent);
    if (slot == kNone) continue;
    unlink_lru(slot);
    unchain(slot, spent);
    m_slots[slot].lun = kNone;
    m_free.push_back(slot);
    --m_used;
  }
  m_stats.insertion_work += spent;
  work += spent;
}

}  // namespace ssd::ftl
