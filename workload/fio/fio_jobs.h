// What an fio job file asks of the simulated device, as one workload stream per job (numjobs
// copies of a job are as many streams): each job's options, [global]'s first, are translated into
// the synthetic generator's settings (config::WorkloadConfig). docs/clients.md lists the options
// taken and how each maps. An option fio has that the simulator does not model is an error naming
// the file, the line and the option, never silently dropped; those that only say how fio reaches
// a device (ioengine, direct, filename...) are accepted and noted.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "config/scenario_config.h"
#include "workload/fio/fio_job_file.h"

namespace ssd::workload {

struct FioJob {
  std::string name;
  config::WorkloadConfig workload;
  // The options fio would echo under "job options": the job section's own, as written.
  std::vector<std::pair<std::string, std::string>> options;
  double think_us = 0.0;   // thinktime: a slot idles this long after its command completes
  double rate_iops = 0.0;  // rate_iops (0: none)
  uint32_t group = 0;      // reporting group: the stonewalls at or before the job
};

struct FioJobs {
  std::vector<FioJob> jobs;
  std::vector<std::pair<std::string, std::string>> global_options;  // as written
  std::vector<std::string> notes;  // "FILE:LINE: ..." for each option accepted and ignored
  // ramp_time: the jobs run this long before anything is measured (the same for every job, in
  // one reporting group); their runtime counts from its end.
  double ramp_ms = 0.0;
};

// The device as the host sees it: what sizes and offsets are checked against.
struct FioDevice {
  uint64_t logical_bytes = 0;
  uint32_t sector_bytes = 512;
  uint32_t max_queue_depth = 0;  // host.max_queue_depth (0: no check)
};

// Throws FioJobError (file, line, option) for an option that is not modelled, a bad value, or a
// job that does not fit the device.
FioJobs translate_fio_jobs(const FioJobFile& file, const FioDevice& device);

}  // namespace ssd::workload
