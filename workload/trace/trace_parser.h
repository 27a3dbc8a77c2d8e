// A parser turns one line of a trace (without its newline) into a TraceRecord. It keeps what
// state its format needs (device names seen, fio's open files) and nothing per record, so a trace
// of any length parses in constant memory. Blank lines and '#' comments never reach a parser.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "workload/trace/trace_format.h"
#include "workload/trace/trace_record.h"

namespace ssd::workload {

enum class LineKind {
  kRecord,  // `record` holds an I/O to replay
  kIgnore,  // a header, a trailer, an event of another blkparse action, a fio file operation
  kBad,     // malformed; `reason` says why
};

class TraceParser {
 public:
  virtual ~TraceParser() = default;
  virtual LineKind parse(std::string_view line, TraceRecord& record, std::string& reason) = 0;
  // What the lines it ignored held, for a trace with nothing to replay ("" when nothing to say):
  // blkparse names the actions it saw, so the user can pick workload.blkparse_action.
  virtual std::string ignored_summary() const { return {}; }
};

// blkparse_action: 'Q', 'D' or 'C', the event replayed (others are ignored); unused elsewhere.
std::unique_ptr<TraceParser> make_parser(TraceFormat format, char blkparse_action = 'Q');

}  // namespace ssd::workload
