// The scenario keys: one entry per ScenarioConfig field. Ranges here are the checks that need no
// other key; rules against the platform are in scenario_validation.cpp.
#include "config/key_registry.h"

namespace ssd::config {

std::vector<KeyDef> scenario_keys(ScenarioConfig& s) {
  WorkloadConfig& w = s.workload;
  PreconditionConfig& pre = s.precondition;
  return {
      {"scenario.name", &s.name, "Name of the scenario, copied into reports"},

      {"workload.kind", &w.kind, "Workload source", std::nullopt, {"synthetic", "trace"}},
      {"workload.pattern", &w.pattern, "Address pattern", std::nullopt, {"random", "sequential"}},
      {"workload.read_ratio", &w.read_ratio, "Share of data commands that read", closed(0, 1)},
      {"workload.trim_ratio", &w.trim_ratio, "Share of data commands that trim", closed(0, 1)},
      {"workload.size_distribution",
       &w.size_distribution,
       "Request size law",
       std::nullopt,
       {"fixed", "uniform"}},
      {"workload.request_bytes", &w.request_bytes, "Request size (fixed), or uniform minimum",
       at_least(1)},
      {"workload.request_bytes_max", &w.request_bytes_max, "Uniform maximum size (0 = minimum)"},
      {"workload.align_bytes", &w.align_bytes, "Granularity of request start and size",
       at_least(1)},
      {"workload.address_start_bytes", &w.address_start_bytes, "First byte the workload touches"},
      {"workload.address_span_bytes", &w.address_span_bytes,
       "Bytes of address space touched (0 = up to the device end)"},
      {"workload.requests", &w.requests, "Requests to issue (0 = until duration_ms)"},
      {"workload.duration_ms", &w.duration_ms, "Simulated run time (0 = until requests)",
       closed(0, 9.2e9)},
      {"workload.mode",
       &w.mode,
       "closed: fixed queue depth; open: timed arrivals",
       std::nullopt,
       {"closed", "open"}},
      {"workload.queue_depth", &w.queue_depth, "Outstanding requests (closed loop)", at_least(1)},
      {"workload.interarrival_us", &w.interarrival_us, "Mean time between arrivals (open loop)",
       closed(0, 1e9)},
      {"workload.arrival",
       &w.arrival,
       "Arrival law (open loop)",
       std::nullopt,
       {"fixed", "poisson"}},
      {"workload.flush_every_writes", &w.flush_every_writes,
       "Issue a sync call (sync_call, a flush by default) after this many writes (0 = never)"},
      {"workload.sync_call",
       &w.sync_call,
       "What the host does every flush_every_writes writes: a flush, or what fsync or fdatasync "
       "send on ext4",
       std::nullopt,
       {"flush", "fsync", "fdatasync"}},
      {"workload.journal_write_bytes", &w.journal_write_bytes,
       "Size of one journal commit write (sync_call fsync or fdatasync)"},
      {"workload.journal_bytes", &w.journal_bytes,
       "Journal region at the end of the address span (sync_call fsync or fdatasync)"},
      {"workload.seed", &w.seed, "Random seed of the generator"},
      {"workload.passes", &w.passes,
       "Times the workload runs: all but the last untimed, to warm the device up (mapping, GC, "
       "caches); only the last is timed and reported",
       closed(1, 1000)},
      {"workload.trace_file", &w.trace_file,
       "Trace to replay (kind trace); relative to the scenario file's folder"},
      {"workload.trace_format",
       &w.trace_format,
       "Trace format (auto = detect)",
       std::nullopt,
       {"auto", "msr", "spc", "mqsim", "disksim", "blkparse", "fio"}},
      {"workload.device", &w.device,
       "Trace devices replayed: all (each in its own region) or one device's number"},
      {"workload.fit",
       &w.fit,
       "Trace addresses past the device end",
       std::nullopt,
       {"error", "wrap", "scale"}},
      {"workload.speed", &w.speed, "Open-loop replay speed (trace time divided by this)",
       closed(1e-6, 1e6)},
      {"workload.skip_bad_lines", &w.skip_bad_lines,
       "Skip malformed trace lines (counted in the report) instead of stopping"},
      {"workload.blkparse_action",
       &w.blkparse_action,
       "blkparse event replayed (auto = first of Q, D, C present)",
       std::nullopt,
       {"auto", "Q", "D", "C"}},

      {"precondition.fill_ratio", &pre.fill_ratio,
       "Share of logical space written sequentially before the run", closed(0, 1)},
      {"precondition.overwrite_ratio", &pre.overwrite_ratio,
       "Random overwrites after the fill, as a multiple of logical capacity", at_least(0)},
      {"precondition.seed", &pre.seed, "Random seed of the overwrites"},

      {"run.oracle", &s.run.oracle, "Check every read against the last data written"},
      {"run.progress", &s.run.progress, "Print progress on long runs"},
      {"run.request_log", &s.run.request_log, "Write a per-request CSV log"},
  };
}

}  // namespace ssd::config
