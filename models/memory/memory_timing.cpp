#include "models/memory/memory_timing.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "ftl/core/checked_time.h"

namespace ssd::models {

MemoryTimingParams MemoryTimingParams::from_config(const config::MemoryConfig& memory) {
  MemoryTimingParams p;
  p.read_latency = ftl::checked_ps(memory.read_latency_ns * 1e3, "a memory's read_latency_ns");
  p.write_latency = ftl::checked_ps(memory.write_latency_ns * 1e3, "a memory's write_latency_ns");
  p.ps_per_byte = memory.bandwidth_mb_s > 0.0 ? 1e6 / memory.bandwidth_mb_s : 0.0;
  p.capacity_bytes = memory.capacity_bytes;
  p.persistent = memory.kind != "dram";
  return p;
}

MemoryTiming::MemoryTiming(const MemoryTimingParams& params) : m_params(params) {
  if (!(params.ps_per_byte >= 0.0)) {
    throw std::invalid_argument("MemoryTiming: ps_per_byte must be a non-negative number");
  }
}

Picoseconds MemoryTiming::schedule(bool is_write, uint32_t bytes, Picoseconds ready) {
  const Picoseconds transfer = transfer_ps(bytes);
  const Picoseconds start = std::max(ready, m_busy_until);
  m_busy_until = start + transfer;
  m_counters.busy_ps += transfer;
  if (is_write) {
    ++m_counters.writes;
    m_counters.write_bytes += bytes;
  } else {
    ++m_counters.reads;
    m_counters.read_bytes += bytes;
  }
  return start + (is_write ? m_params.write_latency : m_params.read_latency) + transfer;
}

}  // namespace ssd::models
