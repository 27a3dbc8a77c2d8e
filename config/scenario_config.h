// Scenario description: what the host does to the device (workload, preconditioning, run options).
// Filled from a scenario TOML file plus --set overrides by config/config_loader.h; every field has
// exactly one TOML key, named in the comment. Plain data, no SystemC.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ssd::config {

struct WorkloadConfig {
  std::string kind = "synthetic";  // workload.kind: "synthetic" | "trace"
  std::string pattern = "random";  // workload.pattern: "random" | "sequential"
  double read_ratio = 0.5;         // workload.read_ratio (share of data commands)
  // workload.hot_span_ratio / hot_access_ratio: with random addresses, the first
  // hot_span_ratio of the span takes hot_access_ratio of the requests (0 = uniform).
  double hot_span_ratio = 0.0;
  double hot_access_ratio = 0.0;
  double trim_ratio = 0.0;                  // workload.trim_ratio (share of data commands)
  std::string size_distribution = "fixed";  // workload.size_distribution: "fixed" | "uniform"
                                            //   | "split"
  // workload.split_bytes / split_weights (size_distribution "split"): the sizes and their shares
  // (any scale), as fio's bssplit.
  std::vector<uint32_t> split_bytes;
  std::vector<double> split_weights;
  // workload.address_distribution (random pattern): "uniform" | "zipf" | "pareto" | "normal",
  // and workload.address_skew, its parameter (zipf theta, pareto h, normal deviation in per cent
  // of the span); fio's random_distribution (workload/address_law.h).
  std::string address_distribution = "uniform";
  double address_skew = 0.0;
  uint64_t request_bytes = 4096;     // workload.request_bytes (fixed size, or uniform minimum)
  uint64_t request_bytes_max = 0;    // workload.request_bytes_max (uniform maximum; 0 = min)
  uint64_t align_bytes = 4096;       // workload.align_bytes (start and size granularity)
  uint64_t address_start_bytes = 0;  // workload.address_start_bytes
  uint64_t address_span_bytes = 0;   // workload.address_span_bytes (0 = to device end)
  uint64_t requests = 10000;         // workload.requests (0 = unlimited, needs another bound)
  uint64_t io_bytes = 0;             // workload.io_bytes (synthetic: stop once this much data
                                     //   was read, written or trimmed; 0 = no such bound)
  // workload.random_map (random pattern, fixed size): every position of the span once, in a
  // seeded random order, before any again (fio's random map); false: each drawn independently.
  bool random_map = false;
  double duration_ms = 0.0;         // workload.duration_ms (0 = unlimited, needs requests)
  std::string mode = "closed";      // workload.mode: "closed" (fixed QD) | "open" (arrivals)
  uint32_t queue_depth = 32;        // workload.queue_depth (closed loop)
  double interarrival_us = 100.0;   // workload.interarrival_us (open loop, mean)
  std::string arrival = "fixed";    // workload.arrival: "fixed" | "poisson" (open loop)
  uint64_t flush_every_writes = 0;  // workload.flush_every_writes (0 = never)
  double fua_ratio = 0.0;           // workload.fua_ratio (share of writes sent FUA, seeded)
  // What the host does every flush_every_writes writes (synthetic workload only; the generator
  // says how each call is modelled):
  std::string sync_call = "flush";       // workload.sync_call: "flush" | "fsync" | "fdatasync"
  uint64_t journal_write_bytes = 8192;   // workload.journal_write_bytes (one journal commit)
  uint64_t journal_bytes = 32ull << 20;  // workload.journal_bytes (journal region at the end
                                         //   of the address span; not with "flush")
  uint64_t seed = 1;                     // workload.seed
  uint32_t passes = 1;  // workload.passes (times the workload runs: all but the last untimed, to
                        //   warm the device up; only the last is timed and reported)
  // Trace replay (kind "trace"; docs/traces.md). requests, duration_ms, mode and queue_depth
  // above also apply: a maximum request count, a time window, open or closed loop.
  std::string trace_file;                // workload.trace_file (relative to the scenario file)
  std::string trace_format = "auto";     // workload.trace_format: "auto" | msr spc mqsim disksim
                                         //   blkparse fio
  std::string device = "all";            // workload.device: "all" or one trace device's number
  std::string fit = "error";             // workload.fit: "error" | "wrap" | "scale"
  double speed = 1.0;                    // workload.speed (open loop: trace time divided by this)
  bool skip_bad_lines = false;           // workload.skip_bad_lines
  std::string blkparse_action = "auto";  // workload.blkparse_action: "auto" | "Q" | "D" | "C"

