// What VET's hash-table commands and answers look like, and the one interface the hash-lookup
// engines answer them through. The FTL owns this interface; rtl/ implements it twice, as the C++
// reference model (rtl/model/vet_hash_model.h) and as the Verilated RTL
// (rtl/verilated_hash_engine.h). Both give the same answers and the same cycle counts for the
// same command sequence; the RTL tests check it. Plain C++17.
#pragma once

#include <cstdint>
#include <functional>

#include "ftl/extent/vet/node_table.h"

namespace ssd::ftl {

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
  uint8_t op = 0;     // a HashOp, or any other 3-bit code
  uint64_t key = 0;   // the key; multi-level: the logical address
  NodeValue value;    // insert, update
  uint32_t bits = 0;  // multi-level: B, the universe's address bits (0..63; VET uses <= 58)
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

// Executes commands in order, one at a time, each on an idle engine.
class HashEngine {
 public:
  virtual ~HashEngine() = default;
  virtual HashResponse execute(const HashCommand& command) = 0;
  virtual const HashEngineConfig& config() const = 0;
  // Every stored entry, in no particular order; not a command (no cycles): for checks and tests.
  virtual void for_each(const std::function<void(uint64_t, const NodeValue&)>& visit) const = 0;
  // The value of `key`, looked at without a command (no cycles): for statistics and checks.
  virtual bool peek(uint64_t key, NodeValue& value) const = 0;
};

}  // namespace ssd::ftl
