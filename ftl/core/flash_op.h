// The record of one operation the FTL asked of the hardware while it served a command. The FTL
// applies every operation to the functional state at once and appends it here; the controller
// model then schedules the list on the timed resources (models/). Nothing here knows about time
// except the dependency between operations of the same command.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "ftl/core/types.h"

namespace ssd::ftl {

enum class OpKind : uint8_t {
  kRead,       // page read (tR) and transfer of `bytes` over the channel
  kSpareRead,  // spare-area-only read (its own array time) and transfer of `bytes`
  kProgram,    // transfer of `bytes` in, then tPROG
  kErase,      // tBERS, no data
  kDramRead,   // controller DRAM access of `bytes`
  kDramWrite,
  kNvramRead,  // controller NVRAM access of `bytes`
  kNvramWrite,
};

// Who asked: sets the priority on a die (host reads before host writes before GC).
enum class OpClass : uint8_t { kHostRead = 0, kHostWrite = 1, kGc = 2 };
inline constexpr int kOpClasses = 3;

struct FlashOp {
  OpKind kind;
  OpClass op_class;
  uint32_t die;    // flat die number (geometry.h); unused for memory operations
  uint32_t bytes;  // data moved over the channel or to/from memory
  uint32_t after;  // index of the operation in the same list this one waits for, or kNone
  PageId page;     // page (or first page of the block, for erases); for traces and journals
};

inline bool is_flash_op(OpKind kind) { return kind <= OpKind::kErase; }

// Primitive work the FTL processor did for one command; the platform prices each in CPU cycles.
struct CpuWork {
  uint64_t table_lookups = 0;  // direct-indexed table reads/writes (page-map entries)
  uint64_t hash_probes = 0;
  uint64_t tree_nodes = 0;
  uint64_t list_steps = 0;
  uint64_t flash_ops = 0;   // NAND commands issued (firmware cost of building each one)
  uint64_t dram_bytes = 0;  // bytes the CPU copied or touched in DRAM
  // VET's hash-lookup accelerator (ftl/extent/vet/accelerator_table.h): commands the CPU issued and
  // waited for, and their latencies summed, in accelerator clock cycles.
  uint64_t accelerator_commands = 0;
  uint64_t accelerator_cycles = 0;

  void clear() { *this = CpuWork{}; }
  CpuWork& operator+=(const CpuWork& o) {
    table_lookups += o.table_lookups;
    hash_probes += o.hash_probes;
    tree_nodes += o.tree_nodes;
    list_steps += o.list_steps;
    flash_ops += o.flash_ops;
    dram_bytes += o.dram_bytes;
    accelerator_commands += o.accelerator_commands;
    accelerator_cycles += o.accelerator_cycles;
    return *this;
  }
  // The work done between two readings of the same counters (`later` - `earlier`).
  friend CpuWork operator-(CpuWork later, const CpuWork& earlier) {
    later.table_lookups -= earlier.table_lookups;
    later.hash_probes -= earlier.hash_probes;
    later.tree_nodes -= earlier.tree_nodes;
    later.list_steps -= earlier.list_steps;
    later.flash_ops -= earlier.flash_ops;
    later.dram_bytes -= earlier.dram_bytes;
    later.accelerator_commands -= earlier.accelerator_commands;
    later.accelerator_cycles -= earlier.accelerator_cycles;
    return later;
  }
};

// The operations of one command; reused from command to command so the hot path never allocates.
class OpList {
 public:
  void clear() { m_ops.clear(); }
  uint32_t push(const FlashOp& op) {
    m_ops.push_back(op);
    return static_cast<uint32_t>(m_ops.size() - 1);
  }
  const std::vector<FlashOp>& ops() const { return m_ops; }
  size_t size() const { return m_ops.size(); }
  const FlashOp& operator[](size_t i) const { return m_ops[i]; }

 private:
  std::vector<FlashOp> m_ops;
};

}  // namespace ssd::ftl
