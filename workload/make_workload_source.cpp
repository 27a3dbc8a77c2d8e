#include "workload/make_workload_source.h"

#include "ftl/core/checked_time.h"
#include "workload/flush_injector.h"
#include "workload/fua_marker.h"
#include "workload/synthetic_generator.h"
#include "workload/trace/trace_error.h"
#include "workload/trace/trace_layout.h"
#include "workload/trace/trace_replayer.h"
#include "workload/trace/trace_scan.h"

namespace ssd::workload {

namespace {

std::unique_ptr<WorkloadSource> make_trace_replayer(const config::WorkloadConfig& config,
                                                    uint64_t logical_bytes, uint32_t sector_bytes) {
  TraceSpec spec = resolve_trace(config.trace_file, config.trace_format, config.blkparse_action,
                                 config.skip_bad_lines);
  if (config.device != "all") spec.only_device = std::stoull(config.device);
  spec.check_time = config.mode == "open";
  const TraceSummary summary = scan_trace(spec);
  // Open loop replays each record at its time / speed: the last must come before the latest
  // simulated time, checked here so that nothing runs when it does not.
  const double last_arrival_ps = double(summary.duration_ns) * 1000.0 / config.speed;
  if (spec.check_time && last_arrival_ps > double(ftl::kLatestTime)) {
    throw TraceError(spec.path, summary.last_line,
                     ftl::past_latest_time("this request's arrival (its time / workload.speed)",
                                           last_arrival_ps) +
                         "; replay it closed loop (workload.mode=closed) or faster "
                         "(workload.speed)",
                     trace_line_text(spec.path, summary.last_line));
  }
  const TraceLayout layout(summary, logical_bytes, sector_bytes, fit_mode_from_name(config.fit));
  TraceReplayOptions options;
  options.open_loop = config.mode == "open";
  options.speed = config.speed;
  options.max_requests = config.requests;
  options.fit = config.fit;
  options.device_selection = config.device;
  return std::make_unique<TraceReplayer>(summary, layout, options);
}

}  // namespace

std::unique_ptr<WorkloadSource> make_workload_source(const config::WorkloadConfig& config,
                                                     uint64_t logical_bytes,
                                                     uint32_t sector_bytes) {
  std::unique_ptr<WorkloadSource> source;
  if (config.kind == "trace") {
    source = make_trace_replayer(config, logical_bytes, sector_bytes);
    if (config.flush_every_writes != 0) {
      source = std::make_unique<FlushInjector>(std::move(source), config.flush_every_writes);
    }
  } else {
    source = std::make_unique<SyntheticGenerator>(config, logical_bytes, sector_bytes);
  }
  if (config.fua_ratio == 0.0) return source;
  return std::make_unique<FuaMarker>(std::move(source), config.fua_ratio, config.seed);
}

}  // namespace ssd::workload
