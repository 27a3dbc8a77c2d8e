// The first of the two streaming passes over a trace: validates every line (so a bad line stops
// the run before anything is simulated) and measures what placing the trace on the device needs:
// the devices it names and how far each one's addresses reach. Also the figures tests and the
// report quote: request counts by kind, bytes, address span. Constant memory.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "workload/trace/trace_reader.h"

namespace ssd::workload {

struct TraceDeviceExtent {
  uint64_t device_number = 0;  // as the trace names it
  uint64_t end_bytes = 0;      // one past the highest byte addressed
  uint64_t end_line = 0;       // the line that reaches end_bytes
  uint64_t records = 0;        // 0 for a device seen only on lines not replayed
};

struct TraceSummary {
  TraceSpec spec;
  TraceReadStats read;
  std::vector<TraceDeviceExtent> devices;  // by dense device index
  // Counts of host commands the trace turns into (flushes include blkparse preflush ones; FUA
  // writes are among the writes, and counted again in fua_writes).
  uint64_t reads = 0, writes = 0, trims = 0, flushes = 0, fua_writes = 0;
  uint64_t bytes_read = 0, bytes_written = 0, bytes_trimmed = 0;
  uint64_t min_offset_bytes = 0;  // lowest byte addressed by a data request (any device)
  uint64_t max_end_bytes = 0;     // one past the highest
  uint64_t duration_ns = 0;       // time of the last record after rebasing
  uint64_t last_line = 0;         // the line of that record
};

// Devices with at least one record replayed.
uint64_t devices_replayed(const TraceSummary& summary);

// Reads the whole trace once. Throws TraceError on the first bad line (unless skipping) and when
// the trace holds no record to replay.
TraceSummary scan_trace(const TraceSpec& spec);

// The text of line `line` of `path` (for messages about a line found in an earlier pass).
std::string trace_line_text(const std::string& path, uint64_t line);

}  // namespace ssd::workload
