// fio iolog version 2: a "fio version 2 iolog" header, then "FILE add|open|close" file
// operations and "FILE read|write|trim OFFSET LENGTH" (bytes) or "FILE sync|datasync" I/O.
// "FILE wait MICROSECONDS" advances the log's clock; without waits every I/O is at time 0, so
// such a log is meant for closed-loop replay. Each added file is a device; I/O to a file that
// was never added is a bad line.
#include "workload/trace/device_index.h"
#include "workload/trace/parser_support.h"
#include "workload/trace/trace_parser.h"

namespace ssd::workload {

namespace {

class FioParser final : public TraceParser {
 public:
  LineKind parse(std::string_view line, TraceRecord& record, std::string& reason) override {
    if (!m_header_seen) {
      if (line.substr(0, 19) == "fio version 2 iolog") {
        m_header_seen = true;
        return LineKind::kIgnore;
      }
      reason = "missing the 'fio version 2 iolog' header";
      return LineKind::kBad;
    }
    std::string_view f[5];
    const size_t count = split_fields(line, ' ', f, 5);
    if (count < 2 || count > 4) {
      reason = field_count_reason(4, count, "file action [offset length]");
      return LineKind::kBad;
    }
    const std::string_view action = f[1];
    if (action == "add") {
      if (!m_files.index_of(f[0], record.device)) {
        reason = m_files.too_many();
        return LineKind::kBad;
      }
      return LineKind::kIgnore;
    }
    if (action == "open" || action == "close") {
      return find_file(f[0], record, reason) ? LineKind::kIgnore : LineKind::kBad;
    }
    if (action == "wait") {
      uint64_t us = 0;
      if (count < 3) {
        reason = "wait needs a delay in microseconds";
        return LineKind::kBad;
      }
      if (!(reason = parse_unsigned(f[2], "delay", us)).empty()) return LineKind::kBad;
      if (us > kMaxTimeNs / 1000 || m_clock_ns > kMaxTimeNs - us * 1000) {
        reason = "the log's clock runs past its limit";
        return LineKind::kBad;
      }
      m_clock_ns += us * 1000;
      return LineKind::kIgnore;
    }
    record.offset_bytes = record.size_bytes = 0;
    record.flush_before = record.fua = false;
    record.time_ns = m_clock_ns;
    if (action == "sync" || action == "datasync") {
      record.kind = ftl::CommandKind::kFlush;
      return find_file(f[0], record, reason) ? LineKind::kRecord : LineKind::kBad;
    }
    if (action == "read") {
      record.kind = ftl::CommandKind::kRead;
    } else if (action == "write") {
      record.kind = ftl::CommandKind::kWrite;
    } else if (action == "trim") {
      record.kind = ftl::CommandKind::kTrim;
    } else {
      reason = "unknown action '" + std::string(action.substr(0, 20)) +
               "' (expected add, open, close, read, write, trim, sync, datasync or wait)";
      return LineKind::kBad;
    }
    if (count != 4) {
      reason = field_count_reason(4, count, "file action offset length");
      return LineKind::kBad;
    }
    if (!(reason = parse_unsigned(f[2], "offset", record.offset_bytes)).empty())
      return LineKind::kBad;
    if (!(reason = parse_unsigned(f[3], "length", record.size_bytes)).empty())
      return LineKind::kBad;
    if (!find_file(f[0], record, reason)) return LineKind::kBad;
    reason = check_extent(record);
    return reason.empty() ? LineKind::kRecord : LineKind::kBad;
  }

 private:
  // Sets the record's device to an added file's; false (with the reason) for a file never added.
  bool find_file(std::string_view file, TraceRecord& record, std::string& reason) {
    if (m_files.contains(file, record.device)) {
      record.device_number = record.device;
      return true;
    }
    reason = "file '" + std::string(file.substr(0, 80)) + "' was not added first";
    return false;
  }

  DeviceIndex m_files;
  bool m_header_seen = false;
  uint64_t m_clock_ns = 0;
};

}  // namespace

std::unique_ptr<TraceParser> make_fio_parser() { return std::make_unique<FioParser>(); }

}  // namespace ssd::workload
