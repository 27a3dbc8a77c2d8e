// DFTL's cached mapping table (CMT): the mapping entries (logical unit -> slot) held in controller
// DRAM, in least-recently-used order, each marked dirty when it changed since its translation page
// was last written. A real controller finds an entry by hashing; here a per-unit index stands in
// for the hash table (the scheme counts the probes), and the LRU list is intrusive over a fixed
// pool of nodes, so nothing is allocated per lookup.
#pragma once

#include <cstdint>
#include <vector>

#include "ftl/core/types.h"

namespace ssd::ftl {

class CachedMappingTable {
 public:
  CachedMappingTable(uint64_t logical_units, uint32_t capacity);

  uint32_t capacity() const { return static_cast<uint32_t>(m_nodes.size()); }
  uint32_t size() const { return m_size; }
  bool full() const { return m_size == capacity(); }
  bool contains(Lun lun) const { return m_node_of[lun] != kNone; }
  bool dirty(Lun lun) const { return m_nodes[m_node_of[lun]].dirty; }
  SlotId slot(Lun lun) const { return m_nodes[m_node_of[lun]].slot; }
  // A hint: contains(lun) comes soon (its per-unit index entry is a cache miss on a large device).
  void prefetch(Lun lun) const { __builtin_prefetch(&m_node_of[lun]); }

  // Makes a cached entry the most recently used.
  void touch(Lun lun);
  // Caches `lun` -> `slot` as the most recently used entry; the table must not be full.
  void insert(Lun lun, SlotId slot, bool dirty);
  // The cached entry changes: it is dirty until its translation page is written.
  void update(Lun lun, SlotId slot) {
    Node& n = m_nodes[m_node_of[lun]];
    n.slot = slot;
    n.dirty = true;
  }
  void set_clean(Lun lun) { m_nodes[m_node_of[lun]].dirty = false; }
  // The least recently used entry (the table must not be empty), and its removal.
  Lun least_recent() const { return m_nodes[m_head].lun; }
  void remove(Lun lun);
  // The cached units, least recently used first.
  std::vector<Lun> least_recent_first() const;

 private:
  struct Node {
    Lun lun = kNone;
    SlotId slot = kNone;
    uint32_t prev = kNone;  // towards the least recent end
    uint32_t next = kNone;  // towards the most recent end
    bool dirty = false;
  };
  void unlink(uint32_t node);
  void push_back(uint32_t node);

  std::vector<Node> m_nodes;
  std::vector<uint32_t> m_node_of;  // per logical unit: its node, or kNone
  std::vector<uint32_t> m_free;     // unused nodes
  uint32_t m_head = kNone;          // least recently used
  uint32_t m_tail = kNone;          // most recently used
  uint32_t m_size = 0;
};

}  // namespace ssd::ftl
