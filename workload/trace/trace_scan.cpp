#include "workload/trace/trace_scan.h"

#include <algorithm>
#include <limits>

#include "workload/trace/trace_error.h"

namespace ssd::workload {

TraceSummary scan_trace(const TraceSpec& spec) {
  TraceSummary summary;
  summary.spec = spec;
  summary.min_offset_bytes = std::numeric_limits<uint64_t>::max();
  TraceReader reader(spec);
  TraceRecord record;
  while (reader.next(record)) {
    if (record.device >= summary.devices.size()) summary.devices.resize(record.device + 1);
    TraceDeviceExtent& device = summary.devices[record.device];
    device.device_number = record.device_number;
    ++device.records;
    summary.flushes += record.flush_before ? 1 : 0;
    summary.fua_writes += record.fua ? 1 : 0;
    summary.duration_ns = record.time_ns;
    summary.last_line = reader.line_number();
    switch (record.kind) {
      case ftl::CommandKind::kRead:
        ++summary.reads;
        summary.bytes_read += record.size_bytes;
        break;
      case ftl::CommandKind::kWrite:
        ++summary.writes;
        summary.bytes_written += record.size_bytes;
        break;
      case ftl::CommandKind::kTrim:
        ++summary.trims;
        summary.bytes_trimmed += record.size_bytes;
        break;
      case ftl::CommandKind::kFlush:
        ++summary.flushes;
        continue;  // no extent
    }
    const uint64_t end = record.offset_bytes + record.size_bytes;
    summary.min_offset_bytes = std::min(summary.min_offset_bytes, record.offset_bytes);
    summary.max_end_bytes = std::max(summary.max_end_bytes, end);
    if (end > device.end_bytes) {
      device.end_bytes = end;
      device.end_line = reader.line_number();
    }
  }
  summary.read = reader.stats();
  if (summary.min_offset_bytes > summary.max_end_bytes) summary.min_offset_bytes = 0;
  if (summary.read.records == 0) {
    std::string why = "no requests to replay";
    if (spec.only_device) why += " for device " + std::to_string(*spec.only_device);
    if (summary.read.skipped_lines)
      why += " (" + std::to_string(summary.read.skipped_lines) + " bad lines skipped)";
    if (const std::string ignored = reader.ignored_summary(); !ignored.empty()) {
      why += ": " + ignored;
    }
    throw TraceError(spec.path, 0, why);
  }
  return summary;
}

uint64_t devices_replayed(const TraceSummary& summary) {
  uint64_t count = 0;
  for (const TraceDeviceExtent& device : summary.devices) count += device.records > 0 ? 1 : 0;
  return count;
}

std::string trace_line_text(const std::string& path, uint64_t line) {
  LineReader reader(path);
  std::string_view text;
  while (reader.next(text)) {
    if (reader.line_number() == line) return std::string(text.substr(0, 200));
  }
  return {};
}

}  // namespace ssd::workload
