// The LMT paper's baseline (section 6.1): "slots in a hash table, where each slot contains the
// mapping information of a given logical address"; when the memory threshold is reached, the least
// recently used slot makes room for the new one. One slot per logical unit, chained hashing,
// a doubly linked LRU list.
//
// Choice: the paper gives no slot size; we count 20 bytes per slot (logical address, page, two
// LRU links and a chain link, 4 bytes each), the size of an LMT translation unit, so that the
// comparison is between structures, not entry sizes. The bucket heads are part of that (one
// bucket per slot).
#pragma once

#include <cstdint>
#include <vector>

#include "ftl/translation_cache/translation_cache.h"

namespace ssd::ftl {

class LruTranslationCache final : public TranslationCache {
 public:
  static constexpr uint32_t kSlotBytes = 20;

  explicit LruTranslationCache(uint64_t threshold_bytes);

  // A hit moves the slot to the most recently used end.
  PageId lookup(Lun lun, CpuWork& work) override;
  // Each unit takes (or refreshes) its own slot, most recently used first.
  void insert(Lun lun, PageId page, uint32_t count, CpuWork& work) override;
  // Corrects the slots held for the range; adds none (a fold would otherwise flood the cache with
  // a whole block's slots) and does not change their recency.
  void relocate(Lun lun, PageId page, uint32_t count, CpuWork& work) override;
  void forget(Lun lun, uint32_t count, CpuWork& work) override;
  uint64_t memory_bytes() const override { return uint64_t(m_used) * kSlotBytes; }

  uint32_t capacity() const { return m_capacity; }
  uint32_t slots_used() const { return m_used; }

 private:
  struct Slot {
    Lun lun = kNone;
    PageId page = kNone;
    uint32_t chain = kNone;  // next slot in the same bucket
    uint32_t newer = kNone;  // LRU links
    uint32_t older = kNone;
  };
  uint32_t bucket_of(Lun lun) const;
  uint32_t find(Lun lun, CpuWork& work) const;
  void unlink_lru(uint32_t slot);
  void push_newest(uint32_t slot);
  void unchain(uint32_t slot, CpuWork& work);
  // Returns whether a slot was evicted to make room.
  bool set(Lun lun, PageId page, CpuWork& work);

  uint32_t m_capacity;
  uint32_t m_used = 0;           // slots holding a unit
  uint32_t m_never_used = 0;     // slots [m_never_used, capacity) were never taken
  std::vector<uint32_t> m_free;  // slots forget() emptied
  uint32_t m_bucket_mask;
  std::vector<uint32_t> m_buckets;
  std::vector<Slot> m_slots;
  uint32_t m_newest = kNone;
  uint32_t m_oldest = kNone;
};

}  // namespace ssd::ftl
