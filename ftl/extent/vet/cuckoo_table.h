// Cuckoo hashing (Pagh & Rodler, ref. [18]; the paper's "cuckoo-hash" candidate, sec. 6.2.1):
// two tables of r slots each and two hash functions (vet_hash with two multipliers), one slot per
// key in each; a key is in T0[h0(key)] or T1[h1(key)], so a find looks at no more than two slots.
// An insertion puts the key in T0; whatever it evicts goes to its slot in T1, whatever that
// evicts back to T0, and so on for at most MaxLoop = ceil(3 log_{1+eps} r) rounds. If the chain
// is still homeless, the table is rehashed with the next two multipliers; the table doubles when
// the entries would exceed r / (1 + eps) (eps = 0.25: at most 40% of all slots used), or when a
// rehash at the same size fails too. Empty slots hold the key kVetNoKey, so no flag is needed.
//
// Cost (CpuWork::hash_probes): find, update, erase and adjust_count add 1 when the key is in T0
// and 2 otherwise (both slots examined); insert adds 1 plus 1 per kick (each evicted key placed
// again), and so does adjust_count's insertion of an absent key, less the 1 (T0's slot was just
// examined); a rehash adds 1 per entry re-placed plus its kicks. Left out: shrinking (as in the
// chaining table).
#pragma once

#include <cstdint>
#include <vector>

#include "ftl/core/flash_op.h"
#include "ftl/extent/vet/canonical_extent.h"
#include "ftl/extent/vet/node_table.h"
#include "ftl/extent/vet/vet_hash.h"

namespace ssd::ftl {

class CuckooTable final : public NodeTable {
 public:
  static constexpr double kEpsilon = 0.25;
  static constexpr uint32_t kInitialBits = 4;  // 16 slots per table

  explicit CuckooTable(CpuWork& cpu);

  bool find(uint64_t key, NodeValue& value) override;
  void insert(uint64_t key, const NodeValue& value) override;
  void update(uint64_t key, const NodeValue& value) override;
  bool erase(uint64_t key) override;
  uint32_t adjust_count(uint64_t key, int32_t delta) override;
  void clear() override;

  uint64_t size() const override { return m_size; }
  // Every slot of both tables holds a whole node, used or not.
  uint64_t memory_bytes(uint32_t node_bytes) const override {
    return 2 * uint64_t{table_slots()} * node_bytes;
  }
  void for_each(const std::function<void(uint64_t, const NodeValue&)>& visit) const override;

  // --- for tests ---
  uint32_t table_slots() const { return uint32_t{1} << m_bits; }  // r, per table
  uint32_t max_loop() const { return m_max_loop; }
  uint64_t rehashes() const { return m_rehashes; }  // since construction, growth included
  // Which table (0 or 1) holds `key`, or -1 (not counted).
  int table_of(uint64_t key) const;
  // Sets the two hash multipliers and rehashes (tests build kick chains with it).
  void set_multipliers(uint64_t m0, uint64_t m1);

 private:
  struct Slot {
    uint64_t key = kVetNoKey;
    NodeValue value;
  };

  uint32_t index(int table, uint64_t key) const {
    return vet_hash(key, m_multiplier[table]) >> (32 - m_bits);
  }
  uint64_t load_limit() const { return static_cast<uint64_t>(table_slots() / (1 + kEpsilon)); }
  void set_size(uint32_t bits);
  // Stores a new entry (kicks and rehashes counted, the first slot not).
  void insert_new(Slot slot);
  // Places `slot` by kicking; false when MaxLoop rounds leave an entry homeless (then in `slot`).
  bool place(Slot& slot);
  // Re-places every entry and `homeless` (if it holds a key) with new hash functions and at
  // least `bits` bits, growing while it fails.
  void rehash(uint32_t bits, const Slot& homeless);

  CpuWork& m_cpu;
  std::vector<Slot> m_table[2];
  uint32_t m_bits = kInitialBits;
  uint64_t m_multiplier[2] = {0, 0};
  uint32_t m_next_multiplier = 0;  // index of the next vet_hash_multiplier to use
  uint32_t m_max_loop = 0;
  uint64_t m_size = 0;
  uint64_t m_rehashes = 0;
};

}  // namespace ssd::ftl
