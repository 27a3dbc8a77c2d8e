// The C++ reference model of rtl/vet_hash_engine.sv: the same table (2^bucket_bits buckets x ways
// slots), the same hash and bucket (ftl/extent/vet/vet_hash.h, top bits), the same way choice (the
// lowest free way), the same overflow rule (INSERT of an absent key into a full bucket stores
// nothing), the same multi-level lookup and probe count, and the RTL's latency in cycles for every
// command. Plain C++17: no SystemC, no Verilator. It models the answers and cycle counts, not the
// pipeline's registers; the RTL tests check both against the Verilated engine.
//
// The node-table shaped calls (find, insert, update, erase, clear) mirror
// ftl/extent/vet/node_table.h but return the hardware's answer, overflow included;
// ftl/extent/vet/accelerator_table.h adapts any HashEngine to the NodeTable VET uses.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "rtl/model/engine_interface.h"

namespace ssd::rtl {

class HashEngineModel : public HashEngine {
 public:
  // The RTL's fixed latencies (rtl/README.md).
  static constexpr uint32_t kPipelineCycles = 3;  // accept, S1, S2: the response the cycle after
  static constexpr uint32_t kCyclesPerProbe = 2;  // a multi-level probe recirculates S1, S2
  static constexpr uint32_t kMaxProbes = 7;       // binary search over 64 depths

  explicit HashEngineModel(const HashEngineConfig& config = {});

  // One command, answered as the RTL answers it when the commands are executed in order.
  HashResponse execute(const HashCommand& command) override;

  // --- node-table shaped calls (ftl/extent/vet/node_table.h), returning the hardware's status ---
  // kHit (value set) or kMiss.
  HashStatus find(uint64_t key, NodeValue& value);
  // kDone (stored in a free way), kHit (was present: value replaced) or kOverflow.
  HashStatus insert(uint64_t key, const NodeValue& value);
  // kHit (replaced) or kMiss (absent, nothing stored).
  HashStatus update(uint64_t key, const NodeValue& value);
  // kHit (removed) or kMiss.
  HashStatus erase(uint64_t key);
  void clear();
  // kHit (the leaf holding `address`), kInternal (no leaf; the deepest internal node probed) or
  // kMiss, with the node's key, value, way and the probe count.
  HashResponse multi_lookup(uint64_t address, uint32_t bits);

  // --- the table as it stands (not counted, no cycles) ---
  uint64_t size() const { return m_size; }
  uint64_t slots() const { return m_slots.size(); }
  uint32_t buckets() const { return 1u << m_config.bucket_bits; }
  uint32_t ways() const { return m_config.ways; }
  const HashEngineConfig& config() const override { return m_config; }
  // Valid keys in the bucket of `key` (the overflow rule: an absent key overflows when == ways).
  uint32_t bucket_load(uint64_t key) const;
  uint32_t bucket_of(uint64_t key) const;
  // On-chip memory when each stored node takes `node_bytes`: every slot, plus a valid bit each.
  uint64_t memory_bytes(uint32_t node_bytes) const;
  void for_each(const std::function<void(uint64_t, const NodeValue&)>& visit) const override;
  bool peek(uint64_t key, NodeValue& value) const override;

  // The key VET's binary search probes at depth `depth` (level = bits - depth) for `address`.
  static uint64_t probe_key(uint64_t address, uint32_t bits, uint32_t depth);
  static uint32_t bucket_of(uint64_t key, uint32_t bucket_bits);
  static bool is_leaf(const NodeValue& v) { return v.w1 != 0; }

 private:
  struct Slot {
    bool valid = false;
    uint64_t key = 0;
    NodeValue value;
  };
  struct Probe {  // the outcome of reading one bucket
    bool hit = false;
    uint32_t hit_way = 0;
    bool full = true;
    uint32_t free_way = 0;
  };

  Probe probe(uint32_t bucket, uint64_t key) const;
  Slot& slot(uint32_t bucket, uint32_t way) {
    return m_slots[size_t{bucket} * m_config.ways + way];
  }
  const Slot& slot(uint32_t bucket, uint32_t way) const {
    return m_slots[size_t{bucket} * m_config.ways + way];
  }
  HashResponse run_multi_lookup(uint64_t address, uint32_t bits);

  HashEngineConfig m_config;
  std::vector<Slot> m_slots;  // bucket-major: bucket b, way w at b * ways + w
  uint64_t m_size = 0;
};

}  // namespace ssd::rtl
