// The C++ reference model of rtl/vet_hash_engine.sv: the same table (2^bucket_bits buckets x ways
// slots), the same hash and bucket (ftl/vet/vet_hash.h, top bits), the same way choice (the lowest
// free way), the same overflow rule (INSERT of an absent key into a full bucket stores nothing),
// the same multi-level lookup and probe count, and the RTL's latency in cycles for every command.
// Plain C++17: no SystemC, no Verilator. It models the answers and cycle counts, not the
// pipeline's registers; the RTL tests check both against the Verilated engine.
//
// The node-table shaped calls (find, insert, update, erase, clear) mirror ftl/vet/node_table.h
// but return the hardware's answer, overflow included; an adapter to NodeTable comes later.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "ftl/vet/node_table.h"

namespace ssd::rtl {

using NodeValue = ftl::NodeValue;

// Command codes (cmd_op), as in the RTL.
enum class HashOp : uint8_t {
  kFind = 0,
  kInsert = 1,       // stores the key; a present key gets the new value
  kUpdate = 2,       // replaces the value of a present key
  kDelete = 3,       // removes the key
  kClear = 4,        // removes every key
  kMultiLookup = 5,  // VET's binary search on levels for one logical address
};
inline constexpr uint8_t kHashOpCount = 8;  // cmd_op is 3 bits; 6 and 7 answer kBadCommand

// Answers (rsp_status), as in the RTL.
enum class HashStatus : uint8_t {
  kMiss = 0,        // absent; multi-level: no node on the search path
  kHit = 1,         // present; multi-level: a leaf holds the address
  kDone = 2,        // insert stored a new entry; clear done
  kOverflow = 3,    // insert: the key's bucket is full, nothing stored
  kInternal = 4,    // multi-level: no leaf holds the address; the deepest internal node seen
  kBadCommand = 5,  // unknown op code, nothing done
};

const char* to_string(HashOp op);
const char* to_string(HashStatus status);

struct HashEngineConfig {
  uint32_t bucket_bits = 10;  // 1..13
  uint32_t ways = 4;          // 1..16
};

struct HashCommand {
  uint8_t op = 0;        // a HashOp, or any other 3-bit code
  uint64_t key = 0;      // the key; multi-level: the logical address
  NodeValue value;       // insert, update
  uint32_t bits = 0;     // multi-level: B, the universe's address bits (0..63; VET uses <= 58)
};

struct HashResponse {
  HashStatus status = HashStatus::kMiss;
  uint64_t key = 0;     // the command's key; multi-level: the node returned (0 on a miss)
  NodeValue value;      // find, delete: the stored value; insert, update: the new value;
                        // multi-level: the node's value; 0 on a miss, overflow, clear
  uint32_t way = 0;     // the slot's way, 0 when there is none
  uint32_t probes = 0;  // table probes: 1 for single-key commands, 0 for clear, 1..7 multi-level
  // Cycles from the accepting edge to the response: the response is valid in cycle
  // accept + latency_cycles.
  uint32_t latency_cycles = 0;
  // Cycles from this command's acceptance to the earliest cycle the next one can be accepted.
  uint32_t issue_cycles = 0;

  bool operator==(const HashResponse& o) const {
    return status == o.status && key == o.key && value == o.value && way == o.way &&
           probes == o.probes && latency_cycles == o.latency_cycles &&
           issue_cycles == o.issue_cycles;
  }
  bool operator!=(const HashResponse& o) const { return !(*this == o); }
};

class HashEngineModel {
 public:
  // The RTL's fixed latencies (rtl/README.md).
  static constexpr uint32_t kPipelineCycles = 3;  // accept, S1, S2: the response the cycle after
  static constexpr uint32_t kCyclesPerProbe = 2;  // a multi-level probe recirculates S1, S2
  static constexpr uint32_t kMaxProbes = 7;       // binary search over 64 depths

  explicit HashEngineModel(const HashEngineConfig& config = {});

  // One command, answered as the RTL answers it when the commands are executed in order.
  HashResponse execute(const HashCommand& command);

  // --- node-table shaped calls (ftl/vet/node_table.h), returning the hardware's status ---
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
  const HashEngineConfig& config() const { return m_config; }
  // Valid keys in the bucket of `key` (the overflow rule: an absent key overflows when == ways).
  uint32_t bucket_load(uint64_t key) const;
  uint32_t bucket_of(uint64_t key) const;
  // On-chip memory when each stored node takes `node_bytes`: every slot, plus a valid bit each.
  uint64_t memory_bytes(uint32_t node_bytes) const;
  void for_each(const std::function<void(uint64_t, const NodeValue&)>& visit) const;

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
  Slot& slot(uint32_t bucket, uint32_t way) { return m_slots[size_t{bucket} * m_config.ways + way]; }
  const Slot& slot(uint32_t bucket, uint32_t way) const {
    return m_slots[size_t{bucket} * m_config.ways + way];
  }
  HashResponse run_multi_lookup(uint64_t address, uint32_t bits);

  HashEngineConfig m_config;
  std::vector<Slot> m_slots;  // bucket-major: bucket b, way w at b * ways + w
  uint64_t m_size = 0;
};

}  // namespace ssd::rtl
