// Separate chaining modelled on the table the paper found best for VET, "myhash" (Christopher
// Clark's C hash table, ref. [17]; sec. 6.2.1, Table 4): a prime number of buckets, each the head
// of a singly linked chain; every entry keeps its key, value, full hash and next link; a new entry
// goes to the head of its chain; when the entries exceed 0.65 x buckets the table grows to the
// next prime of a roughly doubling list and relinks every entry by its stored hash (no rehash).
// Our own code: entries live in a pool indexed by uint32 (links are indices), freed entries are
// reused, so nothing is allocated per operation except when the pool or bucket array grows.
//
// Cost (CpuWork::hash_probes): find, update, erase and adjust_count add 1 + (chain entries
// examined - 1), the examination of the first entry or of an empty bucket being part of the
// operation (adjust_count's insertion of an absent key links at the head of the chain it just
// searched, at no further cost); insert adds 1 (it links at the head and does not search);
// growing adds 1 per entry relinked.
// Left out: shrinking (Clark's table never shrinks either).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "ftl/core/flash_op.h"
#include "ftl/core/populate_ahead.h"
#include "ftl/extent/vet/node_table.h"

namespace ssd::ftl {

class ChainingTable final : public NodeTable {
 public:
  static constexpr double kMaxLoad = 0.65;
  // Modelled widths: the stored hash and the next link of an entry, a bucket's head pointer.
  static constexpr uint32_t kHashBytes = 4;
  static constexpr uint32_t kLinkBytes = 4;
  static constexpr uint32_t kBucketBytes = 4;

  explicit ChainingTable(CpuWork& cpu);

  bool find(uint64_t key, NodeValue& value) override;
  void insert(uint64_t key, const NodeValue& value) override;
  void update(uint64_t key, const NodeValue& value) override;
  bool erase(uint64_t key) override;
  uint32_t adjust_count(uint64_t key, int32_t delta) override;
  void clear() override;

  uint64_t size() const override { return m_size; }
  // Entries in use x (node + hash + next) + buckets x head pointer.
  uint64_t memory_bytes(uint32_t node_bytes) const override {
    return m_size * (uint64_t{node_bytes} + kHashBytes + kLinkBytes) +
           uint64_t{bucket_count()} * kBucketBytes;
  }
  void for_each(const std::function<void(uint64_t, const NodeValue&)>& visit) const override;

  // Loading in bulk (node_table.h): load() appends to the pool unlinked; end_load() works out the
  // chains the inserts and growths would have made, without following a chain (below).
  bool begin_load(uint64_t expected) override;
  uint32_t load(uint64_t key, const NodeValue& value) override;
  NodeValue& loaded_value(uint32_t handle) override { return m_entries[handle].value; }
  void end_load() override;

  uint32_t bucket_count() const { return static_cast<uint32_t>(m_buckets.size()); }
  // The longest chain (for tests).
  uint32_t longest_chain() const;

 private:
  struct Entry {
    uint64_t key;
    NodeValue value;
    uint32_t hash;
    uint32_t next;  // next entry of the chain (or of the free list), kNone at the end
  };

  uint32_t bucket_of(uint32_t hash) const;  // hash % bucket_count()
  // The entry holding `key` and the link that points at it; counts the probes.
  uint32_t locate(uint64_t key, uint32_t hash, uint32_t** link);
  void resize(uint32_t prime_index);
  // Sets the bucket count (and what follows from it) to the prime of `prime_index`, every bucket
  // empty.
  void set_prime(uint32_t prime_index);
  // The same, but leaves the bucket array to the caller.
  void use_prime(uint32_t prime_index);
  // Links a new entry at the head of its chain, growing first if needed (growth is counted).
  void link_new(uint64_t key, const NodeValue& value, uint32_t hash);
  void unlink(uint32_t entry, uint32_t* link);

  CpuWork& m_cpu;
  std::vector<uint32_t> m_buckets;  // first entry of each chain, kNone when empty
  std::vector<Entry> m_entries;     // the pool
  uint32_t m_free = 0;              // first free pool entry (kNone: none)
  uint64_t m_size = 0;
  uint32_t m_prime_index = 0;
  uint64_t m_load_limit = 0;  // grow when an insertion would exceed it
  uint64_t m_fastmod = 0;     // ceil(2^64 / bucket_count())
  bool m_loading = false;
  // The second thread of a bulk load (populate_ahead.h): from begin_load() on, until clear().
  std::unique_ptr<PopulateAhead> m_populate;
};

}  // namespace ssd::ftl
