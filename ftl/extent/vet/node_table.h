// The hash table that physically holds VET's virtual trie (sec. 2.2.1): key -> a small
// fixed-size value. The trie needs find, insert of an absent key, update, erase, and one
// read-modify-write, adjust_count, for the reference counts of internal nodes (what software
// does with the value pointer a search returns, Clark's table included, and what a hardware table
// does within one bucket access). Keeping the value three 32-bit words lets a hardware table
// (buckets x ways, answering "overflow" when a bucket is full and leaving the entry to software)
// implement the same interface: the accelerator backend does (accelerator_table.h).
//
// Cost rule, the same for every table: each operation adds 1 to CpuWork::hash_probes, plus 1 for
// every further entry or slot it examines or moves (a chain entry past the first, the second
// cuckoo table, a cuckoo kick, an entry re-placed when the table grows). The exact rule of each
// table is in its header and in docs/vet.md.
#pragma once

#include <cstdint>
#include <functional>
#include <stdexcept>

namespace ssd::ftl {

// What VET stores with a key; the trie gives the words their meaning (vet_map.cpp). w1 == 0
// always means an internal node, whose w0 is its count.
struct NodeValue {
  uint32_t w0 = 0;
  uint32_t w1 = 0;
  uint32_t w2 = 0;

  bool operator==(const NodeValue& o) const { return w0 == o.w0 && w1 == o.w1 && w2 == o.w2; }
};

class NodeTable {
 public:
  virtual ~NodeTable() = default;

  // The value stored with `key`, if any.
  virtual bool find(uint64_t key, NodeValue& value) = 0;
  // Stores `key`, which must be absent (the trie knows it is; tables need not check).
  virtual void insert(uint64_t key, const NodeValue& value) = 0;
  // Replaces the value of `key`, which must be present (std::logic_error otherwise).
  virtual void update(uint64_t key, const NodeValue& value) = 0;
  // Removes `key`; false when it was absent.
  virtual bool erase(uint64_t key) = 0;
  // One operation on an internal node's count (w0): adds `delta`; an absent key with delta > 0 is
  // inserted as {delta, 0, 0}; a count reaching 0 removes the entry. Returns the new count.
  // std::logic_error when the key holds a leaf (w1 != 0), or is absent or would go below 0.
  virtual uint32_t adjust_count(uint64_t key, int32_t delta) = 0;
  // Empties the table and returns it to its initial size (not counted).
  virtual void clear() = 0;

  virtual uint64_t size() const = 0;
  // Controller memory of the table when each stored node takes `node_bytes` (vet_memory.h),
  // with the table's own overhead (buckets, links, empty slots).
  virtual uint64_t memory_bytes(uint32_t node_bytes) const = 0;
  // Visits every entry, in no particular order (not counted; for checks and tests).
  virtual void for_each(const std::function<void(uint64_t, const NodeValue&)>& visit) const = 0;

  // Loading in bulk (an untimed sequential fill): a table that can, and is empty and new, takes
  // keys with load() in the order insert() would have taken them, changes their values through
  // loaded_value() while loading, and with end_load() ends in the state those inserts one by one
  // would have left. Nothing else is asked of it in between; nothing is counted. `expected` keys
  // or so will come (room is made for them). A table that cannot answers false to begin_load(),
  // and the caller inserts one by one.
  virtual bool begin_load(uint64_t /*expected*/) { return false; }
  virtual uint32_t load(uint64_t key, const NodeValue& value);  // a handle for loaded_value()
  virtual NodeValue& loaded_value(uint32_t handle);
  virtual void end_load() {}
};

inline uint32_t NodeTable::load(uint64_t, const NodeValue&) {
  throw std::logic_error("node table: load() without begin_load()");
}
inline NodeValue& NodeTable::loaded_value(uint32_t) {
  throw std::logic_error("node table: loaded_value() without begin_load()");
}

}  // namespace ssd::ftl
