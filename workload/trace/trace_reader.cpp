#include "workload/trace/trace_reader.h"

#include "workload/trace/field_parsing.h"
#include "workload/trace/trace_error.h"

namespace ssd::workload {

namespace {

constexpr size_t kDetectionLines = 1000;

bool is_blank_or_comment(std::string_view line) {
  for (char c : line) {
    if (c == '#') return true;
    if (c != ' ' && c != '\t') return false;
  }
  return true;
}

// Printable form of a line for messages.
std::string shown(std::string_view line) {
  std::string out;
  for (char c : line.substr(0, 200)) out += (c >= 0x20 && c < 0x7f) ? c : '?';
  if (line.size() > 200) out += "...";
  return out;
}

// blkparse "auto": the earliest of Q, D, C (in the order the block layer sees them) present in
// the first lines, so a full trace replays what the host queued and a completions-only one what
// completed.
char detect_blkparse_action(const std::vector<std::string>& lines) {
  bool seen[3] = {false, false, false};
  const char actions[3] = {'Q', 'D', 'C'};
  for (const std::string& line : lines) {
    std::string_view f[7];
    if (split_fields(line, ' ', f, 7) < 7 || f[5].size() != 1) continue;
    for (int i = 0; i < 3; ++i) seen[i] = seen[i] || f[5][0] == actions[i];
  }
  for (int i = 0; i < 3; ++i) {
    if (seen[i]) return actions[i];
  }
  return 'Q';
}

}  // namespace

TraceReader::TraceReader(const TraceSpec& spec)
    : m_spec(spec), m_lines(spec.path), m_parser(make_parser(spec.format, spec.blkparse_action)) {}

void TraceReader::bad_line(std::string_view line, const std::string& reason) {
  if (!m_spec.skip_bad_lines) {
    throw TraceError(m_spec.path, m_lines.line_number(), reason, shown(line));
  }
  ++m_stats.skipped_lines;
  if (m_stats.first_skipped.size() < kFirstSkippedKept) {
    m_stats.first_skipped.push_back(
        TraceError::format(m_spec.path, m_lines.line_number(), reason, shown(line)));
  }
}

bool TraceReader::next(TraceRecord& record) {
  std::string_view line;
  while (m_lines.next(line)) {
    ++m_stats.lines;
    if (is_blank_or_comment(line)) continue;
    const LineKind kind = m_parser->parse(line, record, m_reason);
    if (kind == LineKind::kIgnore) continue;
    if (kind == LineKind::kBad) {
      bad_line(line, m_reason);
      continue;
    }
    if (m_spec.check_time && m_have_first && record.time_ns + kTimeToleranceNs < m_latest_ns) {
      bad_line(line, "time goes backwards by " + std::to_string(m_latest_ns - record.time_ns) +
                         " ns (tolerance " + std::to_string(kTimeToleranceNs) +
                         " ns; closed-loop replay, workload.mode=closed, ignores timestamps)");
      continue;
    }
    if (!m_have_first) {
      m_have_first = true;
      m_first_ns = m_latest_ns = record.time_ns;
    }
    if (m_spec.only_device && record.device_number != *m_spec.only_device) {
      ++m_stats.other_devices;
      continue;
    }
    if (record.size_bytes == 0 && record.kind != ftl::CommandKind::kFlush) {
      ++m_stats.empty_requests;
      continue;
    }
    // Closed loop: any order; the rebased time is kept only to be reported.
    m_latest_ns = std::max(m_latest_ns, record.time_ns);
    record.time_ns = m_latest_ns >= m_first_ns ? m_latest_ns - m_first_ns : 0;
    ++m_stats.records;
    return true;
  }
  return false;
}

TraceSpec resolve_trace(const std::string& path, const std::string& format_name,
                        const std::string& blkparse_action, bool skip_bad_lines) {
  TraceSpec spec;
  spec.path = path;
  spec.skip_bad_lines = skip_bad_lines;
  std::vector<std::string> first_lines;
  {
    LineReader reader(path);
    std::string_view line;
    while (first_lines.size() < kDetectionLines && reader.next(line)) {
      if (!is_blank_or_comment(line)) first_lines.emplace_back(line);
    }
  }
  if (first_lines.empty()) throw TraceError(path, 0, "empty trace: no lines to replay");
  if (format_name == "auto") {
    const auto format = detect_format(first_lines);
    if (!format) {
      std::string names;
      for (std::string_view name : format_names())
        names += (names.empty() ? "" : ", ") + std::string(name);
      throw TraceError(path, 0,
                       "cannot tell the trace format from its first lines; name it with "
                       "workload.trace_format / --trace-format (one of " +
                           names + ")",
                       shown(first_lines.front()));
    }
    spec.format = *format;
  } else if (auto format = workload::format_from_name(format_name)) {
    spec.format = *format;
  } else {
    throw TraceError(path, 0, "unknown trace format '" + format_name + "'");
  }
  spec.blkparse_action = blkparse_action == "auto"
                             ? detect_blkparse_action(first_lines)
                             : (blkparse_action.empty() ? 'Q' : blkparse_action[0]);
  return spec;
}

}  // namespace ssd::workload
