#include "ftl/dftl/cached_mapping_table.h"

#include <stdexcept>

namespace ssd::ftl {

CachedMappingTable::CachedMappingTable(uint64_t logical_units, uint32_t capacity)
    : m_nodes(capacity), m_node_of(logical_units, kNone) {
  if (capacity == 0) throw std::invalid_argument("the DFTL mapping cache must hold an entry");
  m_free.reserve(capacity);
  for (uint32_t n = capacity; n-- > 0;) m_free.push_back(n);
}

void CachedMappingTable::unlink(uint32_t node) {
  Node& n = m_nodes[node];
  if (n.prev != kNone) {
    m_nodes[n.prev].next = n.next;
  } else {
    m_head = n.next;
  }
  if (n.next != kNone) {
    m_nodes[n.next].prev = n.prev;
  } else {
    m_tail = n.prev;
  }
  n.prev = n.next = kNone;
}

void CachedMappingTable::push_back(uint32_t node) {
  Node& n = m_nodes[node];
  n.prev = m_tail;
  n.next = kNone;
  if (m_tail != kNone) {
    m_nodes[m_tail].next = node;
  } else {
    m_head = node;
  }
  m_tail = node;
}

void CachedMappingTable::touch(Lun lun) {
  const uint32_t node = m_node_of[lun];
  if (node == m_tail) return;
  unlink(node);
  push_back(node);
}

void CachedMappingTable::insert(Lun lun, SlotId slot, bool dirty) {
  if (m_free.empty()) throw std::logic_error("insert into a full mapping cache");
  const uint32_t node = m_free.back();
  m_free.pop_back();
  m_nodes[node].lun = lun;
  m_nodes[node].slot = slot;
  m_nodes[node].dirty = dirty;
  m_node_of[lun] = node;
  push_back(node);
  ++m_size;
}

void CachedMappingTable::remove(Lun lun) {
  const uint32_t node = m_node_of[lun];
  unlink(node);
  m_nodes[node].lun = kNone;
  m_node_of[lun] = kNone;
  m_free.push_back(node);
  --m_size;
}

std::vector<Lun> CachedMappingTable::least_recent_first() const {
  std::vector<Lun> order;
  order.reserve(m_size);
  for (uint32_t node = m_head; node != kNone; node = m_nodes[node].next) {
    order.push_back(m_nodes[node].lun);
  }
  return order;
}

}  // namespace ssd::ftl
