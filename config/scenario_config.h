// Scenario description: what the host does to the device (workload, preconditioning, run options).
// Filled from a scenario TOML file plus --set overrides by config/config_loader.h; every field has
// exactly one TOML key, named in the comment. Plain data, no SystemC.
#pragma once

#include <cstdint>
#include <string>

namespace ssd::config {

struct WorkloadConfig {
  std::string kind = "synthetic";       // workload.kind (only "synthetic" for now)
  std::string pattern = "random";       // workload.pattern: "random" | "sequential"
  double read_ratio = 0.5;              // workload.read_ratio (share of data commands)
  double trim_ratio = 0.0;              // workload.trim_ratio (share of data commands)
  std::string size_distribution = "fixed";  // workload.size_distribution: "fixed" | "uniform"
  uint64_t request_bytes = 4096;        // workload.request_bytes (fixed size, or uniform minimum)
  uint64_t request_bytes_max = 0;       // workload.request_bytes_max (uniform maximum; 0 = min)
  uint64_t align_bytes = 4096;          // workload.align_bytes (start and size granularity)
  uint64_t address_start_bytes = 0;     // workload.address_start_bytes
  uint64_t address_span_bytes = 0;      // workload.address_span_bytes (0 = to device end)
  uint64_t requests = 10000;            // workload.requests (0 = unlimited, needs duration)
  double duration_ms = 0.0;             // workload.duration_ms (0 = unlimited, needs requests)
  std::string mode = "closed";          // workload.mode: "closed" (fixed QD) | "open" (arrivals)
  uint32_t queue_depth = 32;            // workload.queue_depth (closed loop)
  double interarrival_us = 100.0;       // workload.interarrival_us (open loop, mean)
  std::string arrival = "fixed";        // workload.arrival: "fixed" | "poisson" (open loop)
  uint64_t flush_every_writes = 0;      // workload.flush_every_writes (0 = never)
  uint64_t seed = 1;                    // workload.seed
};

struct PreconditionConfig {
  double fill_ratio = 0.0;              // precondition.fill_ratio (share of logical space written
                                        //   sequentially before the run, untimed)
  double overwrite_ratio = 0.0;         // precondition.overwrite_ratio (random overwrites after the
                                        //   fill, as a multiple of the logical capacity)
  uint64_t seed = 7;                    // precondition.seed
};

struct RunConfig {
  bool oracle = true;                   // run.oracle (check every read against the last write)
  bool progress = true;                 // run.progress (print progress on long runs)
  bool request_log = false;             // run.request_log (write DIR/requests.csv)
};

struct ScenarioConfig {
  std::string name = "default";         // scenario.name
  WorkloadConfig workload;
  PreconditionConfig precondition;
  RunConfig run;
};

}  // namespace ssd::config
