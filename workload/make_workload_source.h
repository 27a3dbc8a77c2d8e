// Builds the workload source a scenario asks for: the synthetic generator, or a trace replayer
// (which first scans the whole trace to validate it and place it on the device). Throws
// TraceError for a trace that cannot be replayed: bad input, found before anything runs.
#pragma once

#include <cstdint>
#include <memory>

#include "config/scenario_config.h"
#include "workload/workload_source.h"

namespace ssd::workload {

std::unique_ptr<WorkloadSource> make_workload_source(const config::WorkloadConfig& config,
                                                     uint64_t logical_bytes, uint32_t sector_bytes);

}  // namespace ssd::workload
