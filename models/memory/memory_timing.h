// Timing of one controller memory port (DRAM or NVRAM: one model, two configurations): a fixed
// read or write latency plus the transfer at the port bandwidth, and a port that carries one
// transfer at a time, so that back-to-back accesses queue for the bandwidth. The port keeps its
// reservations as intervals: an access issued now for later (data that lands once a flash read
// or a cache frame's write-back is done) holds only its own interval, and an access ready
// earlier takes a gap before it instead of queueing behind it. Leaves out banks, rows and
// refresh, and the asymmetric wear of NVRAM. Plain C++ with no SystemC.
#pragma once

#include <cstdint>

#include "config/platform_config.h"
#include "ftl/core/types.h"
#include "models/common/slot_list.h"

namespace ssd::models {

using ftl::Picoseconds;

struct MemoryTimingParams {
  Picoseconds read_latency = 0;
  Picoseconds write_latency = 0;
  double ps_per_byte = 0.0;     // transfer time per byte at the port bandwidth; 0 = unlimited
  uint64_t capacity_bytes = 0;  // 0 = absent memory: every access is out of range
  bool persistent = false;      // content survives a power cut (NVRAM); DRAM does not

  static MemoryTimingParams from_config(const config::MemoryConfig& memory);
};

struct MemoryCounters {
  uint64_t reads = 0;
  uint64_t writes = 0;
  uint64_t read_bytes = 0;
  uint64_t write_bytes = 0;
  Picoseconds busy_ps = 0;  // time the port spent transferring
};

class MemoryTiming {
 public:
  explicit MemoryTiming(const MemoryTimingParams& params);

  // Reserves the port, at simulated time `now`, for an access that can start no earlier than
  // `ready` (>= now); returns its completion: start = the earliest time from `ready` on when the
  // port is free for the whole transfer, completion = start + latency + transfer. The port is
  // held only for the transfer, so the latencies of successive accesses overlap.
  Picoseconds schedule(bool is_write, uint32_t bytes, Picoseconds ready, Picoseconds now);
  Picoseconds schedule(bool is_write, uint32_t bytes, Picoseconds ready) {
    return schedule(is_write, bytes, ready, 0);
  }

  // The power went off at `cut` and came back: the port is free from then on (what was being
  // transferred stopped; NVRAM keeps what had been written, which is the FTL's business).
  void power_off(Picoseconds) { m_busy.clear(); }

  const MemoryCounters& counters() const { return m_counters; }
  const MemoryTimingParams& params() const { return m_params; }
  Picoseconds transfer_ps(uint32_t bytes) const {
    return static_cast<Picoseconds>(bytes * m_params.ps_per_byte + 0.5);
  }

 private:
  // Finds the start of the first gap of `transfer` from `ready` on and reserves it.
  Picoseconds reserve(Picoseconds ready, Picoseconds transfer);

  MemoryTimingParams m_params;
  // The port's busy intervals that have not ended by the latest `now`: sorted, never
  // overlapping, touching ones merged. Nearly every access lands at the end of the list.
  struct Interval {
    Picoseconds start;
    Picoseconds end;
  };
  SlotList<Interval> m_busy;
  MemoryCounters m_counters;
};

}  // namespace ssd::models
