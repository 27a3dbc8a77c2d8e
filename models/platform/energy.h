// The run's energy (energy.* of the platform, docs/report.md#energy): NAND array work from the
// array time each operation took at its current, the channel's transfers at the I/O current,
// each die's standby current while it did nothing; DRAM and NVRAM per byte moved; the FTL
// processor per cycle; the controller's idle power over the whole run. A part whose figures the
// platform does not give counts 0.
#pragma once

#include <cstdint>

#include "config/platform_config.h"
#include "models/nand/nand_timing.h"
#include "report/run_report.h"

namespace ssd::models {

struct EnergyInputs {
  const NandCounters* nand = nullptr;
  uint32_t dies = 0;
  uint64_t simulated_ns = 0;
  uint64_t cpu_cycles = 0;
  uint64_t dram_bytes = 0;
  uint64_t nvram_bytes = 0;
};

report::RunReport::Energy energy_of(const config::EnergyConfig& figures, const EnergyInputs& in);

}  // namespace ssd::models
