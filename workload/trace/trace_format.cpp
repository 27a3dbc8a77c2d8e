// Format names and auto-detection. Detection looks at the shape of the first event lines:
// the fio header; comma-separated lines with 7 fields and Read/Write in the fourth (MSR) or 5+
// fields and r/w in the fourth (SPC); whitespace lines whose first field is "maj,min" (blkparse);
// five whitespace numbers (MQSim when the first is an integer, DiskSim when it has a decimal
// point, since DiskSim counts milliseconds and MQSim whole nanoseconds).
#include "workload/trace/trace_format.h"

#include "workload/trace/field_parsing.h"
#include "workload/trace/trace_parser.h"

namespace ssd::workload {

std::unique_ptr<TraceParser> make_msr_parser();
std::unique_ptr<TraceParser> make_spc_parser();
std::unique_ptr<TraceParser> make_mqsim_parser();
std::unique_ptr<TraceParser> make_disksim_parser();
std::unique_ptr<TraceParser> make_blkparse_parser(char action);
std::unique_ptr<TraceParser> make_fio_parser();

namespace {

struct NamedFormat {
  TraceFormat format;
  std::string_view name;
};

constexpr NamedFormat kFormats[] = {
    {TraceFormat::kMsr, "msr"},           {TraceFormat::kSpc, "spc"},
    {TraceFormat::kMqsim, "mqsim"},       {TraceFormat::kDisksim, "disksim"},
    {TraceFormat::kBlkparse, "blkparse"}, {TraceFormat::kFio, "fio"},
};

bool all_digits(std::string_view text, bool allow_dot) {
  if (text.empty()) return false;
  for (char c : text) {
    if (!((c >= '0' && c <= '9') || (allow_dot && c == '.'))) return false;
  }
  return true;
}

std::optional<TraceFormat> detect_line(std::string_view line) {
  if (line.substr(0, 19) == "fio version 2 iolog") return TraceFormat::kFio;
  std::string_view f[8];
  if (line.find(',') != std::string_view::npos) {
    const size_t count = split_fields(line, ',', f, 8);
    if (count == 7 && (equals_ignore_case(f[3], "Read") || equals_ignore_case(f[3], "Write"))) {
      return TraceFormat::kMsr;
    }
    if (count >= 5 && (equals_ignore_case(f[3], "r") || equals_ignore_case(f[3], "w"))) {
      return TraceFormat::kSpc;
    }
  }
  const size_t count = split_fields(line, ' ', f, 8);
  if (count >= 7 && f[0].find(',') != std::string_view::npos && all_digits(f[1], false)) {
    return TraceFormat::kBlkparse;
  }
  if (count == 5) {
    for (size_t i = 1; i < 5; ++i) {
      if (!all_digits(f[i], false)) return std::nullopt;
    }
    if (!all_digits(f[0], true)) return std::nullopt;
    return f[0].find('.') == std::string_view::npos ? TraceFormat::kMqsim : TraceFormat::kDisksim;
  }
  return std::nullopt;
}

}  // namespace

std::string_view format_name(TraceFormat format) {
  for (const NamedFormat& named : kFormats) {
    if (named.format == format) return named.name;
  }
  return "?";
}

std::optional<TraceFormat> format_from_name(std::string_view name) {
  for (const NamedFormat& named : kFormats) {
    if (named.name == name) return named.format;
  }
  return std::nullopt;
}

const std::vector<std::string_view>& format_names() {
  static const std::vector<std::string_view> names = [] {
    std::vector<std::string_view> all;
    for (const NamedFormat& named : kFormats) all.push_back(named.name);
    return all;
  }();
  return names;
}

std::optional<TraceFormat> detect_format(const std::vector<std::string>& first_lines) {
  // The first line that looks like any format decides; a header such as MSR's "Timestamp,..."
  // matches none and is passed over.
  for (const std::string& line : first_lines) {
    if (auto format = detect_line(line)) return format;
  }
  return std::nullopt;
}

std::unique_ptr<TraceParser> make_parser(TraceFormat format, char blkparse_action) {
  switch (format) {
    case TraceFormat::kMsr:
      return make_msr_parser();
    case TraceFormat::kSpc:
      return make_spc_parser();
    case TraceFormat::kMqsim:
      return make_mqsim_parser();
    case TraceFormat::kDisksim:
      return make_disksim_parser();
    case TraceFormat::kBlkparse:
      return make_blkparse_parser(blkparse_action);
    case TraceFormat::kFio:
      return make_fio_parser();
  }
  return nullptr;
}

}  // namespace ssd::workload
