// fio's JSON output (`--output-format=json` and `json+`) made from a run's report, so that the
// tools people already point at fio's results (fio_jsonplus_clat2csv, fio-plot, their own
// scripts) read ours unchanged. Each stream of the run (RunReport::streams) is one of fio's jobs;
// its figures are simulated: the latencies are the simulated device's, the runtime is simulated
// time. The document is deterministic: no wall-clock value appears in it. docs/clients.md lists
// every field and what it holds here.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "report/run_report.h"

namespace ssd::report {

// What the job file said of a job (its section name and options), echoed as fio echoes them.
struct FioJobOptions {
  std::string name;
  std::vector<std::pair<std::string, std::string>> options;  // the job section's own, in order
};

struct FioOutputOptions {
  bool plus = false;  // json+: each latency distribution's histogram bins too
  std::vector<std::pair<std::string, std::string>> global_options;  // the [global] section's
  std::vector<FioJobOptions> jobs;  // per stream, in order (fewer: the rest named after it)
};

// fio's whole JSON document for `report`: one job per stream (or one for the whole run when
// report.streams is empty), then disk_util. An ordered_json, because fio's readers and people
// comparing files expect fio's key order, which nlohmann::json (sorted keys) would lose.
nlohmann::ordered_json fio_json(const RunReport& report, const FioOutputOptions& options);

}  // namespace ssd::report
