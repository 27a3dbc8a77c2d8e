// Reads the records of one trace: lines from a LineReader, parsed by the format's parser, with
// the bad-line policy (stop with FILE:LINE: reason, or skip and count) and the time rules applied.
// Times come out rebased to the first record and never decreasing: a record earlier than the
// latest seen by at most kTimeToleranceNs (blkparse events from several CPUs interleave) is
// replayed at the latest time; further back is a bad line, in open loop only: closed-loop
// replay ignores timestamps, so a trace with a broken clock can still be replayed that way.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "workload/trace/line_reader.h"
#include "workload/trace/trace_format.h"
#include "workload/trace/trace_parser.h"
#include "workload/trace/trace_record.h"

namespace ssd::workload {

constexpr uint64_t kTimeToleranceNs = 1000000;  // 1 ms
constexpr size_t kFirstSkippedKept = 5;

// What to read and how: a trace whose format (and blkparse action) is already resolved.
struct TraceSpec {
  std::string path;
  TraceFormat format = TraceFormat::kMsr;
  char blkparse_action = 'Q';
  bool skip_bad_lines = false;
  std::optional<uint64_t> only_device;  // replay one device's records (--device N), or all
  bool check_time = true;  // open loop: times must not go back; closed loop ignores them
};

struct TraceReadStats {
  uint64_t lines = 0;           // lines read, of any kind
  uint64_t records = 0;         // records returned
  uint64_t skipped_lines = 0;   // bad lines passed over (skip_bad_lines)
  uint64_t empty_requests = 0;  // reads/writes/trims of 0 bytes, which carry nothing to replay
  uint64_t other_devices = 0;   // records of devices not selected by only_device
  std::vector<std::string> first_skipped;  // "LINE: reason: `text`" of the first few
};

class TraceReader {
 public:
  explicit TraceReader(const TraceSpec& spec);  // throws TraceError when the file cannot be read

  // The next record (time rebased); false at the end. Throws TraceError on a bad line unless
  // the spec skips them.
  bool next(TraceRecord& record);
  const TraceReadStats& stats() const { return m_stats; }
  uint64_t line_number() const { return m_lines.line_number(); }
  // What the ignored lines held (TraceParser::ignored_summary()).
  std::string ignored_summary() const { return m_parser->ignored_summary(); }

 private:
  void bad_line(std::string_view line, const std::string& reason);

  TraceSpec m_spec;
  LineReader m_lines;
  std::unique_ptr<TraceParser> m_parser;
  TraceReadStats m_stats;
  std::string m_reason;
  bool m_have_first = false;
  uint64_t m_first_ns = 0;
  uint64_t m_latest_ns = 0;
};

// Resolves "auto" format and blkparse action by looking at the first lines of the file.
// Throws TraceError for an empty file, an unknown format name or a file no format matches.
TraceSpec resolve_trace(const std::string& path, const std::string& format_name,
                        const std::string& blkparse_action, bool skip_bad_lines);

}  // namespace ssd::workload
