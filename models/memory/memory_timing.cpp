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
  // The first busy interval that ends after `ready`: the one holding `ready`, or the next.
  auto at = m_reserved.upper_bound(ready);
  if (at != m_reserved.begin() && std::prev(at)->second > ready) --at;
  Picoseconds start = ready;
  for (; at != m_reserved.end(); ++at) {
    if (start + transfer <= at->first) break;  // fits in the gap before `at`
    start = std::max(start, at->second);
  }
  const Picoseconds end = start + transfer;
  // Merged with the interval it touches on either side, so a busy port holds few intervals.
  auto before = at == m_reserved.begin() ? m_reserved.end() : std::prev(at);
  const bool joins_before = before != m_reserved.end() && before->second == start;
  const bool joins_after = at != m_reserved.end() && at->first == end;
  if (joins_before && joins_after) {
    before->second = at->second;
    m_reserved.erase(at);
  } else if (joins_before) {
    before->second = end;
  } else if (joins_after) {
    const Picoseconds after_end = at->second;
    m_reserved.erase(at);
    m_reserved.emplace(start, after_end);
  } else {
    m_reserved.emplace_hint(at, start, end);
  }
  return start;
}

Picoseconds MemoryTiming::schedule(bool is_write, uint32_t bytes, Picoseconds ready,
                                   Picoseconds now) {
  while (!m_reserved.empty() && m_reserved.begin()->second <= now) {
    m_reserved.erase(m_reserved.begin());
  }
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
