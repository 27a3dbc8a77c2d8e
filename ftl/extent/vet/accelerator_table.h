// VET's node table held by the hash-lookup accelerator (rtl/README.md): every operation becomes
// engine commands, answered by an HashEngine: the C++ reference model, or in a timed run the
// platform's accelerator target (models/accelerator/), which runs the model or the Verilated RTL.
// Entries the engine refuses (OVERFLOW: the key's bucket is full) live in a software chaining
// table, as the engine's README leaves them to software; lookups see both.
//
//   find          FIND; on a miss, also the overflow table when it holds anything
//   insert        INSERT; OVERFLOW -> the overflow table
//   update        UPDATE; MISS -> the overflow table
//   erase         DELETE; MISS -> the overflow table
//   adjust_count  FIND, then UPDATE, DELETE (count 0) or INSERT (absent): the engine has no
//                 read-modify-write, so the CPU reads, computes and writes back
//   clear         CLEAR, and the overflow table emptied
//
// Costs: each engine command adds 1 to CpuWork::accelerator_commands and its latency (engine
// clock cycles, from the engine's answer) to accelerator_cycles; the CPU waits for every answer
// (the next command depends on it). The overflow table counts hash_probes like any software table.
#pragma once

#include <cstdint>
#include <memory>

#include "ftl/core/flash_op.h"
#include "ftl/extent/vet/chaining_table.h"
#include "ftl/extent/vet/hash_engine.h"
#include "ftl/extent/vet/node_table.h"

namespace ssd::ftl {

// What the engine's multi-level lookup tells about one address.
struct MultiLevelAnswer {
  enum Outcome {
    kLeaf,     // this leaf (key, value) holds the address
    kNoLeaf,   // no leaf holds it (the engine holds the whole trie, so the search was complete)
    kUnknown,  // no leaf found, but nodes in the overflow table may have hidden one
  } outcome = kUnknown;
  uint64_t key = 0;
  NodeValue value;
};

class AcceleratorTable final : public NodeTable {
 public:
  // Bytes of one engine slot: a 64-bit key and the 96-bit value (rtl/README.md), plus a valid
  // bit per slot counted separately.
  static constexpr uint32_t kSlotBytes = 20;

  // `engine` must outlive the table; it must start empty.
  AcceleratorTable(HashEngine& engine, CpuWork& cpu);

  bool find(uint64_t key, NodeValue& value) override;
  void insert(uint64_t key, const NodeValue& value) override;
  void update(uint64_t key, const NodeValue& value) override;
  bool erase(uint64_t key) override;
  uint32_t adjust_count(uint64_t key, int32_t delta) override;
  void clear() override;

  uint64_t size() const override { return m_engine_entries + m_overflow.size(); }
  // The engine's whole on-chip table as built (every slot, used or not, and its valid bit), plus
  // the overflow table in controller DRAM.
  uint64_t memory_bytes(uint32_t node_bytes) const override;
  void for_each(const std::function<void(uint64_t, const NodeValue&)>& visit) const override;

  // One MLOOKUP: VET's binary search on levels for `address` in a universe of `bits` bits, in the
  // engine. A leaf it ends on holds the address whatever path led there (leaves are disjoint), so
  // that answer stands even when some nodes live in the overflow table; "no leaf" stands only
  // when the overflow table is empty (otherwise a node there may have sent the search the wrong
  // way, and the caller must search probe by probe).
  MultiLevelAnswer multi_level_lookup(uint64_t address, uint32_t bits);

  // find() without an engine command (the overflow table's probe is still counted).
  bool peek(uint64_t key, NodeValue& value);

  uint64_t engine_entries() const { return m_engine_entries; }
  uint64_t overflow_entries() const { return m_overflow.size(); }
  // Entries the engine refused over the table's life.
  uint64_t overflows() const { return m_overflows; }

 private:
  HashResponse run(HashOp op, uint64_t key, const NodeValue& value = {}, uint32_t bits = 0);

  HashEngine& m_engine;
  CpuWork& m_cpu;
  ChainingTable m_overflow;
  uint64_t m_engine_entries = 0;
  uint64_t m_overflows = 0;
};

}  // namespace ssd::ftl
