// Many stores to random entries of a big table (sampled aging's layout: the map's entry of each
// unit laid out, in the order of the flash), made in groups by the 2 MiB piece of the table they
// land in. One by one, each store misses the TLB as well as the cache, and on a VM each such miss
// walks two page tables; the walks, not the memory, limited the layout (`perf`: most of its time
// on the prefetch of the next entries, waiting for a free miss slot). Grouped, a piece's stores
// follow each other, so one walk serves them all. The table ends the same: each entry takes the
// last value stored to it, and the layout stores each entry once. The entries may be structs of
// which the stores write one member (VET's chain links, written into its pool of entries).
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

namespace ssd::ftl {

// The whole entry, for a table of values.
struct WholeEntry {
  template <typename Entry>
  Entry& operator()(Entry& entry) const {
    return entry;
  }
};

// Entry is Value (a table of values) or a struct of which the stores write the member that
// `member` (Value& (Entry&)) gives.
template <typename Value, typename Entry = Value, typename Member = WholeEntry>
class GroupedStores {
 public:
  // `table` has `entries` entries; about `buffered` stores are held at once in all.
  GroupedStores(Entry* table, uint64_t entries, uint64_t buffered = uint64_t{1} << 20,
                Member member = Member{})
      : m_table(table), m_member(member) {
    static_assert(sizeof(Value) <= 8, "one entry, at most a word");
    const uint64_t groups = std::max<uint64_t>(1, (entries + kGroupEntries - 1) / kGroupEntries);
    m_capacity = static_cast<uint32_t>(std::max<uint64_t>(64, buffered / groups));
    m_held.resize(groups * m_capacity);
    m_count.assign(groups, 0);
  }
  GroupedStores(const GroupedStores&) = delete;
  GroupedStores& operator=(const GroupedStores&) = delete;

  void store(uint64_t index, Value value) {
    const uint64_t group = index / kGroupEntries;
    Held* held = &m_held[group * m_capacity];
    held[m_count[group]++] = Held{static_cast<uint32_t>(index % kGroupEntries), value};
    if (m_count[group] == m_capacity) flush_group(group);
  }

  // Makes every store held so far: call it before the table is read.
  void flush() {
    for (uint64_t group = 0; group < m_count.size(); ++group) flush_group(group);
  }

 private:
  static constexpr uint64_t kGroupBytes = uint64_t{2} << 20;  // a huge page
  static constexpr uint64_t kGroupEntries = kGroupBytes / sizeof(Entry);
  struct Held {
    uint32_t offset;  // in the group
    Value value;
  };

  void flush_group(uint64_t group) {
    Entry* piece = m_table + group * kGroupEntries;
    const Held* held = &m_held[group * m_capacity];
    for (uint32_t i = 0; i < m_count[group]; ++i) m_member(piece[held[i].offset]) = held[i].value;
    m_count[group] = 0;
  }

  Entry* m_table;
  Member m_member;
  uint32_t m_capacity = 0;  // stores held per group
  std::vector<Held> m_held;
  std::vector<uint32_t> m_count;
};

}  // namespace ssd::ftl
