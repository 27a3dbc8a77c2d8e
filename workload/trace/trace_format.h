// The trace formats the replayer reads, their names in scenario files, and auto-detection from
// the first lines of a file (docs/traces.md explains each format and the detection rules).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ssd::workload {

enum class TraceFormat { kMsr, kSpc, kMqsim, kDisksim, kBlkparse, kFio };

std::string_view format_name(TraceFormat format);  // "msr", "spc", ...
std::optional<TraceFormat> format_from_name(std::string_view name);
const std::vector<std::string_view>& format_names();

// The format the first non-empty lines look like, or nullopt when none matches.
std::optional<TraceFormat> detect_format(const std::vector<std::string>& first_lines);

}  // namespace ssd::workload
