// `ssdsim run --fio JOB.fio` (docs/clients.md): the job file's jobs become the scenario's workload
// streams, and what fio.json echoes of the file is kept for the output.
#pragma once

#include <string>
#include <vector>

#include "config/config_loader.h"
#include "report/fio_json.h"

namespace ssd::tools {

// Reads `path` and makes its jobs the workload of `config` (already loaded: its platform is what
// sizes are checked against), named after the file. Throws workload::FioJobError or
// config::ConfigError. `notes`: the options accepted and ignored, "FILE:LINE: ...".
report::FioOutputOptions apply_fio_job_file(const std::string& path, config::LoadedConfig& config,
                                            std::vector<std::string>& notes);

}  // namespace ssd::tools