  // The largest request a synthetic workload makes: what the span must hold.
  uint64_t largest_request_bytes() const {
    if (size_distribution == "split") {
      uint64_t largest = 0;
      for (const uint32_t bytes : split_bytes) largest = largest > bytes ? largest : bytes;
      return largest;
    }
    return request_bytes > request_bytes_max ? request_bytes : request_bytes_max;
  }
};

struct PreconditionConfig {
  double fill_ratio = 0.0;       // precondition.fill_ratio (share of logical space written
                                 //   sequentially before the run, untimed)
  double overwrite_ratio = 0.0;  // precondition.overwrite_ratio (random overwrites after the
                                 //   fill, as a multiple of the logical capacity)
  uint64_t seed = 7;             // precondition.seed
  // precondition.aging: how the overwrites are made. "simulated": every one run on the device;
  // "sampled": run on a miniature of `sample_dies` dies, whose blocks are then laid out on every
  // die (ftl/core/sampled_aging.h), for schemes that can; an approximation (docs/ftl.md).
  std::string aging = "simulated";
  // precondition.sample_dies: dies of the miniature (they must divide the device's).
  uint32_t sample_dies = 1;
};

struct RunConfig {
  bool oracle = true;        // run.oracle (check every read against the last write)
  bool progress = true;      // run.progress (print progress on long runs)
  bool request_log = false;  // run.request_log (write DIR/requests.csv)
  // run.timeline: a Chrome/Perfetto trace-event JSON of the run (dies, channels, FTL CPU,
  // accelerator, host queue depth; docs/timeline.md); a relative path is in the output folder.
  std::string timeline;
  double timeline_from_us = 0.0;           // run.timeline_from_us (window start)
  double timeline_to_us = 0.0;             // run.timeline_to_us (window end; 0 = the run's end)
  uint64_t timeline_max_events = 2000000;  // run.timeline_max_events (then the trace stops)
};

// Power cuts during the timed run (docs/power-loss.md): the device loses power, recovers, and the
// workload goes on; after each recovery every unit is checked against what was made durable.
struct PowerConfig {
  double cut_at_us = 0.0;  // power.cut_at_us (one cut at this simulated time; 0 = none)
  uint64_t cuts = 0;       // power.cuts (cuts at random instants over the run, seeded)
  uint64_t seed = 11;      // power.seed (where the random cuts fall)

  bool on() const { return cut_at_us > 0 || cuts > 0; }
};

// A workload stream of its own: an fio job (`ssdsim run --fio`, docs/clients.md). Several run at
// once, each closed loop with its own queue depth, and each is reported on its own.
struct WorkloadStream {
  std::string name;
  WorkloadConfig workload;
  double think_us = 0.0;   // a slot idles this long after its command completes (fio thinktime)
  double rate_iops = 0.0;  // at most this many commands a second (fio rate_iops; 0 = no limit)
  uint32_t group = 0;      // streams of group g start once every earlier group is done (stonewall)
};

struct ScenarioConfig {
  std::string name = "default";  // scenario.name
  WorkloadConfig workload;
  // Set from an fio job file's ramp_time (no TOML key): the streams run this long before the
  // report measures anything (host figures and device counters alike); their time limits count
  // from its end.
  double ramp_us = 0.0;
  // Set from an fio job file (no TOML key): the jobs, run at once instead of `workload` alone
  // (which is then the first job's, for what asks for one workload).
  std::vector<WorkloadStream> streams;
  PreconditionConfig precondition;
  RunConfig run;
  PowerConfig power;
};

}  // namespace ssd::config
