#include "tools/ssdsim/fio_run.h"

#include <filesystem>

#include "config/capacity.h"
#include "workload/fio/fio_jobs.h"

namespace ssd::tools {

report::FioOutputOptions apply_fio_job_file(const std::string& path, config::LoadedConfig& config,
                                            std::vector<std::string>& notes) {
  const workload::FioJobFile file = workload::read_fio_job_file(path);
  const config::PlatformConfig& platform = config.platform;
  workload::FioDevice device;
  device.logical_bytes = config::logical_capacity_bytes(platform);
  device.sector_bytes = platform.nand.sector_bytes;
  device.max_queue_depth = platform.host.max_queue_depth;
  const workload::FioJobs jobs = workload::translate_fio_jobs(file, device);

  config::ScenarioConfig& scenario = config.scenario;
  scenario.name = std::filesystem::path(path).filename().string();
  scenario.workload = jobs.jobs.front().workload;
  scenario.streams.clear();
  scenario.ramp_us = jobs.ramp_ms * 1e3;
  report::FioOutputOptions output;
  output.global_options = jobs.global_options;
  for (const workload::FioJob& job : jobs.jobs) {
    scenario.streams.push_back({job.name, job.workload, job.think_us, job.rate_iops, job.group});
    output.jobs.push_back({job.name, job.options});
  }
  config::validate_scenario(scenario, platform, path);
  notes = jobs.notes;
  return output;
}

}  // namespace ssd::tools
