// Primitive work the FTL processor did for one command, one counter per primitive of
// config/cpu_primitives.h (table lookups, hash probes, tree-node visits, list steps, NAND commands
// issued, DRAM bytes copied, accelerator commands); the platform prices each in CPU cycles. Also
// the accelerator's own cycles the CPU waited for, which are timed at the engine's clock instead.
#pragma once

#include <cstdint>

#include "config/cpu_primitives.h"
#include "config/platform_config.h"

namespace ssd::ftl {

struct CpuWork {
#define SSD_COUNT_FIELD(count, unit, default_cycles, is_mapping, description) uint64_t count = 0;
  SSD_CPU_PRIMITIVES(SSD_COUNT_FIELD)
#undef SSD_COUNT_FIELD
  // VET's hash-lookup accelerator (ftl/extent/vet/accelerator_table.h): the latencies of the
  // commands the CPU waited for, summed, in accelerator clock cycles.
  uint64_t accelerator_cycles = 0;

  void clear() { *this = CpuWork{}; }
  CpuWork& operator+=(const CpuWork& o) {
#define SSD_ADD_FIELD(count, unit, default_cycles, is_mapping, description) count += o.count;
    SSD_CPU_PRIMITIVES(SSD_ADD_FIELD)
#undef SSD_ADD_FIELD
    accelerator_cycles += o.accelerator_cycles;
    return *this;
  }
  // The work done between two readings of the same counters (`later` - `earlier`).
  friend CpuWork operator-(CpuWork later, const CpuWork& earlier) {
#define SSD_SUBTRACT_FIELD(count, unit, default_cycles, is_mapping, description) \
  later.count -= earlier.count;
    SSD_CPU_PRIMITIVES(SSD_SUBTRACT_FIELD)
#undef SSD_SUBTRACT_FIELD
    later.accelerator_cycles -= earlier.accelerator_cycles;
    return later;
  }
};

// The CPU cycles `work`'s mapping primitives cost at `controller`'s prices (the primitives
// config/cpu_primitives.h marks as mapping work), unrounded.
inline double mapping_cycles(const CpuWork& work, const config::ControllerConfig& controller) {
  double cycles = 0.0;
#define SSD_PRICE_MAPPING(count, unit, default_cycles, is_mapping, description) \
  if (is_mapping) cycles += double(work.count) * controller.cycles_per_##unit;
  SSD_CPU_PRIMITIVES(SSD_PRICE_MAPPING)
#undef SSD_PRICE_MAPPING
  return cycles;
}

}  // namespace ssd::ftl
