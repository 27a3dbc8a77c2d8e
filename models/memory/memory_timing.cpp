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

Picoseconds MemoryTiming::reserve(Picoseconds ready, Picoseconds transfer) {
  if (transfer == 0) return ready;
  const auto first = m_busy.begin();
  // The first busy interval that ends after `ready`: the one holding `ready`, or the next.
  auto at = std::partition_point(first, m_busy.end(),
                                 [ready](const Interval& busy) { return busy.end <= ready; });
  Picoseconds start = ready;
  for (; at != m_busy.end(); ++at) {
    if (start + transfer <= at->start) break;  // fits in the gap before `at`
    start = std::max(start, at->end);
  }
  const Picoseconds end = start + transfer;
  // Merged with the interval it touches on either side, so a busy port holds few intervals.
  const bool joins_before = at != first && std::prev(at)->end == start;
  const bool joins_after = at != m_busy.end() && at->start == end;
  if (joins_before && joins_after) {
    std::prev(at)->end = at->end;
    m_busy.erase(at);
  } else if (joins_before) {
    std::prev(at)->end = end;
  } else if (joins_after) {
    at->start = start;
  } else {
    m_busy.insert(at, Interval{start, end});
  }
  return start;
}

Picoseconds MemoryTiming::schedule(bool is_write, uint32_t bytes, Picoseconds ready,
                                   Picoseconds now) {
  m_busy.drop_front(std::partition_point(m_busy.begin(), m_busy.end(),
                                         [now](const Interval& busy) { return busy.end <= now; }));
  const Picoseconds transfer = transfer_ps(bytes);
  const Picoseconds start = reserve(ready, transfer);
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
