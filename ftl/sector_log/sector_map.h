// The sector log's map (paper section 4.2, figure 4): a hash table keyed by logical page number,
// with Thomas Wang's integer hash (the paper's reference [21]) and chaining. One entry per logical
// page with sectors in the log: the page number, where each of its sectors is (a sector slot of
// the data region, or none) and the next entry of its chain. Grouping a page's sectors in one
// entry lets a merge find all of them with one search. Every search counts the entries it visits
// (the paper's table 6), and the firmware's work is priced as one hash probe plus a list step per
// further entry.
#pragma once

#include <cstdint>
#include <vector>

#include "ftl/core/types.h"

namespace ssd::ftl {

class SectorMap {
 public:
  static constexpr uint32_t kNoSlot = ~uint32_t{0};

  // `buckets` hash buckets, entries of `sectors_per_unit` locations naming one of `slots` sector
  // slots of the data region.
  SectorMap(uint64_t buckets, uint32_t sectors_per_unit, uint64_t slots);

  // The entry of `lpn`, or kNone; counts the search.
  uint32_t find(Lun lpn);
  // The entry of `lpn`, added empty when absent; counts the search.
  uint32_t find_or_add(Lun lpn);
  // The entry of `lpn`, or kNone, not counted: simulation bookkeeping, not firmware work.
  uint32_t peek(Lun lpn) const;
  // Removes the entry (found again through its chain, counted as a search).
  void remove(Lun lpn);
  // Forgets every entry (a recovery building the map again); the peak stays.
  void clear();

  uint32_t location(uint32_t entry, uint32_t sector) const {
    return m_locations[uint64_t{entry} * m_sectors_per_unit + sector];
  }
  void set_location(uint32_t entry, uint32_t sector, uint32_t slot) {
    m_locations[uint64_t{entry} * m_sectors_per_unit + sector] = slot;
  }
  Lun lpn(uint32_t entry) const { return m_entries[entry].lpn; }
  // Sectors of the entry's page that are in the data region.
  uint64_t sectors(uint32_t entry) const;

  uint64_t entries() const { return m_live; }
  uint64_t peak_entries() const { return m_peak; }
  // DRAM the map takes now: the bucket array plus live entries (bytes_per_entry()).
  uint64_t memory_bytes() const {
    return m_buckets.size() * kPointerBytes + m_live * entry_bytes();
  }
  uint64_t peak_memory_bytes() const {
    return m_buckets.size() * kPointerBytes + m_peak * entry_bytes();
  }
  // The paper's entry: page number, a location per sector, next pointer. A location names a
  // sector slot of the data region in the fewest whole bytes (the paper's block:page:offset);
  // page numbers and pointers take 4 bytes.
  uint64_t entry_bytes() const {
    return 2 * kPointerBytes + uint64_t{m_sectors_per_unit} * m_location_bytes;
  }

  // Searches and the entries they visited (hash-search length = visited / searches).
  uint64_t searches() const { return m_searches; }
  uint64_t visited() const { return m_visited; }
  void restart_counts() { m_searches = m_visited = 0; }
  // Work since the last call, for pricing: hash probes and list steps.
  uint64_t take_probes() { return exchange_zero(m_new_probes); }
  uint64_t take_steps() { return exchange_zero(m_new_steps); }

 private:
  static constexpr uint64_t kPointerBytes = 4;
  struct Entry {
    Lun lpn;
    uint32_t next;  // kNone ends the chain
  };
  static uint64_t exchange_zero(uint64_t& value) {
    const uint64_t taken = value;
    value = 0;
    return taken;
  }
  uint64_t bucket_of(Lun lpn) const;
  // Walks `lpn`'s chain; returns the entry and the link that points at it.
  uint32_t search(Lun lpn, uint32_t** link);

  uint32_t m_sectors_per_unit;
  uint32_t m_location_bytes;
  std::vector<uint32_t> m_buckets;    // first entry of each chain
  std::vector<Entry> m_entries;       // pooled; free ones chained through `next`
  std::vector<uint32_t> m_locations;  // sectors_per_unit per entry
  uint32_t m_free = kNone;
  uint64_t m_live = 0;
  uint64_t m_peak = 0;
  uint64_t m_searches = 0;
  uint64_t m_visited = 0;
  uint64_t m_new_probes = 0;
  uint64_t m_new_steps = 0;
};

}  // namespace ssd::ftl
