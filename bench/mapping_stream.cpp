#include "bench/mapping_stream.h"

#include <algorithm>

#include "config/config_loader.h"
#include "ftl/scheme_registry.h"
#include "workload/synthetic_generator.h"
#include "workload/trace/trace_layout.h"
#include "workload/trace/trace_reader.h"
#include "workload/trace/trace_scan.h"

namespace ssd::bench {

namespace {

constexpr uint32_t kSectorBytes = 512;

void add(MappingStream& stream, ftl::CommandKind kind, uint64_t start_sector, uint64_t sectors) {
  if (kind == ftl::CommandKind::kFlush || sectors == 0) return;
  const uint64_t first = start_sector * kSectorBytes / kUnitBytes;
  const uint64_t end = ((start_sector + sectors) * kSectorBytes + kUnitBytes - 1) / kUnitBytes;
  const MappingOp op{kind, static_cast<ftl::Lun>(first), static_cast<uint32_t>(end - first)};
  stream.ops.push_back(op);
  switch (kind) {
    case ftl::CommandKind::kRead:
      ++stream.reads;
      stream.read_units += op.length;
      break;
    case ftl::CommandKind::kWrite:
      ++stream.writes;
      stream.write_units += op.length;
      break;
    default:
      ++stream.trims;
      break;
  }
}

}  // namespace

MappingStream trace_stream(const std::string& path, const std::string& name) {
  using namespace workload;
  const TraceSpec spec = resolve_trace(path, "auto", "auto", /*skip_bad_lines=*/false);
  TraceSpec closed = spec;
  closed.check_time = false;  // the order of the records is what matters here, not their times
  const TraceSummary summary = scan_trace(closed);
  uint64_t largest = 0;
  for (const TraceDeviceExtent& device : summary.devices)
    largest = std::max(largest, device.end_bytes);
  const uint64_t region = (largest + kScaleGrainBytes - 1) / kScaleGrainBytes * kScaleGrainBytes;
  const uint64_t capacity = region * summary.devices.size();
  const TraceLayout layout(summary, capacity, kSectorBytes, FitMode::kError);

  MappingStream stream;
  stream.name = name;
  stream.units = (capacity + kUnitBytes - 1) / kUnitBytes;
  TraceReader reader(closed);
  TraceRecord record;
  Request request;
  while (reader.next(record)) {
    if (record.kind == ftl::CommandKind::kFlush) continue;
    request.kind = record.kind;
    layout.place(record, request);
    add(stream, request.kind, request.start_sector, request.sector_count);
  }
  return stream;
}

MappingStream trace_stream_argument(const std::string& argument) {
  const size_t eq = argument.find('=');
  const std::string path = argument.substr(0, eq);
  const std::string name =
      eq == std::string::npos ? path.substr(path.find_last_of('/') + 1) : argument.substr(eq + 1);
  return trace_stream(path, name);
}

MappingStream synthetic_stream(const std::string& name, const config::WorkloadConfig& workload,
                               uint64_t address_bytes) {
  workload::SyntheticGenerator generator(workload, address_bytes, kSectorBytes);
  MappingStream stream;
  stream.name = name;
  stream.units = address_bytes / kUnitBytes;
  workload::Request request;
  while (generator.next(request))
    add(stream, request.kind, request.start_sector, request.sector_count);
  return stream;
}

MappingStream scenario_stream(const std::string& name, const std::string& scenario_path,
                              uint64_t address_bytes) {
  const config::LoadedConfig loaded =
      config::load_config("", scenario_path, {}, ftl::scheme_catalog());
  return synthetic_stream(name, loaded.scenario.workload, address_bytes);
}

}  // namespace ssd::bench
